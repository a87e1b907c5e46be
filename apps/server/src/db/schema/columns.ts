import { type AnyPgColumn, integer, timestamp } from 'drizzle-orm/pg-core';

/** Timestamps are stored with time zone and read as Date. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const createdAt = () => ts('created_at').notNull().defaultNow();

/**
 * The per-category task counters of a customer or a machine (domain AggregateCounts, 000 §4), kept
 * current as tasks change so the dashboard reads aggregate statuses without scanning tasks (DESIGN §9).
 */
export const taskCounterColumns = () => ({
  tasksFailed: integer('tasks_failed').notNull().default(0),
  tasksMissed: integer('tasks_missed').notNull().default(0),
  tasksSuccessful: integer('tasks_successful').notNull().default(0),
  tasksNeverRun: integer('tasks_never_run').notNull().default(0),
  tasksIgnored: integer('tasks_ignored').notNull().default(0),
  tasksInProgress: integer('tasks_in_progress').notNull().default(0),
});

/** A row that belongs to another and goes with it: a required reference whose row's deletion removes this one. */
export const belongsTo = <N extends string>(name: N, parentId: () => AnyPgColumn) =>
  integer(name).notNull().references(parentId, { onDelete: 'cascade' });
