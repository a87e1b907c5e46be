import { z } from 'zod';
import { USER_LIMITS } from '../account.js';
import { ROLES } from '../enums.js';
import { fieldRequired, fieldTooLong, fieldTooShort, MESSAGES } from '../messages.js';
import {
  checkbox,
  choice,
  chosenId,
  displayText,
  type FileKind,
  requiredEmail,
  uploadField,
  whenFieldsValid,
} from './fields.js';

/**
 * The field labels of the user forms (002 §5.1: Backup package, Confirm password, Contact number,
 * Email, First name, Password, Role, Surname). Placeholders read like 'First name is required'.
 * 'Read only' is ours.
 */
export const USER_FORM_LABELS = {
  firstName: 'First name',
  surname: 'Surname',
  email: 'Email',
  contactNumber: 'Contact number',
  password: 'Password',
  confirmPassword: 'Confirm password',
  readOnly: 'Read only',
  role: 'Role',
  backupPackageId: 'Backup package',
} as const;

const L = USER_FORM_LABELS;

/** Rows per page of the users table and of a user's packages and machines tables (002 §9, 001 §9). */
export const USERS_PAGE_SIZE = 10;

export type UserFormMode = 'add' | 'edit';

const password = (label: string) =>
  z
    .string({ error: fieldRequired(label) })
    .max(USER_LIMITS.passwordMax, fieldTooLong(label, USER_LIMITS.passwordMax))
    .nullish()
    .transform((v) => v ?? '');

/** The person's details of the user forms (002 §5.1), also what each row of a bulk import gives. */
export const userDetailFields = {
  firstName: displayText(L.firstName, USER_LIMITS.nameMax),
  surname: displayText(L.surname, USER_LIMITS.nameMax),
  email: requiredEmail(L.email, USER_LIMITS.emailMax),
  contactNumber: displayText(L.contactNumber, USER_LIMITS.contactNumberMax),
};

const commonFields = {
  ...userDetailFields,
  password: password(L.password),
  confirmPassword: password(L.confirmPassword),
};

/**
 * The password rules of 002 §5.1 and ours (see userAddSchema), on the password fields; the sign-up form
 * applies the add rules too.
 */
export const passwordRules =
  (mode: UserFormMode) => (form: { password: string; confirmPassword: string }, ctx: z.RefinementCtx) => {
    if (mode === 'edit' && form.password === '' && form.confirmPassword === '') return;
    if (form.password === '') {
      ctx.addIssue({ code: 'custom', message: fieldRequired(L.password), path: ['password'] });
    } else if (form.password.length < USER_LIMITS.passwordMin) {
      ctx.addIssue({ code: 'custom', message: fieldTooShort(L.password, USER_LIMITS.passwordMin), path: ['password'] });
    }
    if (form.confirmPassword === '') {
      ctx.addIssue({ code: 'custom', message: fieldRequired(L.confirmPassword), path: ['confirmPassword'] });
    } else if (form.password !== form.confirmPassword) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.passwordsDoNotMatch, path: ['confirmPassword'] });
    }
  };

/**
 * Add a user (002 §5.1; payload of 002 §3: firstName, surname, email, contactNumber, password,
 * confirmPassword, readOnly, role).
 * - firstName, surname, contactNumber: required, max 50; email: valid, required, max 100.
 * - password and confirmPassword: required, max 50.
 * - role: required, one of the roles (the server further checks that it is assignable).
 * Decisions where the specification is silent: the password must be at least 8 characters (the
 * account forms' rule), and the confirmation must match it ('Passwords do not match', on
 * confirmPassword) although the specification says matching "is not shown": we take the conservative
 * side.
 */
export const userAddSchema = z
  .object({ ...commonFields, readOnly: checkbox.default(false), role: choice(L.role, ROLES) })
  .superRefine(passwordRules('add'), whenFieldsValid('password', 'confirmPassword'));
export type UserAddForm = z.input<typeof userAddSchema>;
export type UserAddPayload = z.output<typeof userAddSchema>;

/**
 * Edit a user (002 §5.1): as adding, but a blank password (with a blank confirmation) leaves the
 * password unchanged, and readOnly and role are not edited (they are dropped from the payload).
 */
export const userEditSchema = z
  .object(commonFields)
  .superRefine(passwordRules('edit'), whenFieldsValid('password', 'confirmPassword'));
export type UserEditForm = z.input<typeof userEditSchema>;
export type UserEditPayload = z.output<typeof userEditSchema>;

/** The user form schema of a mode (002 §5.1: add and edit differ). */
export function userFormSchema(mode: 'add'): typeof userAddSchema;
export function userFormSchema(mode: 'edit'): typeof userEditSchema;
export function userFormSchema(mode: UserFormMode): typeof userAddSchema | typeof userEditSchema;
export function userFormSchema(mode: UserFormMode) {
  return mode === 'add' ? userAddSchema : userEditSchema;
}

/** Whether an edit leaves the password unchanged (blank password, 002 §5.1). */
export const keepsPassword = (payload: { password: string }) => payload.password === '';

/** The empty add form; role defaults to the first assignable role (002 §5.1). */
export function newUserForm(assignableRoles: readonly string[]): UserAddForm {
  return {
    firstName: '',
    surname: '',
    email: '',
    contactNumber: '',
    password: '',
    confirmPassword: '',
    readOnly: false,
    role: assignableRoles[0] ?? '',
  };
}

/** Link a user to a backup package (002 §5.2; payload backupPackageId); defaults to the first package. */
export const userLinkSchema = z.object({ backupPackageId: chosenId(fieldRequired(L.backupPackageId)) });
export type UserLinkPayload = z.output<typeof userLinkSchema>;

/** The spreadsheet type bulk import accepts (002 §5.3, §9): .xlsx by name and MIME type. */
export const XLSX_KIND = {
  mimeTypes: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  extensions: ['.xlsx'],
} as const satisfies FileKind;

/**
 * Bulk user import (002 §5.3; multipart payload: file, skipAlreadyExisting). Whether the spreadsheet
 * has the example's format is checked by the server when it reads it. The 'File' label is ours.
 */
export const userImportSchema = z.object({
  file: uploadField('File', XLSX_KIND, MESSAGES.userImport.fileNotXlsx),
  skipAlreadyExisting: checkbox.default(false),
});
export type UserImportForm = z.input<typeof userImportSchema>;

/** An import's error summary lists this many errors, then 'N more error(s)' and See all (002 §8.2). */
export const USER_IMPORT_ERRORS_SHOWN = 5;
export type UserImportPayload = z.output<typeof userImportSchema>;
