import { STORAGE_TEXTS } from '@portal/domain';
import { storageBarStateOf, UsageBar } from '../../ui';
import { usePackageStorage } from './queries';

/**
 * The storage usage bar of a package (000 §2): 'Calculating...' while its storage details load, then the
 * used share of the quota in the domain's green / orange / red, or 'Could not obtain storage size'.
 */
export function PackageStorageBar({ packageId, version }: { packageId: number; version?: unknown }) {
  const storage = usePackageStorage(packageId, version);
  const state = storageBarStateOf(storage, (data) => ({
    usedSpaceInBytes: data.usedSpaceInBytes,
    totalSpaceInBytes: data.packageQuotaSizeInBytes,
    availableSpaceInBytes: data.availableSpaceInBytes,
  }));
  return <UsageBar state={state} loadingText={STORAGE_TEXTS.calculating} />;
}
