import {
  CopyObjectCommand,
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteBucketPolicyCommand,
  DeleteObjectsCommand,
  GetBucketPolicyCommand,
  GetBucketVersioningCommand,
  ListBucketsCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  type ObjectVersion,
  PutBucketLifecycleConfigurationCommand,
  PutBucketPolicyCommand,
  PutObjectLockConfigurationCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { STORAGE_SERVICE_TEXTS } from '@portal/domain';
import type { OutboundGuard } from '../net/outbound-guard.js';
import { createS3Client } from '../platform/s3-client.js';
import { signedRequest } from '../platform/signed-request.js';
import { serviceError, storageErrorOf } from './errors.js';
import {
  type CreatedAccessKey,
  type FolderAccess,
  type StorageAccountConnection,
  StorageError,
  type StorageProvider,
} from './provider.js';
import { iamUsers, noUsers, rgwAdminUsers, type SignedCall, type UserManagement } from './user-apis.js';

/**
 * The `s3` storage provider (DESIGN §7): any S3 service for buckets, bucket policies, usage and data,
 * through AWS SDK v3; users and access keys through the account's user API (user-apis.ts): Ceph RGW's
 * admin-ops API (signed like any S3 request with the account's key, which needs the users, buckets and
 * metadata capabilities) or the AWS IAM query API (at iamEndpoint, AWS's own when none is set).
 *
 * Every call first checks the endpoint's addresses with the outbound guard, and connects through the
 * guard's agents, which check the address connected to once more.
 */

export interface S3ProviderOptions {
  guard: OutboundGuard;
  /** How long one request to the service may take (default 30 s). */
  timeoutMs?: number;
  /**
   * Days of Object Lock retention (GOVERNANCE) on every object written to a bucket of an account that requires
   * Object Lock, and after which an object's replaced or deleted versions expire (default 30).
   */
  objectLockDays?: number;
}

export const DEFAULT_OBJECT_LOCK_DAYS = 30;

const DEFAULT_REGION = 'us-east-1';
const AWS_IAM_ENDPOINT = 'https://iam.amazonaws.com';
/** DeleteObjects takes at most 1000 keys. */
const DELETE_BATCH = 1000;

export function createS3Provider(connection: StorageAccountConnection, options: S3ProviderOptions): StorageProvider {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const lockDays = options.objectLockDays ?? DEFAULT_OBJECT_LOCK_DAYS;
  const region = connection.region || DEFAULT_REGION;
  let client: S3Client | null = null;

  function endpoint(): URL {
    const url = parseEndpoint(connection.endpoint);
    if (url === null) throw new StorageError('malformed', STORAGE_SERVICE_TEXTS.endpointNotUrl, 'endpoint');
    return url;
  }

  function credentials(): { accessKeyId: string; secretAccessKey: string } {
    if (!connection.accessKeyId)
      throw new StorageError('credentials', STORAGE_SERVICE_TEXTS.unknownAccessKey, 'accessKeyId');
    if (!connection.secretAccessKey)
      throw new StorageError('credentials', STORAGE_SERVICE_TEXTS.wrongSecret, 'secretAccessKey');
    return { accessKeyId: connection.accessKeyId, secretAccessKey: connection.secretAccessKey };
  }

  /** A client holding another key than the account's (a location's), for one use. */
  const clientWith = (key: CreatedAccessKey) =>
    createS3Client({
      endpoint: endpoint(),
      region,
      forcePathStyle: connection.forcePathStyle,
      credentials: { accessKeyId: key.keyId, secretAccessKey: key.secret },
      guard: options.guard,
      timeoutMs,
    });

  function s3(): S3Client {
    client ??= createS3Client({
      endpoint: endpoint(),
      region,
      forcePathStyle: connection.forcePathStyle,
      credentials: credentials(),
      guard: options.guard,
      timeoutMs,
    });
    return client;
  }

  /** Runs one use of the service: the address checked first, every failure a StorageError. */
  async function call<T>(use: () => Promise<T>, context: { bucket?: string } = {}): Promise<T> {
    try {
      await options.guard.check(endpoint().hostname);
      return await use();
    } catch (error) {
      throw storageErrorOf(error, context);
    }
  }

  /** Every request to the service ends within the timeout, however the connection behaves. */
  const within = () => ({ abortSignal: AbortSignal.timeout(timeoutMs) });

  /** The account's user API, reached with signed requests through the guard. */
  function users(): UserManagement {
    if (connection.userApi !== 'RGW_ADMIN' && connection.userApi !== 'IAM') return noUsers();
    const iam = connection.userApi === 'IAM';
    const base = iam ? parseEndpoint(connection.iamEndpoint ?? AWS_IAM_ENDPOINT) : endpoint();
    if (base === null) throw new StorageError('malformed', STORAGE_SERVICE_TEXTS.endpointNotUrl, 'iamEndpoint');
    const signed: SignedCall = async (method, path, query) => {
      await options.guard.check(base.hostname);
      return signedRequest({
        base,
        // IAM is a global service signed for us-east-1.
        service: iam ? 'iam' : 's3',
        region: iam ? DEFAULT_REGION : region,
        credentials: credentials(),
        method,
        path,
        query,
        guard: options.guard,
        signal: AbortSignal.timeout(timeoutMs),
      });
    };
    return iam ? iamUsers(signed) : rgwAdminUsers(signed);
  }

  async function isVersioned(bucket: string): Promise<boolean> {
    const answer = await s3().send(new GetBucketVersioningCommand({ Bucket: bucket }), within());
    return answer.Status === 'Enabled' || answer.Status === 'Suspended';
  }

  async function deleteBatch(bucket: string, objects: Array<{ Key: string; VersionId?: string }>) {
    for (let i = 0; i < objects.length; i += DELETE_BATCH) {
      const answer = await s3().send(
        new DeleteObjectsCommand({
          Bucket: bucket,
          Delete: { Objects: objects.slice(i, i + DELETE_BATCH), Quiet: true },
          // Removing a machine's or customer's data is the account owner's deliberate act: Object Lock's
          // GOVERNANCE retention yields to it (and to nobody else).
          ...(connection.requireObjectLock ? { BypassGovernanceRetention: true } : {}),
        }),
        within(),
      );
      const failed = answer.Errors?.[0];
      // The answer is 200 with a failure per key; the first one says why.
      if (failed) throw serviceError(failed.Code ?? '', 500, { bucket });
    }
  }

  /**
   * Issue 32: every object written to the bucket, by a machine or by the portal, is retained for `lockDays`
   * (GOVERNANCE: only the bucket's owner, the account's key, may remove it earlier, when the portal removes a
   * machine's or customer's data), so neither a machine's nor a location's key can destroy a version. A delete
   * (restic's lock files, the portal's prune) only adds a delete marker and a replacement only a version: the
   * versions behind them expire `lockDays` after they stop being current, once their retention has run out.
   */
  async function lockEverything(bucket: string) {
    await s3().send(
      new PutObjectLockConfigurationCommand({
        Bucket: bucket,
        ObjectLockConfiguration: {
          ObjectLockEnabled: 'Enabled',
          Rule: { DefaultRetention: { Mode: 'GOVERNANCE', Days: lockDays } },
        },
      }),
      within(),
    );
    await s3().send(
      new PutBucketLifecycleConfigurationCommand({
        Bucket: bucket,
        LifecycleConfiguration: {
          Rules: [
            {
              ID: 'portal-old-versions',
              Status: 'Enabled',
              Filter: { Prefix: '' },
              NoncurrentVersionExpiration: { NoncurrentDays: lockDays },
              Expiration: { ExpiredObjectDeleteMarker: true },
            },
          ],
        },
      }),
      within(),
    );
  }

  /** Every version under a prefix, each key's newest first (as S3 lists them), and the keys whose newest is a delete marker. */
  async function versionsUnder(client: S3Client, bucket: string, Prefix: string) {
    const versions: ObjectVersion[] = [];
    const deleted = new Set<string>();
    let KeyMarker: string | undefined;
    let VersionIdMarker: string | undefined;
    do {
      const page = await client.send(
        new ListObjectVersionsCommand({ Bucket: bucket, Prefix, KeyMarker, VersionIdMarker }),
        within(),
      );
      versions.push(...(page.Versions ?? []));
      for (const marker of page.DeleteMarkers ?? []) if (marker.IsLatest && marker.Key) deleted.add(marker.Key);
      ({ NextKeyMarker: KeyMarker, NextVersionIdMarker: VersionIdMarker } = page.IsTruncated
        ? page
        : { NextKeyMarker: undefined, NextVersionIdMarker: undefined });
    } while (KeyMarker);
    return { versions, deleted };
  }

  const provider: StorageProvider = {
    type: 'S3',

    async testConnection() {
      await call(() => s3().send(new ListBucketsCommand({}), within()));
      try {
        await call(() => users().check());
      } catch (error) {
        if (error instanceof StorageError && error.kind === 'denied')
          throw new StorageError('denied', STORAGE_SERVICE_TEXTS.cannotManageUsers, 'accessKeyId');
        throw error;
      }
    },

    async listBuckets() {
      const answer = await call(() => s3().send(new ListBucketsCommand({}), within()));
      return (answer.Buckets ?? []).map((b) => b.Name ?? '').filter((name) => name !== '');
    },

    async createBucket(name) {
      await call(
        async () => {
          try {
            await s3().send(
              new CreateBucketCommand({
                Bucket: name,
                ...(connection.requireObjectLock ? { ObjectLockEnabledForBucket: true } : {}),
              }),
              within(),
            );
          } catch (error) {
            // Creating what exists is fine when it is the account's own bucket.
            if ((error as Error).name !== 'BucketAlreadyOwnedByYou') throw error;
          }
          if (connection.requireObjectLock) await lockEverything(name);
        },
        { bucket: name },
      );
    },

    async deleteBucket(name) {
      try {
        await provider.deletePrefix(name, '');
        await call(() => s3().send(new DeleteBucketCommand({ Bucket: name }), within()), { bucket: name });
      } catch (error) {
        if (!(error instanceof StorageError && error.kind === 'notFound')) throw error;
      }
    },

    async getBucketPolicy(bucket) {
      return call(
        async () => {
          try {
            const answer = await s3().send(new GetBucketPolicyCommand({ Bucket: bucket }), within());
            return answer.Policy ?? null;
          } catch (error) {
            if ((error as Error).name === 'NoSuchBucketPolicy') return null;
            throw error;
          }
        },
        { bucket },
      );
    },

    async putBucketPolicy(bucket, policy) {
      await call(
        async () => {
          // A policy without statements is no policy: S3 refuses to store an empty one.
          const empty = (JSON.parse(policy) as { Statement?: unknown[] }).Statement?.length === 0;
          if (empty) await s3().send(new DeleteBucketPolicyCommand({ Bucket: bucket }), within());
          else await s3().send(new PutBucketPolicyCommand({ Bucket: bucket, Policy: policy }), within());
        },
        { bucket },
      );
    },

    listUsers: () => call(() => users().listUsers()),
    createUser: (name) => call(() => users().createUser(name)),
    deleteUser: (name) => call(() => users().deleteUser(name)),
    createAccessKey: (userName) => call(() => users().createAccessKey(userName)),
    deleteAccessKey: (userName, keyId) => call(() => users().deleteAccessKey(userName, keyId)),
    listAccessKeys: (userName) => call(() => users().listAccessKeys(userName)),

    async usage(bucket, prefix) {
      return call(
        async () => {
          let bytes = 0;
          let objects = 0;
          let token: string | undefined;
          do {
            const page = await s3().send(
              new ListObjectsV2Command({ Bucket: bucket, Prefix: keyPrefix(prefix), ContinuationToken: token }),
              within(),
            );
            for (const object of page.Contents ?? []) {
              bytes += object.Size ?? 0;
              objects += 1;
            }
            token = page.IsTruncated ? page.NextContinuationToken : undefined;
          } while (token);
          return { bytes, objects };
        },
        { bucket },
      );
    },

    async deletePrefix(bucket, prefix) {
      await call(
        async () => {
          const Prefix = keyPrefix(prefix);
          // Listing from the start again after each deleted page: what was deleted no longer shows.
          if (await isVersioned(bucket)) {
            for (;;) {
              const page = await s3().send(new ListObjectVersionsCommand({ Bucket: bucket, Prefix }), within());
              const all = [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])].flatMap((v) =>
                v.Key ? [{ Key: v.Key, VersionId: v.VersionId }] : [],
              );
              if (all.length === 0) break;
              await deleteBatch(bucket, all);
            }
          } else {
            for (;;) {
              const page = await s3().send(new ListObjectsV2Command({ Bucket: bucket, Prefix }), within());
              const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
              if (keys.length === 0) break;
              await deleteBatch(bucket, keys);
            }
          }
        },
        { bucket },
      );
    },

    async restoreReplaced(bucket, prefix, key) {
      return call(
        async () => {
          // Without versions a replaced object is gone at once: only reading it (restic check) can tell.
          if (!(await isVersioned(bucket))) return [];
          // The objects are the machine's (their owner by ACL): the bucket policy lets the location's key at them.
          const client = clientWith(key);
          const Prefix = keyPrefix(prefix);
          const { versions, deleted } = await versionsUnder(client, bucket, Prefix);
          const byKey = new Map<string, ObjectVersion[]>();
          for (const version of versions) {
            if (!version.Key || version.Key.startsWith(`${Prefix}locks/`) || deleted.has(version.Key)) continue;
            byKey.set(version.Key, [...(byKey.get(version.Key) ?? []), version]);
          }
          const restored: string[] = [];
          for (const [Key, list] of byKey) {
            // restic writes an object once, named by its content (a retry writes the same bytes): the first
            // version is the backup, and a newest version with other content replaced it.
            const [newest] = list;
            const first = list[list.length - 1];
            if (!newest || !first || list.length < 2 || newest.ETag === first.ETag) continue;
            await client.send(
              new CopyObjectCommand({
                Bucket: bucket,
                Key,
                CopySource: `${bucket}/${Key.split('/').map(encodeURIComponent).join('/')}?versionId=${encodeURIComponent(first.VersionId ?? '')}`,
              }),
              within(),
            );
            restored.push(Key.slice(Prefix.length));
          }
          return restored;
        },
        { bucket },
      );
    },

    folderAccess(bucket, prefix, key) {
      const url = endpoint().toString().replace(/\/+$/, '');
      const folder = trimSlashes(prefix);
      const place = folder === '' ? bucket : `${bucket}/${folder}`;
      const own = key ?? { keyId: credentials().accessKeyId, secret: credentials().secretAccessKey };
      return s3FolderAccess({
        url,
        place,
        region,
        forcePathStyle: connection.forcePathStyle,
        own,
        rgw: connection.userApi === 'RGW_ADMIN',
      });
    },
  };
  return provider;
}

