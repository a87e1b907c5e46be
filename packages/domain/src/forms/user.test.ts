import { describe, expect, it } from 'vitest';
import { errorsOf } from '../testing/form-errors.js';
import { FILLED_USER_FORM as user } from '../testing/user-form.js';
import {
  keepsPassword,
  newUserForm,
  USER_FORM_LABELS,
  userAddSchema,
  userEditSchema,
  userFormSchema,
  userImportSchema,
  userLinkSchema,
} from './user.js';

describe('user form (002 §5.1)', () => {
  it('002 §5.1: the generic messages with the spec labels', () => {
    expect(Object.values(USER_FORM_LABELS)).toEqual(
      expect.arrayContaining([
        'Backup package',
        'Confirm password',
        'Contact number',
        'Email',
        'First name',
        'Password',
        'Role',
        'Surname',
      ]),
    );
    expect(
      errorsOf(userAddSchema.safeParse({ firstName: '', surname: ' ', email: 'nope', contactNumber: '', role: '' })),
    ).toEqual({
      firstName: 'First name is required',
      surname: 'Surname is required',
      email: 'Email must be a valid email',
      contactNumber: 'Contact number is required',
      role: 'Role is required',
      password: 'Password is required',
      confirmPassword: 'Confirm password is required',
    });
    expect(errorsOf(userAddSchema.safeParse({ ...user, role: 'ROLE_SUPER_USER' }))).toEqual({
      role: 'Role is not valid',
    });
  });

  it('002 §5.1: names and contact number max 50, e-mail max 100, passwords max 50', () => {
    expect(
      errorsOf(
        userAddSchema.safeParse({
          ...user,
          role: 'ROLE_CUSTOMER_USER',
          firstName: 'x'.repeat(51),
          email: `${'a'.repeat(95)}@b.com`,
          password: 'p'.repeat(51),
        }),
      ),
    ).toEqual({
      firstName: 'First name must be at most 50 characters',
      email: 'Email must be at most 100 characters',
      password: 'Password must be at most 50 characters',
    });
  });

  it('002 §5.1: adding requires a password, confirmation and role; readOnly defaults to false', () => {
    expect(userFormSchema('add').parse({ ...user, role: 'ROLE_CUSTOMER_ADMIN_USER' })).toEqual({
      ...user,
      role: 'ROLE_CUSTOMER_ADMIN_USER',
      readOnly: false,
    });
    expect(
      errorsOf(userAddSchema.safeParse({ ...user, password: '', confirmPassword: '', role: 'ROLE_CUSTOMER_USER' })),
    ).toEqual({
      password: 'Password is required',
      confirmPassword: 'Confirm password is required',
    });
  });

  it('ours: the confirmation must match, on confirmPassword; a set password has at least 8 characters', () => {
    expect(
      errorsOf(userAddSchema.safeParse({ ...user, confirmPassword: 'other one', role: 'ROLE_CUSTOMER_USER' })),
    ).toEqual({
      confirmPassword: 'Passwords do not match',
    });
    expect(errorsOf(userEditSchema.safeParse({ ...user, password: 'short', confirmPassword: 'short' }))).toEqual({
      password: 'Password must be at least 8 characters',
    });
  });

  it('002 §5.1: editing with a blank password keeps it; role and readOnly are dropped', () => {
    const edited = userFormSchema('edit').parse({
      ...user,
      password: '',
      confirmPassword: '',
      role: 'ROLE_BOLT_ADMIN_USER',
      readOnly: true,
    });
    expect(edited).toEqual({ ...user, password: '', confirmPassword: '' });
    expect(keepsPassword(edited)).toBe(true);
    expect(userEditSchema.parse({ ...user, password: undefined, confirmPassword: null }).password).toBe('');
    expect(errorsOf(userEditSchema.safeParse({ ...user, password: '', confirmPassword: 'long enough' }))).toEqual({
      password: 'Password is required',
      confirmPassword: 'Passwords do not match',
    });
    expect(keepsPassword(userEditSchema.parse(user))).toBe(false);
  });

  it('002 §5.1: the add form defaults the role to the first assignable one', () => {
    expect(newUserForm(['ROLE_CUSTOMER_USER', 'ROLE_CUSTOMER_ADMIN_USER']).role).toBe('ROLE_CUSTOMER_USER');
    expect(newUserForm([]).role).toBe('');
  });
});

describe('link user (002 §5.2)', () => {
  it('requires a backup package', () => {
    expect(userLinkSchema.safeParse({ backupPackageId: '' }).error?.issues[0]).toMatchObject({
      path: ['backupPackageId'],
      message: 'Backup package is required',
    });
    expect(userLinkSchema.parse({ backupPackageId: '5' })).toEqual({ backupPackageId: 5 });
  });
});

describe('bulk import (002 §5.3)', () => {
  const xlsx = { name: 'users.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };

  it('takes an .xlsx file by name and MIME type, with skipAlreadyExisting', () => {
    expect(userImportSchema.parse({ file: xlsx, skipAlreadyExisting: 'true' })).toEqual({
      file: xlsx,
      skipAlreadyExisting: true,
    });
    expect(userImportSchema.parse({ file: [xlsx] })).toEqual({ file: xlsx, skipAlreadyExisting: false });
    expect(errorsOf(userImportSchema.safeParse({ file: { name: 'users.csv', type: 'text/csv' } }))).toEqual({
      file: 'Only .xlsx files are accepted',
    });
    expect(errorsOf(userImportSchema.safeParse({ file: { ...xlsx, name: 'users.xls' } }))).toEqual({
      file: 'Only .xlsx files are accepted',
    });
    expect(errorsOf(userImportSchema.safeParse({}))).toEqual({ file: 'File is required' });
  });
});
