import { and, asc, count, desc, eq, inArray, ne, notInArray, sql } from 'drizzle-orm';
import { type Executor, oneOrNull, rowsOf } from '../../db/client.js';
import {
  accessKeys,
  backupMachines,
  backupPackages,
  buckets,
  customers,
  packageMigrations,
  storageAccounts,
  storageLocations,
  storageUsers,
} from '../../db/schema/index.js';
import { joinLocationStorage, joinPackageStorage } from '../../db/storage-joins.js';

/** Every field of a location row the presenter reads. */
const locationFields = {
  id: storageLocations.id,
  customerId: storageLocations.customerId,
  bucketId: storageLocations.bucketId,
  bucketName: buckets.name,
  bucketManaged: buckets.managed,
  subfolder: storageLocations.subfolder,
  defaultForCustomer: storageLocations.defaultForCustomer,
  numberOfBackupPackages: sql<number>`(select count(*)::int from ${backupPackages} where ${backupPackages.storageLocationId} = ${storageLocations.id})`,
  accountId: storageAccounts.id,
  accountName: storageAccounts.name,
  accountType: storageAccounts.type,
};

/** A storage user and its keys, as the portal made them for a location or a machine. */
export interface StorageUserValues {
  storageAccountId: number;
  name: string;
  customerId: number;
  storageLocationId: number;
  backupMachineId?: number | null;
  keyId: string;
  secretEncrypted: string;
}

/**
 * Storage locations of customers (001 §2-§7). Every read is by customer: a location of another customer is
 * not found. Changes run on the caller's transaction.
 */
