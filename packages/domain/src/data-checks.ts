import type { StatusBadge } from './statuses.js';

/**
 * Rotating data checks on the portal's side (issue 32 items 2 and 5): the portal, which holds each repository's
 * location key, reads a different `--read-data-subset n/m` of every machine's repository on each check, so every pack
 * is read once per period; a check that finds damage is alerted, shown on the task pages and offers the provider a
 * safe repair path. A stale lock (a killed restic's) older than a run's time limit is removed once, audited.
 */

/** PASSED: nothing wrong; FAILED: restic found damage; ERROR: the check could not run (unreachable, locked, ...). */
export const DATA_CHECK_OUTCOMES = ['PASSED', 'FAILED', 'ERROR'] as const;
export type DataCheckOutcome = (typeof DATA_CHECK_OUTCOMES)[number];

export const DATA_CHECK_OUTCOME_BADGES: Record<DataCheckOutcome, StatusBadge> = {
  PASSED: { text: 'No errors found', variant: 'success' },
  FAILED: { text: 'Errors found', variant: 'danger' },
  ERROR: { text: 'Could not run', variant: 'warning' },
};

/** The settings' defaults and bounds (DATA_CHECK_PERIOD_DAYS, DATA_CHECK_SLICES, DATA_CHECK_CONCURRENCY). */
export const DATA_CHECK_LIMITS = {
  /** Every pack of a repository is read within this many days. */
  periodDays: { min: 1, max: 365, default: 30 },
  /** Checks per period: each reads one of this many subsets (restic's `n/m`, m at most 256). */
  slices: { min: 1, max: 256, default: 6 },
  /** Repositories one server instance checks at once. */
  concurrency: { min: 1, max: 8, default: 1 },
  /** The error lines a result keeps, each cut to `errorLength` characters. */
  errorsKept: 20,
  errorLength: 500,
} as const;

const DAY_MS = 86_400_000;

/** How long after one check the next of the same repository is due: the period shared by its slices. */
export const dataCheckIntervalMs = (periodDays: number, slices: number) => Math.floor((periodDays * DAY_MS) / slices);

/**
 * Where within the first interval a repository's first check falls: spread by its machine's id (a multiplicative
 * hash), so repositories added together are not all checked together.
 */
export function dataCheckFirstOffsetMs(machineId: number, intervalMs: number): number {
  const spread = Math.imul(machineId, 2654435761) >>> 0;
  return Math.floor((spread / 2 ** 32) * intervalMs);
}

/** restic's subset notation: slice n (1-based) of m. */
export const dataCheckSubset = (slice: number, slices: number) => `${slice}/${slices}`;

/** The slice after `slice`: 1 after the last, so the rotation reads every pack once per period. */
export const nextDataCheckSlice = (slice: number, slices: number) => (slice >= slices ? 1 : slice + 1);

/**
 * Whether restic's `--read-data-subset n/m` reads the pack: restic 0.14 puts a pack in group n when the first byte
 * of its id modulo m is n-1 (internal/checker selectPacksByBucket). The portal uses it to count the bytes a check
 * reads.
 */
export const packInDataCheckSubset = (packId: string, slice: number, slices: number) =>
  Number.parseInt(packId.slice(0, 2), 16) % slices === slice - 1;

/**
 * The check's arguments. `--no-lock`: restic's check otherwise takes an exclusive lock, and a machine's backup that
 * starts meanwhile would fail; packs a running backup adds and not yet indexed are only hints to restic, and the
 * portal's retention never prunes a repository under a check (features/retention/repo.ts).
 */
export const dataCheckArgs = (subset: string) => ['check', '--no-lock', '--read-data-subset', subset] as const;

/** restic's closing line of a check that found damage (exit code 1). */
export const DATA_CHECK_DAMAGE = /repository contains errors/i;

/** What a check's standard error says, kept for the result: the damage, without restic's closing line. */
export function dataCheckErrors(stderr: readonly string[]): string[] {
  return stderr
    .filter((line) => !DATA_CHECK_DAMAGE.test(line))
    .slice(0, DATA_CHECK_LIMITS.errorsKept)
    .map((line) => line.slice(0, DATA_CHECK_LIMITS.errorLength));
}

