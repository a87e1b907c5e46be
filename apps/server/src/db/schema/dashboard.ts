import { integer, pgTable, primaryKey, smallint } from 'drizzle-orm/pg-core';
import { aggregateTaskStatusEnum } from './accounts.js';
import { machineStatusEnum } from './backup.js';

/**
 * How many machines have each (task status, machine status): the provider's all-machines pies (issue 33 item 5),
 * so they sum a few hundred rows instead of grouping every machine. Statement triggers on backup_machines keep it
 * (migration 0041) in the transaction of whatever inserts, updates or deletes machines. The counts are spread over
 * stripes (the machine's customer id modulo 32): writers of one customer already serialise on its row, so two
 * writers wait for the same summary row only when their customers share a stripe. A stripe's count may go
 * negative (a machine counted in under one customer and out under another); only the sums over stripes mean
 * anything.
 */
export const machineStatusCounts = pgTable(
  'machine_status_counts',
  {
    stripe: smallint('stripe').notNull(),
    taskStatus: aggregateTaskStatusEnum('task_status').notNull(),
    status: machineStatusEnum('status').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.stripe, t.taskStatus, t.status] })],
);
