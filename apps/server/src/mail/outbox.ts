import type { Executor } from '../db/client.js';
import { mailOutbox, type QueuedMailMessage } from '../db/schema/index.js';

export interface MailToQueue {
  /** Unique per event and recipient, e.g. `run-failed:{actionId}:{userId}`: queuing the same key again is a no-op. */
  eventKey: string;
  /** Whose brand and SMTP settings the mail goes out with; null for the provider's own. */
  customerId: number | null;
  kind: string;
  recipient: string;
  message: QueuedMailMessage;
}

/**
 * Queues mails for the delivery job, each at most once per event key (issue 17: "sends each e-mail once per
 * event, never twice, also with several server instances and after a restart"). Answers how many were new.
 */
export async function enqueueMails(db: Executor, mails: readonly MailToQueue[]): Promise<number> {
  if (mails.length === 0) return 0;
  const inserted = await db
    .insert(mailOutbox)
    .values(mails.map((m) => ({ ...m })))
    .onConflictDoNothing({ target: mailOutbox.eventKey })
    .returning({ id: mailOutbox.id });
  return inserted.length;
}
