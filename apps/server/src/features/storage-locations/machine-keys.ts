import { machineStorageUserName, STORAGE_LOCATION_TEXTS } from '@portal/domain';
import type { Db } from '../../db/client.js';
import { badRequest, notFound } from '../../http/errors.js';
import { outsideServiceAnswer } from '../../platform/errors.js';
import type { SecretBox } from '../../secrets.js';
import { bucketPolicyFor } from '../../storage/policy.js';
import {
  type CreatedAccessKey,
  type FolderAccess,
  machinePrefix,
  type PolicyGrant,
  StorageError,
  type StorageProvider,
  type StorageProviders,
} from '../../storage/provider.js';
import { grantsOfBucket } from '../../storage/repo.js';
import { createMachineKeysRepo, createStorageLocationsRepo } from './repo.js';

type MachinePlace = NonNullable<Awaited<ReturnType<ReturnType<typeof createMachineKeysRepo>['machinePlace']>>>;

/**
 * Each machine's own storage user and key (issue 16), for a machine whose package's location is on an S3
 * account: `portal-machine-{id}`, linked to its customer, location and machine, granted by the bucket
 * policy to read, list and write its own repository folder and to delete only restic's locks. Made when
 * the agent first needs its repository settings, replaced on rotation, removed with the machine. On the
 * embedded LOCAL storage the machine's own credential is its key (the REST backend checks it): no user.
 */
export function createMachineStorageKeys(deps: {
  db: Db;
  providers: StorageProviders;
  secrets: SecretBox;
  /** Sends the machine's agent its repository settings again (after a rotation). */
  repositoryChanged: (machineId: number) => Promise<void>;
  warn: (message: string, detail: Record<string, unknown>) => void;
}) {
  const { db, providers, secrets } = deps;
  const repo = createMachineKeysRepo(db);

  /** The bucket's policy as the records say, put at the service and kept on the bucket's row. */
  async function putPolicy(
    provider: StorageProvider,
    place: Pick<MachinePlace, 'bucketId' | 'bucketName'>,
    extra: PolicyGrant[] = [],
  ) {
    const names = new Set(extra.map((g) => g.userName));
    const grants = [...(await grantsOfBucket(db, place.bucketId)).filter((g) => !names.has(g.userName)), ...extra];
    const policy = bucketPolicyFor(place.bucketName, grants);
    await provider.putBucketPolicy(place.bucketName, policy);
    await createStorageLocationsRepo(db).setBucketPolicy(place.bucketId, policy);
  }

  /**
   * A new key for the machine's user (the user made when missing) and the policy granting it, at the
   * service first; then the rows. When the rows cannot be written, the key goes again.
   */
  async function newKey(place: MachinePlace, provider: StorageProvider): Promise<CreatedAccessKey> {
    const userName = machineStorageUserName(place.machineId);
    await provider.createUser(userName);
    const key = await provider.createAccessKey(userName);
    try {
      const prefix = machinePrefix(place.subfolder, place.machineId);
      await putPolicy(provider, place, [{ userName, role: 'machine', prefix }]);
      await createStorageLocationsRepo(db).upsertUserWithKey({
        storageAccountId: place.storageAccountId,
        name: userName,
        customerId: place.customerId,
        storageLocationId: place.storageLocationId,
        backupMachineId: place.machineId,
        keyId: key.keyId,
        secretEncrypted: secrets.encrypt(key.secret),
      });
      return key;
    } catch (error) {
      await provider.deleteAccessKey(userName, key.keyId).catch(() => undefined);
      throw error;
    }
  }

  /**
   * The stored key of the machine's user made for the place's location, opened. A key made for another
   * location (the package migrated since) is not granted by this bucket's policy: a new one is made.
   */
  async function storedKey(place: MachinePlace): Promise<CreatedAccessKey | null> {
    const keys = await repo.machineKeys(place.machineId);
    const found = keys.find(
      (k) =>
        k.storageAccountId === place.storageAccountId &&
        k.storageLocationId === place.storageLocationId &&
        k.keyId &&
        k.secretEncrypted,
    );
    return found?.keyId && found.secretEncrypted
      ? { keyId: found.keyId, secret: secrets.decrypt(found.secretEncrypted) }
      : null;
  }

  /** One key made per machine at a time in this instance: concurrent first calls share it. */
  const making = new Map<number, Promise<CreatedAccessKey>>();
  function keyOnce(place: MachinePlace, provider: StorageProvider): Promise<CreatedAccessKey> {
    const pending = making.get(place.machineId);
    if (pending) return pending;
    const made = newKey(place, provider).finally(() => making.delete(place.machineId));
    making.set(place.machineId, made);
    return made;
  }

  const asServiceFailure = (error: unknown) => {
    if (error instanceof StorageError)
      return outsideServiceAnswer(error, { say: STORAGE_LOCATION_TEXTS.notCreatedAtService });
    return error;
  };

  return {
    /**
     * How the machine's agent reaches its repository on an S3 location with its own key (made on first
     * need); null when the repository is on the embedded storage or the machine has no location.
     */
    async repositoryAccess(machineId: number): Promise<FolderAccess | null> {
      const place = await repo.machinePlace(machineId);
      if (!place || place.accountType === 'LOCAL') return null;
      const provider = await providers.forAccount(place.storageAccountId);
      const key = (await storedKey(place)) ?? (await keyOnce(place, provider));
      return provider.folderAccess(place.bucketName, machinePrefix(place.subfolder, machineId), key);
    },

    /**
     * PUT …/backupmachines/{m}/storagekey/rotate (ours): a new key, the agent sent its new settings, then
     * the old keys removed at the service and from the records.
     */
    async rotateFor(ref: { customerId: number; packageId: number; machineId: number }): Promise<void> {
      const place = await repo.machinePlace(ref.machineId);
      if (!place || place.customerId !== ref.customerId || place.packageId !== ref.packageId) throw notFound();
      if (place.accountType === 'LOCAL') throw badRequest(STORAGE_LOCATION_TEXTS.machineKeyNotNeeded);
      const provider = await providers.forAccount(place.storageAccountId).catch((e: unknown) => {
        throw asServiceFailure(e);
      });
      const userName = machineStorageUserName(place.machineId);
      const old = (await repo.machineKeys(place.machineId)).filter((k) => k.keyId !== null);
      await keyOnce(place, provider).catch((e: unknown) => {
        throw asServiceFailure(e);
      });
      await deps.repositoryChanged(place.machineId);
      for (const key of old) {
        if (!key.keyId) continue;
        try {
          if (key.storageAccountId === place.storageAccountId) await provider.deleteAccessKey(userName, key.keyId);
          await repo.deleteKey(key.keyId);
        } catch (error) {
          deps.warn('an old machine storage key was left at the storage service', {
            machineId: place.machineId,
            keyId: key.keyId,
            error: String(error),
          });
        }
      }
    },

    /**
     * With the machine's deletion, and after a migration moved its package: each of its users (and keys) at
     * the user's own account, then the policy of the bucket it was made for without it. The account and
     * bucket are the user's, not the machine's present place: after a migration they differ.
     */
    async remove(machineId: number): Promise<void> {
      for (const user of await repo.machineUsers(machineId)) {
        const provider = await providers.forAccount(user.storageAccountId);
        await provider.deleteUser(user.userName);
        await createStorageLocationsRepo(db).deleteUsers([user.userId]);
        if (user.bucketId !== null && user.bucketName !== null) {
          await putPolicy(provider, { bucketId: user.bucketId, bucketName: user.bucketName });
        }
      }
    },
  };
}
export type MachineStorageKeys = ReturnType<typeof createMachineStorageKeys>;
