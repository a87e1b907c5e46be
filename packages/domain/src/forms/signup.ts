import { z } from 'zod';
import { fieldNotValid, MESSAGES } from '../messages.js';
import { CUSTOMER_FORM_LABELS, CUSTOMER_LIMITS } from './customer.js';
import { numberInput, optionalDisplayText, toNumber, whenFieldsValid } from './fields.js';
import { newUserForm, passwordRules, USER_FORM_LABELS, userAddSchema } from './user.js';

/** Field labels of the sign-up form: the user form's and the customer form's, and the package choice (ours). */
export const SIGN_UP_FORM_LABELS = {
  companyName: CUSTOMER_FORM_LABELS.companyName,
  firstName: USER_FORM_LABELS.firstName,
  surname: USER_FORM_LABELS.surname,
  email: USER_FORM_LABELS.email,
  contactNumber: USER_FORM_LABELS.contactNumber,
  password: USER_FORM_LABELS.password,
  confirmPassword: USER_FORM_LABELS.confirmPassword,
  templateId: 'Backup package',
} as const;

/** The template asked for: required and one of `templateIds` when the provider offers any, else null. */
const templateChoice = (templateIds: readonly number[]) =>
  numberInput.transform((value, ctx): number | null => {
    if (templateIds.length === 0) return null;
    const id = toNumber(value);
    const chosen = Number.isSafeInteger(id) && id > 0;
    if (chosen && templateIds.includes(id)) return id;
    ctx.issues.push({
      code: 'custom',
      message: chosen ? fieldNotValid(SIGN_UP_FORM_LABELS.templateId) : MESSAGES.signUp.chooseTemplate,
      input: value,
    });
    return z.NEVER;
  });

const { firstName, surname, email, contactNumber, password, confirmPassword } = userAddSchema.shape;

/**
 * Sign up a new customer (ours; payload companyName, firstName, surname, email, contactNumber,
 * password, confirmPassword, templateId). The person becomes the customer's super admin, so their
 * fields and password rules are those of adding a user (002 §5.1 and ours, see userAddSchema);
 * companyName is optional with the customer form's limit (the display falls back to the super admin's
 * name, 000 §3). `templateIds` are the package templates on offer: when there are any one must be
 * chosen ('Must choose a backup package'); an id not on offer is 'Backup package is not valid'.
 */
export function signUpSchema(templateIds: readonly number[]) {
  return z
    .object({
      companyName: optionalDisplayText(SIGN_UP_FORM_LABELS.companyName, CUSTOMER_LIMITS.companyNameMax),
      firstName,
      surname,
      email,
      contactNumber,
      password,
      confirmPassword,
      templateId: templateChoice(templateIds),
    })
    .superRefine(passwordRules('add'), whenFieldsValid('password', 'confirmPassword'));
}
export type SignUpForm = z.input<ReturnType<typeof signUpSchema>>;
export type SignUpPayload = z.output<ReturnType<typeof signUpSchema>>;

/** The empty sign-up form: the empty user form less its role and read-only flag; no package preselected. */
export function newSignUpForm(): SignUpForm {
  const { readOnly: _readOnly, role: _role, ...user } = newUserForm([]);
  return { companyName: '', ...user, templateId: '' };
}
