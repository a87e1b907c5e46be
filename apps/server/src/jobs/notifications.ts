import type { FastifyBaseLogger } from 'fastify';
import type { NotificationEvents } from '../features/notifications/service.js';

/**
 * The alerts no request causes (issue 17, DESIGN §8): machines offline past their customer's hours and the
 * daily and weekly summaries. Each pass claims due rows with SKIP LOCKED and marks them in the statement
 * that claims them, so several server instances may run it at once and a restart resumes where it was.
 */
export function startNotificationJob(deps: {
  events: Pick<NotificationEvents, 'offlinePass' | 'summaryPass'>;
  logger: FastifyBaseLogger;
  intervalMs?: number;
}): { stop: () => void; runOnce: () => Promise<{ offline: number; summaries: number }> } {
  let running: Promise<{ offline: number; summaries: number }> | null = null;
  const runOnce = () => {
    running ??= (async () => ({
      offline: await deps.events.offlinePass(),
      summaries: await deps.events.summaryPass(),
    }))().finally(() => {
      running = null;
    });
    return running;
  };
  const tick = () =>
    runOnce().catch((error: unknown) => deps.logger.warn({ err: error }, 'notification job failed; will retry'));
  const timer = setInterval(tick, deps.intervalMs ?? 60_000);
  timer.unref();
  return { stop: () => clearInterval(timer), runOnce };
}
