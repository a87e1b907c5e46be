import { STORAGE_SERVICE_TEXTS } from '@portal/domain';
import type { Executor } from '../db/client.js';
import type { OutboundGuard } from '../net/outbound-guard.js';
import type { SecretBox } from '../secrets.js';
import { createLocalProvider } from './local.js';
import {
  type StorageAccountConnection,
  StorageError,
  type StorageProvider,
  type StorageProviders,
} from './provider.js';
import { createEmbeddedStorageRepo, storageAccountRow } from './repo.js';
import { createS3Provider } from './s3.js';

export interface StorageProvidersDeps {
  db: Executor;
  /** Opens storage_accounts.secret_access_key_encrypted (MASTER_KEY). */
  secrets: SecretBox;
  /** DATA_DIR: the embedded storage keeps its buckets under DATA_DIR/storage. */
  dataDir: string;
  /** Checks every address an S3 endpoint resolves to (ALLOW_PRIVATE_ENDPOINTS). */
  guard: OutboundGuard;
  /** How long one request to an S3 service may take (default 30 s). */
  timeoutMs?: number;
  /** Object Lock retention days on the buckets of accounts that require it (OBJECT_LOCK_RETENTION_DAYS). */
  objectLockDays?: number;
}

/**
 * The providers of the storage accounts (composition root: one per app). A saved account's provider is
 * kept until `forget`, so its S3 client and connections are reused; an edited or deleted account must be
 * forgotten.
 */
export function createStorageProviders(deps: StorageProvidersDeps): StorageProviders {
  const kept = new Map<number, Promise<StorageProvider>>();

  function build(connection: StorageAccountConnection): StorageProvider {
    if (connection.type === 'LOCAL')
      return createLocalProvider({
        dataDir: deps.dataDir,
        repo: createEmbeddedStorageRepo(deps.db, connection.id),
        secrets: deps.secrets,
      });
    return createS3Provider(connection, {
      guard: deps.guard,
      timeoutMs: deps.timeoutMs,
      objectLockDays: deps.objectLockDays,
    });
  }

  async function load(storageAccountId: number): Promise<StorageProvider> {
    const row = await storageAccountRow(deps.db, storageAccountId);
    if (!row) throw new StorageError('notFound', STORAGE_SERVICE_TEXTS.accountNotFound);
    const { secretAccessKeyEncrypted, ...rest } = row;
    return build({
      ...rest,
      secretAccessKey: secretAccessKeyEncrypted ? deps.secrets.decrypt(secretAccessKeyEncrypted) : null,
    });
  }

  return {
    forAccount(storageAccountId) {
      let provider = kept.get(storageAccountId);
      if (!provider) {
        provider = load(storageAccountId);
        kept.set(storageAccountId, provider);
        // A failed load is not kept: the next call reads the row again.
        provider.catch(() => kept.delete(storageAccountId));
      }
      return provider;
    },
    forConnection: build,
    forget(storageAccountId) {
      kept.delete(storageAccountId);
    },
  };
}
