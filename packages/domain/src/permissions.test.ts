import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROLES } from './enums.js';
import {
  ACCESS_LEVELS,
  machineAudience,
  managedCustomers,
  mayAccess,
  mayAdministerMachine,
  mayChange,
  mayCommandMachine,
  mayLinkMachines,
  mayManageMachine,
} from './permissions.js';
import { makeActor, makeMachine } from './testing/actors.js';

describe('route audiences (DESIGN §4)', () => {
  it('lets nobody signed out past signedIn, and everyone through public', () => {
    for (const level of ACCESS_LEVELS) {
      expect(mayAccess(null, level)).toBe(level === 'public');
    }
  });

  it('keeps the admin area to provider admins', () => {
    for (const role of ROLES)
      expect(mayAccess(makeActor({ role }), 'providerAdmin')).toBe(role === 'ROLE_BOLT_ADMIN_USER');
  });

  it('gives customer admin routes to super admins and admins only', () => {
    expect(mayAccess(makeActor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' }), 'customerAdmin')).toBe(true);
    expect(mayAccess(makeActor({ role: 'ROLE_CUSTOMER_ADMIN_USER' }), 'customerAdmin')).toBe(true);
    expect(mayAccess(makeActor({ role: 'ROLE_CUSTOMER_USER' }), 'customerAdmin')).toBe(false);
    expect(mayAccess(makeActor({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null }), 'customerAdmin')).toBe(false);
    expect(mayAccess(makeActor({ role: 'ROLE_CUSTOMER_ADMIN_USER' }), 'customerSuperAdmin')).toBe(false);
  });

  it('makes a reseller admin of an admin whose customer has reseller enabled', () => {
    expect(
      mayAccess(makeActor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', resellerEnabled: true }), 'resellerAdmin'),
    ).toBe(true);
    expect(mayAccess(makeActor({ role: 'ROLE_CUSTOMER_ADMIN_USER', resellerEnabled: true }), 'resellerAdmin')).toBe(
      true,
    );
    expect(
      mayAccess(makeActor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', resellerEnabled: false }), 'resellerAdmin'),
    ).toBe(false);
    expect(mayAccess(makeActor({ role: 'ROLE_CUSTOMER_USER', resellerEnabled: true }), 'resellerAdmin')).toBe(false);
  });
});

describe('dashboard audiences', () => {
  it('lets provider and reseller admins manage customers, and nobody else', () => {
    expect(mayAccess(makeActor({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null }), 'customerManager')).toBe(true);
    expect(mayAccess(makeActor({ role: 'ROLE_CUSTOMER_ADMIN_USER', resellerEnabled: true }), 'customerManager')).toBe(
      true,
    );
    expect(mayAccess(makeActor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' }), 'customerManager')).toBe(false);
    expect(mayAccess(makeActor({ role: 'ROLE_CUSTOMER_USER', resellerEnabled: true }), 'customerManager')).toBe(false);
  });

  it('lets the three roles of 001 §6 (provider, customer super admin, customer admin) in as anyAdmin', () => {
    for (const role of ROLES) {
      expect(mayAccess(makeActor({ role, customerId: role === 'ROLE_BOLT_ADMIN_USER' ? null : 10 }), 'anyAdmin')).toBe(
        role !== 'ROLE_CUSTOMER_USER',
      );
    }
    expect(mayAccess(makeActor({ role: 'ROLE_CUSTOMER_ADMIN_USER', resellerEnabled: true }), 'anyAdmin')).toBe(true);
  });

  it('counts every user of a customer account as a member, and no provider admin', () => {
    for (const role of ROLES) {
      expect(mayAccess(makeActor({ role }), 'customerMember')).toBe(role !== 'ROLE_BOLT_ADMIN_USER');
    }
    expect(mayAccess(makeActor({ role: 'ROLE_CUSTOMER_USER', customerId: null }), 'customerMember')).toBe(false);
  });
});

describe('managed customers (DESIGN §4)', () => {
  it.each([
    ['provider admin', makeActor({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null }), { kind: 'all' }],
    [
      'reseller super admin',
      makeActor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', resellerEnabled: true }),
      { kind: 'childrenOf', resellerCustomerId: 10 },
    ],
    [
      'reseller admin',
      makeActor({ role: 'ROLE_CUSTOMER_ADMIN_USER', resellerEnabled: true }),
      { kind: 'childrenOf', resellerCustomerId: 10 },
    ],
    ['user of a reseller', makeActor({ role: 'ROLE_CUSTOMER_USER', resellerEnabled: true }), null],
    ['super admin of a customer', makeActor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' }), null],
    [
      'admin without a customer',
      makeActor({ role: 'ROLE_CUSTOMER_ADMIN_USER', customerId: null, resellerEnabled: true }),
      null,
    ],
  ] as const)('%s', (_, who, expected) => {
    expect(managedCustomers(who)).toEqual(expected);
  });

  it('never gives a customer role more than the children of its own customer', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ROLES.filter((r) => r !== 'ROLE_BOLT_ADMIN_USER')),
        fc.integer({ min: 1, max: 1000 }),
        fc.boolean(),
        (role, customerId, resellerEnabled) => {
          const scope = managedCustomers(makeActor({ role, customerId, resellerEnabled }));
          if (scope !== null) expect(scope).toEqual({ kind: 'childrenOf', resellerCustomerId: customerId });
        },
      ),
    );
  });

  it('lets read-only users look but not change', () => {
    expect(mayChange(makeActor({ readOnly: true }))).toBe(false);
    expect(mayChange(makeActor({ readOnly: false }))).toBe(true);
  });

  it('lets users of a customer who may change things link machines (issue #5), not provider admins', () => {
    expect(mayLinkMachines(makeActor({ role: 'ROLE_CUSTOMER_USER', customerId: 3 }))).toBe(true);
    expect(mayLinkMachines(makeActor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', customerId: 3 }))).toBe(true);
    expect(mayLinkMachines(makeActor({ role: 'ROLE_CUSTOMER_USER', customerId: 3, readOnly: true }))).toBe(false);
    expect(mayLinkMachines(makeActor({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null }))).toBe(false);
  });
});

describe('machines: who sees and commands them (001 §6, 002 §7.8)', () => {
  const RESELLER = 20;
  const OTHER = 30;
  // Customer 10 is a child of reseller 20; its machine is assigned to user 1.
  const machine = (allowProviderMachineControl: boolean, assignedUserId: number | null = 1) =>
    makeMachine({ allowProviderMachineControl, assignedUserId, parentResellerCustomerId: RESELLER });
  const provider = makeActor({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null, userId: 99 });
  const superAdmin = makeActor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', userId: 5 });
  const admin = makeActor({ role: 'ROLE_CUSTOMER_ADMIN_USER', userId: 6 });
  const assignedUser = makeActor({ role: 'ROLE_CUSTOMER_USER', userId: 1 });
  const otherUser = makeActor({ role: 'ROLE_CUSTOMER_USER', userId: 2 });
  const resellerAdmin = makeActor({ role: 'ROLE_CUSTOMER_ADMIN_USER', customerId: RESELLER, resellerEnabled: true });
  const resellerUser = makeActor({ role: 'ROLE_CUSTOMER_USER', customerId: RESELLER, resellerEnabled: true });
  const notReseller = makeActor({
    role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER',
    customerId: RESELLER,
    resellerEnabled: false,
  });
  const otherTenant = makeActor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', customerId: OTHER, resellerEnabled: true });

  it.each([
    ['provider admin', provider, 'provider', false, true],
    ['customer super admin', superAdmin, 'customer', true, true],
    ['customer admin', admin, 'customer', true, true],
    ['the assigned user', assignedUser, 'customer', true, true],
    ['another user of the customer', otherUser, null, false, false],
    ["the parent reseller's admin", resellerAdmin, 'reseller', true, true],
    ['a user of the parent reseller', resellerUser, null, false, false],
    ['an admin of the parent with reseller off', notReseller, null, false, false],
    ['an admin of another reseller', otherTenant, null, false, false],
  ] as const)('%s: audience %s, commands without provider control %s, with it %s', (_, who, audience, without, withIt) => {
    expect(machineAudience(who, machine(false))).toBe(audience);
    expect(mayCommandMachine(who, machine(false))).toBe(without);
    expect(mayCommandMachine(who, machine(true))).toBe(withIt);
  });

  it.each([
    ['provider admin', provider, false, true, true],
    ['customer super admin', superAdmin, true, true, true],
    ['customer admin', admin, true, true, true],
    ['the assigned user', assignedUser, true, true, false],
    ['another user of the customer', otherUser, false, false, false],
    ["the parent reseller's admin", resellerAdmin, true, true, true],
    ['an admin of another reseller', otherTenant, false, false, false],
  ] as const)('%s: manages without provider control %s, with it %s; administers %s (001 §6)', (_, who, without, withIt, administers) => {
    expect(mayManageMachine(who, machine(false))).toBe(without);
    expect(mayManageMachine(who, machine(true))).toBe(withIt);
    expect(mayAdministerMachine(who, machine(true))).toBe(administers);
    // Read-only callers look only.
    const readOnly = { ...who, readOnly: true };
    expect(mayManageMachine(readOnly, machine(true))).toBe(false);
    expect(mayAdministerMachine(readOnly, machine(true))).toBe(false);
  });

  it('shows an unassigned machine to its customer admins and to no user of the customer', () => {
    expect(machineAudience(admin, machine(true, null))).toBe('customer');
    expect(machineAudience(assignedUser, machine(true, null))).toBeNull();
    expect(mayCommandMachine(assignedUser, machine(true, null))).toBe(false);
  });

  it("lets nobody command a machine they do not see, and the provider only with the customer's consent", () => {
    const arbMachine = fc.record({
      customerId: fc.constantFrom(10, RESELLER, OTHER),
      assignedUserId: fc.constantFrom<number | null>(1, 2, null),
      parentResellerCustomerId: fc.constantFrom<number | null>(RESELLER, OTHER, null),
      allowProviderMachineControl: fc.boolean(),
    });
    const arbActor = fc.record({
      userId: fc.constantFrom(1, 2, 99),
      role: fc.constantFrom(...ROLES),
      customerId: fc.constantFrom<number | null>(10, RESELLER, OTHER, null),
      resellerEnabled: fc.boolean(),
      boltCustomer: fc.boolean(),
      readOnly: fc.boolean(),
    });
    fc.assert(
      fc.property(arbActor, arbMachine, (a, m) => {
        if (mayCommandMachine(a, m)) expect(machineAudience(a, m)).not.toBeNull();
        if (a.role === 'ROLE_BOLT_ADMIN_USER') expect(mayCommandMachine(a, m)).toBe(m.allowProviderMachineControl);
      }),
    );
  });
});
