import {
  MFA_TEXTS,
  type MfaEnrolment,
  type MfaPasswordAndCodeInput,
  type MfaRecoveryCodes,
  type MfaStatus,
  normalizeMfaCode,
  otpauthUri,
} from '@portal/domain';
import { renderSVG } from 'uqr';
import { badRequest, conflict, throttledOn } from '../../http/errors.js';
import type { SecretBox } from '../../secrets.js';
import type { AuditRepo } from '../audit/repo.js';
import type { MfaPolicySubject } from '../auth/repo.js';
import { type AuthService, type ClientInfo, codeRefused, type SignedIn } from '../auth/service.js';
import { recoveryCodeHash } from './codes.js';
import type { MfaRepo } from './repo.js';
import { matchingStep, newRecoveryCodes, newTotpSecret } from './totp.js';

/** The user's own two-factor settings (issue 18): enrolment, recovery codes, turning it off. */
export function createMfaService(deps: {
  repo: MfaRepo;
  secrets: SecretBox;
  auth: Pick<AuthService, 'verifySecondFactor' | 'checkCurrentPassword'>;
  audit: AuditRepo;
  /** The name the authenticator app lists the account under: the user's brand. */
  issuerFor: (customerId: number | null) => Promise<string>;
  /** Whether the user must have it (then it cannot be turned off). */
  required: (user: MfaPolicySubject) => boolean;
  /** The user's sessions carry whether two-factor sign-in is on: they are looked up again after a change. */
  userChanged: (userId: number) => Promise<void>;
  now: () => Date;
}) {
  const { repo, secrets, audit, now } = deps;
  const who = (session: SignedIn, client: ClientInfo) => ({
    userId: session.user.id,
    customerId: session.user.customerId,
    email: session.user.email,
    ipAddress: client.ip,
  });
  const required = (session: SignedIn) => deps.required(session.user);

  /** New recovery codes replace the old; only their hashes are kept, the codes are answered once. */
  async function freshRecoveryCodes(userId: number): Promise<MfaRecoveryCodes> {
    const recoveryCodes = newRecoveryCodes();
    await repo.replaceRecoveryCodes(userId, recoveryCodes.map(recoveryCodeHash));
    return { recoveryCodes };
  }

  /** The password and a code (app or recovery), checked with the sign-in throttle. */
  async function proveItIsYou(session: SignedIn, input: MfaPasswordAndCodeInput, client: ClientInfo): Promise<void> {
    if (!session.user.mfaEnabled) throw conflict(MFA_TEXTS.notEnabled);
    const check = await deps.auth.checkCurrentPassword(session.user.id, input.password, client);
    if (check.kind === 'throttled') throw throttledOn(check.waitSeconds, 'password');
    if (check.kind === 'wrong') throw badRequest(MFA_TEXTS.passwordWrong, 'password');
    const outcome = await deps.auth.verifySecondFactor(session.user, input.code, client);
    if (outcome.kind !== 'verified') throw codeRefused(outcome);
  }

  const service = {
    async status(session: SignedIn): Promise<MfaStatus> {
      const row = await repo.find(session.user.id);
      const enabledAt = row?.enabledAt ?? null;
      return {
        enabled: enabledAt !== null,
        enabledAt: enabledAt?.toISOString() ?? null,
        recoveryCodesLeft: enabledAt ? await repo.unusedRecoveryCodes(session.user.id) : 0,
        required: required(session),
      };
    },

    /** A new key for the app; it signs nobody in until a code from it is confirmed. */
    async start(session: SignedIn): Promise<MfaEnrolment> {
      const secret = newTotpSecret();
      if (!(await repo.savePending(session.user.id, secrets.encrypt(secret)))) throw conflict(MFA_TEXTS.alreadyEnabled);
      const uri = otpauthUri(await deps.issuerFor(session.user.customerId), session.user.email, secret);
      return { secret, otpauthUri: uri, qrSvg: renderSVG(uri, { ecc: 'M', border: 2, pixelSize: 4 }) };
    },

    /** The first code from the app turns two-factor sign-in on and makes the recovery codes. */
    async confirm(session: SignedIn, code: string, client: ClientInfo): Promise<MfaRecoveryCodes> {
      const row = await repo.find(session.user.id);
      if (!row) throw conflict(MFA_TEXTS.noEnrolment);
      if (row.enabledAt) throw conflict(MFA_TEXTS.alreadyEnabled);
      const at = now();
      const step = matchingStep(secrets.decrypt(row.secretSealed), normalizeMfaCode(code), at);
      if (step === null) throw badRequest(MFA_TEXTS.codeInvalid, 'code');
      // The recovery codes are stored before two-factor sign-in is turned on: should the database fail between the
      // two, it is still off (confirming again makes new codes), never on without codes the user has seen.
      const codes = await freshRecoveryCodes(session.user.id);
      if (!(await repo.takeStep(session.user.id, step, at, true))) throw badRequest(MFA_TEXTS.codeInvalid, 'code');
      await deps.userChanged(session.user.id);
      await audit.record({ type: 'MFA_ENABLED', ...who(session, client) });
      return codes;
    },

    async disable(session: SignedIn, input: MfaPasswordAndCodeInput, client: ClientInfo): Promise<MfaStatus> {
      if (required(session)) throw conflict(MFA_TEXTS.requiredForRole);
      await proveItIsYou(session, input, client);
      await repo.remove(session.user.id);
      await deps.userChanged(session.user.id);
      await audit.record({ type: 'MFA_DISABLED', ...who(session, client) });
      return { enabled: false, enabledAt: null, recoveryCodesLeft: 0, required: false };
    },

    async regenerateRecoveryCodes(
      session: SignedIn,
      input: MfaPasswordAndCodeInput,
      client: ClientInfo,
    ): Promise<MfaRecoveryCodes> {
      await proveItIsYou(session, input, client);
      const codes = await freshRecoveryCodes(session.user.id);
      await audit.record({ type: 'MFA_RECOVERY_CODES_REGENERATED', ...who(session, client) });
      return codes;
    },
  };
  return service;
}
export type MfaService = ReturnType<typeof createMfaService>;
