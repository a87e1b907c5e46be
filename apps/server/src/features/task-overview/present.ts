import { customerUrl, machineUrl, type TaskOverviewRow, taskUrl, volumeSnapshotsDisabledReason } from '@portal/domain';
import { presentVerification } from '../verification/present.js';
import type { RunningTaskRecord, TaskOverviewRecord } from './repo.js';

/** A dashboard row on the wire (002 §3 Backup task display record), with the provider's links. */
export function presentTaskOverviewRow(row: TaskOverviewRecord | RunningTaskRecord): TaskOverviewRow {
  const ref = { customerId: row.customerId, packageId: row.packageId, machineId: row.machineId, taskId: row.id };
  const running = 'actionId' in row;
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    displayStatus: row.displayStatus,
    backupScheduleDescription: row.scheduleDescription,
    timeZone: row.timeZone,
    backupPackageId: row.packageId,
    backupPackageName: row.packageName,
    backupMachineId: row.machineId,
    backupMachineName: row.machineName,
    osFamily: row.osFamily,
    customer: { id: row.customerId, superAdminFullName: row.superAdminName, companyName: row.companyName },
    volumeSnapshotsEnabled: row.volumeSnapshotsEnabled,
    volumeSnapshotsDisabledReason: volumeSnapshotsDisabledReason(row),
    inProgressActionId: running ? row.actionId : null,
    inProgressActionType: running ? row.actionType : null,
    inProgressActionProgress: running ? Math.min(100, Math.max(0, row.actionProgress)) : null,
    nextRunAt: row.nextRunAt ? row.nextRunAt.toISOString() : null,
    backupTaskUrl: taskUrl('provider', ref),
    backupMachineUrl: machineUrl('provider', ref),
    customerUrl: customerUrl('provider', row.customerId),
    verification: presentVerification(row),
  };
}
