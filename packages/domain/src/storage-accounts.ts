import type { ActionType, RunStatus, StorageAccountType, StorageUserApi } from './enums.js';

/**
 * Storage accounts, their buckets with policy info, storage users and access keys (001 §2, §3, §7;
 * 002 §3). The provider admin's pages read these shapes; secrets never appear in them (DESIGN §3).
 */

/** Page sizes of 001 §9: storage accounts 5; buckets, users and keys 10 (the last three paged in the browser). */
export const STORAGE_ACCOUNT_PAGE_SIZES = { accounts: 5, buckets: 10, users: 10, accessKeys: 10 } as const;

/** A row of the storage accounts table (001 §3, 002 §3: id, name, defaultStorageAccount, type). */
export interface StorageAccountRow {
  id: number;
  name: string;
  defaultStorageAccount: boolean;
  type: StorageAccountType;
}

/** The storage account page and the edit form's starting values; the secret is only said to be set. */
export interface StorageAccountDetail extends StorageAccountRow {
  endpoint: string | null;
  iamEndpoint: string | null;
  region: string | null;
  forcePathStyle: boolean;
  userApi: StorageUserApi | null;
  accessKeyId: string | null;
  secretSet: boolean;
  requireObjectLock: boolean;
}

/**
 * What a storage user or key was made for (ours; 001 §3 names the field 'type'): a customer's storage
 * location, one backup machine, or one backup action (a download or restore). Null: a user the portal
 * did not make, or whose entity is gone.
 */
export const STORAGE_CREDENTIAL_TYPES = ['STORAGE_LOCATION', 'BACKUP_MACHINE', 'BACKUP_ACTION', 'CUSTOMER'] as const;
export type StorageCredentialType = (typeof STORAGE_CREDENTIAL_TYPES)[number];

/** The portal entities a storage user row may be linked to. */
export interface StorageUserLinks {
  customerId: number | null;
  storageLocationId: number | null;
  backupMachineId: number | null;
  taskActionId: number | null;
}

/** The most specific link decides the type: an action's user is also its machine's customer's. */
export function storageCredentialTypeOf(links: StorageUserLinks): StorageCredentialType | null {
  if (links.taskActionId !== null) return 'BACKUP_ACTION';
  if (links.backupMachineId !== null) return 'BACKUP_MACHINE';
  if (links.storageLocationId !== null) return 'STORAGE_LOCATION';
  if (links.customerId !== null) return 'CUSTOMER';
  return null;
}

/** The linked entity a policy principal shows (001 §3: customer, backup machine or backup action). */
export const POLICY_ENTITY_TYPES = ['CUSTOMER', 'BACKUP_MACHINE', 'BACKUP_ACTION'] as const;
export type PolicyEntityType = (typeof POLICY_ENTITY_TYPES)[number];

/** A location's user stands for its customer; a machine's and an action's for themselves. */
export function policyEntityOf(
  links: StorageUserLinks,
): { entityType: PolicyEntityType; linkedEntityId: number } | null {
  if (links.taskActionId !== null) return { entityType: 'BACKUP_ACTION', linkedEntityId: links.taskActionId };
  if (links.backupMachineId !== null) return { entityType: 'BACKUP_MACHINE', linkedEntityId: links.backupMachineId };
  if (links.customerId !== null) return { entityType: 'CUSTOMER', linkedEntityId: links.customerId };
  return null;
}

/** A storage location as the users and keys tables name it: bucket, plus '/' and subfolder when one exists. */
export interface StorageLocationRef {
  id: number;
  customerId: number;
  name: string;
}

/** A storage account user (001 §3): name, managed, storageCredentials (keyId, type, storageLocation). */
export interface StorageAccountUserRow {
  name: string;
  managed: boolean;
  storageCredentials: {
    /** The user's first key; null when it has none. */
    keyId: string | null;
    type: StorageCredentialType | null;
    storageLocation: StorageLocationRef | null;
  };
  /** Ours: a managed user still serving a location or machine is removed with it, not here. */
  deleteable: boolean;
}

