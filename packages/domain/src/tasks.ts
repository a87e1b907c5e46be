import { z } from 'zod';
import { canCancelAction, canDeleteSnapshotArchive, downloadButton } from './actions.js';
import {
  ACTION_TYPES,
  type ActionType,
  type BackupType,
  type OsFamily,
  type RunStatus,
  type SnapshotStorageStatus,
  type SpeedUnit,
  type TaskBadge,
  type TaskDisplayStatus,
  type TaskStatus,
  type TransferPhase,
} from './enums.js';
import { pagingQuerySchema } from './envelope.js';
import type { RunChangeAlert, TaskChangeHold } from './guardrails.js';
import {
  type Actor,
  type CommandedMachine,
  isProviderAdmin,
  isResellerAdmin,
  machineAudience,
  mayChange,
} from './permissions.js';
import type { TaskControlReasons } from './remote-management.js';
import type { RestoreSummary } from './restore.js';
import type { RunReport } from './run-report.js';
import { machineQueue } from './urls.js';
import type { TaskVerification } from './verification.js';

/**
 * Backup tasks as the task lists and the task page show them (002 §2.6, §3, §4.2, §6, §7.5, §7.7, §9):
 * the display record, the runs and snapshots, the abilities the server computes for the page, and the
 * waits of the run-now, pause and delete dialogs.
 */

/** 002 §9: the waits of the task dialogs and the channel's reply time-out. */
export const TASK_COMMAND_TIMINGS = {
  /** No reply to a channel command within this time: 'Error in communicating with backup machine.' */
  replyTimeoutMs: 20_000,
  /** After a successful run-now start the dialog waits this long before notifying its parent. */
  runNowWaitMs: 10_000,
  /** After pause or unpause. */
  pauseWaitMs: 8_000,
  /** After a delete. */
  deleteWaitMs: 8_000,
} as const;

/** Ours: the runs table of the task page, 10 rows a page like the other tables of 002 §9. */
export const TASK_PAGE_SIZE = 10;

/** The owner columns of 002 §3's display record. */
export interface TaskCustomer {
  superAdminFullName: string;
  companyName: string;
}

/** 002 §3 'Backup task' display record (plus the display status and badges of 000 §4). */
export interface TaskRow {
  id: number;
  name: string;
  status: TaskStatus;
  displayStatus: TaskDisplayStatus;
  badges: TaskBadge[];
  type: BackupType;
  backupMachineId: number;
  backupScheduleDescription: string;
  snapshotsEnabled: boolean;
  /** Negative means Unlimited, 0 snapshots off. */
  numberOfSnapshotsToKeep: number;
  autoDeleteFailedSnapshots: boolean;
  syncDeletions: boolean;
  volumeSnapshotsEnabled: boolean;
  numberOfBackupRuns: number;
  statusOfLastRun: RunStatus | null;
  actionInProgress: boolean;
  backupTaskUrl: string;
  timeZone: string;
  backupPackageName: string;
  backupMachineName: string;
  customer: TaskCustomer;
  inProgressActionType: ActionType | null;
  inProgressActionProgress: number | null;
  /** -1 when unlimited. */
  uploadLimitInKiloBytesPerSecond: number;
  /** Issue 32 item 3: when the task's backups were last proved restorable and read in full, and the status. */
  verification: TaskVerification;
}

