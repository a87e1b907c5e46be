/**
 * Stalled runs (issue 29). A busy run (initiated or in progress) whose agent has reported no progress for the
 * stall limit is stalled: its badge says so (STALLED_RUN_BADGE, statuses.ts), its machine's users are alerted as
 * for a failed run, it may be cancelled even when its agent never answers, and the provider's list of running
 * tasks leaves it out. A progress report afterwards makes it running again.
 */

/** Minutes without a progress report after which a busy run is stalled, unless configured (RUN_STALL_MINUTES). */
export const RUN_STALL_DEFAULT_MINUTES = 30;

/** The longest stall limit one may configure: a week. */
export const RUN_STALL_MINUTES_MAX = 7 * 24 * 60;

/** Runs whose last progress (or start) is before this time are stalled at `now`. */
export const stallCutoff = (now: Date, stallMinutes: number): Date => new Date(now.getTime() - stallMinutes * 60_000);
