/** Test-only: a user form filled in as a person would (002 §5.1), which the sign-up form extends. */
export const FILLED_USER_FORM = {
  firstName: 'Ana',
  surname: 'Silva',
  email: 'ana@example.com',
  contactNumber: '021 555 0100',
  password: 'long enough',
  confirmPassword: 'long enough',
};

/** What an empty user form is told, field by field (the sign-up form adds its package choice). */
export const EMPTY_USER_FORM_MESSAGES = {
  firstName: 'First name is required',
  surname: 'Surname is required',
  email: 'Email is required',
  contactNumber: 'Contact number is required',
  password: 'Password is required',
  confirmPassword: 'Confirm password is required',
};
