import { and, eq } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { SelectResult } from 'drizzle-orm/query-builders/select.types';
import { type Executor, oneOrNull } from './client.js';
import { backupTasks } from './schema/index.js';

/**
 * The `fields` of a task when it belongs to the machine, else null: every read of a task by id names the machine
 * the caller was allowed, so another machine's task id is "not found". The row's type is spelled out: drizzle
 * cannot infer it through the generic fields on either kind of executor.
 */
export const taskOfMachine = <F extends SelectedFields>(
  db: Executor,
  machineId: number,
  taskId: number,
  fields: F,
): Promise<SelectResult<F, 'partial', Record<string, 'not-null'>> | null> =>
  oneOrNull(
    db
      .select(fields)
      .from(backupTasks)
      .where(and(eq(backupTasks.id, taskId), eq(backupTasks.backupMachineId, machineId))),
  );
