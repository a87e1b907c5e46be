import {
  type ActionType,
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  type RunStatus,
  type RunSummary,
  runsBetween,
  SECOND_MS,
  type TaskStatus,
  type TransferPhase,
} from '@portal/domain';
import { FAILURE_EXIT_CODES, FAILURE_MESSAGES, type Recipe } from './data.js';
import type { Random } from './random.js';
import type { DemoSchedule } from './schedule.js';

/**
 * The run history of generated tasks, for the demo and the dashboard benchmark alike: which runs a
 * task's recipe needs, when they happened and how each ended. Times are epoch milliseconds.
 */

/** One action of a task: a backup run, a seed creation or a restore. `finish` is null while it runs. */
export interface Run {
  type: ActionType;
  status: RunStatus;
  start: number;
  finish: number | null;
}

export interface History {
  /** The BACKUP_RUN actions, oldest first; a run under way comes last. */
  runs: Run[];
  createdAt: number;
}

/**
 * How runs are laid out in time.
 * - `schedule` (the demo, a few hundred tasks): at the cron's own times in the machine's zone, 2–5 older
 *   runs for daily schedules, a run in progress at the latest scheduled time when that is recent.
 * - `fast` (the benchmark's million tasks): one schedule period apart without evaluating the cron, and
 *   0–3 older runs, so a task averages about 2.3 actions and the seed stays within minutes.
 */
export type HistoryMode = { kind: 'schedule'; timeZone: string } | { kind: 'fast' };

/** The stored status of a task following `recipe`. */
export const taskStatusOf = (recipe: Recipe): TaskStatus =>
  recipe === 'paused'
    ? 'PAUSED'
    : recipe === 'awaitingSeed'
      ? 'AWAITING_SEED'
      : recipe === 'beingDeleted'
        ? 'BEING_DELETED'
        : recipe === 'deletionFailed'
          ? 'DELETION_FAILED'
          : 'ACTIVE';

/** The run a recipe's task has under way, if any. */
const busyRunOf = (recipe: Recipe): RunStatus | null =>
  recipe === 'inProgressAfterSuccess' || recipe === 'inProgressAfterFailure'
    ? 'IN_PROGRESS'
    : recipe === 'initiatedFirst'
      ? 'INITIATED'
      : null;

/**
 * The finished runs of a recipe's task, oldest first: `older` runs, then the ones that give the recipe
 * its display status. `older` is called only for recipes that have finished runs.
 */
function finishedRunsOf(rng: Random, recipe: Recipe, older: () => RunStatus[]): RunStatus[] {
  switch (recipe) {
    case 'success':
    case 'missed':
    case 'beingDeleted':
    case 'deletionFailed':
    case 'inProgressAfterSuccess':
      return [...older(), 'FINISHED_SUCCESS'];
    case 'warnings':
      return [...older(), 'FINISHED_WARNINGS'];
    case 'failed':
    case 'inProgressAfterFailure':
      return [...older(), 'FINISHED_SUCCESS', 'FAILED'];
    case 'paused':
      return [...older(), rng.chance(0.7) ? 'FINISHED_SUCCESS' : 'FAILED'];
    case 'never':
    case 'initiatedFirst':
    case 'awaitingSeed':
      return [];
  }
}

function olderRuns(rng: Random, schedule: DemoSchedule, mode: HistoryMode): RunStatus[] {
  const monthly = schedule.periodHours >= 720;
  const count =
    mode.kind === 'fast'
      ? rng.int(0, monthly ? 1 : 3)
      : monthly
        ? 0
        : schedule.periodHours > 24
          ? rng.int(0, 1)
          : rng.int(2, 5);
  return Array.from({ length: count }, () =>
    rng.weighted<RunStatus>([
      ['FINISHED_SUCCESS', 80],
      ['FINISHED_WARNINGS', 13],
      ['FAILED', 7],
    ]),
  );
}

/** When the finished runs start, when the run under way started, and when a task never run was created. */
interface Placement {
  slots: number[];
  busyStart: number | null;
  neverRunCreatedAt(): number;
}

/**
 * Finished runs at the schedule's own times; a run in progress is the latest scheduled one when that is
 * recent, otherwise a 'Run now'. A task never run was created after its last scheduled time (otherwise
 * that run would have been missed).
 */
