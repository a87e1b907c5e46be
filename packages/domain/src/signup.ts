import { formatBytes, machineLimitText } from './sizes.js';

/**
 * Sign-up of a new customer (ours: 000 §3 names the NEW_SIGNUP package request and 002 §2.5 the NEW
 * SIGNUP customers it creates; the page and its calls are ours). The visitor becomes the super admin
 * of a customer in SIGNUP_REQUESTED with a pending NEW_SIGNUP request for the package they chose,
 * which the provider approves.
 */
export interface SignUpTemplateOption {
  id: number;
  name: string;
  packageQuotaSizeInBytes: number;
  /** 0 or less means unlimited (000 §3). */
  noOfMachinesLimit: number;
}

export interface SignUpOptions {
  templates: SignUpTemplateOption[];
}

export interface SignUpResult {
  message: string;
}

/** How a package template reads in the sign-up form's choice: 'Basic (100 GB, 5 machines)'. */
export function signUpTemplateText(template: SignUpTemplateOption): string {
  return `${template.name} (${formatBytes(template.packageQuotaSizeInBytes)}, ${machineLimitText(template.noOfMachinesLimit)} machines)`;
}

/**
 * Sign-ups per client address (ours): at most `perAddress` within `windowSeconds` of the previous
 * one; a sign-up refused for a taken e-mail address counts too, so the form cannot be used to test
 * addresses in bulk. The server's SIGNUP_LIMIT_PER_ADDRESS overrides the number.
 */
export const SIGN_UP_THROTTLE = {
  perAddress: 5,
  windowSeconds: 3600,
} as const;

/**
 * Seconds until an address may sign up again, given its count of sign-ups and the time of the last one
 * (the count starts again once the window has passed since the last); 0 when it may now.
 */
export function signUpWaitSeconds(
  attempts: { count: number; lastAt: Date } | null,
  now: Date,
  limit: number = SIGN_UP_THROTTLE.perAddress,
): number {
  if (!attempts || attempts.count < limit) return 0;
  const until = attempts.lastAt.getTime() + SIGN_UP_THROTTLE.windowSeconds * 1000;
  return Math.max(0, Math.ceil((until - now.getTime()) / 1000));
}
