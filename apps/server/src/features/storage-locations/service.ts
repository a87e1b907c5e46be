import {
  type Elements,
  errorMessage,
  locationStorageUserName,
  type ServerMessage,
  STORAGE_LOCATION_TEXTS,
  type StorageAccountChoice,
  type StorageLocationDetail,
  type StorageLocationRow,
  storageLocationDeletionRefusal,
  storageLocationName,
} from '@portal/domain';
import type { Db, Executor } from '../../db/client.js';
import { badRequest, notFound } from '../../http/errors.js';
import { outsideServiceAnswer } from '../../platform/errors.js';
import type { SecretBox } from '../../secrets.js';
import { bucketPolicyFor } from '../../storage/policy.js';
import { StorageError, type StorageProvider, type StorageProviders } from '../../storage/provider.js';
import { grantsOfBucket } from '../../storage/repo.js';
import { customerBucketName } from '../local-storage/paths.js';
import { presentStorageLocation, presentStorageLocationDetail } from './present.js';
import { createStorageLocationsRepo } from './repo.js';

const T = STORAGE_LOCATION_TEXTS;

/** How many names a new bucket tries before giving up: `c{id}-{company}`, then with -2 ... -20. */
const BUCKET_NAME_TRIES = 20;

/**
 * A location made at the storage service first (bucket, the location's user and key) whose rows are not
 * written yet. `insert` writes them on the caller's transaction, without calling the service (a provider
 * that keeps its records in the database must not wait for that transaction); if the transaction fails,
 * `abandon` removes what the service got, so nothing is left half-made. Once it has committed, `publish`
 * puts the bucket policy the records now require at the service (a failure is logged and answered, not
 * thrown: the rows are written). A place that already has the customer's location prepares nothing.
 */
export interface PreparedLocation {
  insert(tx: Executor): Promise<number>;
  publish(): Promise<StorageError | null>;
  abandon(): Promise<void>;
}

/** Where a new location goes: a new managed bucket of an account, or a folder of an existing bucket. */
export type LocationPlace =
  | { customerId: number; storageAccountId: number }
  | { customerId: number; bucketId: number; subfolder: string | null };

/**
 * Storage locations of customers (001 §2-§8; provider admins only, so every customer is in reach and one
 * that does not exist is not found). Each location has its own storage user and access key (issue 16):
 * the portal's own key to the location's folder, for retention, migrations and removal.
 */
