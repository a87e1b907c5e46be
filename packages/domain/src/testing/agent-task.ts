/** Test-only builders of what the server and its agent say (agent-protocol.ts): the task, a linking machine. */
import type { AgentTask, AgentToServer } from '../agent-protocol.js';

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

/** What a Debian laptop says of itself when it asks to be linked (without the password or code it links with). */
export const LINKING_MACHINE = {
  name: 'alex-laptop',
  osFamily: 'LINUX',
  operatingSystem: 'Debian 12',
  clientVersion: '1.0.0',
  fingerprint: 'device-fingerprint-0001',
  timeZone: 'Europe/London',
} as const;

/** An agent's hello as a freshly started Linux agent says it: no task versions known, no run in flight. */
export const agentHello = (machineId: number): Extract<AgentToServer, { type: 'hello' }> => ({
  type: 'hello',
  name: `machine-${machineId}`,
  osFamily: 'LINUX',
  operatingSystem: 'Debian GNU/Linux 12',
  clientVersion: '1.0.0',
  timeZone: 'UTC',
  taskVersions: {},
  runningRunKeys: [],
});

/** A run's progress halfway through its files (one of two items, 5 of 10 bytes). */
export const halfwayProgress = (runKey: string): Extract<AgentToServer, { type: 'runProgress' }> => ({
  type: 'runProgress',
  runKey,
  phase: 'TRANSFERRING_FILES',
  percentage: 50,
  currentItem: 1,
  totalItems: 2,
  bytesDone: 5,
  bytesTotal: 10,
});
