import type { FastifyBaseLogger } from 'fastify';

/**
 * An asynchronous deletion (DESIGN §8: customers, machines): a delete request marks the row and kicks this
 * job, which removes the stored backups and rows. A sweep every few minutes takes up what a kick missed or
 * an instance left half-done, so deletions resume after a restart; the deletion itself is safe to run on
 * several server instances at once.
 */
export function startDeletionJob(deps: {
  /** What is deleted, for the log ('customer', 'machine'). */
  what: string;
  runPending: () => Promise<number>;
  logger: FastifyBaseLogger;
  intervalMs?: number;
}): { stop: () => void; kick: () => void; runOnce: () => Promise<number> } {
  let running: Promise<number> | null = null;
  // A kick during a pass may come after that pass last looked: it runs once more.
  let again = false;

  async function passes(): Promise<number> {
    let deleted = 0;
    do {
      again = false;
      deleted += await deps.runPending();
    } while (again);
    return deleted;
  }

  const runOnce = (): Promise<number> => {
    if (running) {
      again = true;
      return running;
    }
    running = passes().finally(() => {
      running = null;
    });
    return running;
  };

  const tick = () => {
    runOnce().catch((error: unknown) => deps.logger.warn({ err: error }, `${deps.what} deletion failed; will retry`));
  };
  const timer = setInterval(tick, deps.intervalMs ?? 5 * 60_000);
  timer.unref();
  tick();
  return { stop: () => clearInterval(timer), kick: tick, runOnce };
}
