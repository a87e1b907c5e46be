import type { BackupStateService } from '../features/backup-state/service.js';
import type { Job } from './runner.js';

/** How many overdue tasks one pass looks at; a pass repeats until none are left. */
const BATCH = 500;

/**
 * Missed-run detection (DESIGN §8): every minute, tasks whose expected run is overdue past the grace
 * period are marked missed and given their next expected run. It reads the next_run_at index only, so
 * its cost is the overdue tasks, not all tasks; the state is in the database, so it resumes after a
 * restart, and several server instances may run it at once (each mark is re-checked under a lock).
 */
export function missedRunsJob(deps: {
  backupState: Pick<BackupStateService, 'dueTaskIds' | 'markMissedIfDue'>;
  everyMs?: number;
}): Job<number> {
  return {
    name: 'missed-runs',
    everyMs: deps.everyMs ?? 60_000,
    atStart: true,
    timeoutMs: 60_000,
    async run() {
      let marked = 0;
      for (;;) {
        const due = await deps.backupState.dueTaskIds(BATCH);
        let markedNow = 0;
        for (const taskId of due) if (await deps.backupState.markMissedIfDue(taskId)) markedNow++;
        marked += markedNow;
        // A full batch of which none could be marked would come back unchanged: stop until the next run.
        if (due.length < BATCH || markedNow === 0) return marked;
      }
    },
  };
}
