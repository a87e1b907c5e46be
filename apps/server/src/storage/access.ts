import { isAbsolute } from 'node:path';
import { DEFAULT_FOLDER, locationDir, repositoryDir } from '../features/local-storage/paths.js';
import { removeRepository, repositoryExists } from '../features/local-storage/store.js';
import type { OutboundGuard } from '../net/outbound-guard.js';
import { runRestic } from '../platform/restic.js';
import type { SecretBox } from '../secrets.js';
import type { LocationRow, StorageAccessRepo } from './access-repo.js';
import {
  type FolderAccess,
  machinePrefix,
  type StorageAccess,
  type StorageAccountConnection,
  type StorageProvider,
  type StorageProviders,
} from './provider.js';

/** What StorageAccess answers: a folder of a bucket, its provider and how restic / rclone reach it. */
export type FolderAt = Awaited<ReturnType<StorageAccess['locationAccess']>>;

/** The embedded storage's connection, for machines whose package has no storage location (yet). */
const EMBEDDED: StorageAccountConnection = {
  id: 0,
  type: 'LOCAL',
  endpoint: null,
  iamEndpoint: null,
  region: null,
  forcePathStyle: false,
  accessKeyId: null,
  secretAccessKey: null,
  userApi: null,
  requireObjectLock: false,
};

const folderOnDisk = (dir: string): FolderAccess => ({ resticRepository: dir, rclonePath: `:local:${dir}`, env: {} });

/**
 * The portal's own access to backup data (issue 16): always with a storage location's own key, never a
 * machine's, since only the location's key may delete. A LOCAL location is its folder under DATA_DIR
 * (no key); a package without a location keeps its machines' repositories in the embedded default folder.
 */
export function createStorageAccess(deps: {
  repo: StorageAccessRepo;
  providers: Pick<StorageProviders, 'forAccount' | 'forConnection'>;
  secrets: SecretBox;
  dataDir: string;
  guard: OutboundGuard;
}): StorageAccess {
  /** The folder `prefix` of the location's bucket; on the embedded storage the folder `onDisk` names. */
  async function at(location: LocationRow, prefix: string, onDisk: () => string): Promise<FolderAt> {
    const provider = await deps.providers.forAccount(location.storageAccountId);
    if (location.accountType === 'LOCAL')
      return { provider, bucket: location.bucket, prefix, access: folderOnDisk(onDisk()) };
    const key = await deps.repo.locationKey(location.id);
    // A location the portal made no key for (found at the service) is reached with the account's own key.
    const access = key
      ? provider.folderAccess(location.bucket, prefix, {
          keyId: key.keyId,
          secret: deps.secrets.decrypt(key.secretEncrypted),
        })
      : provider.folderAccess(location.bucket, prefix);
    // restic and rclone, run by the server on this folder, resolve the endpoint themselves: it is checked
    // here, just before they are given it (they cannot be held to the checked address as our own sockets are).
    const endpoint = access.env.RCLONE_S3_ENDPOINT;
    if (endpoint) await deps.guard.check(new URL(endpoint).hostname);
    return { provider, bucket: location.bucket, prefix, access };
  }

  return {
    async locationAccess(storageLocationId) {
      const location = await deps.repo.location(storageLocationId);
      if (!location) throw new Error(`storage location ${storageLocationId} not found`);
      return at(location, folderOf(location), () => locationDir(deps.dataDir, location));
    },

    async machineRepositoryAccess(machineId) {
      const found = await deps.repo.machineLocation(machineId);
      if (!found) return null;
      if (found.location === null) {
        const provider: StorageProvider = deps.providers.forConnection(EMBEDDED);
        const access = folderOnDisk(repositoryDir(deps.dataDir, null, machineId));
        return { provider, bucket: DEFAULT_FOLDER, prefix: String(machineId), access };
      }
      const { location } = found;
      return at(location, machinePrefix(location.subfolder, machineId), () =>
        repositoryDir(deps.dataDir, location, machineId),
      );
    },
  };
}

/** A location's folder in its bucket, without slashes at either end ('' for the whole bucket). */
function folderOf(location: Pick<LocationRow, 'subfolder'>): string {
  return (location.subfolder ?? '').replace(/^\/+|\/+$/g, '');
}

/** Whether the folder is on the portal's own disk (the embedded storage). */
export const isOnDisk = (access: FolderAccess) => isAbsolute(access.resticRepository);

/** restic's environment for a repository in the folder: the access's own (S3 keys) and the repository's. */
export function resticEnvOf(access: FolderAccess, password: string): Record<string, string> {
  return { ...access.env, RESTIC_REPOSITORY: access.resticRepository, RESTIC_PASSWORD: password };
}

/**
 * Whether a restic repository was ever made in the folder: its config file on disk, or `restic cat
 * config` answering for one in a bucket.
 */
export async function repositoryPresent(access: FolderAccess, password: string, binary = 'restic'): Promise<boolean> {
  if (isOnDisk(access)) return repositoryExists(access.resticRepository);
  const probe = await runRestic({ binary, args: ['--no-cache', 'cat', 'config'], env: resticEnvOf(access, password) });
  return probe.code === 0;
}

/**
 * What a service running restic on machines' repositories (downloads, seeds, retention) is given: the repository
 * reached with its storage location's own key, its password, and the binary and clock a test may replace.
 */
export interface RepositoryJobDeps {
  storage: Pick<StorageAccess, 'machineRepositoryAccess'>;
  /** The machine's repository password (local-storage/repository-settings.ts). */
  repositoryPassword: (machineId: number) => Promise<string | null>;
  /** Default 'restic' (on PATH; /usr/bin/restic from the Debian package). */
  resticBinary?: string;
  now?: () => Date;
}

/**
 * restic's environment for a machine's repository (its place, the location's key, the password); null when there is
 * no such machine or nothing was ever stored for it.
 */
export async function machineResticEnv(
  deps: Pick<RepositoryJobDeps, 'storage' | 'repositoryPassword'>,
  machineId: number,
  binary: string,
): Promise<Record<string, string> | null> {
  const at = await deps.storage.machineRepositoryAccess(machineId);
  const password = at ? await deps.repositoryPassword(machineId) : null;
  if (!at || password === null || !(await repositoryPresent(at.access, password, binary))) return null;
  return resticEnvOf(at.access, password);
}

/** The restic binary and the clock of such a service, defaulted. */
export const repositoryJobTools = (deps: RepositoryJobDeps) => ({
  binary: deps.resticBinary ?? 'restic',
  now: deps.now ?? (() => new Date()),
});

/** Removes everything in the folder: on disk the folder, in a bucket every object under its prefix. */
export async function removeFolder(folder: FolderAt): Promise<void> {
  if (isOnDisk(folder.access)) await removeRepository(folder.access.resticRepository);
  else await folder.provider.deletePrefix(folder.bucket, folder.prefix);
}
