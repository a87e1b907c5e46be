/** Test-only builders of a run as the run API answers it (tasks.ts, run-report.ts) and of a task's abilities. */
import type { RunReport, RunSummary } from '../run-report.js';
import type { TaskAbilities, TaskActionRow } from '../tasks.js';

/** A report with nothing in it: an older agent's run, or one that failed before restic ran; `overrides` on top. */
export const makeRunReport = (overrides: Partial<RunReport> = {}): RunReport => ({
  snapshotId: null,
  bytesAdded: null,
  bytesProcessed: null,
  summary: null,
  progress: null,
  ...overrides,
});

/** What restic might say of a small backup: 9 files, 3 folders, 4.5 s. */
export const SAMPLE_RUN_SUMMARY: RunSummary = {
  filesNew: 5,
  filesChanged: 1,
  filesUnmodified: 3,
  dirsNew: 2,
  dirsChanged: 1,
  dirsUnmodified: 0,
  durationSeconds: 4.5,
};

/** Backup run 50, finished at 100 % with its snapshot, as its row shows it; `overrides` on top. */
export const makeTaskAction = (overrides: Partial<TaskActionRow> = {}): TaskActionRow => ({
  id: 50,
  type: 'BACKUP_RUN',
  status: 'FINISHED_SUCCESS',
  timeStarted: '2026-11-25T10:00:00.000Z',
  timeFinished: '2026-11-25T10:00:00.000Z',
  transferProgressPercentage: 100,
  currentTransfer: 1,
  totalTransfers: 1,
  phase: 'FINALIZED',
  failureMessage: null,
  snapshotsAvailable: true,
  stalled: false,
  cancellable: false,
  restoreSummary: null,
  report: makeRunReport(),
  changeAlert: null,
  smallerThanUsual: false,
  ...overrides,
});

/** A task page's abilities when the caller may do everything with an active task (the pause toggle pauses). */
export const EVERY_TASK_ABILITY = {
  runNow: true,
  pauseToggleTarget: 'PAUSED',
  togglePause: true,
  edit: true,
  deleteable: true,
  cancelActions: true,
  manageSnapshots: true,
  restore: true,
} as const satisfies Partial<TaskAbilities>;