/** What the task page may offer the caller, computed by the server (DESIGN §3). */
export interface TaskAbilities {
  runNow: boolean;
  /** The pause toggle's target (PAUSED to pause, ACTIVE to unpause); null when there is no toggle. */
  pauseToggleTarget: 'PAUSED' | 'ACTIVE' | null;
  togglePause: boolean;
  edit: boolean;
  deleteable: boolean;
  /** 002 §6: cancel runs and actions (each row still needs a busy action). */
  cancelActions: boolean;
  /** 002 §6: delete snapshot archives and download (each row has its own rule too). */
  manageSnapshots: boolean;
  /**
   * Restore to the machine (issue 14): who may change the machine's backed-up data (mayHandleBackupData 'change':
   * not read-only, and the provider or a reseller only with the customer's allowProviderMachineControl).
   */
  restore: boolean;
  /** 002 §4.2: download and restore disabled while an action runs or the task is being deleted. */
  downloadDisabled: boolean;
  /** Why run now, pause, edit and delete are unavailable (issue 29; remote-management.ts), shown on the buttons. */
  reasons: TaskControlReasons;
}

/** The task page: the display record plus the machine's facts and the caller's abilities, flat as on every row. */
export interface TaskDetail extends TaskRow, TaskAbilities {
  customerId: number;
  backupPackageId: number;
  osFamily: OsFamily;
  machineOnline: boolean;
  remoteManagementEnabled: boolean;
  /** Issue 32: an unacknowledged unusual run holds the task's retention; null when none does. */
  changeHold: TaskChangeHold | null;
}

/** 002 §3 'Action / run', plus whether the caller may cancel it (002 §4.2, §6). */
export interface TaskActionRow {
  id: number;
  type: ActionType;
  status: RunStatus;
  timeStarted: string;
  timeFinished: string | null;
  transferProgressPercentage: number;
  currentTransfer: number;
  totalTransfers: number;
  phase: TransferPhase | null;
  failureMessage: string | null;
  snapshotsAvailable: boolean;
  /** Busy but without progress for the stall limit (issue 29, runs.ts): shown with the 'Stalled' badge. */
  stalled: boolean;
  cancellable: boolean;
  /** A finished restore's summary (issue 31); null for other actions, a restore still running and older agents. */
  restoreSummary: RestoreSummary | null;
  /** Ours (issue 31): what the run did, or is doing: files, bytes, duration, speed, time left. */
  report: RunReport;
  /** Issue 32: the run changed far more than usual (ransomware-like); null when it did not. */
  changeAlert: RunChangeAlert | null;
  /** Issue 32: the run's total size was far below the task's usual one. */
  smallerThanUsual: boolean;
}

/** 002 §3 'Snapshot', with what its row shows. */
export interface TaskSnapshotRow {
  id: number;
  /** The run that made it; null when that run's record is gone. */
  actionId: number | null;
  status: RunStatus;
  storageStatus: SnapshotStorageStatus;
  downloadable: boolean;
  createdAt: string;
  /** 002 §4.2 archive deletion rule, and the caller may manage snapshots. */
  archiveDeletable: boolean;
}

/** 002 §3 'Storage details' of a task or one of its snapshots. */
export interface StorageDetails {
  id: number;
  maxBackupSizePerMachineInBytes: number;
  usedSpaceInBytes: number;
  usedSpaceInBytesForCurrentContent: number;
  usedSpaceInBytesForSnapshotsContent: number;
}

/** GET .../actions?type={type} (002 §7.5), paged. */
export const taskActionsQuerySchema = pagingQuerySchema.extend({
  type: z.enum(ACTION_TYPES, { error: `Type must be one of ${ACTION_TYPES.join(', ')}` }),
});
export type TaskActionsQuery = z.output<typeof taskActionsQuerySchema>;

/** PUT .../backupactions/{actionId}/cancel?type={type} (002 §7.5). */
export const actionCancelQuerySchema = z.object({
  type: z.enum(ACTION_TYPES, { error: `Type must be one of ${ACTION_TYPES.join(', ')}` }),
});

/**
 * 002 §6: who may cancel a machine's actions. Provider admins may; a reseller admin only when the customer
 * allows provider machine control; the customer's users on machines they see. Read-only users change nothing.
 */
