import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { bucketNotFound, STORAGE_SERVICE_TEXTS, storageUserNotFound } from '@portal/domain';
import { bucketFolder, isBucketFolderName, storageRoot, UnsafePathError } from '../features/local-storage/paths.js';
import type { SecretBox } from '../secrets.js';
import { generateAccessKey } from './access-key.js';
import { StorageError, type StorageProvider } from './provider.js';
import type { EmbeddedStorageRepo } from './repo.js';

/**
 * The `local` storage provider: the embedded storage the portal serves itself (DESIGN §7). A bucket is a
 * folder under DATA_DIR/storage; its policy, users and keys are the portal's own records (buckets.policy,
 * storage_users, access_keys), which the embedded REST backend checks every request against. Users and
 * keys are added to those records here, managed, without links: the use case that asked for them links
 * them to their entity afterwards (an update of the row by name or key id).
 */
export function createLocalProvider(deps: {
  dataDir: string;
  repo: EmbeddedStorageRepo;
  secrets: SecretBox;
}): StorageProvider {
  const folder = (bucket: string, prefix = '') => {
    try {
      return bucketFolder(deps.dataDir, bucket, prefix);
    } catch (error) {
      if (error instanceof UnsafePathError) throw new StorageError('malformed', STORAGE_SERVICE_TEXTS.notEmbeddedName);
      throw error;
    }
  };

  async function userId(userName: string): Promise<number> {
    const id = await deps.repo.userId(userName);
    if (id === null) throw new StorageError('notFound', storageUserNotFound(userName));
    return id;
  }

  return {
    type: 'LOCAL',

    async testConnection() {
      await mkdir(storageRoot(deps.dataDir), { recursive: true });
    },

    async listBuckets() {
      const entries = await readdir(storageRoot(deps.dataDir), { withFileTypes: true }).catch(emptyWhenMissing);
      return entries
        .filter((e) => e.isDirectory() && isBucketFolderName(e.name))
        .map((e) => e.name)
        .sort();
    },

    async createBucket(name) {
      await mkdir(folder(name), { recursive: true });
    },

    async deleteBucket(name) {
      await rm(folder(name), { recursive: true, force: true });
    },

    async getBucketPolicy(bucket) {
      const { found, policy } = await deps.repo.bucketPolicy(bucket);
      if (!found) throw new StorageError('notFound', bucketNotFound(bucket));
      return policy;
    },

    async putBucketPolicy(bucket, policy) {
      if (!(await deps.repo.setBucketPolicy(bucket, policy)))
        throw new StorageError('notFound', bucketNotFound(bucket));
    },

    listUsers: () => deps.repo.userNames(),

    async createUser(name) {
      await deps.repo.addUser(name);
    },

    async deleteUser(name) {
      await deps.repo.removeUser(name);
    },

    async createAccessKey(userName) {
      const owner = await userId(userName);
      const key = generateAccessKey();
      await deps.repo.addAccessKey(owner, key.keyId, deps.secrets.encrypt(key.secret));
      return key;
    },

    async deleteAccessKey(userName, keyId) {
      const owner = await deps.repo.userId(userName);
      if (owner !== null) await deps.repo.removeAccessKey(owner, keyId);
    },

    async listAccessKeys(userName) {
      return deps.repo.accessKeyIds(await userId(userName));
    },

    async usage(bucket, prefix) {
      return sizeOf(folder(bucket, prefix));
    },

    async deletePrefix(bucket, prefix) {
      const target = folder(bucket, prefix);
      if (prefix.replace(/^\/+|\/+$/g, '') === '') {
        // The whole bucket's content goes; the bucket (its folder) stays.
        const entries = await readdir(target).catch(emptyWhenMissing);
        for (const entry of entries) await rm(join(target, entry), { recursive: true, force: true });
      } else {
        await rm(target, { recursive: true, force: true });
      }
    },

    // The embedded storage refuses a replacement when it is tried (features/local-storage): nothing to put back.
    restoreReplaced: async () => [],

    folderAccess(bucket, prefix) {
      // The server's own restic and rclone reach the folder directly; a key plays no part.
      const path = folder(bucket, prefix);
      return { resticRepository: path, rclonePath: `:local:${path}`, env: {} };
    },
  };
}

function emptyWhenMissing(error: unknown): never[] {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
  throw error;
}

/** Bytes and files under a folder (0 and 0 when it does not exist), walked without following links. */
async function sizeOf(path: string): Promise<{ bytes: number; objects: number }> {
  let bytes = 0;
  let objects = 0;
  const pending = [path];
  while (pending.length > 0) {
    const current = pending.pop() as string;
    const entries = await readdir(current, { withFileTypes: true }).catch(emptyWhenMissing);
    for (const entry of entries) {
      const full = join(current, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile()) {
        bytes += (await stat(full)).size;
        objects += 1;
      }
    }
  }
  return { bytes, objects };
}
