/** Test-only builder of the task as the server sends it to its agent (agent-protocol.ts). */
import type { AgentTask } from '../agent-protocol.js';

/** An ACTIVE files-and-folders task with nothing chosen, no limits and no retention; `overrides` on top. */
export function makeTask(overrides: Partial<AgentTask> = {}): AgentTask {
  return {
    id: 1,
    version: 1,
    name: 'Documents',
    type: 'FILES_AND_FOLDERS',
    status: 'ACTIVE',
    runnable: true,
    scheduleCron: '0 2 * * *',
    backupItems: [],
    exclusions: [],
    numberOfSnapshotsToKeep: -1,
    syncDeletions: false,
    uploadBandwidthLimit: -1,
    uploadBandwidthLimitUnit: 'KILO_BYTES_PER_SECOND',
    createSeed: false,
    pathToSeedDisk: null,
    volumeSnapshotsEnabled: false,
    extraTaskSettings: {
      numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: -1,
      timeUnitForBackupItemPruning: 'MONTH',
      backupAnyNewAvailableItems: false,
    },
    ...overrides,
  };
}
