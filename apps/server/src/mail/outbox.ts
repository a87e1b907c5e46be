import { and, count, eq, inArray, lt, sql } from 'drizzle-orm';
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

/** A mail the delivery job leased: it is this instance's to send until `lease`. */
export interface ClaimedMail {
  id: number;
  customerId: number | null;
  kind: string;
  recipient: string;
  message: QueuedMailMessage;
  /** This attempt's number (1-based). */
  attempts: number;
  lease: Date;
}

/** The delivery job's queries on mail_outbox (DESIGN §8: safe with several server instances). */
export function createMailOutboxRepo(db: Executor) {
  /** The lease is the row's own fence: an update that names it applies only while the lease is still this one's. */
  const leased = (id: number, lease: Date) => and(eq(mailOutbox.id, id), eq(mailOutbox.lockedUntil, lease));

  return {
    /**
     * Leases the next due mail until `lease` and counts the attempt. SKIP LOCKED lets several instances claim at
     * once without taking the same row; a row under a live lease is not due, and a crashed sender's lease runs
     * out, after which the mail is claimed again (a crash between the SMTP server's answer and markSent may so
     * send a mail twice: accepted, and the Message-ID stays the same).
     */
    async claimNext(now: Date, lease: Date): Promise<ClaimedMail | null> {
      const [row] = await db
        .update(mailOutbox)
        .set({ lockedUntil: lease, attempts: sql`${mailOutbox.attempts} + 1` })
        .where(
          inArray(
            mailOutbox.id,
            sql`(select id from ${mailOutbox}
                  where status = 'QUEUED' and next_attempt_at < ${now}::timestamptz + interval '1 millisecond'
                    and (locked_until is null or locked_until <= ${now})
                  order by next_attempt_at, id limit 1
                  for update skip locked)`,
          ),
        )
        .returning({
          id: mailOutbox.id,
          customerId: mailOutbox.customerId,
          kind: mailOutbox.kind,
          recipient: mailOutbox.recipient,
          message: mailOutbox.message,
          attempts: mailOutbox.attempts,
        });
      return row ? { ...row, lease } : null;
    },

    async markSent(mail: ClaimedMail, now: Date): Promise<void> {
      await db
        .update(mailOutbox)
        .set({ status: 'SENT', sentAt: now, lockedUntil: null, lastError: null })
        .where(leased(mail.id, mail.lease));
    },

    /** A failed attempt: tried again from `nextAttemptAt`, or given up (FAILED) when that is null. */
    async markFailed(mail: ClaimedMail, lastError: string, nextAttemptAt: Date | null): Promise<void> {
      await db
        .update(mailOutbox)
        .set({
          status: nextAttemptAt ? 'QUEUED' : 'FAILED',
          lastError,
          lockedUntil: null,
          ...(nextAttemptAt ? { nextAttemptAt } : {}),
        })
        .where(leased(mail.id, mail.lease));
    },

    /** Mails queued, due or waiting for their next attempt (the delivery's partial index counts them). */
    async queuedCount(): Promise<number> {
      const [row] = await db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.status, 'QUEUED'));
      return row?.n ?? 0;
    },

    /** Housekeeping: sent mails are kept a few days only. */
    async deleteSentBefore(cutoff: Date): Promise<number> {
      const deleted = await db
        .delete(mailOutbox)
        .where(and(eq(mailOutbox.status, 'SENT'), lt(mailOutbox.sentAt, cutoff)))
        .returning({ id: mailOutbox.id });
      return deleted.length;
    },
  };
}
export type MailOutboxRepo = ReturnType<typeof createMailOutboxRepo>;