export function createStorageLocationsRepo(db: Executor) {
  const select = () => joinLocationStorage(db.select(locationFields).from(storageLocations).$dynamic());

  return {
    async customer(customerId: number): Promise<{ id: number; companyName: string; displayName: string } | null> {
      return oneOrNull(
        db
          .select({ id: customers.id, companyName: customers.companyName, displayName: customers.displayName })
          .from(customers)
          .where(eq(customers.id, customerId)),
      );
    },

    list: (customerId: number) =>
      select().where(eq(storageLocations.customerId, customerId)).orderBy(asc(storageLocations.id)),

    async one(customerId: number, storageLocationId: number) {
      return oneOrNull(
        select().where(and(eq(storageLocations.customerId, customerId), eq(storageLocations.id, storageLocationId))),
      );
    },

    packagesOf: (storageLocationId: number) =>
      db
        .select({ id: backupPackages.id, name: backupPackages.name, status: backupPackages.status })
        .from(backupPackages)
        .where(eq(backupPackages.storageLocationId, storageLocationId))
        .orderBy(asc(backupPackages.name), asc(backupPackages.id)),

    async account(storageAccountId: number): Promise<{ id: number; name: string } | null> {
      return oneOrNull(
        db
          .select({ id: storageAccounts.id, name: storageAccounts.name })
          .from(storageAccounts)
          .where(eq(storageAccounts.id, storageAccountId)),
      );
    },

    /** Every storage account, the default first. */
    accounts: () =>
      db
        .select({
          id: storageAccounts.id,
          name: storageAccounts.name,
          type: storageAccounts.type,
          defaultStorageAccount: storageAccounts.defaultStorageAccount,
        })
        .from(storageAccounts)
        .orderBy(desc(storageAccounts.defaultStorageAccount), asc(storageAccounts.name)),

    /** The bucket names the portal already has at the account. */
    async bucketNames(storageAccountId: number): Promise<string[]> {
      const rows = await db
        .select({ name: buckets.name })
        .from(buckets)
        .where(eq(buckets.storageAccountId, storageAccountId));
      return rows.map((r) => r.name);
    },

    /** A bucket with its account, locked: policies of one bucket are written one at a time. */
    async lockBucket(bucketId: number): Promise<{ id: number; name: string; storageAccountId: number } | null> {
      return oneOrNull(
        db
          .select({ id: buckets.id, name: buckets.name, storageAccountId: buckets.storageAccountId })
          .from(buckets)
          .where(eq(buckets.id, bucketId))
          .for('update'),
      );
    },

    /** The customer's location at a place of a bucket, if there is one. */
    async locationAt(customerId: number, bucketId: number, subfolder: string | null): Promise<number | null> {
      const [row] = await db
        .select({ id: storageLocations.id })
        .from(storageLocations)
        .where(
          and(
            eq(storageLocations.customerId, customerId),
            eq(storageLocations.bucketId, bucketId),
            sql`coalesce(${storageLocations.subfolder}, '') = ${subfolder ?? ''}`,
          ),
        );
      return row?.id ?? null;
    },

    /** A location id taken from its sequence before the row exists, so the storage user can be named after it. */
    async reserveLocationId(): Promise<number> {
      const [row] = rowsOf<{ id: number }>(
        await db.execute(sql`select nextval(pg_get_serial_sequence('storage_locations', 'id'))::int as id`),
      );
      if (!row) throw new Error('no storage location id');
      return Number(row.id);
    },

    async insertBucket(values: { storageAccountId: number; name: string; customerId: number }): Promise<number> {
      const [row] = await db
        .insert(buckets)
        .values({ ...values, managed: true })
        .returning({ id: buckets.id });
      if (!row) throw new Error('bucket not inserted');
      return row.id;
    },

    /** The location with its reserved id; the customer's default when it has none. */
    async insertLocation(values: { id: number; customerId: number; bucketId: number; subfolder: string | null }) {
      const [hasDefault] = await db
        .select({ id: storageLocations.id })
        .from(storageLocations)
        .where(and(eq(storageLocations.customerId, values.customerId), eq(storageLocations.defaultForCustomer, true)));
      await db.insert(storageLocations).values({ ...values, defaultForCustomer: !hasDefault });
    },

    /**
     * A managed storage user and its key. Upserts: a provider that records its users and keys itself (the
     * embedded one) may have written the rows already; the portal's links and sealed secret are what count.
     */
    async upsertUserWithKey(values: StorageUserValues): Promise<void> {
      const links = {
        customerId: values.customerId,
        storageLocationId: values.storageLocationId,
        backupMachineId: values.backupMachineId ?? null,
      };
      const [user] = await db
        .insert(storageUsers)
        .values({ storageAccountId: values.storageAccountId, name: values.name, managed: true, ...links })
        .onConflictDoUpdate({
          target: [storageUsers.storageAccountId, storageUsers.name],
          set: { managed: true, ...links },
        })
        .returning({ id: storageUsers.id });
      if (!user) throw new Error('storage user not written');
      await db
        .insert(accessKeys)
        .values({
          storageAccountId: values.storageAccountId,
          storageUserId: user.id,
          keyId: values.keyId,
          secretEncrypted: values.secretEncrypted,
          managed: true,
          ...links,
        })
        .onConflictDoUpdate({
          target: accessKeys.keyId,
          set: { storageUserId: user.id, secretEncrypted: values.secretEncrypted, managed: true, ...links },
        });
    },

    async setBucketPolicy(bucketId: number, policy: string): Promise<void> {
      await db.update(buckets).set({ policy }).where(eq(buckets.id, bucketId));
    },

    /** The location, locked for its deletion, with what decides it (001 §6) and what goes with it. */
    async lockForDeletion(customerId: number, storageLocationId: number) {
      const [row] = await db
        .select({
          id: storageLocations.id,
          bucketId: storageLocations.bucketId,
          subfolder: storageLocations.subfolder,
          defaultForCustomer: storageLocations.defaultForCustomer,
        })
        .from(storageLocations)
        .where(and(eq(storageLocations.customerId, customerId), eq(storageLocations.id, storageLocationId)))
        .for('update');
      if (!row) return null;
      // Packages are counted under the location's lock: a package placed meanwhile waits for it.
      const [packages] = await db
        .select({ n: count() })
        .from(backupPackages)
        .where(eq(backupPackages.storageLocationId, storageLocationId));
      const [migrations] = await db
        .select({ n: count() })
        .from(packageMigrations)
        .where(
          and(
            sql`${storageLocationId} in (${packageMigrations.sourceStorageLocationId}, ${packageMigrations.destinationStorageLocationId})`,
            eq(packageMigrations.finalized, false),
            ne(packageMigrations.status, 'ROLLED_BACK'),
          ),
        );
      return { ...row, numberOfBackupPackages: packages?.n ?? 0, openMigrations: migrations?.n ?? 0 };
    },

    /** The storage users linked to a location (its own, and any machine's), with their keys. */
    async usersOfLocation(storageLocationId: number) {
      const users = await db
        .select({ id: storageUsers.id, name: storageUsers.name })
        .from(storageUsers)
        .where(eq(storageUsers.storageLocationId, storageLocationId));
      const keys =
        users.length === 0
          ? []
          : await db
              .select({ userId: accessKeys.storageUserId, keyId: accessKeys.keyId })
              .from(accessKeys)
              .where(
                inArray(
                  accessKeys.storageUserId,
                  users.map((u) => u.id),
                ),
              );
      return users.map((u) => ({ ...u, keyIds: keys.filter((k) => k.userId === u.id).map((k) => k.keyId) }));
    },

    async deleteUsers(userIds: number[]): Promise<void> {
      if (userIds.length > 0) await db.delete(storageUsers).where(inArray(storageUsers.id, userIds));
    },

    /** The customer's locations, for its deletion. */
    async locationsOf(customerId: number) {
      return db
        .select({ id: storageLocations.id, bucketId: storageLocations.bucketId })
        .from(storageLocations)
        .where(eq(storageLocations.customerId, customerId))
        .orderBy(storageLocations.id);
    },

    async deleteLocation(storageLocationId: number): Promise<void> {
      await db.delete(storageLocations).where(eq(storageLocations.id, storageLocationId));
    },

    /** Whether other locations than `except` use the bucket. */
    async bucketShared(bucketId: number, except: number): Promise<boolean> {
      const [row] = await db
        .select({ n: count() })
        .from(storageLocations)
        .where(and(eq(storageLocations.bucketId, bucketId), notInArray(storageLocations.id, [except])));
      return (row?.n ?? 0) > 0;
    },

    async bucket(bucketId: number) {
      return oneOrNull(
        db
          .select({
            id: buckets.id,
            name: buckets.name,
            managed: buckets.managed,
            storageAccountId: buckets.storageAccountId,
          })
          .from(buckets)
          .where(eq(buckets.id, bucketId)),
      );
    },

    async deleteBucket(bucketId: number): Promise<void> {
      await db.delete(buckets).where(eq(buckets.id, bucketId));
    },

    /** Makes the location the customer's only default; false when it is not the customer's. */
    async makeDefault(customerId: number, storageLocationId: number): Promise<boolean> {
      const [row] = await db
        .select({ id: storageLocations.id })
        .from(storageLocations)
        .where(and(eq(storageLocations.customerId, customerId), eq(storageLocations.id, storageLocationId)))
        .for('update');
      if (!row) return false;
      // Off first, then on: the unique index on the customer's default allows one at every moment.
      await db
        .update(storageLocations)
        .set({ defaultForCustomer: false })
        .where(
          and(
            eq(storageLocations.customerId, customerId),
            eq(storageLocations.defaultForCustomer, true),
            ne(storageLocations.id, storageLocationId),
          ),
        );
      await db
        .update(storageLocations)
        .set({ defaultForCustomer: true })
        .where(eq(storageLocations.id, storageLocationId));
      return true;
    },
  };
}
export type StorageLocationsRepo = ReturnType<typeof createStorageLocationsRepo>;
export type StorageLocationData = NonNullable<Awaited<ReturnType<StorageLocationsRepo['one']>>>;

