import { z } from 'zod';
import type { Role } from './enums.js';
import { displayText, requiredEmail, whenFieldsValid } from './forms/fields.js';
import { fieldRequired, fieldTooLong, fieldTooShort, MESSAGES } from './messages.js';
import { hasControlCharacter } from './text.js';

/** Limits of the user form (002 §5.1); the password minimum is ours (the specification leaves it open). */
export const USER_LIMITS = {
  nameMax: 50,
  contactNumberMax: 50,
  emailMax: 100,
  passwordMax: 50,
  passwordMin: 8,
} as const;

export const emailField = (label = 'Email') => requiredEmail(label, USER_LIMITS.emailMax);

export const newPasswordField = (label = 'Password') =>
  z
    .string({ error: fieldRequired(label) })
    .min(1, fieldRequired(label))
    .min(USER_LIMITS.passwordMin, fieldTooShort(label, USER_LIMITS.passwordMin))
    .max(USER_LIMITS.passwordMax, fieldTooLong(label, USER_LIMITS.passwordMax));

/** The sign-in form posted to /login (fields named as the specification's form). */
export const signInFormSchema = z.object({
  username: z
    .string()
    .trim()
    .min(1)
    .max(USER_LIMITS.emailMax)
    .refine((v) => !hasControlCharacter(v)),
  password: z.string().min(1).max(200),
});

export const CURRENT_PASSWORD_LABEL = 'Current password';

/** Whether a profile edit changes the sign-in e-mail (sign-in compares addresses whatever their case). */
export const changesSignInEmail = (currentEmail: string, email: string) =>
  email.trim().toLowerCase() !== currentEmail.trim().toLowerCase();

/**
 * The profile form of the user whose sign-in e-mail is `currentEmail`. Changing that address needs the
 * current password (ours: whoever holds a session must not take the account over by moving its address);
 * the server checks it and tells the old address.
 */
export function profileSchema(currentEmail: string) {
  return z
    .object({
      firstName: displayText('First name', USER_LIMITS.nameMax),
      surname: displayText('Surname', USER_LIMITS.nameMax),
      email: emailField(),
      contactNumber: displayText('Contact number', USER_LIMITS.contactNumberMax),
      currentPassword: z
        .string()
        .max(200)
        .nullish()
        .transform((v) => v ?? ''),
    })
    .superRefine(
      (form, ctx) => {
        if (changesSignInEmail(currentEmail, form.email) && form.currentPassword === '') {
          ctx.addIssue({ code: 'custom', message: fieldRequired(CURRENT_PASSWORD_LABEL), path: ['currentPassword'] });
        }
      },
      whenFieldsValid('email', 'currentPassword'),
    );
}
export type ProfileInput = z.input<ReturnType<typeof profileSchema>>;
export type ProfilePayload = z.output<ReturnType<typeof profileSchema>>;

export const passwordChangeSchema = z
  .object({
    currentPassword: z.string().min(1, fieldRequired(CURRENT_PASSWORD_LABEL)).max(200),
    password: newPasswordField(),
    confirmPassword: z.string().min(1, fieldRequired('Confirm password')),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: MESSAGES.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });
export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;

export const forgotPasswordSchema = z.object({ email: emailField() });

export const resetPasswordSchema = z
  .object({
    token: z.string().min(1).max(200),
    password: newPasswordField(),
    confirmPassword: z.string().min(1, fieldRequired('Confirm password')),
  })
  .refine((v) => v.password === v.confirmPassword, {
    message: MESSAGES.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });

/** Session and sign-in protection defaults (DESIGN §2; numbers are ours). */
export const SESSION_DEFAULTS = {
  idleTimeoutMinutes: 30,
  absoluteLifetimeHours: 12,
  resetTokenLifetimeMinutes: 60,
} as const;

/**
 * Sign-in throttling: after `freeAttempts` failures in the window, each further attempt must wait
 * base * 2^(failures - freeAttempts) seconds, capped, so an attacker slows down but cannot lock an
 * account out for good.
 */
export const THROTTLE = {
  freeAttemptsPerAccount: 5,
  freeAttemptsPerAddress: 20,
  baseDelaySeconds: 2,
  maxDelaySeconds: 900,
  windowSeconds: 3600,
} as const;

export function throttleDelaySeconds(failures: number, freeAttempts: number): number {
  if (failures < freeAttempts) return 0;
  const exponent = Math.min(failures - freeAttempts, 20);
  return Math.min(THROTTLE.maxDelaySeconds, THROTTLE.baseDelaySeconds * 2 ** exponent);
}

/** The signed-in user's profile (GET /profile). */
export interface Profile {
  id: number;
  firstName: string;
  surname: string;
  email: string;
  contactNumber: string;
  role: Role;
  roleName: string;
  companyName: string | null;
  readOnly: boolean;
}

/** One line of the profile's activity table (GET /profile/activity). */
export interface ActivityRow {
  id: number;
  /** ISO time. */
  at: string;
  type: string;
  ipAddress: string | null;
}
