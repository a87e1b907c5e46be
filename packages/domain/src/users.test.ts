import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROLE_NAMES, ROLES, type Role } from './enums.js';
import { MESSAGES } from './messages.js';
import type { Actor } from './permissions.js';
import { makeActor } from './testing/actors.js';
import { fullName } from './text.js';
import { AUDIENCES, type Audience } from './urls.js';
import {
  assignableRoles,
  hasEveryPackage,
  mayLinkUser,
  mayManageUser,
  packageAccessibleTo,
  roleOptions,
  rowManageable,
  type UserViewer,
  userDeleteBlockedReason,
  userUnlinkState,
  userUrl,
} from './users.js';

const CUSTOMER = 10;

const actor = (overrides: Partial<Actor> = {}): Actor =>
  makeActor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', customerId: CUSTOMER, ...overrides });
const own = (overrides: Partial<Actor> = {}): UserViewer => ({ actor: actor(overrides), audience: 'customer' });
const user = (role: Role, overrides: { id?: number; customerId?: number | null } = {}) => ({
  id: overrides.id ?? 2,
  customerId: overrides.customerId === undefined ? CUSTOMER : overrides.customerId,
  role,
  numberOfLinkedBackupPackages: 0,
  numberOfLinkedBackupMachines: 0,
});

const arbActor = fc.record({
  userId: fc.integer({ min: 1, max: 5 }),
  role: fc.constantFrom(...ROLES),
  customerId: fc.constantFrom(CUSTOMER, 11, null),
  resellerEnabled: fc.boolean(),
  boltCustomer: fc.boolean(),
  readOnly: fc.boolean(),
});
const arbViewer = fc.record({ actor: arbActor, audience: fc.constantFrom<Audience>(...AUDIENCES) });
const arbUser = fc.record({
  id: fc.integer({ min: 1, max: 5 }),
  customerId: fc.constantFrom<number | null>(CUSTOMER, 11, null),
  role: fc.constantFrom(...ROLES),
  numberOfLinkedBackupPackages: fc.integer({ min: 0, max: 3 }),
  numberOfLinkedBackupMachines: fc.integer({ min: 0, max: 3 }),
});

describe('assignable roles (002 §5.1: defaults to the first assignable role)', () => {
  it('lets a super admin add admins and users, an admin users only, least privileged first', () => {
    expect(assignableRoles(actor())).toEqual(['ROLE_CUSTOMER_USER', 'ROLE_CUSTOMER_ADMIN_USER']);
    expect(assignableRoles(actor({ role: 'ROLE_CUSTOMER_ADMIN_USER' }))).toEqual(['ROLE_CUSTOMER_USER']);
    expect(roleOptions(assignableRoles(actor()))).toEqual([
      { role: 'ROLE_CUSTOMER_USER', roleName: ROLE_NAMES.ROLE_CUSTOMER_USER },
      { role: 'ROLE_CUSTOMER_ADMIN_USER', roleName: ROLE_NAMES.ROLE_CUSTOMER_ADMIN_USER },
    ]);
  });

  it('gives nothing to users, provider admins and read-only callers, and never a super admin or provider role', () => {
    expect(assignableRoles(actor({ role: 'ROLE_CUSTOMER_USER' }))).toEqual([]);
    expect(assignableRoles(actor({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null }))).toEqual([]);
    expect(assignableRoles(actor({ readOnly: true }))).toEqual([]);
    fc.assert(
      fc.property(arbActor, (a) => {
        const roles = assignableRoles(a);
        expect(roles).not.toContain('ROLE_CUSTOMER_SUPER_ADMIN_USER');
        expect(roles).not.toContain('ROLE_BOLT_ADMIN_USER');
        if (roles.length > 0) expect(roles[0]).toBe('ROLE_CUSTOMER_USER');
      }),
    );
  });
});

