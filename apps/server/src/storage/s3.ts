import { createHash, createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteBucketPolicyCommand,
  DeleteObjectsCommand,
  GetBucketPolicyCommand,
  GetBucketVersioningCommand,
  ListBucketsCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  PutBucketPolicyCommand,
  S3Client,
  type S3ServiceException,
} from '@aws-sdk/client-s3';
import { bucketNotFound, STORAGE_SERVICE_TEXTS, storageUserNotFound } from '@portal/domain';
import { SignatureV4 } from '@smithy/signature-v4';
import type { OutboundGuard } from '../net/outbound-guard.js';
import { generateAccessKey } from './access-key.js';
import {
  type CreatedAccessKey,
  type FolderAccess,
  type StorageAccountConnection,
  StorageError,
  type StorageProvider,
} from './provider.js';

/**
 * The `s3` storage provider (DESIGN §7): any S3 service for buckets, bucket policies, usage and data,
 * through AWS SDK v3; users and access keys through Ceph RGW's admin-ops API (`/admin/user`, signed like
 * any S3 request with the account's key, which needs the users, buckets and metadata capabilities).
 * Services that manage users through AWS IAM are answered 'unsupported' for users and keys for now
 * (RGW 16 answers IAM CreateUser with 405, so that path cannot be tested here).
 *
 * Every call first checks the endpoint's addresses with the outbound guard, and connects through the
 * guard's agents, which check the address connected to once more.
 */

export interface S3ProviderOptions {
  guard: OutboundGuard;
  /** How long one request to the service may take (default 30 s). */
  timeoutMs?: number;
}

const DEFAULT_REGION = 'us-east-1';
/** DeleteObjects takes at most 1000 keys. */
const DELETE_BATCH = 1000;

