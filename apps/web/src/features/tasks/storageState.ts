import { type StorageDetails, storageFigures } from '@portal/domain';

/** A storage bar's state (002 §2.6, §4.2): its read failed, is loading, or the figures of the part `used` picks. */
export function storageState(
  storage: { data?: StorageDetails; isError: boolean },
  used: (s: StorageDetails) => number,
) {
  if (storage.isError) return { kind: 'failed' } as const;
  if (!storage.data) return { kind: 'loading' } as const;
  return {
    kind: 'loaded',
    ...storageFigures(used(storage.data), storage.data.maxBackupSizePerMachineInBytes),
  } as const;
}
