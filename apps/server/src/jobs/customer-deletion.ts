import type { FastifyBaseLogger } from 'fastify';
import type { CustomerDeletion } from '../features/customers/deletion.js';

/**
 * Customer deletion (002 §4.1, DESIGN §8): a delete request marks the customer and kicks this job, which
 * removes the customer's stored backups and rows. A sweep every few minutes takes up what a kick missed
 * or an instance left half-done (its lease ran out), so deletions resume after a restart; several server
 * instances may run it at once, since each customer is claimed with SKIP LOCKED and a lease.
 */
export function startCustomerDeletion(deps: {
  deletion: Pick<CustomerDeletion, 'runPending'>;
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
      deleted += await deps.deletion.runPending();
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
    runOnce().catch((error: unknown) => deps.logger.warn({ err: error }, 'customer deletion failed; will retry'));
  };
  const timer = setInterval(tick, deps.intervalMs ?? 5 * 60_000);
  timer.unref();
  tick();
  return { stop: () => clearInterval(timer), kick: tick, runOnce };
}
