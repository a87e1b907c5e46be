import { and, asc, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import { type Executor, oneOrNull } from '../db/client.js';
import {
  accessKeys,
  backupMachines,
  backupPackages,
  buckets,
  storageAccounts,
  storageLocations,
  storageUsers,
} from '../db/schema/index.js';
import { machinePrefix, type PolicyGrant } from './provider.js';

/**
 * The storage providers' queries: the accounts they are built from, the embedded service's own users,
 * keys and policies (DESIGN §7: it keeps them in the database), and the grants a bucket's policy gives.
 */

/** Who may do what in a bucket, as the portal's records say (what `bucketPolicyFor` turns into a policy). */
export async function grantsOfBucket(db: Executor, bucketId: number): Promise<PolicyGrant[]> {
  // The users of the bucket's own account, of its locations or of machines in them (`kind`).
  const usersOfBucket = (kind: SQL) =>
    and(eq(storageLocations.bucketId, bucketId), eq(storageUsers.storageAccountId, buckets.storageAccountId), kind);
  // A location's own user: everything under the location's folder.
  const locationUsers = await db
    .select({ userName: storageUsers.name, subfolder: storageLocations.subfolder })
    .from(storageUsers)
    .innerJoin(storageLocations, eq(storageLocations.id, storageUsers.storageLocationId))
    .innerJoin(buckets, eq(buckets.id, storageLocations.bucketId))
    .where(usersOfBucket(isNull(storageUsers.backupMachineId)))
    .orderBy(asc(storageUsers.name));
  // A machine's user: its repository folder in its package's location.
  const machineUsers = await db
    .select({ userName: storageUsers.name, subfolder: storageLocations.subfolder, machineId: backupMachines.id })
    .from(storageUsers)
    .innerJoin(backupMachines, eq(backupMachines.id, storageUsers.backupMachineId))
    .innerJoin(backupPackages, eq(backupPackages.id, backupMachines.backupPackageId))
    .innerJoin(storageLocations, eq(storageLocations.id, backupPackages.storageLocationId))
    .innerJoin(buckets, eq(buckets.id, storageLocations.bucketId))
    .where(usersOfBucket(isNotNull(storageUsers.backupMachineId)))
    .orderBy(asc(storageUsers.name));
  return [
    ...locationUsers.map((u) => ({ userName: u.userName, role: 'location' as const, prefix: trim(u.subfolder) })),
    ...machineUsers.map((u) => ({
      userName: u.userName,
      role: 'machine' as const,
      prefix: machinePrefix(u.subfolder, u.machineId),
    })),
  ];
}

const trim = (subfolder: string | null) => (subfolder ?? '').replace(/^\/+|\/+$/g, '');

/** A storage account's row as a provider needs it (the secret still sealed). */
export async function storageAccountRow(db: Executor, storageAccountId: number) {
  return oneOrNull(
    db
      .select({
        id: storageAccounts.id,
        type: storageAccounts.type,
        endpoint: storageAccounts.endpoint,
        iamEndpoint: storageAccounts.iamEndpoint,
        region: storageAccounts.region,
        forcePathStyle: storageAccounts.forcePathStyle,
        accessKeyId: storageAccounts.accessKeyId,
        secretAccessKeyEncrypted: storageAccounts.secretAccessKeyEncrypted,
        userApi: storageAccounts.userApi,
        requireObjectLock: storageAccounts.requireObjectLock,
      })
      .from(storageAccounts)
      .where(eq(storageAccounts.id, storageAccountId)),
  );
}

/** The embedded service's records of one storage account: its bucket policies, users and keys. */
export function createEmbeddedStorageRepo(db: Executor, storageAccountId: number) {
  const ofAccount = eq(storageUsers.storageAccountId, storageAccountId);
  return {
    async bucketPolicy(bucket: string): Promise<{ found: boolean; policy: string | null }> {
      const [row] = await db
        .select({ policy: buckets.policy })
        .from(buckets)
        .where(and(eq(buckets.storageAccountId, storageAccountId), eq(buckets.name, bucket)));
      return row ? { found: true, policy: row.policy } : { found: false, policy: null };
    },
    async setBucketPolicy(bucket: string, policy: string): Promise<boolean> {
      const updated = await db
        .update(buckets)
        .set({ policy })
        .where(and(eq(buckets.storageAccountId, storageAccountId), eq(buckets.name, bucket)))
        .returning({ id: buckets.id });
      return updated.length > 0;
    },
    async userNames(): Promise<string[]> {
      const rows = await db
        .select({ name: storageUsers.name })
        .from(storageUsers)
        .where(ofAccount)
        .orderBy(asc(storageUsers.name));
      return rows.map((r) => r.name);
    },
    /** Adds the user unless it exists; the use case that made it links it to its entity. */
    async addUser(name: string): Promise<void> {
      await db.insert(storageUsers).values({ storageAccountId, name, managed: true }).onConflictDoNothing();
    },
    async removeUser(name: string): Promise<void> {
      await db.delete(storageUsers).where(and(ofAccount, eq(storageUsers.name, name)));
    },
    async userId(name: string): Promise<number | null> {
      const [row] = await db
        .select({ id: storageUsers.id })
        .from(storageUsers)
        .where(and(ofAccount, eq(storageUsers.name, name)));
      return row?.id ?? null;
    },
    async addAccessKey(storageUserId: number, keyId: string, secretEncrypted: string): Promise<void> {
      await db.insert(accessKeys).values({ storageAccountId, storageUserId, keyId, secretEncrypted, managed: true });
    },
    async removeAccessKey(storageUserId: number, keyId: string): Promise<void> {
      await db
        .delete(accessKeys)
        .where(
          and(
            eq(accessKeys.storageAccountId, storageAccountId),
            eq(accessKeys.storageUserId, storageUserId),
            eq(accessKeys.keyId, keyId),
          ),
        );
    },
    async accessKeyIds(storageUserId: number): Promise<string[]> {
      const rows = await db
        .select({ keyId: accessKeys.keyId })
        .from(accessKeys)
        .where(and(eq(accessKeys.storageAccountId, storageAccountId), eq(accessKeys.storageUserId, storageUserId)))
        .orderBy(asc(accessKeys.keyId));
      return rows.map((r) => r.keyId);
    },
  };
}
export type EmbeddedStorageRepo = ReturnType<typeof createEmbeddedStorageRepo>;
