import { and, eq } from 'drizzle-orm';
import { type Executor, oneOrNull } from '../../db/client.js';
import { backupTasks } from '../../db/schema/index.js';

/** The stored definition of one task of a machine (the edit dialog's starting point). */
export function createTaskDefinitionRepo(db: Executor) {
  return {
    /** The task of this machine, or null (another machine's task id is "not found"). */
    async definition(machineId: number, taskId: number) {
      return oneOrNull(
        db
          .select({
            id: backupTasks.id,
            status: backupTasks.status,
            name: backupTasks.name,
            type: backupTasks.type,
            scheduleCron: backupTasks.scheduleCron,
            snapshotsEnabled: backupTasks.snapshotsEnabled,
            numberOfSnapshotsToKeep: backupTasks.numberOfSnapshotsToKeep,
            autoDeleteFailedSnapshots: backupTasks.autoDeleteFailedSnapshots,
            syncDeletions: backupTasks.syncDeletions,
            backupItems: backupTasks.backupItems,
            exclusions: backupTasks.exclusions,
            createSeed: backupTasks.createSeed,
            pathToSeedDisk: backupTasks.pathToSeedDisk,
            uploadBandwidthLimit: backupTasks.uploadBandwidthLimit,
            uploadBandwidthLimitUnit: backupTasks.uploadBandwidthLimitUnit,
            pruneAfterCount: backupTasks.pruneAfterCount,
            pruneTimeUnit: backupTasks.pruneTimeUnit,
            backupAnyNewAvailableItems: backupTasks.backupAnyNewAvailableItems,
          })
          .from(backupTasks)
          .where(and(eq(backupTasks.id, taskId), eq(backupTasks.backupMachineId, machineId))),
      );
    },
  };
}

export type TaskDefinitionRepo = ReturnType<typeof createTaskDefinitionRepo>;
export type TaskDefinitionRow = NonNullable<Awaited<ReturnType<TaskDefinitionRepo['definition']>>>;