export function createS3Provider(connection: StorageAccountConnection, options: S3ProviderOptions): StorageProvider {
  const timeoutMs = options.timeoutMs ?? 30_000;
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

  function s3(): S3Client {
    client ??= new S3Client({
      endpoint: endpoint().toString(),
      region,
      forcePathStyle: connection.forcePathStyle,
      credentials: credentials(),
      // Ceph RGW (and most S3 services but AWS) refuse the SDK's default checksums on streamed bodies.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 2,
      requestHandler: {
        connectionTimeout: Math.min(timeoutMs, 10_000),
        requestTimeout: timeoutMs,
        httpAgent: options.guard.httpAgent,
        httpsAgent: options.guard.httpsAgent,
      },
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

  /** A signed request to RGW's admin-ops API; its JSON answer, or null for an empty one. */
  async function admin(method: 'GET' | 'PUT' | 'DELETE', path: string, query: Record<string, string>) {
    if (connection.userApi === 'IAM')
      throw new StorageError('unsupported', STORAGE_SERVICE_TEXTS.iamUnsupported, 'userApi');
    if (connection.userApi !== 'RGW_ADMIN')
      throw new StorageError('unsupported', STORAGE_SERVICE_TEXTS.noUserApi, 'userApi');
    const base = endpoint();
    const signer = new SignatureV4({ credentials: credentials(), region, service: 's3', sha256: NodeSha256 });
    const signed = await signer.sign({
      method,
      protocol: base.protocol,
      hostname: base.hostname,
      port: base.port === '' ? undefined : Number(base.port),
      path: `${base.pathname.replace(/\/+$/, '')}${path}`,
      query,
      // Admin-ops requests carry no body; RGW answers 501 to a signed payload hash on some of them.
      headers: { host: base.host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
    });
    const search = Object.entries(query)
      .map(([k, v]) => `${encodeRfc3986(k)}=${encodeRfc3986(v)}`)
      .join('&');
    const answer = await sendRaw(base, {
      method,
      path: `${signed.path}?${search}`,
      headers: signed.headers,
      agent: base.protocol === 'https:' ? options.guard.httpsAgent : options.guard.httpAgent,
      timeoutMs,
    });
    if (answer.status >= 200 && answer.status < 300) {
      if (answer.body.trim() === '') return null;
      try {
        return JSON.parse(answer.body) as unknown;
      } catch {
        throw new StorageError('malformed', STORAGE_SERVICE_TEXTS.malformed);
      }
    }
    throw adminError(answer.status, answer.body);
  }

  async function adminUser(uid: string): Promise<{ keys: Array<{ user: string; access_key: string }> } | null> {
    try {
      return (await admin('GET', '/admin/user', { uid, format: 'json' })) as {
        keys: Array<{ user: string; access_key: string }>;
      };
    } catch (error) {
      if (error instanceof StorageError && error.kind === 'notFound') return null;
      throw error;
    }
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
        }),
        within(),
      );
      const failed = answer.Errors?.[0];
      if (failed)
        throw storageErrorOf(Object.assign(new Error(failed.Code ?? 'DeleteFailed'), { name: failed.Code }), {
          bucket,
        });
    }
  }

  const provider: StorageProvider = {
    type: 'S3',

    async testConnection() {
      await call(() => s3().send(new ListBucketsCommand({}), within()));
      try {
        await call(() => admin('GET', '/admin/metadata/user', { format: 'json' }));
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

    async listUsers() {
      const answer = await call(() => admin('GET', '/admin/metadata/user', { format: 'json' }));
      if (!Array.isArray(answer)) throw new StorageError('malformed', STORAGE_SERVICE_TEXTS.malformed);
      return (answer as unknown[]).filter((u): u is string => typeof u === 'string').sort();
    },

    async createUser(name) {
      await call(async () => {
        try {
          await admin('PUT', '/admin/user', {
            uid: name,
            'display-name': name,
            'generate-key': 'false',
            format: 'json',
          });
        } catch (error) {
          if (!(error instanceof StorageError && error.kind === 'conflict')) throw error;
        }
      });
    },

    async deleteUser(name) {
      await call(async () => {
        try {
          // A user owning buckets (or objects' buckets) is removed with them only when asked to purge.
          await admin('DELETE', '/admin/user', { uid: name, 'purge-data': 'true', format: 'json' });
        } catch (error) {
          if (!(error instanceof StorageError && error.kind === 'notFound')) throw error;
        }
      });
    },

    async createAccessKey(userName) {
      const key = generateAccessKey();
      await call(async () => {
        if ((await adminUser(userName)) === null) throw new StorageError('notFound', storageUserNotFound(userName));
        await admin('PUT', '/admin/user', {
          key: '',
          uid: userName,
          'key-type': 's3',
          'access-key': key.keyId,
          'secret-key': key.secret,
          format: 'json',
        });
      });
      return key;
    },

    async deleteAccessKey(userName, keyId) {
      await call(async () => {
        const user = await adminUser(userName);
        if (user === null || !user.keys.some((k) => k.access_key === keyId)) return;
        await admin('DELETE', '/admin/user', { key: '', uid: userName, 'access-key': keyId, format: 'json' });
      });
    },

    async listAccessKeys(userName) {
      const user = await call(() => adminUser(userName));
      if (user === null) throw new StorageError('notFound', storageUserNotFound(userName));
      return user.keys.filter((k) => k.user === userName).map((k) => k.access_key);
    },

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

const encodeRfc3986 = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** SHA-256 (and HMAC-SHA-256) from node:crypto in the shape the SDK's signer takes. */
class NodeSha256 {
  private hash;
  private readonly secret: string | Uint8Array | undefined;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.secret = secret === undefined || typeof secret === 'string' ? secret : bytesOf(secret);
    this.hash = this.fresh();
  }
  private fresh() {
    return this.secret === undefined ? createHash('sha256') : createHmac('sha256', this.secret);
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.hash.update(typeof data === 'string' ? data : bytesOf(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {
    this.hash = this.fresh();
  }
}

const bytesOf = (data: ArrayBuffer | ArrayBufferView) =>
  ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);

function sendRaw(
  base: URL,
  request: {
    method: string;
    path: string;
    headers: Record<string, string>;
    agent: import('node:http').Agent;
    timeoutMs: number;
  },
): Promise<{ status: number; body: string }> {
  const send = base.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      {
        protocol: base.protocol,
        hostname: base.hostname.replace(/^\[|\]$/g, ''),
        port: base.port || undefined,
        method: request.method,
        path: request.path,
        headers: request.headers,
        agent: request.agent,
        timeout: request.timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { name: 'TimeoutError' })));
    req.on('error', reject);
    req.end();
  });
}

/** An admin-ops error answer, `{"Code": "NoSuchUser", ...}`, as a StorageError. */
function adminError(status: number, body: string): StorageError {
  let code = '';
  try {
    code = String((JSON.parse(body) as { Code?: unknown }).Code ?? '');
  } catch {
    // Not JSON: the status alone says it.
  }
  return storageErrorOf(Object.assign(new Error(code), { name: code, $metadata: { httpStatusCode: status } }), {});
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

/** Any failure of a call to the service as a StorageError whose message is safe to show. */
export function storageErrorOf(error: unknown, context: { bucket?: string }): StorageError {
  const found = findStorageError(error);
  if (found) return found;
  const e = error as Partial<S3ServiceException> & { code?: string; cause?: unknown };
  const name = e.name ?? '';
  const status = e.$metadata?.httpStatusCode ?? 0;
  const code = e.code ?? (e.cause as { code?: string } | undefined)?.code ?? '';
  const bucket = context.bucket ?? '';
  switch (name) {
    case 'InvalidAccessKeyId':
      return new StorageError('credentials', STORAGE_SERVICE_TEXTS.unknownAccessKey, 'accessKeyId');
    case 'SignatureDoesNotMatch':
      return new StorageError('credentials', STORAGE_SERVICE_TEXTS.wrongSecret, 'secretAccessKey');
    case 'AccessDenied':
      return new StorageError('denied', STORAGE_SERVICE_TEXTS.denied);
    case 'NoSuchBucket':
      return new StorageError('notFound', bucketNotFound(bucket));
    case 'NoSuchUser':
    case 'NoSuchKey':
    case 'InvalidAccessKey':
      return new StorageError('notFound', STORAGE_SERVICE_TEXTS.failed);
    case 'BucketAlreadyExists':
      return new StorageError('conflict', STORAGE_SERVICE_TEXTS.bucketTaken);
    case 'UserAlreadyExists':
    case 'KeyExists':
      return new StorageError('conflict', STORAGE_SERVICE_TEXTS.failed);
    case 'InvalidBucketState':
    case 'ObjectLockConfigurationNotFoundError':
      return new StorageError('unsupported', STORAGE_SERVICE_TEXTS.objectLockUnsupported);
    case 'TimeoutError':
    case 'AbortError':
    case 'RequestTimeout':
      return new StorageError('unreachable', STORAGE_SERVICE_TEXTS.timedOut, 'endpoint');
  }
  if (UNREACHABLE_CODES.has(code) || code === 'ETIMEDOUT' || code === 'ECONNABORTED')
    return new StorageError('unreachable', STORAGE_SERVICE_TEXTS.unreachable, 'endpoint');
  if (status === 403) return new StorageError('denied', STORAGE_SERVICE_TEXTS.denied);
  if (status === 404)
    return new StorageError('notFound', bucket ? bucketNotFound(bucket) : STORAGE_SERVICE_TEXTS.failed);
  if (status === 409) return new StorageError('conflict', STORAGE_SERVICE_TEXTS.failed);
  if (status === 501 || name === 'NotImplemented') return new StorageError('unsupported', STORAGE_SERVICE_TEXTS.failed);
  if (name === 'SyntaxError' || name.startsWith('Deserialization'))
    return new StorageError('malformed', STORAGE_SERVICE_TEXTS.malformed);
  if (status === 0) return new StorageError('unreachable', STORAGE_SERVICE_TEXTS.unreachable, 'endpoint');
  return new StorageError('malformed', STORAGE_SERVICE_TEXTS.failed);
}

/** The guard's refusal may come back wrapped by the SDK's handler. */
function findStorageError(error: unknown): StorageError | null {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof StorageError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
