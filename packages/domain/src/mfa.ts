import { z } from 'zod';
import { CURRENT_PASSWORD_LABEL } from './account.js';
import { fieldRequired, someErrorsOccurred, unknownErrorWhile } from './messages.js';

/**
 * Two-factor sign-in (issue 18): time-based one-time codes of RFC 6238 as every authenticator app makes
 * them (HMAC-SHA-1, six digits, a 30-second step), and single-use recovery codes for a lost phone.
 */
export const TOTP = {
  digits: 6,
  stepSeconds: 30,
  /** Steps either side of now a code may come from: a phone's clock a little off still signs in. */
  driftSteps: 1,
  /** 160 random bits: the key length RFC 4226 recommends for HMAC-SHA-1. */
  secretBytes: 20,
  algorithm: 'SHA1',
} as const;

export const RECOVERY_CODES = {
  count: 10,
  /** Two groups of five base32 characters (50 bits), typed with or without the dash. */
  groupLength: 5,
} as const;

/** How long a half-signed-in session (password right, code not yet given) lasts. */
export const MFA_PENDING_MINUTES = 5;

export const MFA_TEXTS = {
  sectionTitle: 'Two-factor sign-in',
  off: 'Two-factor sign-in is off. Turn it on to ask for a code from an authenticator app at every sign-in.',
  on: 'Two-factor sign-in is on.',
  start: 'Turn on two-factor sign-in',
  scan: 'Scan this QR code with an authenticator app, or type the key below into it, then enter the code it shows.',
  manualKey: 'Key',
  confirm: 'Confirm',
  enabled: 'Two-factor sign-in is on.',
  recoveryCodesTitle: 'Recovery codes',
  recoveryCodesIntro:
    'Keep these codes somewhere safe. Each signs you in once if you lose your authenticator app. They are shown only now.',
  recoveryCodesLeft: (n: number) => `${n} unused recovery code${n === 1 ? '' : 's'} left.`,
  copy: 'Copy',
  copied: 'Recovery codes copied.',
  download: 'Download',
  done: 'Done',
  disable: 'Turn off',
  disabled: 'Two-factor sign-in is off.',
  regenerate: 'New recovery codes',
  regenerated: 'New recovery codes made; the old ones no longer work.',
  secondStepTitle: 'Two-factor sign-in',
  secondStepIntro: 'Enter the code your authenticator app shows, or one of your recovery codes.',
  verify: 'Verify',
  useAnotherAccount: 'Sign in as someone else',
  enrolTitle: 'Set up two-factor sign-in',
  enrolRequired: 'Your account must use two-factor sign-in. Set it up to continue.',
  continue: 'Continue',
  codeLabel: 'Code',
  passwordLabel: CURRENT_PASSWORD_LABEL,
  withErrors: someErrorsOccurred('Two-factor sign-in changed'),
  unknownError: unknownErrorWhile('changing two-factor sign-in'),
  unknownSignInError: unknownErrorWhile('signing in'),
  // Refusals.
  codeInvalid: 'The code is not valid. Check your authenticator app and try again.',
  passwordWrong: 'The password is not correct.',
  alreadyEnabled: 'Two-factor sign-in is already on.',
  notEnabled: 'Two-factor sign-in is not on.',
  noEnrolment: 'Start setting up two-factor sign-in first.',
  requiredForRole: 'Your account must use two-factor sign-in; it cannot be turned off.',
  enrolmentRequired: 'Set up two-factor sign-in before anything else.',
  secondStepExpired: 'Your sign-in has expired. Please sign in again.',
  /** What `agent link` with e-mail and password answers to a user with two-factor sign-in. */
  agentLinkNeedsCode:
    'This account uses two-factor sign-in: link the machine with a linking code made in the portal (Add machine) instead of the password.',
  /** What `agent link` with e-mail and password answers to a user who must set two-factor sign-in up first. */
  agentLinkMustEnrol:
    'This account must set up two-factor sign-in first: sign in to the portal, set it up, then link the machine with a linking code (Add machine).',
  /** The account page's policy (ours): its super admin requires two-factor sign-in of every user of the account. */
  policy: {
    row: 'Two-factor sign-in',
    required: 'Every user of this account must use two-factor sign-in.',
    notRequired: 'Each user of this account decides whether to use two-factor sign-in.',
    requireButton: 'Require two-factor sign-in',
    stopButton: 'Stop requiring two-factor sign-in',
    requireTitle: 'Require two-factor sign-in',
    stopTitle: 'Stop requiring two-factor sign-in',
    requireQuestion: (companyName: string) =>
      `Require two-factor sign-in of every user of ${companyName}? Users without it are sent to set it up before anything else, and no one can turn it off.`,
    stopQuestion: (companyName: string) =>
      `Stop requiring two-factor sign-in of the users of ${companyName}? Each user then decides whether to use it.`,
    requireSubmit: 'Require',
    stopSubmit: 'Stop requiring',
    requiredNow: 'Two-factor sign-in is now required of every user of this account.',
    notRequiredNow: 'Two-factor sign-in is no longer required of the users of this account.',
    withErrors: someErrorsOccurred('The two-factor sign-in requirement changed'),
    unknownError: unknownErrorWhile('changing the two-factor sign-in requirement'),
    enableYourselfFirst:
      'Turn on two-factor sign-in for yourself first (in your profile): requiring it of everyone would send you to set it up before anything else.',
    requireMfaInvalid: 'Require two-factor sign-in must be true or false',
    openProfile: 'Open your profile',
  },
} as const;