export function createStorageLocationService(deps: {
  db: Db;
  providers: StorageProviders;
  secrets: SecretBox;
  warn: (message: string, detail: Record<string, unknown>) => void;
}) {
  const { db, providers, secrets } = deps;
  const repo = createStorageLocationsRepo(db);

  async function customerOf(customerId: number) {
    const customer = await repo.customer(customerId);
    if (!customer) throw notFound();
    return customer;
  }

  async function providerFor(storageAccountId: number): Promise<StorageProvider> {
    try {
      return await providers.forAccount(storageAccountId);
    } catch (error) {
      if (error instanceof StorageError) throw outsideServiceAnswer(error, { say: T.notCreatedAtService });
      throw error;
    }
  }

  /** Runs a call at the service; a StorageError becomes the provider admin's message. */
  async function atService<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof StorageError) throw outsideServiceAnswer(error, { say: T.notCreatedAtService });
      throw error;
    }
  }

  /** A free bucket name for the customer at the account, made at the service (suffixed when taken). */
  async function newBucket(provider: StorageProvider, storageAccountId: number, customerId: number, company: string) {
    const taken = new Set([
      ...(await repo.bucketNames(storageAccountId)),
      ...(await atService(() => provider.listBuckets())),
    ]);
    for (let attempt = 1; attempt <= BUCKET_NAME_TRIES; attempt++) {
      const name = customerBucketName(customerId, company, attempt === 1 ? '' : `-${attempt}`);
      if (taken.has(name)) continue;
      try {
        await provider.createBucket(name);
        return name;
      } catch (error) {
        // Someone else's bucket of that name (S3 bucket names are global at some services): the next name.
        if (error instanceof StorageError && error.kind === 'conflict') continue;
        if (error instanceof StorageError) throw outsideServiceAnswer(error, { say: T.notCreatedAtService });
        throw error;
      }
    }
    throw outsideServiceAnswer(new StorageError('conflict', 'no free bucket name'), { say: T.notCreatedAtService });
  }

  /** Best effort: what a failed creation made at the service is removed; what cannot be is logged. */
  async function undo(what: string, detail: Record<string, unknown>, call: () => Promise<void>) {
    try {
      await call();
    } catch (error) {
      deps.warn(`could not remove ${what} at the storage service`, { ...detail, error: String(error) });
    }
  }

  async function prepare(place: LocationPlace): Promise<PreparedLocation> {
    const customer = await customerOf(place.customerId);
    let storageAccountId: number;
    let bucketName: string;
    let existingBucketId: number | null = null;
    let subfolder: string | null = null;
    if ('bucketId' in place) {
      const existing = await repo.locationAt(place.customerId, place.bucketId, place.subfolder);
      if (existing !== null)
        return { insert: async () => existing, publish: async () => null, abandon: async () => {} };
      const bucket = await repo.bucket(place.bucketId);
      if (!bucket) throw notFound();
      storageAccountId = bucket.storageAccountId;
      bucketName = bucket.name;
      existingBucketId = bucket.id;
      subfolder = place.subfolder;
    } else {
      const account = await repo.account(place.storageAccountId);
      if (!account) throw badRequest(T.storageAccountNotFound, 'storageAccountId');
      storageAccountId = account.id;
      bucketName = '';
    }
    const provider = await providerFor(storageAccountId);
    if (existingBucketId === null) {
      bucketName = await newBucket(provider, storageAccountId, customer.id, customer.companyName);
    }
    const locationId = await repo.reserveLocationId();
    const userName = locationStorageUserName(locationId);
    const abandon = async () => {
      await undo('a storage user', { userName }, () => provider.deleteUser(userName));
      if (existingBucketId === null) {
        await undo('a bucket', { bucketName }, () => provider.deleteBucket(bucketName));
      } else {
        const bucketId = existingBucketId;
        await undo('a bucket policy', { bucketName }, async () =>
          provider.putBucketPolicy(bucketName, bucketPolicyFor(bucketName, await grantsOfBucket(db, bucketId))),
        );
      }
    };
    let key: { keyId: string; secret: string };
    try {
      key = await atService(async () => {
        await provider.createUser(userName);
        return provider.createAccessKey(userName);
      });
    } catch (error) {
      await abandon();
      throw error;
    }
    let insertedBucketId: number | null = existingBucketId;
    return {
      abandon,
      async publish() {
        const bucketId = insertedBucketId;
        if (bucketId === null) throw new Error('publish before insert');
        try {
          const policy = await db.transaction(async (tx) => {
            const rows = createStorageLocationsRepo(tx);
            await rows.lockBucket(bucketId);
            const text = bucketPolicyFor(bucketName, await grantsOfBucket(tx, bucketId));
            await rows.setBucketPolicy(bucketId, text);
            return text;
          });
          await provider.putBucketPolicy(bucketName, policy);
          return null;
        } catch (error) {
          if (!(error instanceof StorageError)) throw error;
          deps.warn('storage location: the bucket policy could not be put at the storage service', {
            bucketName,
            error: error.message,
          });
          return error;
        }
      },
      async insert(tx) {
        const rows = createStorageLocationsRepo(tx);
        const bucketId =
          existingBucketId ??
          (await rows.insertBucket({ storageAccountId, name: bucketName, customerId: customer.id }));
        insertedBucketId = bucketId;
        await rows.insertLocation({ id: locationId, customerId: customer.id, bucketId, subfolder });
        await rows.upsertUserWithKey({
          storageAccountId,
          name: userName,
          customerId: customer.id,
          storageLocationId: locationId,
          keyId: key.keyId,
          secretEncrypted: secrets.encrypt(key.secret),
        });
        return locationId;
      },
    };
  }

  /**
   * Prepares, writes the rows in one transaction and puts the policy; when the rows cannot be written, or
   * the policy cannot be put, everything made goes again (rows first, then at the service).
   */
  async function createAt(place: LocationPlace): Promise<number> {
    const prepared = await prepare(place);
    let locationId: number;
    try {
      locationId = await db.transaction((tx) => prepared.insert(tx));
    } catch (error) {
      await prepared.abandon();
      throw error;
    }
    const failed = await prepared.publish();
    if (failed) {
      await db.transaction(async (tx) => {
        const rows = createStorageLocationsRepo(tx);
        const location = await rows.lockForDeletion(place.customerId, locationId);
        await rows.deleteUsers((await rows.usersOfLocation(locationId)).map((u) => u.id));
        await rows.deleteLocation(locationId);
        if (location && !('bucketId' in place)) await rows.deleteBucket(location.bucketId);
      });
      await prepared.abandon();
      throw outsideServiceAnswer(failed, { say: T.notCreatedAtService });
    }
    return locationId;
  }

  async function row(customerId: number, storageLocationId: number): Promise<StorageLocationRow> {
    const found = await repo.one(customerId, storageLocationId);
    if (!found) throw notFound(T.notFound);
    return presentStorageLocation(found);
  }

  /**
   * A location's rows (its users and keys, itself, and its bucket when the portal made it and no other location
   * uses it), in the caller's transaction; answers what the service still holds for it.
   */
  async function releaseRows(tx: Executor, location: { id: number; bucketId: number }): Promise<ReleasedLocation> {
    const rows = createStorageLocationsRepo(tx);
    const bucket = await rows.bucket(location.bucketId);
    if (!bucket) throw notFound(T.notFound);
    const users = await rows.usersOfLocation(location.id);
    await rows.deleteUsers(users.map((u) => u.id));
    await rows.deleteLocation(location.id);
    const removeBucket = bucket.managed && !(await rows.bucketShared(bucket.id, location.id));
    if (removeBucket) await rows.deleteBucket(bucket.id);
    return { users, bucket, removeBucket };
  }

  /** After the rows are gone: the users at the service, and the bucket or its new policy. */
  async function cleanUpAtService(provider: StorageProvider, gone: ReleasedLocation): Promise<ServerMessage[]> {
    const problems: ServerMessage[] = [];
    const attempt = async (what: string, call: () => Promise<void>) => {
      try {
        await call();
      } catch (error) {
        if (!(error instanceof StorageError)) throw error;
        deps.warn(`storage location deletion: ${what} left at the storage service`, { error: error.message });
        problems.push(errorMessage(T.leftAtService(what)));
      }
    };
    for (const user of gone.users) {
      await attempt(`the storage user ${user.name}`, async () => {
        for (const keyId of user.keyIds) await provider.deleteAccessKey(user.name, keyId);
        await provider.deleteUser(user.name);
      });
    }
    if (gone.removeBucket) {
      await attempt(`the bucket ${gone.bucket.name}`, () => provider.deleteBucket(gone.bucket.name));
    } else {
      await attempt(`the policy of the bucket ${gone.bucket.name}`, async () => {
        const policy = await db.transaction(async (tx) => {
          const rows = createStorageLocationsRepo(tx);
          await rows.lockBucket(gone.bucket.id);
          const text = bucketPolicyFor(gone.bucket.name, await grantsOfBucket(tx, gone.bucket.id));
          await rows.setBucketPolicy(gone.bucket.id, text);
          return text;
        });
        await provider.putBucketPolicy(gone.bucket.name, policy);
      });
    }
    return problems;
  }

  return {
    prepare,

    /** Every location of the customer (001 §9: fetched once, paged in the browser). */
    async list(customerId: number): Promise<Elements<StorageLocationRow>> {
      await customerOf(customerId);
      return { elements: (await repo.list(customerId)).map(presentStorageLocation) };
    },

    /** The accounts a new location of the customer may be made at. */
    async accountChoices(customerId: number): Promise<Elements<StorageAccountChoice>> {
      await customerOf(customerId);
      return { elements: await repo.accounts() };
    },

    async detail(customerId: number, storageLocationId: number): Promise<StorageLocationDetail> {
      const customer = await customerOf(customerId);
      const found = await repo.one(customerId, storageLocationId);
      if (!found) throw notFound(T.notFound);
      return presentStorageLocationDetail(found, customer.displayName, await repo.packagesOf(storageLocationId));
    },

    /** POST …/storagelocations {storageAccountId} (001 §7): a new managed bucket of the account. */
    async create(customerId: number, storageAccountId: number): Promise<StorageLocationRow> {
      return row(customerId, await createAt({ customerId, storageAccountId }));
    },

    /**
     * DELETE …/storagelocations/{id} (001 §5, §6): refused for the default and for a location with packages
     * (or in an open migration), nothing changed. The rows go in one transaction; then the service's users
     * and keys, and the bucket when the portal made it and no other location uses it (else its policy is
     * written again without this location). What the service would not remove is said in the answer.
     */
    async remove(customerId: number, storageLocationId: number): Promise<ServerMessage[]> {
      await customerOf(customerId);
      const gone = await db.transaction(async (tx) => {
        const rows = createStorageLocationsRepo(tx);
        const location = await rows.lockForDeletion(customerId, storageLocationId);
        if (!location) throw notFound(T.notFound);
        const refusal =
          storageLocationDeletionRefusal(location) ?? (location.openMigrations > 0 ? T.inMigrationNotDeletable : null);
        if (refusal !== null) throw badRequest(refusal);
        return releaseRows(tx, { id: storageLocationId, bucketId: location.bucketId });
      });
      const provider = await providers.forAccount(gone.bucket.storageAccountId).catch((error: unknown) => {
        if (error instanceof StorageError) return null;
        throw error;
      });
      if (!provider) return [errorMessage(T.leftAtService(storageLocationName({ bucketName: gone.bucket.name })))];
      return cleanUpAtService(provider, gone);
    },

    /**
     * With its customer's deletion, in the transaction that deletes the customer's rows: every location's rows
     * (as a deletion of each would); `cleanUpReleased` after the commit removes what the service holds for them,
     * so no location user's key outlives its customer.
     */
    async releaseCustomerLocations(tx: Executor, customerId: number): Promise<ReleasedLocation[]> {
      const released: ReleasedLocation[] = [];
      for (const location of await createStorageLocationsRepo(tx).locationsOf(customerId)) {
        released.push(await releaseRows(tx, location));
      }
      return released;
    },

    /** The service's side of released locations; what it would not remove is logged and left. */
    async cleanUpReleased(released: ReleasedLocation[]): Promise<void> {
      for (const gone of released) {
        const provider = await providers.forAccount(gone.bucket.storageAccountId).catch((error: unknown) => {
          if (error instanceof StorageError) return null;
          throw error;
        });
        if (!provider) {
          deps.warn('customer deletion: a storage location was left at the storage service', {
            bucket: gone.bucket.name,
          });
          continue;
        }
        await cleanUpAtService(provider, gone);
      }
    },

    /** PUT …/storagelocations/{id}/makedefault (001 §4, §7): one transaction; the unique index keeps one default. */
    async makeDefault(customerId: number, storageLocationId: number): Promise<StorageLocationRow> {
      await customerOf(customerId);
      const made = await db.transaction((tx) =>
        createStorageLocationsRepo(tx).makeDefault(customerId, storageLocationId),
      );
      if (!made) throw notFound(T.notFound);
      return row(customerId, storageLocationId);
    },
  };
}
export type StorageLocationService = ReturnType<typeof createStorageLocationService>;

/** What the storage service still holds for a location whose rows are gone. */
export interface ReleasedLocation {
  users: Array<{ name: string; keyIds: string[] }>;
  bucket: { id: number; name: string; storageAccountId: number };
  removeBucket: boolean;
}
