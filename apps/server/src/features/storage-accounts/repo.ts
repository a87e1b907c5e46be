import type { Paging } from '@portal/domain';
import { and, asc, count, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import { type Executor, oneOrNull } from '../../db/client.js';
import { selectPage } from '../../db/paging.js';
import {
  accessKeys,
  buckets,
  storageAccounts,
  storageLocations,
  storageUsers,
  taskActions,
} from '../../db/schema/index.js';

export type StorageAccountRecord = typeof storageAccounts.$inferSelect;
/** The stored values of an account (its secret already sealed). */
export type StorageAccountValues = Omit<StorageAccountRecord, 'id' | 'createdAt' | 'defaultStorageAccount'>;

export type BucketRecord = Pick<typeof buckets.$inferSelect, 'id' | 'name' | 'managed' | 'customerId' | 'policy'>;

/** A storage location as the users and keys tables name it. */
export interface LocationRecord {
  id: number;
  customerId: number;
  bucket: string;
  subfolder: string | null;
}

/** A storage user with its links, its keys' ids and its location. */
export interface StorageUserRecord {
  id: number;
  name: string;
  managed: boolean;
  customerId: number | null;
  storageLocationId: number | null;
  backupMachineId: number | null;
  taskActionId: number | null;
  location: LocationRecord | null;
}

export interface AccessKeyRecord {
  keyId: string;
  managed: boolean;
  userName: string;
  customerId: number | null;
  storageLocationId: number | null;
  backupMachineId: number | null;
  taskActionId: number | null;
  location: LocationRecord | null;
}

/** A storage user named in a policy, with its action's type and status when it was made for one. */
export type PrincipalRecord = Omit<StorageUserRecord, 'location' | 'id'> & {
  actionType: (typeof taskActions.$inferSelect)['type'] | null;
  actionStatus: (typeof taskActions.$inferSelect)['status'] | null;
};

const locationFields = {
  locationId: storageLocations.id,
  locationCustomerId: storageLocations.customerId,
  locationBucket: sql<
    string | null
  >`(select ${buckets.name} from ${buckets} where ${buckets.id} = ${storageLocations.bucketId})`,
  locationSubfolder: storageLocations.subfolder,
};
interface LocationColumns {
  locationId: number | null;
  locationCustomerId: number | null;
  locationBucket: string | null;
  locationSubfolder: string | null;
}
const locationOf = (row: LocationColumns): LocationRecord | null =>
  row.locationId === null || row.locationCustomerId === null || row.locationBucket === null
    ? null
    : {
        id: row.locationId,
        customerId: row.locationCustomerId,
        bucket: row.locationBucket,
        subfolder: row.locationSubfolder,
      };

const bucketFields = {
  id: buckets.id,
  name: buckets.name,
  managed: buckets.managed,
  customerId: buckets.customerId,
  policy: buckets.policy,
};

const userLinks = {
  managed: storageUsers.managed,
  customerId: storageUsers.customerId,
  storageLocationId: storageUsers.storageLocationId,
  backupMachineId: storageUsers.backupMachineId,
  taskActionId: storageUsers.taskActionId,
};

/**
 * The queries of storage accounts, their buckets, users and keys (001 §2, §3). Only provider admins reach
 * them, so there is no tenant scope; every lookup below an account takes the account's id.
 */
export function createStorageAccountsRepo(db: Executor) {
  async function usersWhere(where: SQL | undefined): Promise<StorageUserRecord[]> {
    const rows = await db
      .select({ id: storageUsers.id, name: storageUsers.name, ...userLinks, ...locationFields })
      .from(storageUsers)
      .leftJoin(storageLocations, eq(storageLocations.id, storageUsers.storageLocationId))
      .where(where)
      .orderBy(asc(storageUsers.name));
    return rows.map(({ locationId, locationCustomerId, locationBucket, locationSubfolder, ...user }) => ({
      ...user,
      location: locationOf({ locationId, locationCustomerId, locationBucket, locationSubfolder }),
    }));
  }

  async function anyAccount(where: SQL | undefined): Promise<boolean> {
    const [row] = await db.select({ id: storageAccounts.id }).from(storageAccounts).where(where).limit(1);
    return row !== undefined;
  }

  return {
    async page(paging: Paging): Promise<{ rows: StorageAccountRecord[]; total: number }> {
      return selectPage(
        db
          .select()
          .from(storageAccounts)
          .orderBy(asc(sql`lower(${storageAccounts.name})`), asc(storageAccounts.id)),
        () => db.select({ total: count() }).from(storageAccounts),
        paging,
      );
    },

    async byId(id: number): Promise<StorageAccountRecord | null> {
      return oneOrNull(db.select().from(storageAccounts).where(eq(storageAccounts.id, id)));
    },

    /** Whether another account (not `exceptId`) has the name, in any letter case (the unique index's rule). */
    nameInUse(name: string, exceptId: number | null): Promise<boolean> {
      const same = eq(sql`lower(${storageAccounts.name})`, name.toLowerCase());
      return anyAccount(exceptId === null ? same : and(same, ne(storageAccounts.id, exceptId)));
    },

    localAccountExists: () => anyAccount(eq(storageAccounts.type, 'LOCAL')),

    hasDefault: () => anyAccount(eq(storageAccounts.defaultStorageAccount, true)),

    async insert(values: StorageAccountValues, defaultStorageAccount: boolean): Promise<number> {
      const [row] = await db
        .insert(storageAccounts)
        .values({ ...values, defaultStorageAccount })
        .returning({ id: storageAccounts.id });
      if (!row) throw new Error('storage account not inserted');
      return row.id;
    },

    async update(id: number, values: StorageAccountValues): Promise<void> {
      await db.update(storageAccounts).set(values).where(eq(storageAccounts.id, id));
    },

    /**
     * Makes the account the default and every other one not; run in a transaction, so there is exactly one
     * default at every moment (the unique index refuses two). False when there is no such account.
     */
    async setDefault(id: number): Promise<boolean> {
      const [target] = await db
        .select({ id: storageAccounts.id })
        .from(storageAccounts)
        .where(eq(storageAccounts.id, id))
        .for('update');
      if (!target) return false;
      await db
        .update(storageAccounts)
        .set({ defaultStorageAccount: false })
        .where(and(eq(storageAccounts.defaultStorageAccount, true), ne(storageAccounts.id, id)));
      await db.update(storageAccounts).set({ defaultStorageAccount: true }).where(eq(storageAccounts.id, id));
      return true;
    },

    /**
     * Deletes an account that is not the default and holds no managed bucket or storage location (its users
     * and keys go with it, and the unmanaged buckets it had found); run in a transaction, under the account's
     * row lock, so no location is made on it meanwhile.
     */
    async deleteUnused(id: number): Promise<'deleted' | 'gone' | 'default' | 'inUse'> {
      const [account] = await db
        .select({ isDefault: storageAccounts.defaultStorageAccount })
        .from(storageAccounts)
        .where(eq(storageAccounts.id, id))
        .for('update');
      if (!account) return 'gone';
      if (account.isDefault) return 'default';
      const inUse = sql`(${buckets.managed} or exists (select 1 from ${storageLocations} where ${storageLocations.bucketId} = ${buckets.id}))`;
      const [used] = await db
        .select({ id: buckets.id })
        .from(buckets)
        .where(and(eq(buckets.storageAccountId, id), inUse))
        .limit(1);
      if (used) return 'inUse';
      await db.delete(buckets).where(eq(buckets.storageAccountId, id));
      await db.delete(storageAccounts).where(eq(storageAccounts.id, id));
      return 'deleted';
    },

    buckets: (accountId: number): Promise<BucketRecord[]> =>
      db.select(bucketFields).from(buckets).where(eq(buckets.storageAccountId, accountId)).orderBy(asc(buckets.name)),

    async bucketNamed(accountId: number, name: string): Promise<BucketRecord | null> {
      return oneOrNull(
        db
          .select(bucketFields)
          .from(buckets)
          .where(and(eq(buckets.storageAccountId, accountId), eq(buckets.name, name))),
      );
    },

    /** Records buckets found at the service that the portal did not know: unmanaged, of no customer. */
    async addFoundBuckets(accountId: number, names: readonly string[]): Promise<void> {
      if (names.length === 0) return;
      await db
        .insert(buckets)
        .values(names.map((name) => ({ storageAccountId: accountId, name, managed: false })))
        .onConflictDoNothing();
    },

    async setBucketPolicy(bucketId: number, policy: string | null): Promise<void> {
      await db.update(buckets).set({ policy }).where(eq(buckets.id, bucketId));
    },

    users: (accountId: number) => usersWhere(eq(storageUsers.storageAccountId, accountId)),

    /** The first key id of each user of the account (the users table shows one). */
    async firstKeyIds(accountId: number): Promise<Map<number, string>> {
      const rows = await db
        .select({ userId: accessKeys.storageUserId, keyId: accessKeys.keyId })
        .from(accessKeys)
        .where(eq(accessKeys.storageAccountId, accountId))
        .orderBy(asc(accessKeys.id));
      const out = new Map<number, string>();
      for (const row of rows) if (!out.has(row.userId)) out.set(row.userId, row.keyId);
      return out;
    },

    async accessKeys(accountId: number): Promise<AccessKeyRecord[]> {
      const rows = await db
        .select({
          keyId: accessKeys.keyId,
          managed: accessKeys.managed,
          userName: storageUsers.name,
          customerId: accessKeys.customerId,
          storageLocationId: accessKeys.storageLocationId,
          backupMachineId: accessKeys.backupMachineId,
          taskActionId: accessKeys.taskActionId,
          ...locationFields,
        })
        .from(accessKeys)
        .innerJoin(storageUsers, eq(storageUsers.id, accessKeys.storageUserId))
        .leftJoin(storageLocations, eq(storageLocations.id, accessKeys.storageLocationId))
        .where(eq(accessKeys.storageAccountId, accountId))
        .orderBy(asc(accessKeys.keyId));
      return rows.map(({ locationId, locationCustomerId, locationBucket, locationSubfolder, ...key }) => ({
        ...key,
        location: locationOf({ locationId, locationCustomerId, locationBucket, locationSubfolder }),
      }));
    },

    async userNamed(accountId: number, name: string): Promise<StorageUserRecord | null> {
      const [user] = await usersWhere(and(eq(storageUsers.storageAccountId, accountId), eq(storageUsers.name, name)));
      return user ?? null;
    },

    /** The account's users among `names`, with the type and status of the action each was made for. */
    async principals(accountId: number, names: readonly string[]): Promise<Map<string, PrincipalRecord>> {
      if (names.length === 0) return new Map();
      const rows = await db
        .select({
          name: storageUsers.name,
          ...userLinks,
          actionType: taskActions.type,
          actionStatus: taskActions.status,
        })
        .from(storageUsers)
        .leftJoin(taskActions, eq(taskActions.id, storageUsers.taskActionId))
        .where(and(eq(storageUsers.storageAccountId, accountId), inArray(storageUsers.name, [...names])));
      return new Map(rows.map((row) => [row.name, row]));
    },

    async deleteUser(userId: number): Promise<void> {
      // Its access keys go with it (on delete cascade).
      await db.delete(storageUsers).where(eq(storageUsers.id, userId));
    },
  };
}
export type StorageAccountsRepo = ReturnType<typeof createStorageAccountsRepo>;
