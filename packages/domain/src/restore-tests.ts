/**
 * Scheduled restore tests (issue 32 item 1): the agent restores a sample of the files of a task's latest snapshot
 * into a scratch folder it owns, proves each one byte-identical to the snapshot's own record (each content blob's
 * SHA-256 is its id in the tree restic stored, so the live file plays no part), deletes the scratch copy and reports
 * what it tested. The portal starts one per task on a schedule (a provider default, a customer's override) or when
 * someone who may run the task asks, and keeps every result per task.
 */
import { z } from 'zod';
import { optionalIntegerField } from './forms/fields.js';
import { unknownErrorWhile } from './messages.js';
import { formatBytes } from './sizes.js';

const MIB = 1024 * 1024;

export const RESTORE_TEST = {
  /** The provider's default interval between two tests of a task (RESTORE_TEST_INTERVAL_DAYS). */
  defaultIntervalDays: 30,
  minIntervalDays: 1,
  maxIntervalDays: 365,
  /** Files sampled at most (RESTORE_TEST_SAMPLE_FILES), files changed in the last run first. */
  defaultSampleFiles: 100,
  maxSampleFiles: 10_000,
  /** Bytes restored at most (RESTORE_TEST_SAMPLE_BYTES): a file that would pass it is left out. */
  defaultSampleBytes: 256 * MIB,
  maxSampleBytes: 100 * 1024 * MIB,
  /** Mismatches named in a result at most (all are counted). */
  maxReportedMismatches: 50,
  /** A test without a result after this long is failed as interrupted (the agent stopped or went away). */
  timeoutMs: 6 * 60 * 60 * 1000,
  /** Tests the schedule starts at most per pass of its job, so a fleet's first tests spread over time. */
  scheduledPerPass: 20,
} as const;

/** A test is RUNNING until the agent reports it: PASSED, MISMATCH (restored but not identical) or FAILED. */
export const RESTORE_TEST_OUTCOMES = ['RUNNING', 'PASSED', 'MISMATCH', 'FAILED'] as const;
export type RestoreTestOutcome = (typeof RESTORE_TEST_OUTCOMES)[number];
export const REPORTED_RESTORE_TEST_OUTCOMES = ['PASSED', 'MISMATCH', 'FAILED'] as const;

/** How a restored file differed: not restored at all, another size, or a content blob whose hash is not its id. */
export const RESTORE_TEST_MISMATCH_KINDS = ['MISSING', 'SIZE', 'CONTENT'] as const;
export type RestoreTestMismatchKind = (typeof RESTORE_TEST_MISMATCH_KINDS)[number];

export const restoreTestMismatchSchema = z.object({
  path: z.string().min(1).max(4096),
  kind: z.enum(RESTORE_TEST_MISMATCH_KINDS),
});
export type RestoreTestMismatch = z.infer<typeof restoreTestMismatchSchema>;

/** The sample the portal asks for; the agent checks it against the same limits. */
export const restoreTestSampleSchema = z.object({
  maxFiles: z.number().int().min(1).max(RESTORE_TEST.maxSampleFiles),
  maxBytes: z.number().int().min(1).max(RESTORE_TEST.maxSampleBytes),
});
export type RestoreTestSample = z.infer<typeof restoreTestSampleSchema>;

/** What the agent reports at the end of a test (agent → server `restoreTestFinished`, without its type and key). */
export const restoreTestResultSchema = z.object({
  outcome: z.enum(REPORTED_RESTORE_TEST_OUTCOMES),
  /** The snapshot tested; null when none could be read. */
  snapshotId: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
  filesTested: z.number().int().min(0),
  bytesTested: z.number().int().min(0),
  /** Of the files tested, those new or changed in the snapshot's run (always sampled first). */
  changedFilesTested: z.number().int().min(0),
  durationMs: z.number().int().min(0),
  mismatchCount: z.number().int().min(0),
  mismatches: z.array(restoreTestMismatchSchema).max(RESTORE_TEST.maxReportedMismatches),
  /** Why it failed (restic's last words), else null. */
  message: z.string().max(4000).nullable(),
});
export type RestoreTestResult = z.infer<typeof restoreTestResultSchema>;

/** The interval of a customer's tasks: its own override, else the provider's default. */
export const restoreTestIntervalDays = (providerDefault: number, customerOverride: number | null) =>
  customerOverride ?? providerDefault;

