import type { MailDelivery } from '../mail/delivery.js';
import type { Job } from './runner.js';

/**
 * The mail delivery job (issue 17, DESIGN §8): every interval, and at once when woken after a mail is queued, it
 * sends the due mails of mail_outbox. The claims are leased rows taken with SKIP LOCKED, so several server
 * instances may run it at once and a restart resumes where it stopped.
 */
export function mailDeliveryJob(deps: { delivery: Pick<MailDelivery, 'deliverDue'>; everyMs: number }): Job<number> {
  return {
    name: 'mail-delivery',
    everyMs: deps.everyMs,
    atStart: true,
    timeoutMs: 2 * 60_000,
    run: () => deps.delivery.deliverDue(),
  };
}
