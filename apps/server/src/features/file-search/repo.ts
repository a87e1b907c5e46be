import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { machineContext } from '../../db/machine-context.js';
import { backupTasks, taskActions } from '../../db/schema/index.js';
import { taskOfMachine } from '../../db/task-of-machine.js';

/** The reads of a file search: each names the machine the caller was allowed, so another's ids find nothing. */
export function createFileSearchRepo(db: Executor) {
  return {
    /** Who may see and command the machine (db/machine-context.ts). */
    machine: (machineId: number) => machineContext(db, machineId),

    task: (machineId: number, taskId: number) => taskOfMachine(db, machineId, taskId, { id: backupTasks.id }),

    /** The machine's tasks whose snapshots a machine-wide search covers: all but those being deleted. */
    async taskIds(machineId: number): Promise<number[]> {
      const rows = await db
        .select({ id: backupTasks.id })
        .from(backupTasks)
        .where(and(eq(backupTasks.backupMachineId, machineId), ne(backupTasks.status, 'BEING_DELETED')))
        .orderBy(asc(backupTasks.id));
      return rows.map((row) => row.id);
    },

    /** The names of these tasks of the machine, by id. */
    async taskNames(machineId: number, taskIds: readonly number[]): Promise<Map<number, string>> {
      if (taskIds.length === 0) return new Map();
      const rows = await db
        .select({ id: backupTasks.id, name: backupTasks.name })
        .from(backupTasks)
        .where(and(eq(backupTasks.backupMachineId, machineId), inArray(backupTasks.id, [...taskIds])));
      return new Map(rows.map((row) => [row.id, row.name]));
    },

    /** The machine's backup runs that made these snapshots, by snapshot id. */
    async runsBySnapshot(machineId: number, snapshotIds: readonly string[]): Promise<Map<string, number>> {
      if (snapshotIds.length === 0) return new Map();
      const rows = await db
        .select({ id: taskActions.id, snapshotId: taskActions.resticSnapshotId })
        .from(taskActions)
        .where(
          and(
            eq(taskActions.backupMachineId, machineId),
            eq(taskActions.type, 'BACKUP_RUN'),
            inArray(taskActions.resticSnapshotId, [...snapshotIds]),
          ),
        );
      return new Map(rows.flatMap((row) => (row.snapshotId ? [[row.snapshotId, row.id] as const] : [])));
    },
  };
}

export type FileSearchRepo = ReturnType<typeof createFileSearchRepo>;
