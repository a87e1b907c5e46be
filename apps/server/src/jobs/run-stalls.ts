import type { RunStallService } from '../features/run-stalls/service.js';
import type { Job } from './runner.js';

/**
 * Stalled-run detection (issue 29, DESIGN §8): every minute, busy runs without progress for the stall limit are
 * marked stalled and alerted. The state is in the database (last_progress_at, stalled_at), so it resumes after a
 * restart, and several instances may run it at once (the claim skips locked rows and re-checks).
 */
export function runStallsJob(deps: { stalls: Pick<RunStallService, 'pass'>; everyMs?: number }): Job<number> {
  return {
    name: 'run-stalls',
    everyMs: deps.everyMs ?? 60_000,
    timeoutMs: 60_000,
    run: () => deps.stalls.pass(),
  };
}
