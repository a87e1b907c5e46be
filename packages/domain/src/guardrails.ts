import { z } from 'zod';
import { type Actor, type CommandedMachine, isCustomerUser } from './permissions.js';
import { mayHandleBackupData } from './restore.js';
import { formatBytes } from './sizes.js';

/**
 * Guard rails against ransomware and careless retention (issue 32 items 7 and 8). After each backup run the portal
 * compares what the run changed with the task's own history: a run that changed far more than usual is marked, its
 * customer's super admins and the provider are alerted once, and the task's retention is held (nothing forgotten)
 * until someone who may change the machine's backed-up data acknowledges it. A run far smaller than usual is flagged
 * on its row (files gone, a folder unmounted). Pinned snapshots and the newest successful one are never forgotten.
 */

/** Thresholds of the change detection; one place so the rule, its tests and the README agree. */
export const CHANGE_DETECTION = {
  /** Earlier successful runs (with a run report) needed before a run is compared with its history at all. */
  minHistory: 3,
  /** How many of the newest earlier runs make the history. */
  historyRuns: 20,
  /** A run is unusual when it changed or added more than this many times the median of its history… */
  medianFactor: 5,
  /** …and at least this many files (new plus changed)… */
  filesFloor: 200,
  /** …or at least this many bytes added (restic's data_added). */
  bytesFloor: 100 * 1024 * 1024,
  /** Unusual at any history: at least this share of the files restic saw before were changed… */
  changedShare: 0.5,
  /** …when it is at least this many files. */
  changedShareFloor: 200,
  /** A run whose total size is below this share of its history's median is flagged 'smaller than usual'. */
  smallerShare: 0.5,
} as const;

export type ChangeThresholds = typeof CHANGE_DETECTION;

/** What the rule reads of a run: restic's summary counts and the bytes. */
export interface RunFigures {
  filesNew: number;
  filesChanged: number;
  filesUnmodified: number;
  bytesAdded: number;
  bytesTotal: number;
}

export const CHANGE_REASONS = ['FILES', 'BYTES', 'SHARE'] as const;
export type ChangeReason = (typeof CHANGE_REASONS)[number];

/** What the rule finds of a run. */
export interface ChangeFinding {
  /** Why it is unusual; empty when it is not. */
  reasons: ChangeReason[];
  /** Its total size is far below its history's. */
  smallerThanUsual: boolean;
}

/** The median of a list (0 for none). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/**
 * The detection rule: `run` against `history` (earlier successful runs of the task, any order). Files new plus
 * changed, or bytes added, above `medianFactor` times the history's median and above their floor; or, with any
 * history, at least `changedShare` of the files restic had seen changed (encryption in place rewrites them all).
 */
export function detectChange(
  history: readonly RunFigures[],
  run: RunFigures,
  t: ChangeThresholds = CHANGE_DETECTION,
): ChangeFinding {
  const reasons: ChangeReason[] = [];
  const touched = run.filesNew + run.filesChanged;
  const compared = history.length >= t.minHistory;
  if (compared) {
    const usualFiles = median(history.map((h) => h.filesNew + h.filesChanged));
    if (touched >= t.filesFloor && touched > t.medianFactor * usualFiles) reasons.push('FILES');
    const usualBytes = median(history.map((h) => h.bytesAdded));
    if (run.bytesAdded >= t.bytesFloor && run.bytesAdded > t.medianFactor * usualBytes) reasons.push('BYTES');
  }
  const seen = run.filesChanged + run.filesUnmodified;
  if (run.filesChanged >= t.changedShareFloor && seen > 0 && run.filesChanged / seen >= t.changedShare) {
    reasons.push('SHARE');
  }
  const usualSize = compared ? median(history.map((h) => h.bytesTotal)) : 0;
  return { reasons, smallerThanUsual: usualSize > 0 && run.bytesTotal < t.smallerShare * usualSize };
}

/** The restic tag of a pinned snapshot: retention keeps it (`--keep-tag`) whatever the task's limit. */
export const PINNED_SNAPSHOT_TAG = 'portal-pinned';

/** Who may acknowledge an unusual change (and so release the task's retention): who may change its backed-up data, but not a plain user. */
export const mayAcknowledgeChange = (actor: Actor, machine: CommandedMachine) =>
  !isCustomerUser(actor) && mayHandleBackupData(actor, machine, 'change');

// --- Wire shapes and forms ------------------------------------------------------------------------------------

/** A run's mark (TaskActionRow.changeAlert). */
export interface RunChangeAlert {
  reasons: ChangeReason[];
  acknowledged: boolean;
}

