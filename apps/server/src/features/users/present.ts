import {
  machineUrlOf,
  mayManageUser,
  packageAccessibleTo,
  packageUrl,
  ROLE_NAMES,
  rowManageable,
  type UserMachineRow,
  type UserPackageRow,
  type UserRow,
  type UserViewer,
  userDeleteBlockedReason,
  userUnlinkState,
  userUrl,
} from '@portal/domain';
import type { UserMachineRecord, UserPackageRecord, UserRecord, UserRef } from './repo.js';

/**
 * The wire shapes of a customer's users (002 §3 'User display', 001 §3), the same for every audience: the
 * customer's own admins (/admin/account/users/{id}), the provider and resellers (read-only views through
 * their customer pages). Fields are listed one by one, so nothing else (the password hash) can leave.
 */
export function presentUserRow(user: UserRecord, viewer: UserViewer): UserRow {
  const deleteBlockedReason = userDeleteBlockedReason(viewer, user);
  return {
    id: user.id,
    firstName: user.firstName,
    surname: user.surname,
    email: user.email,
    contactNumber: user.contactNumber,
    readOnly: user.readOnly,
    role: user.role,
    roleName: ROLE_NAMES[user.role],
    status: user.status,
    numberOfLinkedBackupPackages: user.numberOfLinkedBackupPackages,
    numberOfLinkedBackupMachines: user.numberOfLinkedBackupMachines,
    deleteable: deleteBlockedReason === null,
    deleteBlockedReason,
    manageableByLoggedInUser: mayManageUser(viewer, user),
    userUrl: userUrl(viewer.audience, { customerId: user.customerId, userId: user.id }),
  };
}

const packageLink = (viewer: UserViewer, ref: { customerId: number; packageId: number }) =>
  viewer.audience === 'customer' ? packageUrl('customer', ref) : packageUrl(viewer.audience, ref);

/** A package of the user's page, with whether the viewer may open, manage and unlink it. */
export function presentUserPackageRow(pkg: UserPackageRecord, user: UserRef, viewer: UserViewer): UserPackageRow {
  const accessible = packageAccessibleTo(viewer, pkg);
  return {
    id: pkg.id,
    customerId: pkg.customerId,
    name: pkg.name,
    status: pkg.status,
    packageQuotaSizeInBytes: pkg.packageQuotaSizeInBytes,
    numberOfBackupMachines: pkg.numberOfBackupMachines,
    storageLocation: pkg.storageLocationId === null ? null : { id: pkg.storageLocationId },
    accessibleByLoggedInUser: accessible,
    manageable: rowManageable(viewer, accessible),
    backupPackageUrl: packageLink(viewer, { customerId: pkg.customerId, packageId: pkg.id }),
    ...userUnlinkState(viewer, user, { accessible }),
  };
}

/** A machine assigned to the user; manageable as its package is for the viewer. */
export function presentUserMachineRow(machine: UserMachineRecord, viewer: UserViewer): UserMachineRow {
  return {
    id: machine.id,
    name: machine.name,
    status: machine.status,
    description: machine.description,
    operatingSystem: machine.operatingSystem,
    usedBytes: machine.usedSpaceBytes,
    numberOfBackupTasks: machine.numberOfBackupTasks,
    manageable: rowManageable(viewer, packageAccessibleTo(viewer, machine)),
    backupMachineUrl: machineUrlOf(viewer.audience, machine),
  };
}
