import { rm } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { storageAccounts } from '../db/schema/index.js';
import { storageRoot } from '../features/local-storage/paths.js';
import type { SecretBox } from '../secrets.js';
import {
  type FolderAccess,
  type StorageAccountConnection,
  StorageError,
  type StorageProvider,
  type StorageProviders,
} from './provider.js';

/**
 * PLACEHOLDER until the storage providers are merged (wt-provider replaces this file): the embedded
 * `local` provider's folder access and prefix removal only, which is all retention and removal need.
 * An S3 account answers 'unsupported'.
 */
export function createStorageProviders(deps: { db: Executor; secrets: SecretBox; dataDir: string }): StorageProviders {
  const root = storageRoot(deps.dataDir);
  const folder = (bucket: string, prefix: string) => [root, bucket, prefix].filter((p) => p !== '').join('/');
  const unsupported = async (): Promise<never> => {
    throw new StorageError('unsupported', 'Not available in this build of the embedded storage');
  };
  const local: StorageProvider = {
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
      await rm(folder(bucket, prefix), { recursive: true, force: true });
    },
    folderAccess(bucket, prefix): FolderAccess {
      const dir = folder(bucket, prefix);
      return { resticRepository: dir, rclonePath: `:local:${dir}`, env: {} };
    },
  };
  const forConnection = (connection: StorageAccountConnection): StorageProvider => {
    if (connection.type !== 'LOCAL') throw new StorageError('unsupported', 'S3 storage is not available in this build');
    return local;
  };
  return {
    async forAccount(storageAccountId) {
      const [row] = await deps.db
        .select({ type: storageAccounts.type })
        .from(storageAccounts)
        .where(eq(storageAccounts.id, storageAccountId));
      if (!row) throw new StorageError('notFound', 'Storage account not found');
      if (row.type !== 'LOCAL') throw new StorageError('unsupported', 'S3 storage is not available in this build');
      return local;
    },
    forConnection,
    forget: () => undefined,
  };
}
