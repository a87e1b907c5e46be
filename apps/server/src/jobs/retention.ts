import type { RetentionService } from '../features/retention/service.js';
import type { Job } from './runner.js';

/**
 * Retention on the portal (issue 16, features/retention/service.ts): every minute (and when woken), the tasks
 * whose retention is due are taken one machine at a time and pruned with the storage location's own key. The
 * marks are in the database (backup_tasks.retention_due_at, leased while a pass works on them), so the job
 * resumes after a restart and several server instances may run it at once without pruning the same repository.
 */
export function retentionJob(deps: { retention: Pick<RetentionService, 'runPending'>; everyMs?: number }): Job<number> {
  return {
    name: 'retention',
    everyMs: deps.everyMs ?? 60_000,
    atStart: true,
    timeoutMs: 5 * 60_000,
    run: () => deps.retention.runPending(),
  };
}
