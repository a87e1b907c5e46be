import { storageBarStateOf, UsageBar } from '../../ui';
import { useMachineStorage } from './queries';

/**
 * The storage space widget of a machine (001 §4): 'Loading', then 'Used: X of Y, available: Z', or a
 * full bar with 'Could not obtain storage size'. It loads again when `version` (the row) changes.
 */
export function MachineStorageBar({ machineId, version }: { machineId: number; version?: unknown }) {
  const storage = useMachineStorage(machineId, version);
  const state = storageBarStateOf(storage, (data) => ({
    usedSpaceInBytes: data.usedSpaceInBytes,
    totalSpaceInBytes: data.maxBackupSizePerMachineInBytes,
    availableSpaceInBytes: data.availableSpaceInBytes,
  }));
  return <UsageBar state={state} />;
}
