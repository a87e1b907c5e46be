import {
  isStorageLocationDeletable,
  packageUrl,
  type StorageLocationDetail,
  type StorageLocationPackage,
  type StorageLocationRow,
  storageLocationUrl,
} from '@portal/domain';
import type { StorageLocationData } from './repo.js';

/** The wire row of a location: listed fields only (001 §3 with its account and abilities). */
export function presentStorageLocation(row: StorageLocationData): StorageLocationRow {
  return {
    id: row.id,
    customerId: row.customerId,
    bucketId: row.bucketId,
    bucketName: row.bucketName,
    subfolder: row.subfolder,
    defaultForCustomer: row.defaultForCustomer,
    numberOfBackupPackages: row.numberOfBackupPackages,
    storageAccount: { id: row.accountId, name: row.accountName, type: row.accountType },
    deleteable: isStorageLocationDeletable(row),
    defaultable: !row.defaultForCustomer,
    storageLocationUrl: storageLocationUrl(row.customerId, row.id),
  };
}

export function presentStorageLocationDetail(
  row: StorageLocationData,
  customerName: string,
  packages: ReadonlyArray<Omit<StorageLocationPackage, 'backupPackageUrl'>>,
): StorageLocationDetail {
  return {
    ...presentStorageLocation(row),
    customerName,
    packages: packages.map((p) => ({
      id: p.id,
      name: p.name,
      status: p.status,
      backupPackageUrl: packageUrl('provider', { customerId: row.customerId, packageId: p.id }),
    })),
  };
}