/** The task page's hold (TaskDetail.changeHold): an unacknowledged unusual run holds the task's retention. */
export interface TaskChangeHold {
  runId: number;
  since: string;
  /** The caller may acknowledge it (mayAcknowledgeChange). */
  acknowledgeable: boolean;
}

/** ?keep= of the retention preview: the snapshots-to-keep the dialog is about to save. */
export const retentionPreviewQuerySchema = z.object({
  keep: z.coerce.number().int().min(1).max(10_000),
});

/** A snapshot as the preview lists it. */
export interface RetentionPreviewSnapshot {
  /** restic's short id. */
  snapshotId: string;
  time: string;
  /** The portal's run that made it; null when none is known (then it cannot be pinned from here). */
  runId: number | null;
}

/** What the next retention would forget with `keep` (the same plan retention itself applies). */
export interface RetentionPreview {
  keep: number;
  forget: RetentionPreviewSnapshot[];
  kept: number;
  pinned: number;
  /** The task's retention is held by an unacknowledged unusual run: nothing would be forgotten now. */
  held: boolean;
  /** The caller may pin snapshots. */
  pinnable: boolean;
}

/**
 * The snapshots-to-keep the task dialog previews: the entered limit when it is a whole number within the form's range
 * and differs from the stored one (a change about to be saved); null otherwise (unlimited, off, unchanged, invalid).
 */
export function retentionPreviewKeep(stored: number, entered: unknown): number | null {
  const parsed = retentionPreviewQuerySchema.shape.keep.safeParse(entered);
  if (!parsed.success || parsed.data === stored) return null;
  return parsed.data;
}

/** PUT …/backupruns/{runId}/pin. */
export const pinSnapshotSchema = z.object({ pinned: z.boolean() });

// --- Texts ------------------------------------------------------------------------------------------------------

export const CHANGE_REASON_TEXTS: Record<ChangeReason, string> = {
  FILES: `far more files new or changed than usual (over ${CHANGE_DETECTION.medianFactor} times the median)`,
  BYTES: `far more data added than usual (over ${CHANGE_DETECTION.medianFactor} times the median)`,
  SHARE: `${Math.round(CHANGE_DETECTION.changedShare * 100)}% or more of the files changed`,
};

export const GUARDRAIL_TEXTS = {
  unusualBadge: 'Unusual change',
  unusualTitle: (reasons: readonly ChangeReason[]) =>
    `This run looks like ransomware at work: ${reasons.map((r) => CHANGE_REASON_TEXTS[r]).join('; ')}`,
  acknowledgedBadge: 'Unusual change (acknowledged)',
  smallerBadge: 'Smaller than usual',
  smallerTitle: `This run backed up less than ${Math.round(CHANGE_DETECTION.smallerShare * 100)}% of the task's usual size`,
  holdTitle: 'Retention held',
  holdText: (since: string) =>
    `A run on ${since} changed far more than usual. Old snapshots of this task are not removed until someone checks the machine and acknowledges it.`,
  acknowledge: 'Acknowledge',
  acknowledged: 'Acknowledged: retention applies again',
  previewTitle: 'The next retention would remove',
  previewNone: 'No snapshot would be removed.',
  previewLoading: 'Checking which snapshots would be removed…',
  previewFailed: 'Could not check which snapshots would be removed.',
  previewHeld: 'Retention is held by an unusual run: nothing is removed until it is acknowledged.',
  previewCounts: (kept: number, pinned: number) => `${kept} kept, ${pinned} pinned`,
  pin: 'Pin',
  unpin: 'Unpin',
  pinned: 'Snapshot pinned: retention keeps it',
  unpinned: 'Snapshot unpinned',
  noSnapshot: 'This run has no snapshot the portal can read',
} as const;

/** The alert mail about an unusual run. */
export function changeAlertMail(run: {
  taskName: string;
  machineName: string;
  customerName: string;
  finishedAt: Date;
  reasons: readonly ChangeReason[];
  figures: RunFigures;
  taskPath: string;
}) {
  const f = run.figures;
  return {
    subject: `Unusual backup: ${run.taskName} on ${run.machineName} may show ransomware at work`,
    lines: [
      `The backup task ${run.taskName} on the machine ${run.machineName} (${run.customerName}) finished at ${run.finishedAt.toISOString()} and changed far more than usual: ${run.reasons.map((r) => CHANGE_REASON_TEXTS[r]).join('; ')}.`,
      `Files new: ${f.filesNew}, changed: ${f.filesChanged}, unchanged: ${f.filesUnmodified}; data added: ${formatBytes(f.bytesAdded)}.`,
      'Old snapshots of this task are kept (retention is held) until the run is acknowledged on the task page. Check the machine before you do.',
    ],
    link: { label: 'Open the task', path: run.taskPath },
  };
}