function placeOnSchedule(
  rng: Random,
  now: number,
  recipe: Recipe,
  schedule: DemoSchedule,
  timeZone: string,
  wanted: number,
  busy: RunStatus | null,
  maxDuration: number,
): Placement {
  const period = schedule.periodHours * HOUR_MS;
  // Long enough for the runs wanted, the missed one and weekday-only schedules skipping weekends.
  const window = (wanted + 3) * period * 1.6 + (schedule.periodHours >= 24 ? 3 * DAY_MS : 0);
  const occurrences = runsBetween(schedule.cron, new Date(now - window), new Date(now), timeZone).map((d) =>
    d.getTime(),
  );
  const latest = occurrences.at(-1) ?? now - period;

  let busyStart: number | null = null;
  let cutoff = now - 15 * MINUTE_MS;
  if (busy) {
    // Drawn whichever branch applies, so the random sequence (and the demo) does not depend on the hour.
    const initiatedAgo = rng.int(1, 3) * MINUTE_MS;
    const lateStart = rng.int(2, 60) * SECOND_MS;
    const manualAgo = rng.int(4, 50) * MINUTE_MS;
    const scheduledJustNow = now - latest < 50 * MINUTE_MS && now - latest > 2 * MINUTE_MS;
    busyStart = busy === 'INITIATED' ? now - initiatedAgo : scheduledJustNow ? latest + lateStart : now - manualAgo;
    cutoff = busyStart - MINUTE_MS;
  }
  let slots = occurrences.filter((o) => o + maxDuration + MINUTE_MS < cutoff);
  // The latest scheduled run of a missed task never started.
  if (recipe === 'missed') slots = slots.slice(0, -1);
  return {
    slots: wanted === 0 ? [] : slots.slice(-wanted),
    busyStart,
    neverRunCreatedAt: () => {
      const until = busyStart ?? now;
      const previous = occurrences.filter((o) => o < until).at(-1) ?? until - period;
      return previous + Math.floor((until - previous) * (0.2 + 0.6 * rng.next()));
    },
  };
}

/** Finished runs one period apart, ending a little before now (or before the run under way). */
function placeByPeriod(
  rng: Random,
  now: number,
  recipe: Recipe,
  schedule: DemoSchedule,
  wanted: number,
  busy: RunStatus | null,
): Placement {
  const period = schedule.periodHours * HOUR_MS;
  const busyStart = busy ? now - rng.int(1, 50) * MINUTE_MS : null;
  const latestSlot = (busyStart ?? now) - rng.next() * Math.min(period, 6 * HOUR_MS) - 5 * MINUTE_MS;
  // A missed task's latest scheduled run never started: its runs stop one period earlier.
  const firstSlot = latestSlot - (recipe === 'missed' ? period : 0) - (wanted - 1) * period;
  return {
    slots: Array.from({ length: wanted }, (_, i) => firstSlot + i * period),
    busyStart,
    neverRunCreatedAt: () => (busyStart ?? now) - rng.int(5, 60) * MINUTE_MS,
  };
}

/**
 * The BACKUP_RUN history of a task following `recipe`, oldest first, ending in what the recipe needs, and
 * when the task was created (before its first run).
 */
export function taskHistory(
  rng: Random,
  now: number,
  recipe: Recipe,
  schedule: DemoSchedule,
  mode: HistoryMode,
): History {
  const period = schedule.periodHours * HOUR_MS;
  let finished = finishedRunsOf(rng, recipe, () => olderRuns(rng, schedule, mode));
  const busy = busyRunOf(recipe);
  const maxDuration = Math.min(55 * MINUTE_MS, period * 0.4);
  const placement =
    mode.kind === 'schedule'
      ? placeOnSchedule(rng, now, recipe, schedule, mode.timeZone, finished.length, busy, maxDuration)
      : placeByPeriod(rng, now, recipe, schedule, finished.length, busy);
  const { slots, busyStart } = placement;
  // The schedule may have come round fewer times than wanted: the oldest runs go.
  finished = finished.slice(finished.length - slots.length);

  const duration = (status: RunStatus) =>
    status === 'FAILED'
      ? rng.int(20 * SECOND_MS, Math.min(8 * MINUTE_MS, maxDuration))
      : rng.int(Math.min(90 * SECOND_MS, maxDuration / 2), maxDuration);
  const runs: Run[] = slots.map((slot, i) => {
    const status = finished[i] as RunStatus;
    const start = slot + rng.int(2, 90) * SECOND_MS;
    // A run ends before the next one (or the one under way) starts, and before now.
    const boundary = slots[i + 1] ?? busyStart ?? now;
    const finish = Math.min(start + duration(status), boundary - 30 * SECOND_MS);
    return { type: 'BACKUP_RUN', status, start, finish };
  });
  if (busy && busyStart !== null) runs.push({ type: 'BACKUP_RUN', status: busy, start: busyStart, finish: null });

  const first = runs[0];
  const createdAt =
    first && first.finish !== null
      ? first.start - rng.int(1, 48) * HOUR_MS
      : recipe === 'awaitingSeed'
        ? now - rng.int(44, 72) * HOUR_MS
        : placement.neverRunCreatedAt();
  return { runs, createdAt };
}

