/** Test-only: a user form filled in as a person would (002 §5.1), which the sign-up form extends. */
export const FILLED_USER_FORM = {
  firstName: 'Ana',
  surname: 'Silva',
  email: 'ana@example.com',
  contactNumber: '021 555 0100',
  password: 'long enough',
  confirmPassword: 'long enough',
};
