import { and, asc, eq, gt, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import {
  backupMachines,
  backupPackages,
  buckets,
  customers,
  storageAccounts,
  storageLocations,
  storageTamperingBursts,
  users,
} from '../../db/schema/index.js';

/** The burst rows of machines' attempts on their backups, and whom and what an alert names (issue 32). */
export function createTamperingRepo(db: Executor) {
  const t = storageTamperingBursts;
  /** The machines, of those `which` picks, whose repositories are in buckets of accounts that require Object Lock. */
  const lockedS3 = (which: SQL) =>
    db
      .select({ id: backupMachines.id })
      .from(backupMachines)
      .innerJoin(backupPackages, eq(backupPackages.id, backupMachines.backupPackageId))
      .innerJoin(storageLocations, eq(storageLocations.id, backupPackages.storageLocationId))
      .innerJoin(buckets, eq(buckets.id, storageLocations.bucketId))
      .innerJoin(storageAccounts, eq(storageAccounts.id, buckets.storageAccountId))
      .where(and(which, eq(storageAccounts.type, 'S3'), eq(storageAccounts.requireObjectLock, true)));
  return {
    /**
     * Counts one attempt of a machine at `at`, in one upsert (safe with several server instances): an attempt
     * later than `quietSince` after the last one starts a new burst. Answers the burst and its count so far.
     */
    async note(machineId: number, at: Date, quietSince: Date): Promise<{ startedAt: Date; attempts: number }> {
      const quiet = sql`${t.lastAt} < ${quietSince.toISOString()}::timestamptz`;
      const [row] = await db
        .insert(t)
        .values({ backupMachineId: machineId, startedAt: at, lastAt: at, attempts: 1 })
        .onConflictDoUpdate({
          target: t.backupMachineId,
          // Every right-hand side reads the row as it was: the quiet test sees the old last_at.
          set: {
            startedAt: sql`case when ${quiet} then ${at.toISOString()}::timestamptz else ${t.startedAt} end`,
            attempts: sql`case when ${quiet} then 1 else ${t.attempts} + 1 end`,
            lastAt: sql`greatest(${t.lastAt}, ${at.toISOString()}::timestamptz)`,
          },
        })
        .returning({ startedAt: t.startedAt, attempts: t.attempts });
      if (!row) throw new Error('tampering burst not written');
      return row;
    },

    /** The machine's name, customer and package (for the alert's link), or null when it is gone. */
    async machineContext(machineId: number) {
      const [row] = await db
        .select({
          machineName: backupMachines.name,
          customerId: backupMachines.customerId,
          packageId: backupMachines.backupPackageId,
          customerName: customers.displayName,
        })
        .from(backupMachines)
        .innerJoin(customers, eq(customers.id, backupMachines.customerId))
        .where(eq(backupMachines.id, machineId));
      return row ?? null;
    },

    /** The next machines (by id, after `afterId`) whose repositories are in buckets made with Object Lock. */
    async lockedS3Machines(afterId: number, limit: number): Promise<number[]> {
      const rows = await lockedS3(gt(backupMachines.id, afterId)).orderBy(asc(backupMachines.id)).limit(limit);
      return rows.map((r) => r.id);
    },

    /** Whether the machine's repository is in a bucket made with Object Lock. */
    async onLockedS3(machineId: number): Promise<boolean> {
      return (await lockedS3(eq(backupMachines.id, machineId)).limit(1)).length > 0;
    },

    /** The provider's active admins: who hears of an attack on any tenant's backups. */
    async providerAdmins(): Promise<Array<{ userId: number; email: string }>> {
      return db
        .select({ userId: users.id, email: users.email })
        .from(users)
        .where(and(isNull(users.customerId), eq(users.role, 'ROLE_BOLT_ADMIN_USER'), eq(users.status, 'ACTIVE')))
        .orderBy(users.id);
    },
  };
}