describe('managing users (002 §6 manageableByLoggedInUser; our rules in users.ts)', () => {
  it('lets a super admin manage everyone of the customer, themselves included', () => {
    for (const role of ['ROLE_CUSTOMER_SUPER_ADMIN_USER', 'ROLE_CUSTOMER_ADMIN_USER', 'ROLE_CUSTOMER_USER'] as const) {
      expect(mayManageUser(own(), user(role))).toBe(true);
    }
    expect(mayManageUser(own(), user('ROLE_CUSTOMER_SUPER_ADMIN_USER', { id: 1 }))).toBe(true);
  });

  it('lets an admin manage users and themselves, not other admins or the super admin', () => {
    const admin = own({ role: 'ROLE_CUSTOMER_ADMIN_USER' });
    expect(mayManageUser(admin, user('ROLE_CUSTOMER_USER'))).toBe(true);
    expect(mayManageUser(admin, user('ROLE_CUSTOMER_ADMIN_USER', { id: 1 }))).toBe(true);
    expect(mayManageUser(admin, user('ROLE_CUSTOMER_ADMIN_USER'))).toBe(false);
    expect(mayManageUser(admin, user('ROLE_CUSTOMER_SUPER_ADMIN_USER'))).toBe(false);
  });

  it('never lets anyone manage a user of another customer, a provider admin, or anything while read-only', () => {
    fc.assert(
      fc.property(arbViewer, arbUser, (viewer, target) => {
        const manages = mayManageUser(viewer, target);
        if (manages) {
          expect(viewer.audience).toBe('customer');
          expect(viewer.actor.readOnly).toBe(false);
          expect(target.customerId).toBe(viewer.actor.customerId);
          expect(target.role).not.toBe('ROLE_BOLT_ADMIN_USER');
          expect(['ROLE_CUSTOMER_SUPER_ADMIN_USER', 'ROLE_CUSTOMER_ADMIN_USER']).toContain(viewer.actor.role);
        }
      }),
    );
  });

  it('lets provider and reseller admins only look', () => {
    const provider: UserViewer = {
      actor: actor({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null }),
      audience: 'provider',
    };
    const reseller: UserViewer = { actor: actor({ customerId: 99, resellerEnabled: true }), audience: 'reseller' };
    for (const viewer of [provider, reseller]) expect(mayManageUser(viewer, user('ROLE_CUSTOMER_USER'))).toBe(false);
  });
});

describe('why a user cannot be deleted (002 §6 tooltips)', () => {
  it('names each reason', () => {
    expect(userDeleteBlockedReason(own(), user('ROLE_CUSTOMER_SUPER_ADMIN_USER', { id: 1 }))).toBe(
      MESSAGES.user.cannotDeleteYourself,
    );
    expect(userDeleteBlockedReason(own(), user('ROLE_CUSTOMER_SUPER_ADMIN_USER'))).toBe(
      MESSAGES.user.cannotDeleteSuperAdmin,
    );
    expect(userDeleteBlockedReason(own(), user('ROLE_BOLT_ADMIN_USER', { customerId: null }))).toBe(
      MESSAGES.user.cannotDeleteBoltAdmin,
    );
    expect(userDeleteBlockedReason(own({ readOnly: true }), user('ROLE_CUSTOMER_USER'))).toBe(
      MESSAGES.user.deletionDisabled,
    );
    expect(userDeleteBlockedReason(own({ role: 'ROLE_CUSTOMER_ADMIN_USER' }), user('ROLE_CUSTOMER_ADMIN_USER'))).toBe(
      MESSAGES.user.deletionDisabled,
    );
    expect(userDeleteBlockedReason(own(), { ...user('ROLE_CUSTOMER_USER'), numberOfLinkedBackupPackages: 1 })).toBe(
      MESSAGES.user.cannotDeleteLinked,
    );
    expect(userDeleteBlockedReason(own(), { ...user('ROLE_CUSTOMER_USER'), numberOfLinkedBackupMachines: 2 })).toBe(
      MESSAGES.user.cannotDeleteLinked,
    );
    expect(userDeleteBlockedReason(own(), user('ROLE_CUSTOMER_USER'))).toBeNull();
  });

  it('allows deletion only of an unlinked user the viewer manages, never of themselves or a super admin', () => {
    fc.assert(
      fc.property(arbViewer, arbUser, (viewer, target) => {
        const reason = userDeleteBlockedReason(viewer, target);
        const deleteable =
          mayManageUser(viewer, target) &&
          target.id !== viewer.actor.userId &&
          target.role !== 'ROLE_CUSTOMER_SUPER_ADMIN_USER' &&
          target.numberOfLinkedBackupPackages === 0 &&
          target.numberOfLinkedBackupMachines === 0;
        expect(reason === null).toBe(deleteable);
        if (reason !== null) {
          expect([
            MESSAGES.user.cannotDeleteYourself,
            MESSAGES.user.cannotDeleteSuperAdmin,
            MESSAGES.user.cannotDeleteLinked,
            MESSAGES.user.cannotDeleteBoltAdmin,
            MESSAGES.user.deletionDisabled,
          ]).toContain(reason);
        }
      }),
    );
  });
});

