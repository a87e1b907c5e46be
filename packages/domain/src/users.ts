import { type MachineStatus, type PackageStatus, ROLE_NAMES, type Role, type UserStatus } from './enums.js';
import { MESSAGES } from './messages.js';
import { type Audience, idSegment } from './paths.js';
import { type Actor, isCustomerAdmin, isCustomerSuperAdmin, mayChange } from './permissions.js';

/**
 * Who manages which users of a customer (001 §6, 002 §6). The specification shows the tooltips and
 * flags (deleteable, manageableByLoggedInUser, the unlink tooltips) but not the rules behind them;
 * ours, evaluated by the server and sent with every row:
 * - A customer's super admin manages every user of the customer (themselves included); an admin
 *   manages the customer's users of role User and themselves, never another admin or the super admin
 *   (so an admin cannot take over a more privileged account by setting its password).
 * - A super admin may give new users the roles Admin and User, an admin User only. Nobody adds a super
 *   admin here: the account page hands the super admin role over (userIdToBeAdmin).
 * - Read-only users look but change nothing: they manage nobody and assign no role.
 * - Provider and reseller admins only look at a customer's users (their audience is not 'customer').
 * - A super admin has every backup package of the customer; other users (admins included) have the
 *   packages linked to them, which is what linking and unlinking change.
 */

/** Who looks at users: the signed-in caller, and the audience whose links the rows carry. */
export interface UserViewer {
  actor: Actor;
  /** 'customer' for the customer's own admins; 'provider' / 'reseller' for those who manage the customer. */
  audience: Audience;
}

/** The user being looked at, as far as the rules need it. */
export interface ManagedUser {
  id: number;
  customerId: number | null;
  role: Role;
}

/** Roles given by adding users, least privileged first; the add dialog preselects the first (002 §5.1). */
const ROLES_BY_PRIVILEGE: readonly Role[] = ['ROLE_CUSTOMER_USER', 'ROLE_CUSTOMER_ADMIN_USER'];

/** The roles the caller may give a new user of their own customer, least privileged first. */
export function assignableRoles(actor: Actor): Role[] {
  if (!isCustomerAdmin(actor) || actor.customerId === null || !mayChange(actor)) return [];
  return ROLES_BY_PRIVILEGE.filter((role) => role === 'ROLE_CUSTOMER_USER' || isCustomerSuperAdmin(actor));
}

/** One of the roles a caller may give a user, with its display name. */
export interface RoleOption {
  role: Role;
  roleName: string;
}

/** The available roles list of 002 §3: elements with role and roleName. */
export const roleOptions = (roles: readonly Role[]): RoleOption[] =>
  roles.map((role) => ({ role, roleName: ROLE_NAMES[role] }));

/** A package a user can still be linked to (GET .../linkablebackuppackages). */
export interface LinkablePackage {
  id: number;
  name: string;
}

/** Whether the viewer may change the user (edit, link, unlink, delete): Manage rather than View. */
export function mayManageUser(viewer: UserViewer, user: ManagedUser): boolean {
  const { actor } = viewer;
  if (viewer.audience !== 'customer' || !mayChange(actor) || !isCustomerAdmin(actor)) return false;
  if (actor.customerId === null || user.customerId !== actor.customerId) return false;
  if (user.role === 'ROLE_BOLT_ADMIN_USER') return false;
  if (isCustomerSuperAdmin(actor) || user.id === actor.userId) return true;
  return user.role === 'ROLE_CUSTOMER_USER';
}

/**
 * Why the viewer cannot delete the user (one of the tooltips of 002 §6), or null when they can. The
 * reasons no one can overcome come first (yourself, a provider admin, the super admin), then the
 * viewer's own ('Deletion disabled': read-only, or a user they do not manage), then the links that
 * unlinking would remove.
 */
export function userDeleteBlockedReason(
  viewer: UserViewer,
  user: ManagedUser & { numberOfLinkedBackupPackages: number; numberOfLinkedBackupMachines: number },
): string | null {
  if (user.id === viewer.actor.userId) return MESSAGES.user.cannotDeleteYourself;
  if (user.role === 'ROLE_BOLT_ADMIN_USER') return MESSAGES.user.cannotDeleteBoltAdmin;
  if (user.role === 'ROLE_CUSTOMER_SUPER_ADMIN_USER') return MESSAGES.user.cannotDeleteSuperAdmin;
  if (!mayManageUser(viewer, user)) return MESSAGES.user.deletionDisabled;
  if (user.numberOfLinkedBackupPackages > 0 || user.numberOfLinkedBackupMachines > 0) {
    return MESSAGES.user.cannotDeleteLinked;
  }
  return null;
}

