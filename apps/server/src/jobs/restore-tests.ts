import type { RestoreTestService } from '../features/restore-tests/service.js';
import type { Job } from './runner.js';

/**
 * Scheduled restore tests (issue 32 item 1, features/restore-tests): every minute the due tasks' tests are marked
 * RUNNING (under a lock on each task, so several instances never start one twice) and sent to their agents, a few
 * per pass so a fleet's tests spread over time; tests whose agent never reported are failed first.
 */
export function restoreTestsJob(deps: {
  restoreTests: Pick<RestoreTestService, 'runScheduled'>;
  everyMs?: number;
}): Job<number> {
  return {
    name: 'restore-tests',
    everyMs: deps.everyMs ?? 60_000,
    atStart: false,
    timeoutMs: 5 * 60_000,
    run: () => deps.restoreTests.runScheduled(),
  };
}