/** The seed an AWAITING_SEED task wrote a day or so ago. */
export function seedCreationRun(rng: Random, now: number): Run {
  const start = now - rng.int(20, 40) * HOUR_MS;
  return { type: 'BACKUP_SEED_CREATION', status: 'FINISHED_SUCCESS', start, finish: start + 95 * MINUTE_MS };
}

/** With probability `chance`, a restore some hours after the task's latest successful backup run. */
export function restoreRun(rng: Random, now: number, runs: readonly Run[], chance: number): Run | null {
  const lastDone = runs.findLast((r) => r.status === 'FINISHED_SUCCESS' && r.finish !== null);
  if (!lastDone?.finish || !rng.chance(chance)) return null;
  const start = Math.min(now - 30 * MINUTE_MS, lastDone.finish + rng.int(1, 20) * HOUR_MS);
  return { type: 'BACKUP_RESTORE', status: 'FINISHED_SUCCESS', start, finish: start + rng.int(2, 25) * MINUTE_MS };
}

/** How an action ended, as its row shows it. */
export interface RunOutcome {
  done: boolean;
  phase: TransferPhase;
  transferProgressPercentage: number;
  failureMessage: string | null;
  exitCodeResult: 'SUCCESS' | 'SOME_FILES_NOT_ACCESSIBLE' | (typeof FAILURE_EXIT_CODES)[number] | null;
}

export function runOutcome(rng: Random, status: RunStatus): RunOutcome {
  const done = status === 'FINISHED_SUCCESS' || status === 'FINISHED_WARNINGS';
  const failureIndex = rng.int(0, FAILURE_MESSAGES.length - 1);
  const phase: TransferPhase =
    status === 'INITIATED'
      ? 'INITIATED_ON_SERVER'
      : status === 'IN_PROGRESS'
        ? 'TRANSFERRING_FILES'
        : status === 'FAILED'
          ? rng.pick(['WAITING_TO_LOCK_REPOSITORY', 'TRANSFERRING_FILES', 'PREPARING_FOR_TRANSFER'] as const)
          : 'FINALIZED';
  const transferProgressPercentage = done
    ? 100
    : status === 'IN_PROGRESS'
      ? rng.int(12, 88)
      : status === 'FAILED'
        ? rng.int(0, 70)
        : 0;
  return {
    done,
    phase,
    transferProgressPercentage,
    failureMessage: status === 'FAILED' ? (FAILURE_MESSAGES[failureIndex] ?? null) : null,
    exitCodeResult:
      status === 'FINISHED_SUCCESS'
        ? 'SUCCESS'
        : status === 'FINISHED_WARNINGS'
          ? 'SOME_FILES_NOT_ACCESSIBLE'
          : status === 'FAILED'
            ? (FAILURE_EXIT_CODES[failureIndex] ?? 'FATAL_ERROR')
            : null,
  };
}

/**
 * The summary restic would give a demo run (issue 31): one file per 2 MB read, the files changed in the share of the
 * bytes added (all new on a first run), a folder per 20 files, restic's time a little under the run's. No random draw,
 * so the demo's other data stay as they were.
 */
export function demoRunSummary(bytesTotal: number, added: number, durationMs: number): RunSummary {
  const files = Math.max(1, Math.round(bytesTotal / 2_000_000));
  const dirs = Math.max(1, Math.round(files / 20));
  const first = added >= bytesTotal;
  const changed = first ? 0 : Math.min(files, Math.ceil((files * added) / Math.max(1, bytesTotal)));
  return {
    filesNew: first ? files : 0,
    filesChanged: changed,
    filesUnmodified: first ? 0 : files - changed,
    dirsNew: first ? dirs : 0,
    dirsChanged: first ? 0 : Math.min(dirs, changed),
    dirsUnmodified: first ? 0 : dirs - Math.min(dirs, changed),
    durationSeconds: Math.max(1, durationMs * 0.9) / 1000,
  };
}

/** Bytes a finished run added: everything for a task's first run, a small share after. */
export const bytesAdded = (rng: Random, first: boolean, bytesTotal: number): number =>
  first ? bytesTotal : Math.floor(bytesTotal * (rng.int(1, 60) / 1000));
