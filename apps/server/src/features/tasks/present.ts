import {
  type Audience,
  isActionCancellable,
  isArchiveDeletable,
  isBusyRunStatus,
  isDownloadDisabled,
  megabytesToBytes,
  type RunReport,
  type StorageDetails,
  type TaskAbilities,
  type TaskActionRow,
  type TaskDetail,
  type TaskRow,
  type TaskSnapshotRow,
  taskBadges,
  taskUrlOf,
  uploadLimitKiB,
} from '@portal/domain';
import { presentVerification } from '../verification/present.js';
import type { ActionRecord, SnapshotRecord, TaskMachine, TaskRecord } from './repo.js';

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** 002 §3's display record; the link is the caller's audience's task page. */
export function presentTaskRow(task: TaskRecord, machine: TaskMachine, audience: Audience): TaskRow {
  return {
    id: task.id,
    name: task.name,
    status: task.status,
    displayStatus: task.displayStatus,
    badges: taskBadges({ ...task, ...machine }),
    type: task.type,
    backupMachineId: machine.id,
    backupScheduleDescription: task.scheduleDescription,
    snapshotsEnabled: task.snapshotsEnabled,
    numberOfSnapshotsToKeep: task.numberOfSnapshotsToKeep,
    autoDeleteFailedSnapshots: task.autoDeleteFailedSnapshots,
    syncDeletions: task.syncDeletions,
    volumeSnapshotsEnabled: task.volumeSnapshotsEnabled,
    numberOfBackupRuns: task.numberOfBackupRuns,
    statusOfLastRun: task.statusOfLastRun,
    actionInProgress: task.inProgressActionType !== null,
    backupTaskUrl: taskUrlOf(audience, machine, task.id),
    timeZone: machine.timeZone,
    backupPackageName: machine.packageName,
    backupMachineName: machine.name,
    customer: { superAdminFullName: machine.superAdminName ?? '', companyName: machine.companyName },
    inProgressActionType: task.inProgressActionType,
    inProgressActionProgress: task.inProgressActionProgress === null ? null : Number(task.inProgressActionProgress),
    uploadLimitInKiloBytesPerSecond: uploadLimitKiB(task.uploadBandwidthLimit, task.uploadBandwidthLimitUnit) ?? -1,
    verification: presentVerification(task),
  };
}

export function presentTaskDetail(
  task: TaskRecord,
  machine: TaskMachine,
  audience: Audience,
  abilities: Omit<TaskAbilities, 'downloadDisabled'> & { acknowledgeChange: boolean },
): TaskDetail {
  const { acknowledgeChange, ...granted } = abilities;
  return {
    ...presentTaskRow(task, machine, audience),
    customerId: machine.customerId,
    backupPackageId: machine.backupPackageId,
    osFamily: machine.osFamily,
    machineOnline: machine.online,
    remoteManagementEnabled: machine.remoteManagementEnabled,
    ...granted,
    downloadDisabled: isDownloadDisabled(task),
    changeHold:
      task.retentionHoldActionId === null
        ? null
        : {
            runId: task.retentionHoldActionId,
            since: task.retentionHoldSince === null ? '' : new Date(task.retentionHoldSince).toISOString(),
            acknowledgeable: acknowledgeChange,
          },
  };
}

export function presentAction(action: ActionRecord, mayCancel: boolean): TaskActionRow {
  return {
    id: action.id,
    type: action.type,
    status: action.status,
    timeStarted: action.timeStarted.toISOString(),
    timeFinished: iso(action.timeFinished),
    transferProgressPercentage: action.transferProgressPercentage,
    currentTransfer: action.currentTransfer,
    totalTransfers: action.totalTransfers,
    phase: action.phase,
    failureMessage: action.failureMessage,
    snapshotsAvailable: action.snapshotsAvailable,
    stalled: action.stalledAt !== null && isBusyRunStatus(action.status),
    cancellable: isActionCancellable(mayCancel, action.status),
    restoreSummary: action.restoreSummary,
    report: presentRunReport(action),
    changeAlert:
      action.changeReasons === null || action.changeReasons.length === 0
        ? null
        : { reasons: action.changeReasons, acknowledged: action.changeAcknowledgedAt !== null },
    smallerThanUsual: action.smallerThanUsual,
  };
}

/** What the run did (issue 31): its summary once finished, its live figures while busy. */
function presentRunReport(action: ActionRecord): RunReport {
  return {
    snapshotId: action.resticSnapshotId,
    bytesAdded: action.bytesAdded,
    bytesProcessed: action.bytesTotal,
    summary: action.summary,
    progress: isBusyRunStatus(action.status)
      ? {
          bytesDone: action.progressBytesDone,
          filesDone: action.progressFilesDone,
          bytesPerSecond: action.progressBytesPerSecond,
          secondsRemaining: action.progressSecondsRemaining,
        }
      : null,
  };
}

export function presentSnapshot(snapshot: SnapshotRecord, mayManage: boolean): TaskSnapshotRow {
  const downloadable = snapshot.storageStatus === 'AVAILABLE' && snapshot.snapshotsAvailable === true;
  return {
    id: snapshot.id,
    actionId: snapshot.actionId,
    status: snapshot.status,
    storageStatus: snapshot.storageStatus,
    downloadable,
    createdAt: snapshot.createdAt.toISOString(),
    archiveDeletable: isArchiveDeletable(mayManage, snapshot),
  };
}

/** 002 §3 'Storage details': the machine's quota and usage, with the task's (or one snapshot's) share. */
export function presentStorage(
  id: number,
  machine: TaskMachine,
  usage: { currentBytes: number; snapshotBytes: number },
): StorageDetails {
  return {
    id,
    maxBackupSizePerMachineInBytes: megabytesToBytes(machine.maxBackupSizePerMachineInMbs),
    usedSpaceInBytes: machine.usedSpaceBytes,
    usedSpaceInBytesForCurrentContent: usage.currentBytes,
    usedSpaceInBytesForSnapshotsContent: usage.snapshotBytes,
  };
}
