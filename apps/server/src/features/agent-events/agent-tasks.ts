import {
  type AgentTask,
  customerStopsTasks,
  DEFAULT_PRUNING_TIME_UNIT,
  machineStopsTasks,
  packageStopsTasks,
} from '@portal/domain';
import { sql } from 'drizzle-orm';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import { machineStatuses } from '../../db/machine-statuses.js';
import { backupMachines, backupTasks, packageMigrations } from '../../db/schema/index.js';

/**
 * What is read of a task for its machine's agent (select it on backup_tasks joined to the machine and, with
 * joinMachineOwners, its owners); toAgentTask makes the task the agent holds of a row.
 */
export const agentTaskFields = {
  id: backupTasks.id,
  version: backupTasks.version,
  name: backupTasks.name,
  type: backupTasks.type,
  status: backupTasks.status,
  scheduleCron: backupTasks.scheduleCron,
  backupItems: backupTasks.backupItems,
  exclusions: backupTasks.exclusions,
  numberOfSnapshotsToKeep: backupTasks.numberOfSnapshotsToKeep,
  syncDeletions: backupTasks.syncDeletions,
  uploadBandwidthLimit: backupTasks.uploadBandwidthLimit,
  uploadBandwidthLimitUnit: backupTasks.uploadBandwidthLimitUnit,
  createSeed: backupTasks.createSeed,
  pathToSeedDisk: backupTasks.pathToSeedDisk,
  volumeSnapshotsEnabled: backupTasks.volumeSnapshotsEnabled,
  pruneAfterCount: backupTasks.pruneAfterCount,
  pruneTimeUnit: backupTasks.pruneTimeUnit,
  backupAnyNewAvailableItems: backupTasks.backupAnyNewAvailableItems,
  ...machineStatuses,
  // A package migration's final sync holds the package's tasks (issue 16).
  heldByMigration: sql<boolean>`exists (select 1 from ${packageMigrations} where ${packageMigrations.backupPackageId} = ${backupMachines.backupPackageId} and ${packageMigrations.tasksHeld})`,
};

type AgentTaskRow = SelectResultFields<typeof agentTaskFields>;

export const toAgentTask = ({
  machineStatus,
  packageStatus,
  customerStatus,
  pruneAfterCount,
  pruneTimeUnit,
  backupAnyNewAvailableItems,
  heldByMigration,
  ...task
}: AgentTaskRow): AgentTask => ({
  ...(task as Omit<AgentTask, 'runnable' | 'extraTaskSettings'>),
  extraTaskSettings: {
    numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: pruneAfterCount,
    timeUnitForBackupItemPruning: pruneTimeUnit ?? DEFAULT_PRUNING_TIME_UNIT,
    backupAnyNewAvailableItems,
  },
  runnable: !(
    heldByMigration ||
    machineStopsTasks(machineStatus) ||
    packageStopsTasks(packageStatus) ||
    customerStopsTasks(customerStatus)
  ),
});
