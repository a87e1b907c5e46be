import type { VerificationStatus } from '@portal/domain';
import { integer, pgTable, primaryKey, varchar } from 'drizzle-orm/pg-core';
import { taskDisplayStatusEnum } from './backup.js';

/**
 * How many tasks of each customer have each display status: the read model behind the provider's task
 * status pie (002 §2.2 statusoverview; DESIGN §9), so the pie sums a few rows per customer instead of
 * counting a million tasks. Statement triggers on backup_tasks keep it (migration 0010), whatever code
 * path inserts, updates or deletes tasks; a row per customer keeps writers of different customers apart.
 * No foreign key: a customer's deletion removes its tasks, whose trigger then removes its rows.
 */
export const taskStatusCounts = pgTable(
  'task_status_counts',
  {
    customerId: integer('customer_id').notNull(),
    displayStatus: taskDisplayStatusEnum('display_status').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.displayStatus] })],
);

/**
 * How many tasks of each customer have each verification status (issue 32 item 3): the dashboard's verification
 * badge sums a few rows per customer, kept by statement triggers on backup_tasks like task_status_counts.
 */
export const taskVerificationCounts = pgTable(
  'task_verification_counts',
  {
    customerId: integer('customer_id').notNull(),
    verificationStatus: varchar('verification_status', { length: 16 }).$type<VerificationStatus>().notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.verificationStatus] })],
);