function s3FolderAccess(input: {
  url: string;
  place: string;
  region: string;
  forcePathStyle: boolean;
  own: CreatedAccessKey;
  rgw: boolean;
}): FolderAccess {
  return {
    resticRepository: `s3:${input.url}/${input.place}`,
    rclonePath: `:s3:${input.place}`,
    env: {
      AWS_ACCESS_KEY_ID: input.own.keyId,
      AWS_SECRET_ACCESS_KEY: input.own.secret,
      AWS_DEFAULT_REGION: input.region,
      RCLONE_S3_PROVIDER: input.rgw ? 'Ceph' : 'Other',
      RCLONE_S3_ENDPOINT: input.url,
      RCLONE_S3_ACCESS_KEY_ID: input.own.keyId,
      RCLONE_S3_SECRET_ACCESS_KEY: input.own.secret,
      RCLONE_S3_REGION: input.region,
      RCLONE_S3_FORCE_PATH_STYLE: String(input.forcePathStyle),
      // A location's or machine's key may not create (or even look up) the bucket: it exists already.
      RCLONE_S3_NO_CHECK_BUCKET: 'true',
    },
  };
}

/**
 * The environment for a restic or rclone process reaching a folder: the server's own environment, less
 * AWS_CA_BUNDLE (set on these machines, it breaks rclone's S3 backend), plus the folder's access.
 */
export function processEnvFor(access: FolderAccess): NodeJS.ProcessEnv {
  const { AWS_CA_BUNDLE: _dropped, ...rest } = process.env;
  return { ...rest, ...access.env };
}

function parseEndpoint(endpoint: string | null): URL | null {
  if (!endpoint) return null;
  try {
    const url = new URL(endpoint);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

const trimSlashes = (value: string) => value.replace(/^\/+|\/+$/g, '');
/** The key prefix of a folder: `folder/`, so `12` never takes in `120/...`; '' for the whole bucket. */
const keyPrefix = (prefix: string) => (trimSlashes(prefix) === '' ? '' : `${trimSlashes(prefix)}/`);
