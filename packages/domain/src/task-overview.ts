import type { ActionType, OsFamily, TaskDisplayStatus, TaskStatus } from './enums.js';
import { volumeSnapshotsEditable } from './forms/customer.js';
import { MESSAGES } from './messages.js';
import type { TaskVerification } from './verification.js';

/** The provider's task dashboards page ten rows at a time, like the other admin-area tables (002 §2.5). */
export const TASK_OVERVIEW_PAGE_SIZE = 10;

/**
 * "Tasks running in the next period" (002 §2.6, DESIGN §8): the spec leaves the period open; ours is the
 * next hour. A task is in it when its next expected run (its cron in its machine's time zone, kept on the
 * task as next_run_at) falls within this many minutes from now and it may run.
 */
export const TASK_OVERVIEW_NEXT_PERIOD_MINUTES = 60;

/**
 * One row of the provider's task dashboards: the Backup task display record of 002 §3 with what the
 * dashboards show (columns of 002 §2.6), the links of each row, and what the 'Edit backup task' dialog
 * needs (osFamily, volumeSnapshotsEnabled, volumeSnapshotsEditable with its reason).
 */
export interface TaskOverviewRow {
  id: number;
  name: string;
  status: TaskStatus;
  displayStatus: TaskDisplayStatus;
  backupScheduleDescription: string;
  timeZone: string;
  backupPackageId: number;
  backupPackageName: string;
  backupMachineId: number;
  backupMachineName: string;
  osFamily: OsFamily;
  customer: { id: number; superAdminFullName: string | null; companyName: string };
  volumeSnapshotsEnabled: boolean;
  /** Null when the dialog may save; otherwise why its button is disabled. */
  volumeSnapshotsDisabledReason: string | null;
  /** Running tasks: the busy action's type and progress (0-100); null on the other dashboards. */
  inProgressActionId: number | null;
  inProgressActionType: ActionType | null;
  inProgressActionProgress: number | null;
  /** ISO time of the next expected run; null when none is expected. */
  nextRunAt: string | null;
  backupTaskUrl: string;
  backupMachineUrl: string;
  customerUrl: string;
  /** Issue 32 item 3: the task's last verification ('Last verified' column). */
  verification: TaskVerification;
}

/** The answer of the volume snapshots PUT (002 §7.3). */
export interface TaskVolumeSnapshotsResult {
  id: number;
  volumeSnapshotsEnabled: boolean;
}

/**
 * Why the 'Edit backup task' dialog may not save for this task, or null when it may: volume snapshots are
 * editable only for Windows machines (002 §5.5), and a task being deleted is not edited (002 §4.2).
 */
export function volumeSnapshotsDisabledReason(task: { osFamily: OsFamily; status?: TaskStatus }): string | null {
  if (!volumeSnapshotsEditable(task.osFamily)) return MESSAGES.taskOverview.notWindows;
  if (task.status === 'BEING_DELETED') return MESSAGES.taskOverview.taskBeingDeleted;
  return null;
}

/** Ours: the task dashboards refresh this often while shown (progress moves; tasks start, finish and go). */
export const TASK_OVERVIEW_REFRESH_MS = 5000;
