import { STORAGE_TEXTS, type StorageBarState } from '@portal/domain';
import { UsageBar } from '../../ui';
import { usePackageStorage } from './queries';

/**
 * The storage usage bar of a package (000 §2): 'Calculating...' while its storage details load, then the
 * used share of the quota in the domain's green / orange / red, or 'Could not obtain storage size'.
 */
export function PackageStorageBar({ packageId, version }: { packageId: number; version?: unknown }) {
  const storage = usePackageStorage(packageId, version);
  const state: StorageBarState = storage.isError
    ? { kind: 'failed' }
    : storage.data
      ? {
          kind: 'loaded',
          usedSpaceInBytes: storage.data.usedSpaceInBytes,
          totalSpaceInBytes: storage.data.packageQuotaSizeInBytes,
          availableSpaceInBytes: storage.data.availableSpaceInBytes,
        }
      : { kind: 'loading' };
  return <UsageBar state={state} loadingText={STORAGE_TEXTS.calculating} />;
}
