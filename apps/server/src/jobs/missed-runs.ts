import type { FastifyBaseLogger } from 'fastify';
import type { BackupStateService } from '../features/backup-state/service.js';

/** How many overdue tasks one pass looks at; a pass repeats until none are left. */
const BATCH = 500;

/**
 * Missed-run detection (DESIGN §8): every minute, tasks whose expected run is overdue past the grace
 * period are marked missed and given their next expected run. It reads the next_run_at index only, so
 * its cost is the overdue tasks, not all tasks; the state is in the database, so it resumes after a
 * restart, and several server instances may run it at once (each mark is re-checked under a lock).
 */
export function startMissedRunDetection(deps: {
  backupState: Pick<BackupStateService, 'dueTaskIds' | 'markMissedIfDue'>;
  logger: FastifyBaseLogger;
  intervalMs?: number;
}): { stop: () => void; runOnce: () => Promise<number> } {
  let running: Promise<number> | null = null;

  async function pass(): Promise<number> {
    let marked = 0;
    for (;;) {
      const due = await deps.backupState.dueTaskIds(BATCH);
      let markedNow = 0;
      for (const taskId of due) if (await deps.backupState.markMissedIfDue(taskId)) markedNow++;
      marked += markedNow;
      // A full batch of which none could be marked would come back unchanged: stop until the next tick.
      if (due.length < BATCH || markedNow === 0) return marked;
    }
  }

  const runOnce = () => {
    running ??= pass().finally(() => {
      running = null;
    });
    return running;
  };

  const tick = () =>
    runOnce().catch((error: unknown) => deps.logger.warn({ err: error }, 'missed-run detection failed; will retry'));
  const timer = setInterval(tick, deps.intervalMs ?? 60_000);
  timer.unref();
  void tick();
  return { stop: () => clearInterval(timer), runOnce };
}
