import type { FastifyBaseLogger } from 'fastify';
import type { RetentionService } from '../features/retention/service.js';
import { startDeletionJob } from './deletion-job.js';

/**
 * Retention on the portal (issue 16, features/retention/service.ts): every minute (and when kicked), the tasks
 * whose retention is due are taken one machine at a time and pruned with the storage location's own key. The
 * marks are in the database (backup_tasks.retention_due_at, leased while a pass works on them), so the job
 * resumes after a restart and several server instances may run it at once without pruning the same repository.
 */
export function startRetention(deps: {
  retention: Pick<RetentionService, 'runPending'>;
  logger: FastifyBaseLogger;
  intervalMs?: number;
}): ReturnType<typeof startDeletionJob> {
  return startDeletionJob({
    what: 'retention',
    runPending: () => deps.retention.runPending(),
    logger: deps.logger,
    intervalMs: deps.intervalMs ?? 60_000,
  });
}
