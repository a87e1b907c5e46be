import type { StorageAccountType, StorageUserApi } from '@portal/domain';
import { OutsideServiceError, type OutsideServiceFailure } from '../platform/errors.js';

/**
 * The object storage services behind storage accounts (DESIGN §7). One StorageProvider per storage
 * account: `local` (the embedded store under DATA_DIR/storage, its users, keys and policies kept in the
 * database) and `s3` (any S3 service; users and keys through Ceph RGW's admin-ops API or AWS IAM).
 *
 * Every method is idempotent where the service allows it (creating what exists or deleting what is gone
 * succeeds), so a use case that stops half-way is simply run again. Failures are StorageError, whose
 * message is safe to show a provider admin (never a secret, never a stack).
 */

/** What a provider needs to reach its service: a storage account's row with its secret opened. */
export interface StorageAccountConnection {
  id: number;
  type: StorageAccountType;
  endpoint: string | null;
  iamEndpoint: string | null;
  region: string | null;
  forcePathStyle: boolean;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  userApi: StorageUserApi | null;
  requireObjectLock: boolean;
}

/** Why a call to the service failed, in words a provider admin can act on. */
export type StorageErrorKind =
  | 'unreachable' // connection refused, DNS, timeout
  | 'refusedAddress' // the endpoint resolves to an address configuration does not allow
  | 'credentials' // the account's key was refused
  | 'denied' // the key is valid but lacks the right
  | 'notFound'
  | 'conflict' // e.g. a bucket name taken by someone else
  | 'unsupported' // the service lacks the feature (Object Lock, IAM)
  | 'malformed'; // the service answered something we cannot read

/** The outside-service failure each kind is (platform/errors.ts). */
const FAILURE_OF_KIND: Readonly<Record<StorageErrorKind, OutsideServiceFailure>> = {
  unreachable: 'unreachable',
  refusedAddress: 'refusedAddress',
  credentials: 'refusedCredentials',
  denied: 'refusedCredentials',
  notFound: 'badAnswer',
  conflict: 'badAnswer',
  unsupported: 'badAnswer',
  malformed: 'badAnswer',
};

export class StorageError extends OutsideServiceError {
  constructor(
    readonly kind: StorageErrorKind,
    message: string,
    fieldName = '',
    /** `timedOut` for an `unreachable` service that did not answer in time. */
    failure: OutsideServiceFailure = FAILURE_OF_KIND[kind],
  ) {
    super(failure, message, `STORAGE_${kind.toUpperCase()}`, fieldName);
    this.name = 'StorageError';
  }
}

export interface CreatedAccessKey {
  keyId: string;
  secret: string;
}

/** How restic or rclone reach one folder (prefix) of a bucket with a given key. */
export interface FolderAccess {
  /** restic's repository string (`/abs/dir` for local, `s3:http://host/bucket/prefix` for S3). */
  resticRepository: string;
  /** rclone's remote path, with the remote defined by `env` (`:local:/abs/dir` or `:s3:bucket/prefix`). */
  rclonePath: string;
  /** Environment for the restic / rclone process (AWS_* or RCLONE_S3_*); empty for local. */
  env: Record<string, string>;
}

export interface StorageProvider {
  readonly type: StorageAccountType;
  /** Reaches the service with the account's credentials and proves it can list buckets and manage users. */
  testConnection(): Promise<void>;

  listBuckets(): Promise<string[]>;
  /** Creates the bucket (with Object Lock when the account requires it); an existing own bucket is fine. */
  createBucket(name: string): Promise<void>;
  /** Removes the bucket and everything in it. */
  deleteBucket(name: string): Promise<void>;
  /** The policy JSON text at the service, or null when the bucket has none. */
  getBucketPolicy(bucket: string): Promise<string | null>;
  putBucketPolicy(bucket: string, policy: string): Promise<void>;

  listUsers(): Promise<string[]>;
  createUser(name: string): Promise<void>;
  /** Removes the user and its keys. */
  deleteUser(name: string): Promise<void>;
  createAccessKey(userName: string): Promise<CreatedAccessKey>;
  deleteAccessKey(userName: string, keyId: string): Promise<void>;
  listAccessKeys(userName: string): Promise<string[]>;

  /** Bytes and objects under a prefix of a bucket ('' for the whole bucket). */
  usage(bucket: string, prefix: string): Promise<{ bytes: number; objects: number }>;
  /** Removes every object under a prefix (a machine's repository, a location's folder). */
  deletePrefix(bucket: string, prefix: string): Promise<void>;
  /**
   * Issue 32: puts back the original content of every object under a prefix that was replaced with other content
   * (a machine's key may write, so it may overwrite), from the versions the bucket keeps, and answers their keys
   * relative to the prefix, with `key` (the location's: the objects are the machine's, which the bucket policy lets
   * the location's key read and write, not the account's). Only a versioned bucket (Object Lock) keeps them:
   * elsewhere it answers [].
   */
  restoreReplaced(bucket: string, prefix: string, key: CreatedAccessKey): Promise<string[]>;

  /** How restic and rclone reach `bucket/prefix` with `key` (the account's own key when omitted). */
  folderAccess(bucket: string, prefix: string, key?: CreatedAccessKey): FolderAccess;
}

/** The providers of the storage accounts, built from their rows (secrets opened with MASTER_KEY). */
export interface StorageProviders {
  /** The provider of a saved storage account (kept per account until `forget`); notFound when there is none. */
  forAccount(storageAccountId: number): Promise<StorageProvider>;
  /** A provider for an unsaved connection (the add/edit form's test connection); nothing is kept. */
  forConnection(connection: StorageAccountConnection): StorageProvider;
  /** Drops a kept provider after its account was edited or deleted. */
  forget(storageAccountId: number): void;
}

/**
 * Who may do what in a bucket (DESIGN §7, issue 16): a storage location's user may do everything under
 * the location's folder (the portal's own key: retention, migrations, removal); a machine's user may
 * list, read and write under its repository's folder but delete only restic's lock files, so ransomware
 * on the machine cannot destroy its backups.
 */
export interface PolicyGrant {
  userName: string;
  role: 'location' | 'machine';
  /** The folder in the bucket, without slashes at either end ('' = the whole bucket). */
  prefix: string;
}

/**
 * The key of a machine's repository in its bucket, the same layout as the embedded storage's folders
 * (`{subfolder}/{machineId}`): a location's folder is the subfolder ('' when none).
 */
export function machinePrefix(subfolder: string | null, machineId: number): string {
  const folder = (subfolder ?? '').replace(/^\/+|\/+$/g, '');
  return folder === '' ? String(machineId) : `${folder}/${machineId}`;
}

/**
 * How the portal itself reaches backup data, always with a storage location's own key (never a
 * machine's): retention, restores and downloads, removals and migrations. Implemented in storage/access.ts.
 */
export interface StorageAccess {
  /** The location's whole folder (bucket + subfolder) and its provider. */
  locationAccess(
    storageLocationId: number,
  ): Promise<{ provider: StorageProvider; bucket: string; prefix: string; access: FolderAccess }>;
  /** A machine's repository folder in its package's location; null when the machine does not exist. */
  machineRepositoryAccess(
    machineId: number,
  ): Promise<{ provider: StorageProvider; bucket: string; prefix: string; access: FolderAccess } | null>;
}