/** A check's result as the task pages show it (the last of the task's repository). */
export interface DataCheckResult {
  /** ISO time the check started. */
  checkedAt: string;
  subset: string;
  outcome: DataCheckOutcome;
  errors: string[];
  bytesRead: number;
  durationMs: number;
}

/** The task page's data check section: the last check, and for the provider after damage the repair path. */
export interface TaskDataCheck {
  last: DataCheckResult | null;
  /** Provider admins only, when the last check found damage; null otherwise. */
  repair: { title: string; steps: string[] } | null;
  /** A check of all the repository's data was asked for ('Check all data now') and has not ended yet. */
  checking: boolean;
  /** Whether the caller may ask for a check of all data now (provider admins who may change things). */
  checkable: boolean;
}

/** The subset of a check that reads all the repository's data (the provider's 'Check all data now'). */
export const DATA_CHECK_ALL = dataCheckSubset(1, 1);

export const DATA_CHECK_TEXTS = {
  section: 'Data check',
  never: 'The repository has not been checked yet.',
  lastChecked: 'Last data check',
  subset: 'Part read',
  bytesRead: 'Data read',
  duration: 'Duration',
  errors: 'Errors found',
  repairTitle: 'Repair path',
  /** On the machine's message log when a check found damage. */
  damageMessage: (subset: string) =>
    `The portal's data check of part ${subset} of this machine's repository found errors; the provider has been told how to repair it.`,
  checkNow: 'Check all data now',
  checkStarted:
    'The data check has started: it reads all the repository’s data, and its result shows here when it ends.',
  checking: 'Checking all the repository’s data…',
  checkNowQuestion:
    "The portal reads every pack of this machine's repository with the storage location's key (restic check --read-data) and shows here what it finds. The machine's backups go on meanwhile.",
  alreadyChecking: 'A data check of this repository is running already.',
  /** Audit detail of a stale lock the portal removed. */
  staleLockRemoved: 'Stale repository lock removed by the portal',
} as const;

/**
 * The repair path offered to the provider (restic's troubleshooting guide). Each step runs on the portal's side with
 * the storage location's own key (a machine's key may not delete); `repair` says whether the installed restic has
 * `restic repair` (0.16 and later).
 */
export function dataCheckRepairSteps(repair: boolean): { title: string; steps: string[] } {
  const first = [
    "Pause the machine's backup tasks so nothing writes to the repository meanwhile.",
    'Copy the repository aside (all of it, or at least the damaged packs the errors name) before changing anything.',
    "Run `restic check --read-data` with the storage location's key to list every damaged pack.",
  ];
  const last = [
    "Unpause the tasks and run each task's backup now: files still on the machine are stored again.",
    'Run `restic check --read-data` again; it must report no errors.',
  ];
  if (repair) {
    return {
      title: 'Repair with restic repair (installed restic has it)',
      steps: [
        ...first,
        'Run `restic repair packs <damaged pack ids>` to salvage what is readable from each damaged pack.',
        'Run `restic repair index` so the index lists only packs that are there.',
        'Run `restic repair snapshots --forget` to drop what the lost data was referenced by.',
        ...last,
      ],
    };
  }
  return {
    title: 'Manual repair (the installed restic has no repair command)',
    steps: [
      ...first,
      "Move each damaged pack file out of the repository's data/ folder (keep the copy).",
      'Run `restic rebuild-index` so the index lists only packs that are there.',
      'Run `restic check` and `restic forget <snapshot id>` for each snapshot it reports as referencing missing data.',
      ...last,
    ],
  };
}

/** A lock file as `restic cat lock` prints it. */
export interface ResticLock {
  time: string;
  exclusive?: boolean;
  hostname?: string;
  pid?: number;
}

/**
 * Whether a lock is stale for the portal: written longer ago than a run may go without progress (RUN_STALL_MINUTES)
 * and longer ago than restic's own 30 minutes (a running restic rewrites its lock every 5 minutes).
 */
export function lockIsStale(lock: ResticLock, now: Date, runTimeoutMinutes: number): boolean {
  const written = Date.parse(lock.time);
  if (Number.isNaN(written)) return false;
  return now.getTime() - written > Math.max(runTimeoutMinutes, 30) * 60_000;
}
