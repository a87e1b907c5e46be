import type { StorageLocationAndAccount } from './customers.js';
import type { PackageStatus, StorageAccountType } from './enums.js';
import { storageLocationName } from './forms/confirm.js';

/**
 * A customer's storage locations (001 §2-§6, §9): the table on the provider's customer page (fetched once,
 * 10 a page in the browser) and the storage location page. Every row carries the abilities the screens
 * need (`deleteable`, `defaultable`), computed here once and by the server.
 */

/** 001 §9: storage location (and migration) tables show 10 rows a page, fetched once. */
export const STORAGE_LOCATION_PAGE_SIZE = 10;

/** A location's own fields (001 §3 'Storage location'), as the customer page's pairs carry them too. */
type StorageLocationFields = StorageLocationAndAccount['storageLocation'];

/** One row of the customer's storage locations (001 §3 'Storage location' with its account, ours: the rest). */
export interface StorageLocationRow extends StorageLocationFields {
  storageAccount: { id: number; name: string; type: StorageAccountType };
  /** 001 §6: not the default and fewer than one backup package. */
  deleteable: boolean;
  /** 001 §4: Make default is offered only when the location is not the default already. */
  defaultable: boolean;
  /** /boltadmin/customers/{c}/storagelocations/{id} (the Manage button). */
  storageLocationUrl: string;
}

/** A storage account the Create storage location dialog offers. */
export interface StorageAccountChoice {
  id: number;
  name: string;
  type: StorageAccountType;
  defaultStorageAccount: boolean;
}

/** A package stored in the location, on its page. */
export interface StorageLocationPackage {
  id: number;
  name: string;
  status: PackageStatus;
  backupPackageUrl: string;
}

/** The storage location page: the row plus its packages. */
export interface StorageLocationDetail extends StorageLocationRow {
  customerName: string;
  packages: StorageLocationPackage[];
}

/** 001 §6: a location may be deleted only when it is not the default and holds fewer than 1 package. */
export const isStorageLocationDeletable = (location: { defaultForCustomer: boolean; numberOfBackupPackages: number }) =>
  !location.defaultForCustomer && location.numberOfBackupPackages < 1;

/** Why a deletion is refused, or null when it is allowed (the server's message; the web hides the button). */
export function storageLocationDeletionRefusal(location: {
  defaultForCustomer: boolean;
  numberOfBackupPackages: number;
}): string | null {
  if (location.defaultForCustomer) return STORAGE_LOCATION_TEXTS.defaultNotDeletable;
  if (location.numberOfBackupPackages >= 1) return STORAGE_LOCATION_TEXTS.withPackagesNotDeletable;
  return null;
}

/** Ours: the texts of storage locations the specification leaves open. */
export const STORAGE_LOCATION_TEXTS = {
  sectionTitle: 'Storage locations',
  createButton: 'Create storage location',
  createTitle: 'Create storage location',
  createSubmit: 'Create',
  storageAccountLabel: 'Storage account',
  nothingChosen: '-- Choose a storage account --',
  manage: 'Manage',
  makeDefault: 'Make default',
  makeDefaultTitle: 'Make default storage location',
  makeDefaultSubmit: 'Make default',
  delete: 'Delete',
  deleteTitle: 'Delete storage location',
  deleteSubmit: 'Delete',
  columns: {
    storageAccount: 'Storage account',
    location: 'Location',
    defaultForCustomer: 'Default for customer',
    numberOfBackupPackages: 'Number of packages',
    actions: 'Actions',
  },
  details: {
    storageAccount: 'Storage account',
    bucket: 'Bucket',
    subfolder: 'Subfolder',
    defaultForCustomer: 'Default for customer',
    numberOfBackupPackages: 'Number of packages',
  },
  packagesTitle: 'Backup packages in this location',
  noPackages: 'No backup packages are stored in this location',
  pageTitle: 'Storage location',
  notFound: 'Storage location not found',
  storageAccountNotFound: 'Storage account not found',
  defaultNotDeletable: 'The default storage location of a customer cannot be deleted',
  withPackagesNotDeletable: 'A storage location that holds backup packages cannot be deleted',
  inMigrationNotDeletable: 'A storage location that an open package migration uses cannot be deleted',
  /** The service could not make the bucket, user or key: nothing was kept. */
  notCreatedAtService: (reason: string) =>
    `The storage location could not be created at the storage service: ${reason}`,
  /** The rows are gone, but the service kept something (it is named; the provider admin removes it there). */
  leftAtService: (what: string) => `Storage location deleted, but ${what} could not be removed at the storage service`,
  machineKeyRotated: "The machine's storage key was replaced; its agent was sent the new one.",
  machineKeyNotNeeded: 'This machine keeps its backups on the embedded storage, which uses its machine credential',
} as const;

/** A confirmation prompt: the location's name to type (001 §5). */
export const typeStorageLocationName = (location: { bucketName: string; subfolder?: string | null }) =>
  `Type the storage location's name (${storageLocationName(location)}) to confirm.`;

/** The storage user the portal makes for a location (its own key: retention, migrations, removal). */
export const locationStorageUserName = (storageLocationId: number) => `portal-location-${storageLocationId}`;

/** The storage user the portal makes for a machine on an S3 location (write, never delete but its locks). */
export const machineStorageUserName = (machineId: number) => `portal-machine-${machineId}`;
