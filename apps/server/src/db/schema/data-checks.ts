import type { DataCheckOutcome } from '@portal/domain';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { backupMachines } from './backup.js';
import { belongsTo, ts } from './columns.js';

/**
 * Where each machine's repository stands in its rotation of data checks (issue 32): the slice its next check reads,
 * of how many, when that is due, and the lease of the server instance checking it now (retention leaves a
 * repository under a check alone). A machine gets its row from the job, its first check spread over one interval;
 * `full_read_requested`: a provider admin asked for a check of all its data now, which the next check reads instead.
 */
export const repositoryCheckStates = pgTable(
  'repository_check_states',
  {
    backupMachineId: belongsTo('backup_machine_id', () => backupMachines.id).primaryKey(),
    nextSlice: integer('next_slice').notNull().default(1),
    slices: integer('slices').notNull(),
    dueAt: ts('due_at').notNull(),
    leaseUntil: ts('lease_until'),
    fullReadRequested: boolean('full_read_requested').notNull().default(false),
  },
  (t) => [index('repository_check_states_due_idx').on(t.dueAt)],
);

/** One data check of a machine's repository: when, which subset, how it ended, what it found and read. */
export const repositoryDataChecks = pgTable(
  'repository_data_checks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    backupMachineId: belongsTo('backup_machine_id', () => backupMachines.id),
    startedAt: ts('started_at').notNull(),
    /** restic's `n/m`. */
    subset: varchar('subset', { length: 16 }).notNull(),
    /** A DATA_CHECK_OUTCOMES value; text so that an outcome added later needs no enum migration. */
    outcome: text('outcome').$type<DataCheckOutcome>().notNull(),
    /** restic's error lines (at most DATA_CHECK_LIMITS.errorsKept). */
    errors: jsonb('errors').$type<string[]>().notNull().default([]),
    bytesRead: bigint('bytes_read', { mode: 'number' }).notNull().default(0),
    durationMs: integer('duration_ms').notNull(),
  },
  // The latest check of a repository (the task pages, the verification report) and its history.
  (t) => [index('repository_data_checks_machine_idx').on(t.backupMachineId, t.startedAt.desc(), t.id.desc())],
);
