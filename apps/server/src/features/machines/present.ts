import {
  type Actor,
  type Audience,
  addTaskBlockedReason,
  canDeleteMachine,
  diagnosticsBlockedReason,
  isCustomerUser,
  isProviderAdmin,
  type MachineDetail,
  type MachineMessageRow,
  type MachineRow,
  type MachineStorage,
  MESSAGES,
  machineStatusOptions,
  machineUrlOf,
  mayAdministerMachine,
  mayManageMachine,
  megabytesToBytes,
  remoteManagementSwitchBlockedReason,
  storageFigures,
  userUrl,
} from '@portal/domain';
import type { MachineRecord } from './repo.js';

/** The assigned user's page, for a caller who may open user pages (not a customer's plain user). */
function assignedUserUrl(actor: Actor, audience: Audience, machine: MachineRecord): string | null {
  if (machine.assignedUserId === null || isCustomerUser(actor)) return null;
  return userUrl(audience, { customerId: machine.customerId, userId: machine.assignedUserId });
}

/** What every machines table shows of a machine (its own list, a user's page), with the page `audience` opens. */
export const machineColumns = (
  machine: Pick<
    MachineRecord,
    | 'id'
    | 'customerId'
    | 'backupPackageId'
    | 'name'
    | 'status'
    | 'description'
    | 'operatingSystem'
    | 'numberOfBackupTasks'
  >,
  audience: Audience,
) => ({
  id: machine.id,
  name: machine.name,
  status: machine.status,
  description: machine.description,
  operatingSystem: machine.operatingSystem,
  numberOfBackupTasks: machine.numberOfBackupTasks,
  backupMachineUrl: machineUrlOf(audience, machine),
});

/** A machines-table row (001 §2, §3) as the caller, who sees it as `audience`, may use it. */
export function presentMachineRow(machine: MachineRecord, actor: Actor, audience: Audience): MachineRow {
  return {
    ...machineColumns(machine, audience),
    userId: machine.assignedUserId,
    assignedUser: machine.assignedUserName,
    assignedUserUrl: assignedUserUrl(actor, audience, machine),
    backupPackageId: machine.backupPackageId,
    customerId: machine.customerId,
    manageable: mayManageMachine(actor, machine),
  };
}

/**
 * A machine's page (001 §2): the row, presence and what the caller may do on it. `onS3`: its package's location
 * is on an S3 storage account (only read for a provider admin).
 */
export function presentMachineDetail(
  machine: MachineRecord,
  actor: Actor,
  audience: Audience,
  onS3 = false,
): MachineDetail {
  const administrable = mayAdministerMachine(actor, machine);
  const switchRefused = remoteManagementSwitchBlockedReason(actor, machine);
  const R = MESSAGES.remoteManagement;
  return {
    ...presentMachineRow(machine, actor, audience),
    customerName: machine.customerName,
    backupPackageName: machine.backupPackageName,
    osFamily: machine.osFamily,
    desktopClientVersion: machine.desktopClientVersion,
    timeZone: machine.timeZone,
    online: machine.online,
    lastSeenAt: machine.lastSeenAt?.toISOString() ?? null,
    statusOptions: administrable ? [...machineStatusOptions(machine.status)] : [],
    deleteable: administrable && canDeleteMachine(machine.status),
    administrable,
    storageKeyRotatable: isProviderAdmin(actor) && onS3 && !machine.beingDeleted,
    remoteManagementEnabled: machine.remoteManagementEnabled,
    remoteManagementSwitchable: switchRefused === null,
    remoteManagementTooltip: switchRefused ?? (machine.remoteManagementEnabled ? R.turnOff : R.turnOn),
    addTaskBlockedReason: addTaskBlockedReason(actor, machine),
    diagnosticsBlockedReason: diagnosticsBlockedReason(actor, machine),
  };
}

/** GET /backupmachines/{id}/storage (001 §3): the usage the agent reported against the package's limit. */
export function presentMachineStorage(machine: MachineRecord): MachineStorage {
  const figures = storageFigures(machine.usedSpaceBytes, megabytesToBytes(machine.maxBackupSizePerMachineInMbs));
  return {
    id: machine.id,
    maxBackupSizePerMachineInBytes: figures.totalSpaceInBytes,
    availableSpaceInBytes: figures.availableSpaceInBytes,
    usedSpaceInBytes: figures.usedSpaceInBytes,
  };
}

export function presentMachineMessage(row: {
  id: number;
  time: Date;
  messageType: MachineMessageRow['messageType'];
  backupTaskId: number | null;
  actionId: number | null;
  message: string;
}): MachineMessageRow {
  return {
    id: row.id,
    time: row.time.toISOString(),
    messageType: row.messageType,
    backupTaskId: row.backupTaskId,
    actionId: row.actionId,
    message: row.message,
  };
}
