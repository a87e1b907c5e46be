import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { accessKeys, buckets, storageAccounts, storageUsers } from '../db/schema/index.js';
import { DEFAULT_FOLDER, storageRoot } from '../features/local-storage/paths.js';
import type { SecretBox } from '../secrets.js';
import {
  type StorageAccountConnection,
  StorageError,
  type StorageProvider,
  type StorageProviders,
} from './provider.js';

/**
 * The providers of the storage accounts. Minimal stand-in until the storage provider work lands (it
 * replaces this file): the embedded LOCAL account keeps buckets as folders under DATA_DIR/storage (a
 * bucket of the account's rows exists too), its policies in buckets.policy and its users and keys as the
 * database rows; an S3 account answers that S3 is not available in this build.
 */
export function createStorageProviders(deps: { db: Executor; secrets: SecretBox; dataDir: string }): StorageProviders {
  const kept = new Map<number, StorageProvider>();

  const build = (connection: StorageAccountConnection): StorageProvider =>
    connection.type === 'LOCAL' ? localProvider(deps.db, deps.dataDir, connection.id) : unavailableS3();

  return {
    async forAccount(storageAccountId) {
      const known = kept.get(storageAccountId);
      if (known) return known;
      const [row] = await deps.db.select().from(storageAccounts).where(eq(storageAccounts.id, storageAccountId));
      if (!row) throw new StorageError('notFound', 'Storage account not found');
      const provider = build({
        id: row.id,
        type: row.type,
        endpoint: row.endpoint,
        iamEndpoint: row.iamEndpoint,
        region: row.region,
        forcePathStyle: row.forcePathStyle,
        accessKeyId: row.accessKeyId,
        secretAccessKey: row.secretAccessKeyEncrypted ? deps.secrets.decrypt(row.secretAccessKeyEncrypted) : null,
        userApi: row.userApi,
        requireObjectLock: row.requireObjectLock,
      });
      kept.set(storageAccountId, provider);
      return provider;
    },
    forConnection: build,
    forget(storageAccountId) {
      kept.delete(storageAccountId);
    },
  };
}

function unavailableS3(): StorageProvider {
  const fail = (): never => {
    throw new StorageError('unsupported', 'S3 storage is not available in this build', 'endpoint');
  };
  return {
    type: 'S3',
    testConnection: async () => fail(),
    listBuckets: async () => fail(),
    createBucket: async () => fail(),
    deleteBucket: async () => fail(),
    getBucketPolicy: async () => fail(),
    putBucketPolicy: async () => fail(),
    listUsers: async () => fail(),
    createUser: async () => fail(),
    deleteUser: async () => fail(),
    createAccessKey: async () => fail(),
    deleteAccessKey: async () => fail(),
    listAccessKeys: async () => fail(),
    usage: async () => fail(),
    deletePrefix: async () => fail(),
    folderAccess: () => fail(),
  };
}

function localProvider(db: Executor, dataDir: string, accountId: number): StorageProvider {
  const root = storageRoot(dataDir);
  const folder = (bucket: string, prefix = '') => {
    const path = resolve(root, bucket, prefix);
    if (!path.startsWith(root + sep)) throw new StorageError('malformed', 'Not a bucket of the embedded storage');
    return path;
  };
  const userId = async (name: string) => {
    const [user] = await db
      .select({ id: storageUsers.id })
      .from(storageUsers)
      .where(and(eq(storageUsers.storageAccountId, accountId), eq(storageUsers.name, name)));
    if (!user) throw new StorageError('notFound', 'Storage user not found');
    return user.id;
  };
  const bucketRow = (name: string) => and(eq(buckets.storageAccountId, accountId), eq(buckets.name, name));
  async function usageOf(path: string): Promise<{ bytes: number; objects: number }> {
    const info = await stat(path).catch(() => null);
    if (!info) return { bytes: 0, objects: 0 };
    if (!info.isDirectory()) return { bytes: info.size, objects: 1 };
    let total = { bytes: 0, objects: 0 };
    for (const entry of await readdir(path)) {
      const part = await usageOf(join(path, entry));
      total = { bytes: total.bytes + part.bytes, objects: total.objects + part.objects };
    }
    return total;
  }
  return {
    type: 'LOCAL',
    async testConnection() {
      await mkdir(root, { recursive: true });
    },
    async listBuckets() {
      const rows = await db.select({ name: buckets.name }).from(buckets).where(eq(buckets.storageAccountId, accountId));
      const folders = existsSync(root)
        ? (await readdir(root, { withFileTypes: true })).filter((e) => e.isDirectory() && e.name !== DEFAULT_FOLDER)
        : [];
      return [...new Set([...rows.map((r) => r.name), ...folders.map((f) => f.name)])].sort();
    },
    async createBucket(name) {
      await mkdir(folder(name), { recursive: true });
    },
    async deleteBucket(name) {
      await rm(folder(name), { recursive: true, force: true });
    },
    async getBucketPolicy(bucket) {
      const [row] = await db.select({ policy: buckets.policy }).from(buckets).where(bucketRow(bucket));
      return row?.policy ?? null;
    },
    async putBucketPolicy(bucket, policy) {
      await db.update(buckets).set({ policy }).where(bucketRow(bucket));
    },
    async listUsers() {
      const rows = await db
        .select({ name: storageUsers.name })
        .from(storageUsers)
        .where(eq(storageUsers.storageAccountId, accountId));
      return rows.map((r) => r.name);
    },
    async createUser(name) {
      await db.insert(storageUsers).values({ storageAccountId: accountId, name }).onConflictDoNothing();
    },
    async deleteUser(name) {
      await db
        .delete(storageUsers)
        .where(and(eq(storageUsers.storageAccountId, accountId), eq(storageUsers.name, name)));
    },
    async createAccessKey(userName) {
      const keyId = `LPK${randomBytes(9).toString('hex').toUpperCase()}`;
      const secret = randomBytes(24).toString('base64url');
      await db.insert(accessKeys).values({ storageAccountId: accountId, storageUserId: await userId(userName), keyId });
      return { keyId, secret };
    },
    async deleteAccessKey(_userName, keyId) {
      await db.delete(accessKeys).where(and(eq(accessKeys.storageAccountId, accountId), eq(accessKeys.keyId, keyId)));
    },
    async listAccessKeys(userName) {
      const rows = await db
        .select({ keyId: accessKeys.keyId })
        .from(accessKeys)
        .where(eq(accessKeys.storageUserId, await userId(userName)));
      return rows.map((r) => r.keyId);
    },
    usage: (bucket, prefix) => usageOf(folder(bucket, prefix)),
    async deletePrefix(bucket, prefix) {
      await rm(folder(bucket, prefix), { recursive: true, force: true });
    },
    folderAccess(bucket, prefix) {
      const path = folder(bucket, prefix);
      return { resticRepository: path, rclonePath: `:local:${path}`, env: {} };
    },
  };
}
