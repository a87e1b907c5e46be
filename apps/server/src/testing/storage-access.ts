import type { Executor } from '../db/client.js';
import { createSecretBox } from '../secrets.js';
import { createStorageAccess } from '../storage/access.js';
import { createStorageAccessRepo } from '../storage/access-repo.js';
import { createStorageProviders } from '../storage/registry.js';
import { loopbackGuard } from './rgw.js';

/** The portal's own access to backup data as the app wires it, for tests that build a service themselves. */
export function storageAccessFor(db: Executor, dataDir: string, masterKey: string) {
  const secrets = createSecretBox(masterKey);
  return createStorageAccess({
    repo: createStorageAccessRepo(db),
    providers: createStorageProviders({ db, secrets, dataDir, guard: loopbackGuard() }),
    secrets,
    dataDir,
  });
}
