import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages.js';
import { errorsOf } from '../testing/form-errors.js';
import { EMPTY_USER_FORM_MESSAGES, FILLED_USER_FORM } from '../testing/user-form.js';
import { newSignUpForm, SIGN_UP_FORM_LABELS, signUpSchema } from './signup.js';

const form = {
  ...FILLED_USER_FORM,
  companyName: 'Fabrikam Inc',
  email: 'ana@fabrikam.test',
  templateId: '7',
};

describe('sign-up form (ours; the user form rules of 002 §5.1)', () => {
  it('gives the payload with a numeric template id and trimmed texts', () => {
    expect(
      signUpSchema([3, 7]).parse({ ...form, companyName: '  Fabrikam Inc ', email: ' ana@fabrikam.test ' }),
    ).toEqual({ ...form, templateId: 7 });
  });

  it('an empty form: every required field with the user form messages, and the package choice', () => {
    expect(errorsOf(signUpSchema([7]).safeParse(newSignUpForm()))).toEqual({
      ...EMPTY_USER_FORM_MESSAGES,
      templateId: MESSAGES.signUp.chooseTemplate,
    });
    expect(MESSAGES.signUp.chooseTemplate).toBe('Must choose a backup package');
  });

  it('the company name is optional, at most 50 characters (the customer form limit)', () => {
    expect(signUpSchema([7]).parse({ ...form, companyName: undefined }).companyName).toBe('');
    expect(signUpSchema([7]).parse({ ...form, companyName: 'x'.repeat(50) }).companyName).toHaveLength(50);
    expect(errorsOf(signUpSchema([7]).safeParse({ ...form, companyName: 'x'.repeat(51) }))).toEqual({
      companyName: 'Company name must be at most 50 characters',
    });
  });

  it('names and contact number max 50, a valid e-mail of at most 100', () => {
    expect(
      errorsOf(
        signUpSchema([7]).safeParse({
          ...form,
          firstName: 'x'.repeat(51),
          surname: 'x'.repeat(51),
          contactNumber: 'x'.repeat(51),
          email: `${'x'.repeat(95)}@x.test`,
        }),
      ),
    ).toEqual({
      firstName: 'First name must be at most 50 characters',
      surname: 'Surname must be at most 50 characters',
      contactNumber: 'Contact number must be at most 50 characters',
      email: 'Email must be at most 100 characters',
    });
    expect(errorsOf(signUpSchema([7]).safeParse({ ...form, email: 'not an address' }))).toEqual({
      email: 'Email must be a valid email',
    });
  });

  it('the add-user password rules: at least 8, at most 50, confirmed', () => {
    const schema = signUpSchema([7]);
    expect(errorsOf(schema.safeParse({ ...form, password: 'short', confirmPassword: 'short' }))).toEqual({
      password: 'Password must be at least 8 characters',
    });
    expect(errorsOf(schema.safeParse({ ...form, password: 'x'.repeat(51), confirmPassword: 'x'.repeat(51) }))).toEqual({
      password: 'Password must be at most 50 characters',
      confirmPassword: 'Confirm password must be at most 50 characters',
    });
    expect(errorsOf(schema.safeParse({ ...form, confirmPassword: 'something else' }))).toEqual({
      confirmPassword: 'Passwords do not match',
    });
  });

  it('a template must be one on offer; with none on offer the choice is left out', () => {
    expect(errorsOf(signUpSchema([3, 7]).safeParse({ ...form, templateId: 9 }))).toEqual({
      templateId: 'Backup package is not valid',
    });
    expect(errorsOf(signUpSchema([3, 7]).safeParse({ ...form, templateId: -1 }))).toEqual({
      templateId: 'Must choose a backup package',
    });
    expect(signUpSchema([]).parse({ ...form, templateId: undefined }).templateId).toBeNull();
    expect(signUpSchema([]).parse({ ...form, templateId: '9' }).templateId).toBeNull();
  });

  it('labels the fields as the user and customer forms do', () => {
    expect(SIGN_UP_FORM_LABELS).toMatchObject({
      companyName: 'Company name',
      firstName: 'First name',
      confirmPassword: 'Confirm password',
      templateId: 'Backup package',
    });
  });
});