/** An access key (001 §3): keyId, managed, storageCredentials (username, type, storageLocation). */
export interface StorageAccessKeyRow {
  keyId: string;
  managed: boolean;
  storageCredentials: {
    username: string;
    type: StorageCredentialType | null;
    storageLocation: StorageLocationRef | null;
  };
}

/** A principal of a bucket policy (001 §3). */
export interface PolicyPrincipal {
  name: string;
  /** A managed storage user of the account has this name. */
  managed: boolean;
  storageCredentials: { type: StorageCredentialType | null };
  /** The linked portal entity still exists (false: unknown user, or its entity is gone). */
  entityExists: boolean;
  entityType: PolicyEntityType | null;
  linkedEntityId: number | null;
  backupTaskActionType: ActionType | null;
  backupTaskActionStatus: RunStatus | null;
}

/** A bucket with policy info (001 §3), plus our readable list of what differs from the expected policy. */
export interface BucketWithPolicyInfo {
  bucket: { name: string; managed: boolean; customerId: number | null };
  /** The policy JSON text found at the service; null when the bucket has none (or is gone). */
  bucketPolicy: string | null;
  policyContainsInconsistencies: boolean;
  /** Ours: each difference in words ([] when consistent). */
  policyDifferences: string[];
  bucketPolicyPrincipals: PolicyPrincipal[];
}

/** The buckets table's two filters (001 §2: 'Show only managed', 'Show only policy inconsistent'). */
export interface BucketFilters {
  onlyManaged: boolean;
  onlyInconsistent: boolean;
}

export function filterBuckets(
  buckets: readonly BucketWithPolicyInfo[],
  filters: BucketFilters,
): BucketWithPolicyInfo[] {
  return buckets.filter(
    (b) => (!filters.onlyManaged || b.bucket.managed) && (!filters.onlyInconsistent || b.policyContainsInconsistencies),
  );
}

/** Names in the order a person expects: c2-… before c10-… (the demo's buckets and users are numbered). */
export const compareNames = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

/** One page of a list read once and paged in the browser (001 §7: users and keys; our buckets). */
export function pageSlice<T>(rows: readonly T[], page: number, size: number): T[] {
  return rows.slice(page * size, (page + 1) * size);
}

/** The raw policy tab shows the policy pretty-printed (001 §2); text that is not JSON is shown as it is. */
export function prettyPolicy(policy: string | null): string {
  if (policy === null) return '';
  try {
    return JSON.stringify(JSON.parse(policy), null, 2);
  } catch {
    return policy;
  }
}

/** Column headers and labels of the storage account pages (001 §2 names them). */
export const STORAGE_ACCOUNT_LABELS = {
  name: 'Name',
  defaultStorageAccount: 'Default Storage Account',
  type: 'Type',
  endpoint: 'Endpoint',
  userApi: 'User API',
  objectLock: 'Object Lock',
  actions: 'Actions',
  managed: 'Managed',
  policyConsistent: 'Policy consistent',
  storageCredentials: 'Storage credentials',
  linkedEntity: 'Linked entity',
  keyId: 'Key ID',
} as const;

/** Display names of the types (ours). */
export const STORAGE_ACCOUNT_TYPE_TEXTS: Readonly<Record<StorageAccountType, string>> = {
  LOCAL: 'Embedded (local)',
  S3: 'S3',
};
export const STORAGE_USER_API_TEXTS: Readonly<Record<StorageUserApi, string>> = {
  RGW_ADMIN: 'Ceph RGW admin API',
  IAM: 'AWS IAM',
};
export const POLICY_ENTITY_TYPE_TEXTS: Readonly<Record<PolicyEntityType, string>> = {
  CUSTOMER: 'Customer',
  BACKUP_MACHINE: 'Backup machine',
  BACKUP_ACTION: 'Backup action',
};
export const STORAGE_CREDENTIAL_TYPE_TEXTS: Readonly<Record<StorageCredentialType, string>> = {
  STORAGE_LOCATION: 'Storage location',
  BACKUP_MACHINE: 'Backup machine',
  BACKUP_ACTION: 'Backup action',
  CUSTOMER: 'Customer',
};
