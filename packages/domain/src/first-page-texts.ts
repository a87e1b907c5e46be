/**
 * The texts of the first page a user opens: the sign-in page's notices and links (ours: the specification
 * leaves them open) and the shell's frame. Declared here, in a module that imports nothing, and only
 * referenced by the message catalogue (MESSAGES.signInFailed, MESSAGES.signUp.noAccountYet,
 * MESSAGES.demoMails.title, ...), so that page reads them from here and loads none of the rest of the
 * catalogue (bench/RESULTS.md, 'Initial JavaScript').
 */
export const SIGN_IN_TEXTS = {
  signInFailed: 'Invalid e-mail address or password.',
  signedOut: 'You have been signed out.',
  accountSuspended: 'Your account is suspended or closed. Please contact support.',
  sessionExpired: 'Your session has expired. Please sign in again.',
  throttled: (seconds: number) =>
    `Too many failed sign-in attempts. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`,
  passwordReset: 'Your password has been changed. Please sign in with your new password.',
  noAccountYet: 'No account yet?',
  signUpLink: 'Sign up',
} as const;

/**
 * The shell's own texts: the page for an address that matches no page, the admin area's demo mailbox link, and the
 * button that shows the menu on a narrow screen (issue 31), where the sidebar folds away behind it.
 */
export const SHELL_TEXTS = {
  notFound: 'The page you are looking for does not exist.',
  demoMailsTitle: 'Demo mailbox',
  menuButton: 'Menu',
} as const;
