import type { Executor } from '../../db/client.js';
import { backupTasks } from '../../db/schema/index.js';
import { taskOfMachine } from '../../db/task-of-machine.js';

/** The stored definition of one task of a machine (the edit dialog's starting point). */
export function createTaskDefinitionRepo(db: Executor) {
  return {
    /** The task of this machine, or null (another machine's task id is "not found"). */
    async definition(machineId: number, taskId: number) {
      return taskOfMachine(db, machineId, taskId, {
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
      });
    },
  };
}

export type TaskDefinitionRepo = ReturnType<typeof createTaskDefinitionRepo>;
export type TaskDefinitionRow = NonNullable<Awaited<ReturnType<TaskDefinitionRepo['definition']>>>;