export function mayCancelActions(actor: Actor, machine: CommandedMachine): boolean {
  if (!mayChange(actor)) return false;
  const audience = machineAudience(actor, machine);
  if (audience === null) return false;
  if (isProviderAdmin(actor)) return true;
  if (audience === 'reseller' && isResellerAdmin(actor)) return machine.allowProviderMachineControl;
  return audience === 'customer';
}

/** A run row's cancel button (002 §4.2 and §6 together). */
export const isActionCancellable = (mayCancel: boolean, status: RunStatus): boolean =>
  mayCancel && canCancelAction(status);

/** A snapshot row's archive deletion (002 §4.2 and §6 together). */
export const isArchiveDeletable = (
  mayManage: boolean,
  snapshot: { status: RunStatus; storageStatus: SnapshotStorageStatus },
): boolean =>
  mayManage && canDeleteSnapshotArchive({ actionStatus: snapshot.status, storageStatus: snapshot.storageStatus });

/**
 * 002 §4.2: whether download and restore are disabled on the page (an action runs, or the task is being deleted).
 * Any busy action counts, a restore to the machine too, though it leaves the task's last-run status alone.
 */
export const isDownloadDisabled = (task: { inProgressActionType: ActionType | null; status: TaskStatus }): boolean =>
  downloadButton({
    snapshotsAvailable: true,
    taskActionInProgress: task.inProgressActionType !== null,
    taskStatus: task.status,
  }).disabled;

/**
 * `--limit-upload` in KiB/s for a task's bandwidth setting, or null for no limit (-1, or 0 which restic
 * itself reads as unlimited). The portal's units are binary (sizes.ts: 1 KB = 1024 B), so KB/s is KiB/s
 * and MB/s is 1024 KiB/s; a megabit is 1,000,000 bits as everywhere in networking (125,000 B/s). Never
 * below 1 KiB/s. The agent limits restic with it; the display record shows it (-1 when unlimited).
 */
export function uploadLimitKiB(limit: number, unit: SpeedUnit): number | null {
  if (!Number.isFinite(limit) || limit <= 0) return null;
  const bytesPerSecond =
    unit === 'KILO_BYTES_PER_SECOND'
      ? limit * 1024
      : unit === 'MEGA_BYTES_PER_SECOND'
        ? limit * 1_048_576
        : limit * 125_000;
  return Math.max(1, Math.floor(bytesPerSecond / 1024));
}

/**
 * Ours: the message on a machine's runs queue (runsQueue) when a run of one of its tasks started, moved
 * or finished, so an open task page reloads its runs while a run is busy.
 */
export const taskRunChangedSchema = z.object({
  type: z.literal('taskRunChanged'),
  taskId: z.number().int().positive(),
  runId: z.number().int().positive(),
});
export type TaskRunChanged = z.infer<typeof taskRunChangedSchema>;

/** Ours: /ws/queue/backupmachines/{id}/runs (customer side) or /ws/queue/boltadmin/backupmachines/{id}/runs. */
export const runsQueue = (side: 'customer' | 'provider', machineId: number) => `${machineQueue(side, machineId)}/runs`;

export const taskRunChanged = (taskId: number, runId: number): TaskRunChanged => ({
  type: 'taskRunChanged',
  taskId,
  runId,
});

/** 002 §3: how each backup type is shown. */
export const BACKUP_TYPE_TEXTS: Record<BackupType, string> = {
  FILES_AND_FOLDERS: 'Files and folders',
  CPANEL: 'cPanel accounts',
  DIRECT_ADMIN: 'Direct Admin accounts',
};

/** 002 §2.6: the Type row of the task summary shows only when the task is not files and folders. */
export const showsBackupType = (type: BackupType): boolean => type !== 'FILES_AND_FOLDERS';

/** Ours: the titles of the pause toggle's dialog (002 §2.6 'Pause/Unpause backup task'). */
export const pauseDialogTitle = (target: 'PAUSED' | 'ACTIVE'): string =>
  target === 'PAUSED' ? 'Pause backup task' : 'Unpause backup task';
