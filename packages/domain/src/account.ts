import { z } from 'zod';
import type { Role } from './enums.js';
import { fieldMustBeEmail, fieldRequired, fieldTooLong, fieldTooShort, MESSAGES } from './messages.js';

/** Limits of the user form (002 §5.1); the password minimum is ours (the specification leaves it open). */
export const USER_LIMITS = {
  nameMax: 50,
  contactNumberMax: 50,
  emailMax: 100,
  passwordMax: 50,
  passwordMin: 8,
} as const;

const requiredText = (label: string, max: number) =>
  z
    .string({ error: fieldRequired(label) })
    .trim()
    .min(1, fieldRequired(label))
    .max(max, fieldTooLong(label, max));

export const emailField = (label = 'Email') =>
  requiredText(label, USER_LIMITS.emailMax).pipe(z.email(fieldMustBeEmail(label)));

export const newPasswordField = (label = 'Password') =>
  z
    .string({ error: fieldRequired(label) })
    .min(1, fieldRequired(label))
    .min(USER_LIMITS.passwordMin, fieldTooShort(label, USER_LIMITS.passwordMin))
    .max(USER_LIMITS.passwordMax, fieldTooLong(label, USER_LIMITS.passwordMax));

/** The sign-in form posted to /login (fields named as the specification's form). */
export const signInFormSchema = z.object({
  username: z.string().trim().min(1).max(USER_LIMITS.emailMax),
  password: z.string().min(1).max(200),
});

export const profileSchema = z.object({
  firstName: requiredText('First name', USER_LIMITS.nameMax),
  surname: requiredText('Surname', USER_LIMITS.nameMax),
  email: emailField(),
  contactNumber: requiredText('Contact number', USER_LIMITS.contactNumberMax),
});
export type ProfileInput = z.infer<typeof profileSchema>;

export const passwordChangeSchema = z
  .object({
    currentPassword: z.string().min(1, fieldRequired('Current password')).max(200),
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
