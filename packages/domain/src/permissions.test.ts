import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROLES } from './enums.js';
import {
  ACCESS_LEVELS,
  type Actor,
  customerScope,
  mayAccess,
  mayChange,
  mayCommandMachine,
  mayLinkMachines,
} from './permissions.js';

const actor = (overrides: Partial<Actor>): Actor => ({
  userId: 1,
  role: 'ROLE_CUSTOMER_USER',
  customerId: 10,
  resellerEnabled: false,
  boltCustomer: true,
  readOnly: false,
  ...overrides,
});

describe('route audiences (DESIGN §4)', () => {
  it('lets nobody signed out past signedIn, and everyone through public', () => {
    for (const level of ACCESS_LEVELS) {
      expect(mayAccess(null, level)).toBe(level === 'public');
    }
  });

  it('keeps the admin area to provider admins', () => {
    for (const role of ROLES) expect(mayAccess(actor({ role }), 'providerAdmin')).toBe(role === 'ROLE_BOLT_ADMIN_USER');
  });

  it('gives customer admin routes to super admins and admins only', () => {
    expect(mayAccess(actor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' }), 'customerAdmin')).toBe(true);
    expect(mayAccess(actor({ role: 'ROLE_CUSTOMER_ADMIN_USER' }), 'customerAdmin')).toBe(true);
    expect(mayAccess(actor({ role: 'ROLE_CUSTOMER_USER' }), 'customerAdmin')).toBe(false);
    expect(mayAccess(actor({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null }), 'customerAdmin')).toBe(false);
    expect(mayAccess(actor({ role: 'ROLE_CUSTOMER_ADMIN_USER' }), 'customerSuperAdmin')).toBe(false);
  });

  it('makes a reseller admin of an admin whose customer has reseller enabled', () => {
    expect(mayAccess(actor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', resellerEnabled: true }), 'resellerAdmin')).toBe(
      true,
    );
    expect(mayAccess(actor({ role: 'ROLE_CUSTOMER_ADMIN_USER', resellerEnabled: true }), 'resellerAdmin')).toBe(true);
    expect(mayAccess(actor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', resellerEnabled: false }), 'resellerAdmin')).toBe(
      false,
    );
    expect(mayAccess(actor({ role: 'ROLE_CUSTOMER_USER', resellerEnabled: true }), 'resellerAdmin')).toBe(false);
  });
});

describe('dashboard audiences', () => {
  it('lets provider and reseller admins manage customers, and nobody else', () => {
    expect(mayAccess(actor({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null }), 'customerManager')).toBe(true);
    expect(mayAccess(actor({ role: 'ROLE_CUSTOMER_ADMIN_USER', resellerEnabled: true }), 'customerManager')).toBe(true);
    expect(mayAccess(actor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' }), 'customerManager')).toBe(false);
    expect(mayAccess(actor({ role: 'ROLE_CUSTOMER_USER', resellerEnabled: true }), 'customerManager')).toBe(false);
  });

  it('lets the three roles of 001 §6 (provider, customer super admin, customer admin) in as anyAdmin', () => {
    for (const role of ROLES) {
      expect(mayAccess(actor({ role, customerId: role === 'ROLE_BOLT_ADMIN_USER' ? null : 10 }), 'anyAdmin')).toBe(
        role !== 'ROLE_CUSTOMER_USER',
      );
    }
    expect(mayAccess(actor({ role: 'ROLE_CUSTOMER_ADMIN_USER', resellerEnabled: true }), 'anyAdmin')).toBe(true);
  });

  it('counts every user of a customer account as a member, and no provider admin', () => {
    for (const role of ROLES) {
      expect(mayAccess(actor({ role }), 'customerMember')).toBe(role !== 'ROLE_BOLT_ADMIN_USER');
    }
    expect(mayAccess(actor({ role: 'ROLE_CUSTOMER_USER', customerId: null }), 'customerMember')).toBe(false);
  });
});

describe('customer scope (DESIGN §4)', () => {
  it('gives the provider everything, a reseller admin its own and child customers, others their own', () => {
    expect(customerScope(actor({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null }))).toEqual({ kind: 'all' });
    expect(customerScope(actor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', resellerEnabled: true }))).toEqual({
      kind: 'ownAndChildren',
      customerId: 10,
    });
    expect(customerScope(actor({ role: 'ROLE_CUSTOMER_USER', resellerEnabled: true }))).toEqual({
      kind: 'own',
      customerId: 10,
    });
    expect(customerScope(actor({ role: 'ROLE_CUSTOMER_ADMIN_USER', customerId: null }))).toEqual({ kind: 'none' });
  });

  it('never widens a customer role beyond its own customer and children', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ROLES.filter((r) => r !== 'ROLE_BOLT_ADMIN_USER')),
        fc.integer({ min: 1, max: 1000 }),
        fc.boolean(),
        (role, customerId, resellerEnabled) => {
          const scope = customerScope(actor({ role, customerId, resellerEnabled }));
          expect(scope.kind).not.toBe('all');
          if (scope.kind === 'own' || scope.kind === 'ownAndChildren') expect(scope.customerId).toBe(customerId);
        },
      ),
    );
  });

  it('lets read-only users look but not change', () => {
    expect(mayChange(actor({ readOnly: true }))).toBe(false);
    expect(mayChange(actor({ readOnly: false }))).toBe(true);
  });

  it('lets users of a customer who may change things link machines (issue #5), not provider admins', () => {
    expect(mayLinkMachines(actor({ role: 'ROLE_CUSTOMER_USER', customerId: 3 }))).toBe(true);
    expect(mayLinkMachines(actor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', customerId: 3 }))).toBe(true);
    expect(mayLinkMachines(actor({ role: 'ROLE_CUSTOMER_USER', customerId: 3, readOnly: true }))).toBe(false);
    expect(mayLinkMachines(actor({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null }))).toBe(false);
  });
});

describe('who may command a machine (task commands, its file tree)', () => {
  // A machine of customer 10, a child of reseller 3, assigned to user 1.
  const machine: Parameters<typeof mayCommandMachine>[1] = {
    customerId: 10,
    assignedUserId: 1,
    parentResellerCustomerId: 3,
    allowProviderMachineControl: true,
  };
  const provider = actor({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null, resellerEnabled: true });
  const cases: Array<[string, Actor, Partial<typeof machine>, boolean]> = [
    ['provider admin, control allowed', provider, {}, true],
    ['provider admin, control not allowed', provider, { allowProviderMachineControl: false }, false],
    ['super admin of the customer', actor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', userId: 2 }), {}, true],
    ['admin of the customer', actor({ role: 'ROLE_CUSTOMER_ADMIN_USER', userId: 2 }), {}, true],
    [
      'admin of the customer, control not allowed',
      actor({ role: 'ROLE_CUSTOMER_ADMIN_USER', userId: 2 }),
      { allowProviderMachineControl: false },
      true,
    ],
    ['the assigned user', actor({ userId: 1 }), {}, true],
    ['another user of the customer', actor({ userId: 2 }), {}, false],
    ['a user of the customer, machine unassigned', actor({ userId: 1 }), { assignedUserId: null }, false],
    [
      'admin of the reseller',
      actor({ role: 'ROLE_CUSTOMER_ADMIN_USER', customerId: 3, resellerEnabled: true }),
      {},
      true,
    ],
    [
      'admin of another reseller',
      actor({ role: 'ROLE_CUSTOMER_ADMIN_USER', customerId: 4, resellerEnabled: true }),
      {},
      false,
    ],
    ['user of the reseller', actor({ customerId: 3, resellerEnabled: true }), {}, false],
    ['admin of another customer', actor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', customerId: 11 }), {}, false],
    [
      'admin of the customer of a direct machine',
      actor({ role: 'ROLE_CUSTOMER_ADMIN_USER' }),
      { parentResellerCustomerId: null },
      true,
    ],
  ];
  it.each(cases)('%s', (_name, who, changes, expected) => {
    expect(mayCommandMachine(who, { ...machine, ...changes })).toBe(expected);
  });
});