/** Whether a user has every package of their customer rather than linked ones. */
export const hasEveryPackage = (user: { role: Role }) => user.role === 'ROLE_CUSTOMER_SUPER_ADMIN_USER';

/**
 * Whether a package of the viewed customer is accessible to the viewer (accessibleByLoggedInUser of
 * 001 §3): to those who manage the customer and its super admin every one, to anyone else the
 * packages linked to them.
 */
export function packageAccessibleTo(viewer: UserViewer, pkg: { linkedToViewer: boolean }): boolean {
  if (viewer.audience !== 'customer') return true;
  return isCustomerSuperAdmin(viewer.actor) || pkg.linkedToViewer;
}

/** Whether a row's package or machine may be changed by the viewer (Manage rather than View). */
export const rowManageable = (viewer: UserViewer, accessible: boolean) => accessible && mayChange(viewer.actor);

/** The unlink button of a user's package row and its tooltip (001 §6, 002 §6). */
export function userUnlinkState(
  viewer: UserViewer,
  user: ManagedUser,
  pkg: { accessible: boolean },
): { unlinkable: boolean; unlinkTooltip: string } {
  if (hasEveryPackage(user)) return { unlinkable: false, unlinkTooltip: MESSAGES.user.naForSuperAdmin };
  if (pkg.accessible && mayManageUser(viewer, user)) return { unlinkable: true, unlinkTooltip: MESSAGES.user.unlink };
  return { unlinkable: false, unlinkTooltip: MESSAGES.user.cannotUnlink };
}

/** Whether the viewer may link the user to packages at all (a super admin has every one already). */
export const mayLinkUser = (viewer: UserViewer, user: ManagedUser) =>
  mayManageUser(viewer, user) && !hasEveryPackage(user);

/**
 * A user's page for an audience (001 §2 userUrl): /admin/account/users/{id} for the customer's own
 * admins, /boltadmin/customers/{cid}/users/{id} for the provider, /admin/mycustomers/{cid}/users/{id}
 * for a reseller.
 */
export function userUrl(audience: Audience, ref: { customerId: number; userId: number }): string {
  const userId = idSegment(ref.userId, 'userId');
  if (audience === 'customer') return `/admin/account/users/${userId}`;
  const customerId = idSegment(ref.customerId, 'customerId');
  const base = audience === 'provider' ? '/boltadmin/customers' : '/admin/mycustomers';
  return `${base}/${customerId}/users/${userId}`;
}

/** The user display of 002 §3 (plus deleteBlockedReason, ours): what a users table row carries. */
export interface UserRow {
  id: number;
  firstName: string;
  surname: string;
  email: string;
  contactNumber: string;
  readOnly: boolean;
  role: Role;
  roleName: string;
  status: UserStatus;
  numberOfLinkedBackupPackages: number;
  numberOfLinkedBackupMachines: number;
  deleteable: boolean;
  /** null when deleteable, else the tooltip of 002 §6 saying why not. */
  deleteBlockedReason: string | null;
  manageableByLoggedInUser: boolean;
  userUrl: string;
}

/** A backup package of a user's page (001 §3 customer-side package, plus the unlink state). */
export interface UserPackageRow {
  id: number;
  customerId: number;
  name: string;
  status: PackageStatus;
  packageQuotaSizeInBytes: number;
  numberOfBackupMachines: number;
  storageLocation: { id: number } | null;
  accessibleByLoggedInUser: boolean;
  manageable: boolean;
  backupPackageUrl: string;
  unlinkable: boolean;
  unlinkTooltip: string;
}

/** A backup machine of a user's page (001 §2 customer-side machines table). */
export interface UserMachineRow {
  id: number;
  name: string;
  status: MachineStatus;
  description: string;
  operatingSystem: string;
  usedBytes: number;
  numberOfBackupTasks: number;
  manageable: boolean;
  backupMachineUrl: string;
}
