/** Helpers shared by the agent's tests (not bundled: nothing in main.ts imports it). */
import type { AgentTask } from '@portal/domain';

export function makeTask(overrides: Partial<AgentTask> = {}): AgentTask {
  return {
    id: 1,
    version: 1,
    name: 'Documents',
    type: 'FILES_AND_FOLDERS',
    status: 'ACTIVE',
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
    ...overrides,
  };
}

export const dirItem = (path: string) => ({
  path,
  name: path.split('/').pop() ?? path,
  type: 'DIRECTORY' as const,
  missing: false,
});
export const fileItem = (path: string) => ({
  path,
  name: path.split('/').pop() ?? path,
  type: 'FILE' as const,
  missing: false,
});
