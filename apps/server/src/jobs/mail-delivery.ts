import type { FastifyBaseLogger } from 'fastify';
import type { MailDelivery } from '../mail/delivery.js';

/** Sent mails are cleared at most this often. */
const HOUSEKEEPING_EVERY_MS = 3_600_000;

/**
 * The mail delivery job (issue 17, DESIGN §8): every interval, and at once when woken (kick) after a mail is
 * queued, it sends the due mails of mail_outbox. The claims are leased rows taken with SKIP LOCKED, so several
 * server instances may run it at once and a restart resumes where it stopped. A kick during a pass runs one more.
 */
export function startMailDelivery(deps: {
  delivery: Pick<MailDelivery, 'deliverDue' | 'deleteOldSent'>;
  logger: FastifyBaseLogger;
  intervalMs: number;
}): { stop: () => Promise<void>; runOnce: () => Promise<number>; kick: () => void } {
  let running: Promise<number> | null = null;
  let again = false;
  let lastHousekeeping = 0;

  async function pass(): Promise<number> {
    let sent = 0;
    do {
      again = false;
      sent += await deps.delivery.deliverDue();
    } while (again);
    if (Date.now() - lastHousekeeping >= HOUSEKEEPING_EVERY_MS) {
      lastHousekeeping = Date.now();
      await deps.delivery.deleteOldSent();
    }
    return sent;
  }

  // A pass that starts after the call: one under way may have begun before the mail the caller queued.
  const runOnce = async (): Promise<number> => {
    if (running) await running.catch(() => 0);
    running ??= pass().finally(() => {
      running = null;
    });
    return running;
  };
  const tick = () => {
    runOnce().catch((error: unknown) => deps.logger.warn({ err: error }, 'mail delivery failed; will retry'));
  };
  const timer = setInterval(tick, deps.intervalMs);
  timer.unref();
  tick();
  return {
    /** Stops the timer and waits for a pass under way, so nothing runs on a closed database. */
    async stop() {
      clearInterval(timer);
      await running?.catch(() => 0);
    },
    runOnce,
    kick: () => {
      if (running) again = true;
      else tick();
    },
  };
}
