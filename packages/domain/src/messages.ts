/** User-visible texts, spelled exactly as the specification writes them. */
export const MESSAGES = {
  communicationError: 'Error in communicating with server.',
  responseError: 'Error in response from server.',
  someErrorsOccurredSuffix: ' but some errors occurred.',
  submitFormError: 'Error while submitting form',
  notFound: 'The page you are looking for does not exist.',
  // Sign-in and account texts: the specification leaves these to us.
  signInFailed: 'Invalid e-mail address or password.',
  signedOut: 'You have been signed out.',
  accountSuspended: 'Your account is suspended or closed. Please contact support.',
  sessionExpired: 'Your session has expired. Please sign in again.',
  throttled: (seconds: number) =>
    `Too many failed sign-in attempts. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`,
  resetMailSent: 'If an account exists for that e-mail address, a link to reset the password has been sent to it.',
  resetLinkInvalid: 'This password reset link is invalid, has expired or has already been used.',
  passwordReset: 'Your password has been changed. Please sign in with your new password.',
  profileSaved: 'Profile saved!',
  passwordChanged: 'Password changed! Your other sessions have been signed out.',
  currentPasswordWrong: 'Current password is not correct',
  passwordsDoNotMatch: 'Passwords do not match',
  emailTaken: 'This e-mail address is already in use',
  csrfRejected: 'Your form has expired. Please reload the page and try again.',
  forbidden: 'You do not have access to this.',
  unauthenticated: 'Please sign in.',
  internalError: 'An unexpected error occurred. Please try again later.',
  tooManyRequests: 'Too many requests. Please slow down.',
} as const;

/** '{action} but some errors occurred.' warning toast of 000 §8. */
export function someErrorsOccurred(action: string): string {
  return `${action}${MESSAGES.someErrorsOccurredSuffix}`;
}

/** 'Unkown error encountered while {doing}.' (misspelling as in the product). */
export function unknownErrorWhile(doing: string): string {
  return `Unkown error encountered while ${doing}.`;
}

/** Generic field messages of 002 §5.1. */
export const fieldRequired = (label: string) => `${label} is required`;
export const fieldMustBeEmail = (label: string) => `${label} must be a valid email`;
export const fieldNotValid = (label: string) => `${label} is not valid`;
export const fieldTooLong = (label: string, max: number) => `${label} must be at most ${max} characters`;
export const fieldTooShort = (label: string, min: number) => `${label} must be at least ${min} characters`;