/** The account's two-factor sign-in requirement (PUT /admin/account/mfa/policy). */
export const accountMfaPolicySchema = z.object({
  requireMfa: z.boolean({ error: MFA_TEXTS.policy.requireMfaInvalid }),
});
export type AccountMfaPolicy = z.infer<typeof accountMfaPolicySchema>;

/** A six-digit code from the app or a recovery code; spaces and dashes are ignored. */
const codeField = z
  .string({ error: fieldRequired(MFA_TEXTS.codeLabel) })
  .trim()
  .min(1, fieldRequired(MFA_TEXTS.codeLabel))
  .max(40, MFA_TEXTS.codeInvalid);

export const mfaCodeSchema = z.object({ code: codeField });
export type MfaCodeInput = z.infer<typeof mfaCodeSchema>;

/** Turning two-factor sign-in off and making new recovery codes need the password and a code. */
export const mfaPasswordAndCodeSchema = z.object({
  password: z.string().min(1, fieldRequired(CURRENT_PASSWORD_LABEL)).max(200),
  code: codeField,
});
export type MfaPasswordAndCodeInput = z.infer<typeof mfaPasswordAndCodeSchema>;

/** GET /profile/mfa. */
export interface MfaStatus {
  enabled: boolean;
  enabledAt: string | null;
  recoveryCodesLeft: number;
  /** The account may not turn it off (provider admins while configured, the users of an account requiring it). */
  required: boolean;
}

/** POST /profile/mfa/enrolment: what the authenticator app needs. The key is never answered again once confirmed. */
export interface MfaEnrolment {
  /** The base32 key, for typing in. */
  secret: string;
  otpauthUri: string;
  /** The otpauth URI as an SVG QR code. */
  qrSvg: string;
}

/** POST /login/mfa: where the browser goes once signed in. */
export interface MfaSignInResult {
  redirect: string;
}

/** The recovery codes, shown once (confirmation and regeneration). */
export interface MfaRecoveryCodes {
  recoveryCodes: string[];
}

/** The code typed without spaces, dashes or case: '12 34 56' is 123456, 'abcde-fghij' is ABCDEFGHIJ. */
export const normalizeMfaCode = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();

/** Six digits are an app's code; anything else is tried as a recovery code. */
export const isTotpCode = (code: string) => new RegExp(`^\\d{${TOTP.digits}}$`).test(normalizeMfaCode(code));

/** The otpauth:// URI authenticator apps read from the QR code (Key Uri Format). */
export function otpauthUri(issuer: string, account: string, secret: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret,
    issuer,
    algorithm: TOTP.algorithm,
    digits: String(TOTP.digits),
    period: String(TOTP.stepSeconds),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
