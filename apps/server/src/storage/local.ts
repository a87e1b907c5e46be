import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { accessKeys, buckets, storageUsers } from '../db/schema/index.js';
import { storageRoot } from '../features/local-storage/paths.js';
import { type CreatedAccessKey, type FolderAccess, StorageError, type StorageProvider } from './provider.js';

/**
 * MINIMAL STAND-IN until the provider helper's local.ts is merged: the embedded LOCAL account. Buckets are
 * folders under DATA_DIR/storage; policies, users and keys are the portal's own records (DESIGN §7), so
 * users and keys exist once their rows do (the caller writes them) and createAccessKey only makes a key.
 */
export function createLocalProvider(deps: {
  db: Executor;
  dataDir: string;
  storageAccountId: number;
}): StorageProvider {
  const root = storageRoot(deps.dataDir);
  const folderOf = (bucket: string, prefix = '') => {
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes('..')) {
      throw new StorageError('malformed', 'Not a bucket name');
    }
    const path = resolve(root, bucket, ...prefix.split('/').filter((p) => p !== ''));
    if (path !== resolve(root, bucket) && !path.startsWith(resolve(root, bucket) + sep)) {
      throw new StorageError('malformed', 'Not a folder of the bucket');
    }
    return path;
  };
  const bucketWhere = (bucket: string) =>
    and(eq(buckets.storageAccountId, deps.storageAccountId), eq(buckets.name, bucket));

  async function walk(dir: string): Promise<{ bytes: number; objects: number }> {
    let bytes = 0;
    let objects = 0;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        const inner = await walk(path);
        bytes += inner.bytes;
        objects += inner.objects;
      } else if (entry.isFile()) {
        bytes += (await stat(path)).size;
        objects += 1;
      }
    }
    return { bytes, objects };
  }

  return {
    type: 'LOCAL',
    async testConnection() {
      await mkdir(root, { recursive: true });
    },
    async listBuckets() {
      const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
      return entries.filter((e) => e.isDirectory()).map((e) => e.name);
    },
    async createBucket(name) {
      await mkdir(folderOf(name), { recursive: true });
    },
    async deleteBucket(name) {
      await rm(folderOf(name), { recursive: true, force: true });
    },
    async getBucketPolicy(bucket) {
      const [row] = await deps.db.select({ policy: buckets.policy }).from(buckets).where(bucketWhere(bucket));
      return row?.policy ?? null;
    },
    async putBucketPolicy(bucket, policy) {
      const updated = await deps.db
        .update(buckets)
        .set({ policy })
        .where(bucketWhere(bucket))
        .returning({ id: buckets.id });
      if (updated.length === 0) throw new StorageError('notFound', 'No such bucket');
    },
    async listUsers() {
      const rows = await deps.db
        .select({ name: storageUsers.name })
        .from(storageUsers)
        .where(eq(storageUsers.storageAccountId, deps.storageAccountId));
      return rows.map((r) => r.name);
    },
    async createUser() {
      // The user is its row, written by the caller.
    },
    async deleteUser(name) {
      await deps.db
        .delete(storageUsers)
        .where(and(eq(storageUsers.storageAccountId, deps.storageAccountId), eq(storageUsers.name, name)));
    },
    async createAccessKey(): Promise<CreatedAccessKey> {
      return {
        keyId: `LPK${randomBytes(10).toString('hex').toUpperCase()}`,
        secret: randomBytes(30).toString('base64url'),
      };
    },
    async deleteAccessKey(_userName, keyId) {
      await deps.db
        .delete(accessKeys)
        .where(and(eq(accessKeys.storageAccountId, deps.storageAccountId), eq(accessKeys.keyId, keyId)));
    },
    async listAccessKeys(userName) {
      const rows = await deps.db
        .select({ keyId: accessKeys.keyId })
        .from(accessKeys)
        .innerJoin(storageUsers, eq(storageUsers.id, accessKeys.storageUserId))
        .where(and(eq(storageUsers.storageAccountId, deps.storageAccountId), eq(storageUsers.name, userName)));
      return rows.map((r) => r.keyId);
    },
    async usage(bucket, prefix) {
      return walk(folderOf(bucket, prefix));
    },
    async deletePrefix(bucket, prefix) {
      await rm(folderOf(bucket, prefix), { recursive: true, force: true });
    },
    folderAccess(bucket, prefix): FolderAccess {
      const folder = folderOf(bucket, prefix);
      return { resticRepository: folder, rclonePath: folder, env: {} };
    },
  };
}
