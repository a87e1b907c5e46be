import { z } from 'zod';
import { pageSizeParam, pagingQuerySchema } from './envelope.js';
import type { StatusBadge } from './statuses.js';
import { DAY_MS } from './time.js';

/**
 * 'Last verified' (issue 32 item 3): when a task's backups were last proved restorable (its last passing restore
 * test) and last read in full (the portal's data checks of its machine's repository: one complete rotation of slices
 * that all passed), and the status that follows from both. The server keeps the facts on the task when a restore test
 * or a data check ends and turns a status overdue by the clock (job verification); the web only shows them.
 */

/**
 * VERIFIED: the last proof is recent enough; OVERDUE: a proof is older than its interval plus the grace; FAILED: the
 * last restore test found a mismatch or failed, or a data check found damage that no later check of the same part
 * cleared; NEVER: nothing proved yet.
 */
export const VERIFICATION_STATUSES = ['VERIFIED', 'OVERDUE', 'FAILED', 'NEVER'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export const VERIFICATION = {
  /** Days a proof may be late past its interval (restore tests) or period (data checks) before it is overdue. */
  graceDays: 2,
  /** Tasks the overdue sweep turns per statement. */
  sweepBatch: 500,
  /** Rows per page of the dashboard's list of tasks by verification status. */
  pageSize: 10,
} as const;

/** What the status is computed from, as the task keeps it. */
export interface VerificationFacts {
  /** When the last passing restore test ended. */
  lastRestoreTestAt: Date | null;
  /** The last finished restore test was a MISMATCH or FAILED. */
  restoreTestFailed: boolean;
  /** Every pack stored before this time has been read since (the oldest of the latest passing checks per slice). */
  lastFullReadAt: Date | null;
  /** A part of the repository's latest check found damage. */
  dataCheckDamaged: boolean;
}

/** How old each proof may get: the customer's restore test interval and the data check period, in days. */
export interface VerificationLimits {
  restoreTestIntervalDays: number;
  dataCheckPeriodDays: number;
}

const plusDays = (at: Date, days: number) => new Date(at.getTime() + days * DAY_MS);

/**
 * When a verified task turns overdue: the earlier of its last restore test plus the interval and its last full read
 * plus the period, each plus the grace; null when nothing was proved (nothing to turn).
 */
export function verificationOverdueAt(facts: VerificationFacts, limits: VerificationLimits): Date | null {
  const deadlines = [
    facts.lastRestoreTestAt &&
      plusDays(facts.lastRestoreTestAt, limits.restoreTestIntervalDays + VERIFICATION.graceDays),
    facts.lastFullReadAt && plusDays(facts.lastFullReadAt, limits.dataCheckPeriodDays + VERIFICATION.graceDays),
  ].filter((at): at is Date => at !== null);
  if (deadlines.length === 0) return null;
  return new Date(Math.min(...deadlines.map((at) => at.getTime())));
}

/** The status of a task's verification at `now` (failure first, then nothing proved, then age). */
export function verificationStatus(
  facts: VerificationFacts,
  limits: VerificationLimits,
  now: Date,
): VerificationStatus {
  if (facts.restoreTestFailed || facts.dataCheckDamaged) return 'FAILED';
  const overdueAt = verificationOverdueAt(facts, limits);
  if (overdueAt === null) return 'NEVER';
  return now.getTime() >= overdueAt.getTime() ? 'OVERDUE' : 'VERIFIED';
}

/** Whether a status is one people are alerted about and that appears in 'Needs attention'. */
export const verificationNeedsAttention = (status: VerificationStatus) => status === 'FAILED' || status === 'OVERDUE';

/** Latest restore test (proof of restorable) and full read facts of the repository, as every task row carries them. */
export interface TaskVerification {
  status: VerificationStatus;
  /** ISO time the last passing restore test ended, and the files it proved; null when none passed. */
  lastRestoreTestAt: string | null;
  lastRestoreTestFiles: number | null;
  /** ISO time by which every pack of the repository had been read (data checks); null when no rotation completed. */
  lastFullReadAt: string | null;
}

export const VERIFICATION_TEXTS = {
  column: 'Last verified',
  title: 'Backup verification',
  filterLabel: 'Verification status',
  noTasks: 'No tasks with this verification status',
  restoreTest: 'Restore test',
  dataCheck: 'Data check',
  lastRestoreTest: 'Last proved restorable',
  lastFullRead: 'Last fully read',
  status: {
    VERIFIED: 'Verified',
    OVERDUE: 'Overdue',
    FAILED: 'Failed',
    NEVER: 'Never verified',
  } satisfies Record<VerificationStatus, string>,
  hint: {
    VERIFIED: 'Backups were proved restorable or read in full recently.',
    OVERDUE: 'The last proof is older than its interval: a restore test or data check is late.',
    FAILED: 'The last restore test did not restore identical files, or a data check found damage.',
    NEVER: 'No restore test has passed and the repository has not been read in full yet.',
  } satisfies Record<VerificationStatus, string>,
  never: 'Never',
  /** 'Restore test, 100 files' after the time. */
  restoreTestHow: (files: number) => `restore test, ${files} ${files === 1 ? 'file' : 'files'}`,
  fullReadHow: 'data check, every pack read',
  columns: { customer: 'Customer', machine: 'Machine', task: 'Task' },
} as const;

const VARIANTS: Record<VerificationStatus, StatusBadge['variant']> = {
  VERIFIED: 'success',
  OVERDUE: 'warning',
  FAILED: 'danger',
  NEVER: 'secondary',
};

/** The status's badge (the one status badge primitive draws it). */
export const verificationBadge = (status: VerificationStatus): StatusBadge => ({
  text: VERIFICATION_TEXTS.status[status],
  variant: VARIANTS[status],
});

/**
 * The latest proof of a task for a short cell: the newer of the last restore test and the last full read, with how
 * it was proved; null when neither exists.
 */
export function latestVerification(v: TaskVerification): { at: string; how: string } | null {
  const test = v.lastRestoreTestAt
    ? { at: v.lastRestoreTestAt, how: VERIFICATION_TEXTS.restoreTestHow(v.lastRestoreTestFiles ?? 0) }
    : null;
  const read = v.lastFullReadAt ? { at: v.lastFullReadAt, how: VERIFICATION_TEXTS.fullReadHow } : null;
  if (!test) return read;
  if (!read) return test;
  return Date.parse(test.at) >= Date.parse(read.at) ? test : read;
}

/** Tasks per verification status in the caller's scope (the dashboard's badge). */
export type VerificationCounts = Record<VerificationStatus, number>;
/** The badge's answer: the counts and how many need attention (failed and overdue). */
export type VerificationCountsView = VerificationCounts & { attention: number };

/** The dashboard's list of tasks by verification status. */
export const verificationTaskQuerySchema = pagingQuerySchema.extend({
  size: pageSizeParam(100, VERIFICATION.pageSize),
  status: z.enum(VERIFICATION_STATUSES).optional(),
});
export type VerificationTaskQuery = z.output<typeof verificationTaskQuerySchema>;

/** A row of that list: the task, its machine and customer, and its verification. */
export interface VerificationTaskRow {
  taskId: number;
  taskName: string;
  machineName: string;
  customerName: string;
  backupTaskUrl: string;
  verification: TaskVerification;
}
