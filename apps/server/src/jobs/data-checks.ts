import type { DataCheckService } from '../features/data-checks/service.js';
import type { Job } from './runner.js';

/**
 * Rotating data checks (issue 32, features/data-checks/service.ts): every five minutes the repositories whose check
 * is due are checked, a few at once. The rotation and the leases are in the database (repository_check_states), so
 * the job resumes after a restart and several server instances may run it at once without checking one repository
 * twice. A check reads a share of a repository's data, so a run may take long: the limit only logs it.
 */
export function dataChecksJob(deps: { checks: Pick<DataCheckService, 'runPending'>; everyMs?: number }): Job<number> {
  return {
    name: 'data-checks',
    everyMs: deps.everyMs ?? 5 * 60_000,
    timeoutMs: 60 * 60_000,
    run: () => deps.checks.runPending(),
  };
}