/** One test as the task page shows it. */
export interface RestoreTestRow {
  id: number;
  outcome: RestoreTestOutcome;
  /** Started by someone ('Test restore now'), not by the schedule. */
  manual: boolean;
  startedAt: string;
  finishedAt: string | null;
  snapshotId: string | null;
  filesTested: number;
  bytesTested: number;
  changedFilesTested: number;
  durationMs: number | null;
  mismatchCount: number;
  mismatches: RestoreTestMismatch[];
  message: string | null;
}

/** The task page's restore test section: the last test, why 'Test restore now' is unavailable (null: it is). */
export interface RestoreTestSummary {
  latest: RestoreTestRow | null;
  startReason: string | null;
  intervalDays: number;
}

export const RESTORE_TEST_TEXTS = {
  sectionTitle: 'Restore test',
  startButton: 'Test restore now',
  started: 'The restore test has started.',
  never: 'No restore test yet.',
  busy: 'A restore test of this task is already running.',
  noSnapshot: 'The task has no snapshot to test yet.',
  interrupted: 'The restore test did not report back: the agent stopped or lost its connection.',
  alreadyRunningOnMachine: 'A restore test of this task is already running on the machine.',
  noSnapshotOnMachine: 'The task has no snapshot in the repository.',
  scheduled: 'Scheduled',
  manual: 'Started by a user',
  history: 'Restore test history',
  intervalLabel: 'Restore test interval (days)',
  intervalHelp: 'Empty: the provider default.',
  /** The account page's section (the customer's super admin): the interval of every task of the account. */
  settingsTitle: 'Restore tests',
  interval: (days: number) => `Every task's restore is tested every ${days} ${days === 1 ? 'day' : 'days'}.`,
  providerDefault: (days: number) => `Provider default: ${days} ${days === 1 ? 'day' : 'days'}.`,
  usesProviderDefault: "This account uses the provider's default.",
  changeButton: 'Change interval',
  settingsDialogTitle: 'Restore test interval',
  settingsSubmit: 'Save',
  settingsSaved: 'The restore test interval has been saved.',
  settingsSavedWithErrors: 'The restore test interval has been saved but some errors occurred.',
  unknownWhileSaving: unknownErrorWhile('saving the restore test interval'),
  outcome: {
    RUNNING: 'Running',
    PASSED: 'Passed',
    MISMATCH: 'Mismatch',
    FAILED: 'Failed',
  } satisfies Record<RestoreTestOutcome, string>,
  mismatchKind: {
    MISSING: 'not restored',
    SIZE: 'size differs',
    CONTENT: 'content differs',
  } satisfies Record<RestoreTestMismatchKind, string>,
} as const;

/**
 * A customer's override of the interval (null: the provider's default), the form's and the server's: a blank field
 * is the provider's default.
 */
export const restoreTestSettingsSchema = z.object({
  intervalDays: optionalIntegerField(RESTORE_TEST_TEXTS.intervalLabel, {
    min: RESTORE_TEST.minIntervalDays,
    max: RESTORE_TEST.maxIntervalDays,
  }).meta({
    description: `Days between two restore tests of each task (${RESTORE_TEST.minIntervalDays}-${RESTORE_TEST.maxIntervalDays}); null or blank: the provider's default`,
  }),
});
export type RestoreTestSettings = z.output<typeof restoreTestSettingsSchema>;
export type RestoreTestSettingsForm = z.input<typeof restoreTestSettingsSchema>;

/** The customer's setting with the provider's default it overrides. */
export interface RestoreTestSettingsView extends RestoreTestSettings {
  providerDefaultDays: number;
}

/** The badge colour of an outcome. */
export const restoreTestBadge = (outcome: RestoreTestOutcome) =>
  ({
    text: RESTORE_TEST_TEXTS.outcome[outcome],
    variant: outcome === 'PASSED' ? 'success' : outcome === 'RUNNING' ? 'info' : 'danger',
  }) as const;

/** '12 files (3 changed in the last run), 4.2 MB': what a test read back. */
export function restoreTestFiguresText(
  row: Pick<RestoreTestRow, 'filesTested' | 'bytesTested' | 'changedFilesTested'>,
) {
  const files = `${row.filesTested} ${row.filesTested === 1 ? 'file' : 'files'}`;
  const changed = row.changedFilesTested > 0 ? ` (${row.changedFilesTested} changed in the last run)` : '';
  return `${files}${changed}, ${formatBytes(row.bytesTested)}`;
}

/** 'path: content differs' per named mismatch. */
export const restoreTestMismatchText = (mismatch: RestoreTestMismatch) =>
  `${mismatch.path}: ${RESTORE_TEST_TEXTS.mismatchKind[mismatch.kind]}`;
