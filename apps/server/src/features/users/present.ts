import {
  mayManageUser,
  packageAccessibleTo,
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
import { machineColumns } from '../machines/present.js';
import { packageColumns } from '../packages/present.js';
import type { UserMachineRecord, UserPackageRecord, UserRecord, UserRef } from './repo.js';

/** Who a user is, as the users table and the user's own profile show it. */
export const personColumns = (
  user: Pick<UserRecord, 'id' | 'firstName' | 'surname' | 'email' | 'contactNumber' | 'readOnly' | 'role'>,
) => ({
  id: user.id,
  firstName: user.firstName,
  surname: user.surname,
  email: user.email,
  contactNumber: user.contactNumber,
  readOnly: user.readOnly,
  role: user.role,
  roleName: ROLE_NAMES[user.role],
});

/**
 * The wire shapes of a customer's users (002 §3 'User display', 001 §3), the same for every audience: the
 * customer's own admins (/admin/account/users/{id}), the provider and resellers (read-only views through
 * their customer pages). Fields are listed one by one, so nothing else (the password hash) can leave.
 */
export function presentUserRow(user: UserRecord, viewer: UserViewer): UserRow {
  const deleteBlockedReason = userDeleteBlockedReason(viewer, user);
  return {
    ...personColumns(user),
    status: user.status,
    numberOfLinkedBackupPackages: user.numberOfLinkedBackupPackages,
    numberOfLinkedBackupMachines: user.numberOfLinkedBackupMachines,
    deleteable: deleteBlockedReason === null,
    deleteBlockedReason,
    manageableByLoggedInUser: mayManageUser(viewer, user),
    userUrl: userUrl(viewer.audience, { customerId: user.customerId, userId: user.id }),
  };
}

/** A package of the user's page, with whether the viewer may open, manage and unlink it. */
export function presentUserPackageRow(pkg: UserPackageRecord, user: UserRef, viewer: UserViewer): UserPackageRow {
  const accessible = packageAccessibleTo(viewer, pkg);
  return {
    ...packageColumns(pkg, viewer.audience, accessible),
    storageLocation: pkg.storageLocationId === null ? null : { id: pkg.storageLocationId },
    manageable: rowManageable(viewer, accessible),
    ...userUnlinkState(viewer, user, { accessible }),
  };
}

/** A machine assigned to the user; manageable as its package is for the viewer. */
export function presentUserMachineRow(machine: UserMachineRecord, viewer: UserViewer): UserMachineRow {
  return {
    ...machineColumns(machine, viewer.audience),
    usedBytes: machine.usedSpaceBytes,
    manageable: rowManageable(viewer, packageAccessibleTo(viewer, machine)),
  };
}