/** Where a machine's repository is, for its own storage user and key (issue 16). */
export function createMachineKeysRepo(db: Executor) {
  return {
    /** The machine's place: its customer, package and location with bucket and account; null without a location. */
    async machinePlace(machineId: number) {
      return oneOrNull(
        joinPackageStorage(
          db
            .select({
              machineId: backupMachines.id,
              packageId: backupPackages.id,
              customerId: backupPackages.customerId,
              storageLocationId: storageLocations.id,
              subfolder: storageLocations.subfolder,
              bucketId: buckets.id,
              bucketName: buckets.name,
              storageAccountId: storageAccounts.id,
              accountType: storageAccounts.type,
            })
            .from(backupMachines)
            .innerJoin(backupPackages, eq(backupPackages.id, backupMachines.backupPackageId))
            .$dynamic(),
        ).where(eq(backupMachines.id, machineId)),
      );
    },

    /** The machine's storage users at an account with their keys (sealed secrets), newest key first. */
    async machineKeys(machineId: number) {
      return db
        .select({
          userId: storageUsers.id,
          userName: storageUsers.name,
          storageAccountId: storageUsers.storageAccountId,
          storageLocationId: storageUsers.storageLocationId,
          keyId: accessKeys.keyId,
          secretEncrypted: accessKeys.secretEncrypted,
        })
        .from(storageUsers)
        .leftJoin(accessKeys, eq(accessKeys.storageUserId, storageUsers.id))
        .where(eq(storageUsers.backupMachineId, machineId))
        .orderBy(desc(accessKeys.id));
    },

    /** The machine's storage users, each with the bucket of the location it was made for (null when gone). */
    async machineUsers(machineId: number) {
      return db
        .select({
          userId: storageUsers.id,
          userName: storageUsers.name,
          storageAccountId: storageUsers.storageAccountId,
          bucketId: buckets.id,
          bucketName: buckets.name,
        })
        .from(storageUsers)
        .leftJoin(storageLocations, eq(storageLocations.id, storageUsers.storageLocationId))
        .leftJoin(buckets, eq(buckets.id, storageLocations.bucketId))
        .where(eq(storageUsers.backupMachineId, machineId))
        .orderBy(asc(storageUsers.id));
    },

    async deleteKey(keyId: string): Promise<void> {
      await db.delete(accessKeys).where(eq(accessKeys.keyId, keyId));
    },
  };
}
export type MachineKeysRepo = ReturnType<typeof createMachineKeysRepo>;
