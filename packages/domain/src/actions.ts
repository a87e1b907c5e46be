import {
  ACTION_TYPE_TEXTS,
  type ActionType,
  type BadgeVariant,
  COMMAND_RESULT_CODES,
  COMMAND_RESULT_TEXTS,
  type CommandResultCode,
  MIGRATION_STATUS_TEXTS,
  type MigrationStatus,
  RCLONE_RESULT_CODES,
  RCLONE_RESULT_TEXTS,
  type RcloneResultCode,
  type RunStatus,
  type SnapshotStorageStatus,
  SYNC_TYPE_TEXTS,
  type SyncType,
  type TaskStatus,
  TRANSFER_PHASE_TEXTS,
  TRANSFER_PHASES,
  type TransferPhase,
  type TransferResultCode,
} from './enums.js';
import { isBusyRunStatus, type StatusBadge } from './statuses.js';

// --- Runs and actions (002 §4.2) -------------------------------------------------------------------

/** 002 §4.2: busy means not failed and not finished, i.e. INITIATED or IN_PROGRESS. */
export function isActionBusy(status: RunStatus): boolean {
  return isBusyRunStatus(status);
}

/**
 * Whether an action of this type is a run of the task for its statuses (last run, the run before it, missed
 * executions, and through them the dashboard's counts and pies): backups and a seed's creation and loading are.
 * A restore to the machine (BACKUP_RESTORE, issue 14) only reads a snapshot: it is listed among the task's
 * actions with its progress, and while it is busy Download and Restore are disabled and the task does not run,
 * but it leaves the task's display status as it was.
 */
export const isTaskRunAction = (type: ActionType) => type !== 'BACKUP_RESTORE';

/**
 * Ours: the failure message of an action cut off by its agent's stop (killed, a crash, the machine shut down). The
 * server writes it for a busy action the reconnecting agent no longer accounts for (agent-protocol.ts, `hello`), the
 * agent for a start still in its outbox without an end. A restore says it was a restore, in the words of its dialog.
 */
export const INTERRUPTED_ACTION_MESSAGES = {
  backup: 'The backup was interrupted: the agent stopped (or the machine shut down) during the run.',
  restore:
    'The restore was interrupted: the agent stopped (or the machine shut down) during the restore. Files already restored stay; start the restore again.',
} as const;

/** The interrupted action's failure message by its type. */
export const interruptedActionMessage = (type: ActionType): string =>
  type === 'BACKUP_RESTORE' ? INTERRUPTED_ACTION_MESSAGES.restore : INTERRUPTED_ACTION_MESSAGES.backup;

/** 002 §4.2: cancel is allowed only when the action is initiated or in progress. */
export function canCancelAction(status: RunStatus): boolean {
  return isBusyRunStatus(status);
}

/**
 * 002 §4.2: snapshot archive deletion only when the action is not initiated or in progress and the
 * snapshot's storage is neither being deleted nor deleted.
 */
export function canDeleteSnapshotArchive(input: {
  actionStatus: RunStatus;
  storageStatus: SnapshotStorageStatus;
}): boolean {
  return (
    !isBusyRunStatus(input.actionStatus) && input.storageStatus !== 'BEING_DELETED' && input.storageStatus !== 'DELETED'
  );
}

/**
 * 002 §4.2: Download is shown when the run has snapshots available; it is disabled while a task action
 * is in progress or the task is being deleted.
 */
export function downloadButton(input: {
  snapshotsAvailable: boolean;
  taskActionInProgress: boolean;
  taskStatus: TaskStatus;
}): { shown: boolean; disabled: boolean } {
  return {
    shown: input.snapshotsAvailable,
    disabled: input.taskActionInProgress || input.taskStatus === 'BEING_DELETED',
  };
}

/** 002 §4.2, §9: the progress bar's maximum. */
export const PROGRESS_BAR_MAX = 100;

/**
 * 002 §4.2: the progress bar is danger when failed; warning when under 100 % or finished with
 * warnings; otherwise success. The value is clamped to 0..100 (a reported percentage can overshoot).
 */
