import { describe, expect, it } from 'vitest';
import {
  CUSTOMERS_PAGE_SIZE,
  customerSearchQuerySchema,
  customerStatusChangeQuerySchema,
  isCustomerDeletable,
  mayBecomeReseller,
} from './customers.js';
import { CUSTOMER_STATUSES } from './enums.js';
import { customerStatusChangeRefused } from './messages.js';
import { accountLogoUrl, brandLogoUrl } from './paths.js';

describe('customer list query', () => {
  it('pages 10 at a time from page 0 and treats a blank search as none', () => {
    expect(customerSearchQuerySchema.parse({})).toEqual({ page: 0, size: CUSTOMERS_PAGE_SIZE });
    expect(customerSearchQuerySchema.parse({ page: '2', size: '5', search: '  acme ' })).toEqual({
      page: 2,
      size: 5,
      search: 'acme',
    });
    expect(customerSearchQuerySchema.parse({ search: '   ' }).search).toBeUndefined();
  });

  it('refuses a negative page, a size out of range, a search over 100 characters or with a control character', () => {
    const queries = [
      { page: '-1' },
      { size: '0' },
      { size: '201' },
      { search: 'x'.repeat(101) },
      { search: 'a\u0000b' },
    ];
    for (const query of queries) {
      expect(customerSearchQuerySchema.safeParse(query).success, JSON.stringify(query)).toBe(false);
    }
    const long = customerSearchQuerySchema.safeParse({ search: 'x'.repeat(101) });
    expect(long.error?.issues[0]?.message).toBe('Search must be at most 100 characters');
  });

  it('takes a status change to any customer status and nothing else', () => {
    for (const status of CUSTOMER_STATUSES) {
      expect(customerStatusChangeQuerySchema.parse({ status })).toEqual({ status });
    }
    expect(customerStatusChangeQuerySchema.safeParse({ status: 'PAUSED' }).error?.issues[0]?.message).toBe(
      'Status is not valid',
    );
  });
});

describe('customer rules', () => {
  it("makes resellers only of the provider's own customers that are not resellers and not being deleted", () => {
    const own = { parentResellerCustomerId: null, resellerEnabled: false, beingDeleted: false };
    expect(mayBecomeReseller(own)).toBe(true);
    expect(mayBecomeReseller({ ...own, parentResellerCustomerId: 3 })).toBe(false);
    expect(mayBecomeReseller({ ...own, resellerEnabled: true })).toBe(false);
    expect(mayBecomeReseller({ ...own, beingDeleted: true })).toBe(false);
  });

  it('deletes only suspended customers without customers of their own', () => {
    for (const status of CUSTOMER_STATUSES) {
      expect(isCustomerDeletable({ status, numberOfChildCustomers: 0 })).toBe(status === 'SUSPENDED');
    }
    expect(isCustomerDeletable({ status: 'SUSPENDED', numberOfChildCustomers: 1 })).toBe(false);
  });

  it("shows the reseller's logo, else the generic one for reseller settings without one, else the default", () => {
    expect(brandLogoUrl({ logo: 'my logo.png' })).toBe('/public/downloads/img/my%20logo.png');
    expect(brandLogoUrl({ logo: null })).toBe('/img/logo-generic.png');
    expect(brandLogoUrl(null)).toBe('/img/logo.png');
    // The account page's logo display (001 §2): the rounded main logo for the main brand's customers.
    expect(accountLogoUrl(null)).toBe('/img/bolt_round.png');
    expect(accountLogoUrl({ logo: null })).toBe('/img/logo-generic.png');
    expect(accountLogoUrl({ logo: 'r.png' })).toBe('/public/downloads/img/r.png');
  });

  it('names both statuses of a refused change', () => {
    expect(customerStatusChangeRefused('SUSPENDED', 'BLOCKED')).toBe(
      'A Suspended customer cannot be changed to Blocked',
    );
  });
});
