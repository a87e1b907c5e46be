import { mkdir, rm } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { backupMachines, backupPackages, buckets, storageAccounts, storageLocations } from '../db/schema/index.js';
import { repositoryDir, storageRoot } from '../features/local-storage/paths.js';
import { type FolderAccess, type StorageAccess, StorageError, type StorageProvider } from './provider.js';

/**
 * LOCAL-ONLY stand-in of the portal's StorageAccess (written for the migrations branch; the storage
 * helper's createStorageAccess replaces it at the merge). A location's folder is
 * DATA_DIR/storage/{bucket}/{subfolder}, a machine's repository its {machineId} subfolder; rclone and
 * restic reach them as plain paths with no environment. Only deletePrefix and folderAccess of the provider
 * are served; the rest belongs to the real providers.
 */
export function createStorageAccess(deps: { db: Executor; dataDir: string }): StorageAccess {
  const root = storageRoot(deps.dataDir);

  const inRoot = (path: string) => {
    const full = resolve(path);
    if (!full.startsWith(root + sep)) throw new StorageError('malformed', 'Folder outside the storage root');
    return full;
  };
  const folderOf = (bucket: string, prefix: string) => inRoot(join(root, bucket, ...prefix.split('/').filter(Boolean)));
  const access = (path: string): FolderAccess => ({ resticRepository: path, rclonePath: path, env: {} });
  const unsupported = async (): Promise<never> => {
    throw new StorageError('unsupported', 'Not served by the local stand-in');
  };
  const provider: StorageProvider = {
    type: 'LOCAL',
    testConnection: async () => undefined,
    listBuckets: unsupported,
    createBucket: unsupported,
    deleteBucket: unsupported,
    getBucketPolicy: unsupported,
    putBucketPolicy: unsupported,
    listUsers: unsupported,
    createUser: unsupported,
    deleteUser: unsupported,
    createAccessKey: unsupported,
    deleteAccessKey: unsupported,
    listAccessKeys: unsupported,
    usage: unsupported,
    async deletePrefix(bucket, prefix) {
      const folder = folderOf(bucket, prefix);
      // Never the bucket itself by accident: a prefix names a folder under it.
      if (folder === folderOf(bucket, '')) throw new StorageError('malformed', 'Refusing to empty a whole bucket');
      await rm(folder, { recursive: true, force: true });
    },
    folderAccess: (bucket, prefix) => access(folderOf(bucket, prefix)),
  };

  async function locationOf(storageLocationId: number) {
    const [row] = await deps.db
      .select({ bucket: buckets.name, subfolder: storageLocations.subfolder, type: storageAccounts.type })
      .from(storageLocations)
      .innerJoin(buckets, eq(buckets.id, storageLocations.bucketId))
      .innerJoin(storageAccounts, eq(storageAccounts.id, buckets.storageAccountId))
      .where(eq(storageLocations.id, storageLocationId));
    if (!row) throw new StorageError('notFound', 'Storage location not found');
    if (row.type !== 'LOCAL') throw new StorageError('unsupported', 'Only the embedded storage is served here');
    return { bucket: row.bucket, prefix: (row.subfolder ?? '').replace(/^\/+|\/+$/g, '') };
  }

  return {
    async locationAccess(storageLocationId) {
      const { bucket, prefix } = await locationOf(storageLocationId);
      const folder = folderOf(bucket, prefix);
      // An empty location is an empty folder, as an empty prefix is on S3 (rclone refuses a missing source).
      await mkdir(folder, { recursive: true });
      return { provider, bucket, prefix, access: access(folder) };
    },
    async machineRepositoryAccess(machineId) {
      const [row] = await deps.db
        .select({ locationId: backupPackages.storageLocationId })
        .from(backupMachines)
        .innerJoin(backupPackages, eq(backupPackages.id, backupMachines.backupPackageId))
        .where(eq(backupMachines.id, machineId));
      if (!row || row.locationId === null) return null;
      const { bucket, prefix } = await locationOf(row.locationId);
      const dir = repositoryDir(deps.dataDir, { bucket, subfolder: prefix }, machineId);
      return {
        provider,
        bucket,
        prefix: prefix === '' ? String(machineId) : `${prefix}/${machineId}`,
        access: access(dir),
      };
    },
  };
}
