import { MAIL_OUTBOX_STATUSES, type MailMessage, type MailOutboxStatus } from '@portal/domain';
import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { customers } from './accounts.js';

/**
 * What a queued mail says, before the brand is applied: the delivery job renders it as a plain-text and an
 * HTML part in the brand of the mail's customer (its reseller's, else the provider's), and turns the link's
 * portal path into an absolute address on that brand's host.
 */
export type QueuedMailMessage = MailMessage;
export { MAIL_OUTBOX_STATUSES, type MailOutboxStatus };

/**
 * Mail to send, once per event (issue 17): the event key is unique, so the same event queued twice (by two
 * server instances, or again after a restart) is one row. The delivery job claims due rows with
 * FOR UPDATE SKIP LOCKED under a lease (locked_until), sends, and records SENT, or the error and the next
 * attempt with back-off, and FAILED after the last attempt; a customer's failures are shown to its super admin.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventKey: varchar('event_key', { length: 200 }).notNull().unique(),
    /** Whose brand and SMTP settings apply; null for the provider's own mail (provider admins). */
    customerId: integer('customer_id').references(() => customers.id, { onDelete: 'cascade' }),
    /** What kind of mail this is (a notification kind, or an account mail such as a password reset). */
    kind: varchar('kind', { length: 40 }).notNull(),
    recipient: varchar('recipient', { length: 100 }).notNull(),
    message: jsonb('message').$type<QueuedMailMessage>().notNull(),
    status: varchar('status', { length: 10 }).$type<MailOutboxStatus>().notNull().default('QUEUED'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'QUEUED'`),
    index('mail_outbox_customer_idx').on(t.customerId, t.status, t.createdAt),
  ],
);
