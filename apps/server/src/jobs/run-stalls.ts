import type { FastifyBaseLogger } from 'fastify';
import type { RunStallService } from '../features/run-stalls/service.js';

/**
 * Stalled-run detection (issue 29, DESIGN §8): every minute, busy runs without progress for the stall limit are
 * marked stalled and alerted. The state is in the database (last_progress_at, stalled_at), so it resumes after a
 * restart, and several instances may run it at once (the claim skips locked rows and re-checks).
 */
export function startRunStallDetection(deps: {
  stalls: Pick<RunStallService, 'pass'>;
  logger: FastifyBaseLogger;
  intervalMs?: number;
}): { stop: () => void; runOnce: () => Promise<number> } {
  let running: Promise<number> | null = null;
  const runOnce = () => {
    running ??= deps.stalls.pass().finally(() => {
      running = null;
    });
    return running;
  };
  const tick = () =>
    runOnce().catch((error: unknown) => deps.logger.warn({ err: error }, 'stalled-run detection failed; will retry'));
  const timer = setInterval(tick, deps.intervalMs ?? 60_000);
  timer.unref();
  return { stop: () => clearInterval(timer), runOnce };
}
