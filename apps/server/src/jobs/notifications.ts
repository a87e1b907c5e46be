import type { NotificationEvents } from '../features/notifications/service.js';
import type { Job } from './runner.js';

/**
 * The alerts no request causes (issue 17, DESIGN §8): machines offline past their customer's hours and the
 * daily and weekly summaries, every minute. Each pass claims due rows with SKIP LOCKED and marks them in the
 * statement that claims them, so several server instances may run it at once and a restart resumes where it was.
 */
export function notificationsJob(deps: {
  events: Pick<NotificationEvents, 'offlinePass' | 'summaryPass'>;
  everyMs?: number;
}): Job<{ offline: number; summaries: number }> {
  return {
    name: 'notifications',
    everyMs: deps.everyMs ?? 60_000,
    timeoutMs: 2 * 60_000,
    run: async () => ({ offline: await deps.events.offlinePass(), summaries: await deps.events.summaryPass() }),
  };
}
