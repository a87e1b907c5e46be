import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { storageAccounts } from '../db/schema/index.js';
import type { SecretBox } from '../secrets.js';
import { createLocalProvider } from './local.js';
import { StorageError, type StorageProvider, type StorageProviders } from './provider.js';

/**
 * MINIMAL STAND-IN until the provider helper's registry.ts is merged (same name and dependencies): the
 * LOCAL account only; an S3 account answers 'unsupported'.
 */
export function createStorageProviders(deps: { db: Executor; secrets: SecretBox; dataDir: string }): StorageProviders {
  const kept = new Map<number, StorageProvider>();
  return {
    async forAccount(storageAccountId) {
      const hit = kept.get(storageAccountId);
      if (hit) return hit;
      const [account] = await deps.db
        .select({ id: storageAccounts.id, type: storageAccounts.type })
        .from(storageAccounts)
        .where(eq(storageAccounts.id, storageAccountId));
      if (!account) throw new StorageError('notFound', 'Storage account not found');
      if (account.type !== 'LOCAL') throw new StorageError('unsupported', 'S3 storage is not available yet');
      const provider = createLocalProvider({ db: deps.db, dataDir: deps.dataDir, storageAccountId });
      kept.set(storageAccountId, provider);
      return provider;
    },
    forConnection(connection) {
      if (connection.type !== 'LOCAL') throw new StorageError('unsupported', 'S3 storage is not available yet');
      return createLocalProvider({ db: deps.db, dataDir: deps.dataDir, storageAccountId: connection.id });
    },
    forget(storageAccountId) {
      kept.delete(storageAccountId);
    },
  };
}
