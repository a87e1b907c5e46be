import type { FastifyBaseLogger } from 'fastify';
import type { CustomerDeletion } from '../features/customers/deletion.js';
import { startDeletionJob } from './deletion-job.js';

/**
 * Customer deletion (002 §4.1, DESIGN §8) as a deletion job: each customer is claimed with SKIP LOCKED and
 * a lease, so several server instances may run it at once.
 */
export function startCustomerDeletion(deps: {
  deletion: Pick<CustomerDeletion, 'runPending'>;
  logger: FastifyBaseLogger;
  intervalMs?: number;
}): ReturnType<typeof startDeletionJob> {
  return startDeletionJob({
    what: 'customer',
    runPending: () => deps.deletion.runPending(),
    logger: deps.logger,
    ...(deps.intervalMs === undefined ? {} : { intervalMs: deps.intervalMs }),
  });
}
