import type { RestoreTestMismatch, RestoreTestOutcome } from '@portal/domain';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { customers, users } from './accounts.js';
import { backupMachines, backupTasks } from './backup.js';
import { belongsTo, ts } from './columns.js';

/**
 * Restore tests (issue 32 item 1): one row per test of a task, RUNNING from when the portal sends it until the agent
 * reports it (or the timeout fails it). `test_key` is the name the agent echoes in its result.
 */
export const restoreTests = pgTable(
  'restore_tests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    backupTaskId: belongsTo('backup_task_id', () => backupTasks.id),
    backupMachineId: belongsTo('backup_machine_id', () => backupMachines.id),
    testKey: uuid('test_key').notNull().unique(),
    /** Started by a user ('Test restore now'); false: by the schedule. */
    manual: boolean('manual').notNull(),
    /**
     * Sent to the agent a second time: its first try failed and the portal then put back objects the machine had
     * replaced in its Object Lock bucket (features/storage-tampering). Once only: the second result stands.
     */
    rerun: boolean('rerun').notNull().default(false),
    requestedByUserId: integer('requested_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    outcome: varchar('outcome', { length: 16 }).$type<RestoreTestOutcome>().notNull().default('RUNNING'),
    startedAt: ts('started_at').notNull(),
    finishedAt: ts('finished_at'),
    snapshotId: varchar('snapshot_id', { length: 64 }),
    filesTested: integer('files_tested').notNull().default(0),
    bytesTested: bigint('bytes_tested', { mode: 'number' }).notNull().default(0),
    changedFilesTested: integer('changed_files_tested').notNull().default(0),
    durationMs: integer('duration_ms'),
    mismatchCount: integer('mismatch_count').notNull().default(0),
    mismatches: jsonb('mismatches').$type<RestoreTestMismatch[]>().notNull().default([]),
    message: varchar('message', { length: 4000 }),
  },
  (t) => [
    // A task's history and its latest test, newest first.
    index('restore_tests_task_idx').on(t.backupTaskId, t.startedAt.desc(), t.id.desc()),
    index('restore_tests_machine_idx').on(t.backupMachineId),
    // The timeout sweep reads only the tests still running.
    index('restore_tests_running_idx').on(t.startedAt).where(sql`${t.outcome} = 'RUNNING'`),
    // One running test per task, whoever starts it (a user, the schedule on any instance).
    uniqueIndex('restore_tests_one_running_uq').on(t.backupTaskId).where(sql`${t.outcome} = 'RUNNING'`),
  ],
);

/** A customer's override of the provider's restore test interval (no row: the provider's default). */
export const restoreTestSettings = pgTable('restore_test_settings', {
  customerId: belongsTo('customer_id', () => customers.id).primaryKey(),
  intervalDays: integer('interval_days'),
});
