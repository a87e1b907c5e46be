/** Test-only: a stored task as the edit dialog reads it (forms/task.ts TaskDefinition). */
import type { TaskDefinition } from '../forms/task.js';

/** An active file task of /home/ana with snapshots and a 5 MB/s upload limit; `overrides` on top. */
export const makeTaskDefinition = (overrides: Partial<TaskDefinition> = {}): TaskDefinition => ({
  id: 1,
  status: 'ACTIVE',
  name: 'Documents',
  type: 'FILES_AND_FOLDERS',
  snapshotsEnabled: true,
  numberOfSnapshotsToKeep: 12,
  autoDeleteFailedSnapshots: false,
  syncDeletions: true,
  backupScheduleDefinition: '30 1 * * *',
  backupItems: [{ path: '/home/ana', name: 'ana', type: 'DIRECTORY', missing: false }],
  exclusions: ['*.tmp'],
  createSeed: false,
  pathToSeedDisk: '',
  uploadBandwidthUnlimited: false,
  uploadBandwidthLimit: 5,
  uploadBandwidthLimitUnit: 'MEGA_BYTES_PER_SECOND',
  extraTaskSettings: {
    numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: -1,
    timeUnitForBackupItemPruning: 'MONTH',
    backupAnyNewAvailableItems: false,
  },
  ...overrides,
});
