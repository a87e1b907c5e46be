import {
  type BucketWithPolicyInfo,
  type PolicyPrincipal,
  policyEntityOf,
  type StorageAccessKeyRow,
  type StorageAccountDetail,
  type StorageAccountRow,
  type StorageAccountUserRow,
  type StorageLocationRef,
  storageCredentialTypeOf,
} from '@portal/domain';
import type {
  AccessKeyRecord,
  BucketRecord,
  LocationRecord,
  PrincipalRecord,
  StorageAccountRecord,
  StorageUserRecord,
} from './repo.js';

/** A storage account on the wire: its secret is only said to be set, never sent (DESIGN §3). */
export function presentStorageAccountRow(record: StorageAccountRecord): StorageAccountRow {
  return {
    id: record.id,
    name: record.name,
    defaultStorageAccount: record.defaultStorageAccount,
    type: record.type,
  };
}

export function presentStorageAccountDetail(record: StorageAccountRecord): StorageAccountDetail {
  return {
    ...presentStorageAccountRow(record),
    endpoint: record.endpoint,
    iamEndpoint: record.iamEndpoint,
    region: record.region,
    forcePathStyle: record.forcePathStyle,
    userApi: record.userApi,
    accessKeyId: record.accessKeyId,
    secretSet: Boolean(record.secretAccessKeyEncrypted),
    requireObjectLock: record.requireObjectLock,
  };
}

const locationRef = (location: LocationRecord | null): StorageLocationRef | null =>
  location && {
    id: location.id,
    customerId: location.customerId,
    name: location.subfolder ? `${location.bucket}/${location.subfolder}` : location.bucket,
  };

/**
 * A user of the account; `keyId` its first access key. A managed user still serving a storage location or
 * machine is removed with it, so it is not deleteable here.
 */
export function presentStorageUser(user: StorageUserRecord, keyId: string | null): StorageAccountUserRow {
  return {
    name: user.name,
    managed: user.managed,
    storageCredentials: { keyId, type: storageCredentialTypeOf(user), storageLocation: locationRef(user.location) },
    deleteable: !isUserInUse(user),
  };
}

/** A user found at the service that the portal has no row of. */
/** A user found at the service that the portal did not make (no row), with its first key there. */
export function presentUnknownUser(name: string, keyId: string | null): StorageAccountUserRow {
  return {
    name,
    managed: false,
    storageCredentials: { keyId, type: null, storageLocation: null },
    deleteable: true,
  };
}

/** A key at the service of a user the portal did not make. */
export function presentUnknownAccessKey(userName: string, keyId: string): StorageAccessKeyRow {
  return { keyId, managed: false, storageCredentials: { username: userName, type: null, storageLocation: null } };
}

export const isUserInUse = (user: Pick<StorageUserRecord, 'managed' | 'storageLocationId' | 'backupMachineId'>) =>
  user.managed && (user.storageLocationId !== null || user.backupMachineId !== null);

export function presentAccessKey(key: AccessKeyRecord): StorageAccessKeyRow {
  return {
    keyId: key.keyId,
    managed: key.managed,
    storageCredentials: {
      username: key.userName,
      type: storageCredentialTypeOf(key),
      storageLocation: locationRef(key.location),
    },
  };
}

/** A principal of a found policy, with what the portal knows of the user of that name. */
export function presentPrincipal(name: string, user: PrincipalRecord | undefined): PolicyPrincipal {
  const entity = user ? policyEntityOf(user) : null;
  return {
    name,
    managed: user?.managed ?? false,
    storageCredentials: { type: user ? storageCredentialTypeOf(user) : null },
    entityExists: entity !== null,
    entityType: entity?.entityType ?? null,
    linkedEntityId: entity?.linkedEntityId ?? null,
    backupTaskActionType: user?.actionType ?? null,
    backupTaskActionStatus: user?.actionStatus ?? null,
  };
}

export function presentBucket(
  bucket: BucketRecord,
  found: { policy: string | null; differences: string[]; principals: PolicyPrincipal[] },
): BucketWithPolicyInfo {
  return {
    bucket: { name: bucket.name, managed: bucket.managed, customerId: bucket.customerId },
    bucketPolicy: found.policy,
    policyContainsInconsistencies: found.differences.length > 0,
    policyDifferences: found.differences,
    bucketPolicyPrincipals: found.principals,
  };
}
