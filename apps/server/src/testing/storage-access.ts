import type { Db, Executor } from '../db/client.js';
import { createStorageLocationService } from '../features/storage-locations/service.js';
import { createSecretBox } from '../secrets.js';
import { createStorageAccess } from '../storage/access.js';
import { createStorageAccessRepo } from '../storage/access-repo.js';
import { createStorageProviders } from '../storage/registry.js';
import { loopbackGuard } from './rgw.js';

/** The portal's own access to backup data as the app wires it, for tests that build a service themselves. */
export function storageAccessFor(db: Executor, dataDir: string, masterKey: string, guard = loopbackGuard()) {
  const secrets = createSecretBox(masterKey);
  return createStorageAccess({
    repo: createStorageAccessRepo(db),
    providers: createStorageProviders({ db, secrets, dataDir, guard: loopbackGuard() }),
    secrets,
    dataDir,
    guard,
  });
}

/** The storage location service as the app wires it (the customer deletion's `locations`). */
export function storageLocationServiceFor(db: Db, dataDir: string, masterKey: string) {
  const secrets = createSecretBox(masterKey);
  return createStorageLocationService({
    db,
    providers: createStorageProviders({ db, secrets, dataDir, guard: loopbackGuard() }),
    secrets,
    warn: () => {},
  });
}
