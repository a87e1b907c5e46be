import type { BackupStateService } from '../features/backup-state/service.js';
import type { Job } from './runner.js';

/**
 * How many overdue tasks one batch locks and marks in one transaction (a handful of statements whatever the
 * size); a pass repeats batches until none is left. Bigger batches hold more customers' locks for longer.
 */
const BATCH = 500;

/**
 * Missed-run detection (DESIGN §8): every minute, tasks whose expected run is overdue past the grace
 * period are marked missed and given their next expected run, a batch at a time. A pass with nothing due is
 * one probe of the next_run_at index, so its cost is the overdue tasks, not all tasks; the state is in the
 * database, so it resumes after a restart, and several server instances may run it at once (a batch locks
 * its tasks and their customers with SKIP LOCKED: each task is marked by one of them).
 */
export function missedRunsJob(deps: {
  backupState: Pick<BackupStateService, 'anyMissedRunDue' | 'markMissedBatch'>;
  everyMs?: number;
  /** Told how many tasks each committed batch marked (the metrics). */
  marked?: (count: number) => void;
}): Job<number> {
  return {
    name: 'missed-runs',
    everyMs: deps.everyMs ?? 60_000,
    atStart: true,
    timeoutMs: 60_000,
    async run() {
      if (!(await deps.backupState.anyMissedRunDue())) return 0;
      let marked = 0;
      for (;;) {
        const done = await deps.backupState.markMissedBatch(BATCH);
        marked += done.marked;
        deps.marked?.(done.marked);
        // Nothing left, or only tasks held by others (another instance's batch, a customer being changed):
        // those are taken up by their holder or by the next pass.
        if (done.claimed === 0 || done.marked === 0) return marked;
      }
    },
  };
}