describe('packages of a user and unlinking (001 §6, 002 §6)', () => {
  it('gives a super admin every package, anyone else the linked ones, and managers every one', () => {
    expect(hasEveryPackage(user('ROLE_CUSTOMER_SUPER_ADMIN_USER'))).toBe(true);
    expect(hasEveryPackage(user('ROLE_CUSTOMER_ADMIN_USER'))).toBe(false);
    expect(packageAccessibleTo(own(), { linkedToViewer: false })).toBe(true);
    expect(packageAccessibleTo(own({ role: 'ROLE_CUSTOMER_ADMIN_USER' }), { linkedToViewer: false })).toBe(false);
    expect(packageAccessibleTo(own({ role: 'ROLE_CUSTOMER_ADMIN_USER' }), { linkedToViewer: true })).toBe(true);
    expect(
      packageAccessibleTo(
        { actor: actor({ role: 'ROLE_BOLT_ADMIN_USER' }), audience: 'provider' },
        { linkedToViewer: false },
      ),
    ).toBe(true);
    expect(rowManageable(own({ readOnly: true }), true)).toBe(false);
    expect(rowManageable(own(), false)).toBe(false);
    expect(rowManageable(own(), true)).toBe(true);
  });

  it("shows 'N/A for super admin', 'Unlink' or 'Cannot unlink'", () => {
    expect(userUnlinkState(own(), user('ROLE_CUSTOMER_SUPER_ADMIN_USER'), { accessible: true })).toEqual({
      unlinkable: false,
      unlinkTooltip: MESSAGES.user.naForSuperAdmin,
    });
    expect(userUnlinkState(own(), user('ROLE_CUSTOMER_USER'), { accessible: true })).toEqual({
      unlinkable: true,
      unlinkTooltip: MESSAGES.user.unlink,
    });
    expect(userUnlinkState(own(), user('ROLE_CUSTOMER_USER'), { accessible: false })).toEqual({
      unlinkable: false,
      unlinkTooltip: MESSAGES.user.cannotUnlink,
    });
    expect(userUnlinkState(own({ readOnly: true }), user('ROLE_CUSTOMER_USER'), { accessible: true }).unlinkable).toBe(
      false,
    );
  });

  it('unlinks only accessible packages of a managed user who is not a super admin', () => {
    fc.assert(
      fc.property(arbViewer, arbUser, fc.boolean(), (viewer, target, accessible) => {
        const { unlinkable } = userUnlinkState(viewer, target, { accessible });
        expect(unlinkable).toBe(accessible && mayManageUser(viewer, target) && !hasEveryPackage(target));
        expect(mayLinkUser(viewer, target)).toBe(mayManageUser(viewer, target) && !hasEveryPackage(target));
      }),
    );
  });
});

describe('user pages per audience (001 §2 userUrl)', () => {
  it('builds the page of each audience', () => {
    expect(userUrl('customer', { customerId: 7, userId: 3 })).toBe('/admin/account/users/3');
    expect(userUrl('provider', { customerId: 7, userId: 3 })).toBe('/boltadmin/customers/7/users/3');
    expect(userUrl('reseller', { customerId: 7, userId: 3 })).toBe('/admin/mycustomers/7/users/3');
    expect(() => userUrl('provider', { customerId: 0, userId: 3 })).toThrow(RangeError);
    expect(() => userUrl('customer', { customerId: 7, userId: -1 })).toThrow(RangeError);
  });
});

describe('full name', () => {
  it('is the first name and surname, as confirmations expect them typed', () => {
    expect(fullName({ firstName: 'Megan', surname: 'Bowen' })).toBe('Megan Bowen');
  });
});
