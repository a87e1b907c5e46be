import { DEFAULT_PRUNING_TIME_UNIT, type TaskDefinition, UNLIMITED } from '@portal/domain';
import type { TaskDefinitionRow } from './repo.js';

/** The definition on the wire: the payload's fields (002 §3), listed one by one. */
export function presentTaskDefinition(row: TaskDefinitionRow): TaskDefinition {
  return {
    id: row.id,
    status: row.status,
    name: row.name,
    type: row.type,
    snapshotsEnabled: row.snapshotsEnabled,
    numberOfSnapshotsToKeep: row.numberOfSnapshotsToKeep,
    autoDeleteFailedSnapshots: row.autoDeleteFailedSnapshots,
    syncDeletions: row.syncDeletions,
    backupScheduleDefinition: row.scheduleCron,
    backupItems: row.backupItems.map((item) => ({
      path: item.path,
      name: item.name,
      type: item.type,
      missing: item.missing,
    })),
    exclusions: [...row.exclusions],
    createSeed: row.createSeed,
    pathToSeedDisk: row.pathToSeedDisk ?? '',
    uploadBandwidthUnlimited: row.uploadBandwidthLimit === UNLIMITED,
    uploadBandwidthLimit: row.uploadBandwidthLimit,
    uploadBandwidthLimitUnit: row.uploadBandwidthLimitUnit,
    extraTaskSettings: {
      numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: row.pruneAfterCount,
      timeUnitForBackupItemPruning: row.pruneTimeUnit ?? DEFAULT_PRUNING_TIME_UNIT,
      backupAnyNewAvailableItems: row.backupAnyNewAvailableItems,
    },
  };
}