export function progressBar(action: { status: RunStatus; transferProgressPercentage: number }): {
  value: number;
  max: number;
  variant: BadgeVariant;
} {
  const raw = Number.isFinite(action.transferProgressPercentage) ? action.transferProgressPercentage : 0;
  const value = Math.min(PROGRESS_BAR_MAX, Math.max(0, raw));
  let variant: BadgeVariant = 'success';
  if (action.status === 'FAILED') variant = 'danger';
  else if (value < PROGRESS_BAR_MAX || action.status === 'FINISHED_WARNINGS') variant = 'warning';
  return { value, max: PROGRESS_BAR_MAX, variant };
}

/** 002 §4.2: 'Item x of y' shows when the action is busy and total transfers exceed 1. */
export function itemProgressText(action: {
  status: RunStatus;
  currentTransfer: number;
  totalTransfers: number;
}): string | null {
  if (!isBusyRunStatus(action.status) || action.totalTransfers <= 1) return null;
  return `Item ${action.currentTransfer} of ${action.totalTransfers}`;
}

/** 002 §4.2: the duration of a run without a finish time. */
export const ONGOING_TEXT = 'ongoing';

type Instant = Date | string | number;

function toMillis(value: Instant): number {
  return value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
}

/**
 * A duration for people: under a second in milliseconds ('850 ms'); otherwise whole days, hours,
 * minutes and seconds with zero parts left out ('1 h 2 min 3 s', '2 d 5 min', '1 min'). Seconds are
 * truncated, so a duration never reads longer than it was.
 */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.floor(ms)} ms`;
  let seconds = Math.floor(ms / 1000);
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['min', 60],
    ['s', 1],
  ] as const) {
    const amount = Math.floor(seconds / size);
    seconds -= amount * size;
    if (amount > 0) parts.push(`${amount} ${unit}`);
  }
  return parts.join(' ');
}

/**
 * 002 §4.2: run duration is 'ongoing' without a finish time, otherwise the elapsed time with a minimum
 * of 1 ms (so a run that finished within the clock's resolution, or with a finish before its start
 * through clock skew, reads '1 ms'). Times are Dates, ISO strings or epoch milliseconds; a finish time
 * that cannot be read counts as absent, and an unreadable start gives an empty text (nothing to measure).
 */
export function durationText(timeStarted: Instant, timeFinished: Instant | null | undefined): string {
  if (timeFinished === null || timeFinished === undefined) return ONGOING_TEXT;
  const finished = toMillis(timeFinished);
  const started = toMillis(timeStarted);
  if (!Number.isFinite(finished)) return ONGOING_TEXT;
  if (!Number.isFinite(started)) return '';
  return formatDuration(Math.max(1, finished - started));
}

export function isTransferPhase(value: string): value is TransferPhase {
  return (TRANSFER_PHASES as readonly string[]).includes(value);
}

/**
 * The text of an action's phase (002 §4.2). The stored phase is free text (a phase added by a newer
 * agent needs no migration), so an unknown value yields an empty text rather than a wrong one.
 */
export function phaseText(phase: string | null | undefined): string {
  return phase && isTransferPhase(phase) ? TRANSFER_PHASE_TEXTS[phase] : '';
}

/** 002 §4.2: a failure message shows only when the action failed and the message is not empty. */
export function failureMessageToShow(action: {
  status: RunStatus;
  failureMessage: string | null | undefined;
}): string | null {
  const message = action.failureMessage?.trim() ?? '';
  return action.status === 'FAILED' && message !== '' ? message : null;
}

/** 002 §4.2: the warning note of an action finished with warnings (wording ours). */
export const FINISHED_WITH_WARNINGS_NOTE =
  'Finished with warnings: some items could not be backed up. View the log for details.';

export function warningNote(action: { status: RunStatus }): string | null {
  return action.status === 'FINISHED_WARNINGS' ? FINISHED_WITH_WARNINGS_NOTE : null;
}

/** 002 §8.4: 'The {action} has been cancelled', the action named by its type in lower case. */
export function actionCancelledText(actionType: ActionType): string {
  return `The ${ACTION_TYPE_TEXTS[actionType].toLowerCase()} has been cancelled`;
}

// --- Snapshots (002 §4.2) --------------------------------------------------------------------------

export const SNAPSHOT_BADGES = {
  inProgress: { text: 'IN PROGRESS', variant: 'info' },
  deleted: { text: 'DELETED', variant: 'secondary' },
  beingDeleted: { text: 'BEING DELETED', variant: 'warning' },
} as const satisfies Record<string, StatusBadge>;

/**
 * 002 §4.2: a snapshot row shows an IN PROGRESS, DELETED or BEING DELETED badge (checked in that
 * order), otherwise its storage bar.
 */
export function snapshotDisplay(snapshot: {
  status: RunStatus;
  storageStatus: SnapshotStorageStatus;
}): { kind: 'badge'; badge: StatusBadge } | { kind: 'storageBar' } {
  if (isBusyRunStatus(snapshot.status)) return { kind: 'badge', badge: SNAPSHOT_BADGES.inProgress };
  if (snapshot.storageStatus === 'DELETED') return { kind: 'badge', badge: SNAPSHOT_BADGES.deleted };
  if (snapshot.storageStatus === 'BEING_DELETED') return { kind: 'badge', badge: SNAPSHOT_BADGES.beingDeleted };
  return { kind: 'storageBar' };
}

// --- Package migrations (001 §4) -------------------------------------------------------------------

/** 001 §4: blue, yellow, green and red as the spec gives them (blue = primary, yellow = warning). */
export const MIGRATION_STATUS_VARIANTS: Record<MigrationStatus, BadgeVariant> = {
  INITIALIZED: 'primary',
  INITIAL_SYNC_IN_PROGRESS: 'warning',
  FINAL_SYNC_IN_PROGRESS: 'warning',
  INITIAL_SYNC_FINISHED_SUCCESS: 'success',
  FINAL_SYNC_FINISHED_SUCCESS: 'success',
  INITIAL_SYNC_FAILED: 'danger',
  FINAL_SYNC_FAILED: 'danger',
  ROLLED_BACK: 'danger',
};

export function migrationStatusBadge(status: MigrationStatus): StatusBadge {
  return { text: MIGRATION_STATUS_TEXTS[status], variant: MIGRATION_STATUS_VARIANTS[status] };
}

/** 001 §3: SYNC info, FINAL_SYNC warning, MISCELLANEOUS primary. */
export const SYNC_TYPE_VARIANTS: Record<SyncType, BadgeVariant> = {
  SYNC: 'info',
  FINAL_SYNC: 'warning',
  MISCELLANEOUS: 'primary',
};

export function syncTypeBadge(type: SyncType): StatusBadge {
  return { text: SYNC_TYPE_TEXTS[type], variant: SYNC_TYPE_VARIANTS[type] };
}

/** 001 §4: an IN USE badge marks the location the package currently uses. */
export const IN_USE_BADGE: StatusBadge = { text: 'IN USE', variant: 'success' };

// --- Command results: restic, rclone, realtime commands (001 §4, §8; DESIGN §6) ----------------------

export function isCommandResultCode(value: string): value is CommandResultCode {
  return (COMMAND_RESULT_CODES as readonly string[]).includes(value);
}

export function isRcloneResultCode(value: string): value is RcloneResultCode {
  return (RCLONE_RESULT_CODES as readonly string[]).includes(value);
}

/**
 * restic's process exit code → result name. restic documents 0 success, 1 fatal, 3 'some source files
 * could not be read' (the snapshot is still made), and since 0.17: 2 Go runtime error, 10 repository
 * missing, 11 lock failed, 12 wrong password, 130 interrupted. A process without an exit code (killed
 * by a signal) or with a code restic does not document is EXIT_CODE_NA ('Unknown error'); restic's
 * own advice is to treat unknown codes as failures, which EXIT_CODE_NA is.
 */
export function resticExitCodeResult(exitCode: number | null): CommandResultCode {
  switch (exitCode) {
    case 0:
      return 'SUCCESS';
    case 1:
    case 2:
    case 10:
    case 12:
      return 'FATAL';
    case 3:
      return 'SOME_FILES_NOT_ACCESSIBLE';
    case 11:
      return 'REPO_LOCKED_EXCLUSIVELY';
    case 130:
      return 'CANCELLATION_REQUESTED';
    default:
      return 'EXIT_CODE_NA';
  }
}

/**
 * rclone's process exit code → result name, by the numbering of the installed Debian rclone 1.60
 * (RCLONE_RESULT_CODES order: 0 success ... 9 nothing transferred; 10, time limit, is from 1.64). Newer
 * rclone (1.69+) swapped 1 and 2; pin the version with this table. No or an unknown code is EXIT_CODE_NA.
 */
export function rcloneExitCodeResult(exitCode: number | null): TransferResultCode {
  if (exitCode === null || !Number.isInteger(exitCode) || exitCode < 0 || exitCode > 10) return 'EXIT_CODE_NA';
  return RCLONE_RESULT_CODES[exitCode] ?? 'EXIT_CODE_NA';
}

/** The text of any result code (001 §8 texts for the command codes; ours for rclone's). */
export function resultCodeText(code: TransferResultCode): string {
  return isCommandResultCode(code) ? COMMAND_RESULT_TEXTS[code] : RCLONE_RESULT_TEXTS[code];
}

/**
 * The run status a finished command's result gives (DESIGN §6: exit code 3 → FINISHED_WARNINGS):
 * SUCCESS → FINISHED_SUCCESS, SOME_FILES_NOT_ACCESSIBLE → FINISHED_WARNINGS, anything else FAILED.
 */
export function runStatusOfResult(code: string): 'FINISHED_SUCCESS' | 'FINISHED_WARNINGS' | 'FAILED' {
  if (code === 'SUCCESS') return 'FINISHED_SUCCESS';
  if (code === 'SOME_FILES_NOT_ACCESSIBLE') return 'FINISHED_WARNINGS';
  return 'FAILED';
}

/**
 * The run status of an rclone sequence's result: SUCCESS_NOTHING_TRANSFERRED is a success too (the
 * destination was already in step); everything else but SUCCESS is a failure.
 */
export function runStatusOfTransferResult(code: TransferResultCode): 'FINISHED_SUCCESS' | 'FAILED' {
  return code === 'SUCCESS' || code === 'SUCCESS_NOTHING_TRANSFERRED' ? 'FINISHED_SUCCESS' : 'FAILED';
}

export type RealtimeCommandStatus = 'IN_PROGRESS' | 'FINISHED_SUCCESS' | 'FINISHED_WARNINGS' | 'FAILED';

/**
 * 001 §4 restic diagnostics: no exit code → IN_PROGRESS (grey); SUCCESS → FINISHED_SUCCESS (green);
 * SOME_FILES_NOT_ACCESSIBLE → FINISHED_WARNINGS (warning); any other code → FAILED (red). The exit
 * code of a realtime command is a result name; a command is in progress while it has none. A migration's
 * sequence (rclone) reads its codes the same way, SUCCESS_NOTHING_TRANSFERRED being a success.
 */
export function realtimeCommandStatus(exitCode: string | null | undefined): {
  status: RealtimeCommandStatus;
  variant: BadgeVariant;
} {
  if (exitCode === null || exitCode === undefined || exitCode === '') {
    return { status: 'IN_PROGRESS', variant: 'secondary' };
  }
  // A migration's rclone codes (SUCCESS_NOTHING_TRANSFERRED is a success) beside restic's.
  const status = isRcloneResultCode(exitCode) ? runStatusOfTransferResult(exitCode) : runStatusOfResult(exitCode);
  const variant: BadgeVariant =
    status === 'FINISHED_SUCCESS' ? 'success' : status === 'FINISHED_WARNINGS' ? 'warning' : 'danger';
  return { status, variant };
}

/** 001 §4: whether a realtime command is still running (it has no exit code yet). */
export function isRealtimeCommandInProgress(command: { exitCode: string | null | undefined }): boolean {
  return realtimeCommandStatus(command.exitCode).status === 'IN_PROGRESS';
}
