import { describe, expect, it } from 'vitest';
import { USER_IMPORT_ERRORS_SHOWN, USERS_PAGE_SIZE } from './forms/user.js';
import { confirmDeleteUser, confirmUnlinkUser, MESSAGES } from './messages.js';
import { matchPage, PAGES } from './routes.js';
import { USER_STATUS_VARIANTS, userStatusBadge } from './statuses.js';

describe('users and account screens', () => {
  it('badges user statuses: active green, inactive grey', () => {
    expect(userStatusBadge('ACTIVE')).toEqual({ text: 'Active', variant: 'success' });
    expect(userStatusBadge('INACTIVE')).toEqual({ text: 'Inactive', variant: 'secondary' });
    expect(Object.keys(USER_STATUS_VARIANTS)).toEqual(['ACTIVE', 'INACTIVE']);
  });

  it('pages users by 10 and lists 5 import errors (002 §8.2, §9)', () => {
    expect(USERS_PAGE_SIZE).toBe(10);
    expect(USER_IMPORT_ERRORS_SHOWN).toBe(5);
  });

  it('names the user in the delete and unlink questions', () => {
    expect(confirmDeleteUser('Ann Lee')).toBe('Are you sure you want to delete the user Ann Lee?');
    expect(confirmUnlinkUser('Ann Lee', 'Office')).toBe(
      'Are you sure you want to unlink the user Ann Lee from the backup package Office?',
    );
  });

  it('serves the account and user pages', () => {
    expect(PAGES.account).toBe('/admin/account');
    expect(matchPage('/admin/account')).toBe('account');
    expect(matchPage('/admin/account/users/12')).toBe('accountUser');
    expect(matchPage('/boltadmin/customers/3/users/12')).toBe('providerCustomerUser');
    expect(matchPage('/admin/mycustomers/3/users/12')).toBe('resellerCustomerUser');
  });

  it('shows Yes and No for flags', () => {
    expect([MESSAGES.yes, MESSAGES.no]).toEqual(['Yes', 'No']);
  });
});
