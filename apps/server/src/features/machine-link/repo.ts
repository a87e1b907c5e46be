import type { OsFamily } from '@portal/domain';
import { and, count, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.js';
import { backupMachines, backupPackages, machineLinkingCodes, userBackupPackages } from '../../db/schema/index.js';

/** A linking code not used yet whose time has not run out. */
const liveCode = (now: Date) => and(isNull(machineLinkingCodes.usedAt), gt(machineLinkingCodes.expiresAt, now));

/** The queries of machine linking. */
export function createMachineLinkRepo(db: Executor) {
  return {
    /** Active packages a user may link to: a customer user its linked ones, an admin every one of its customer. */
    async packagesFor(user: { id: number; customerId: number }, admin: boolean) {
      const base = db
        .select({ id: backupPackages.id, name: backupPackages.name })
        .from(backupPackages)
        .where(and(eq(backupPackages.customerId, user.customerId), eq(backupPackages.status, 'ACTIVE')));
      if (admin) return base.orderBy(backupPackages.name);
      return db
        .select({ id: backupPackages.id, name: backupPackages.name })
        .from(backupPackages)
        .innerJoin(userBackupPackages, eq(userBackupPackages.backupPackageId, backupPackages.id))
        .where(
          and(
            eq(userBackupPackages.userId, user.id),
            eq(backupPackages.customerId, user.customerId),
            eq(backupPackages.status, 'ACTIVE'),
          ),
        )
        .orderBy(backupPackages.name);
    },

    /** Locks the package row (the machine count is checked under it) and reads its machine limit. */
    async lockPackage(packageId: number) {
      const result = await db.execute(
        sql`select no_of_machines_limit from backup_packages where id = ${packageId} for update`,
      );
      const [row] = rowsOf<{ no_of_machines_limit: number }>(result);
      return row ? { machinesLimit: Number(row.no_of_machines_limit) } : null;
    },

    async machineCount(packageId: number): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(backupMachines)
        .where(eq(backupMachines.backupPackageId, packageId));
      return row?.n ?? 0;
    },

    /** The machine this device linked before in the package, for the same user. */
    async machineOfDevice(packageId: number, userId: number, fingerprint: string) {
      const [row] = await db
        .select({ id: backupMachines.id })
        .from(backupMachines)
        .where(
          and(
            eq(backupMachines.backupPackageId, packageId),
            eq(backupMachines.assignedUserId, userId),
            eq(backupMachines.deviceFingerprint, fingerprint),
            eq(backupMachines.beingDeleted, false),
          ),
        );
      return row?.id ?? null;
    },

    async insertMachine(values: {
      customerId: number;
      backupPackageId: number;
      assignedUserId: number;
      name: string;
      osFamily: OsFamily;
      operatingSystem: string;
      desktopClientVersion: string;
      deviceFingerprint: string;
      timeZone: string;
      ipAddress: string;
    }): Promise<number> {
      const [row] = await db.insert(backupMachines).values(values).returning({ id: backupMachines.id });
      if (!row) throw new Error('machine not inserted');
      return row.id;
    },

    async updateLinkedMachine(
      machineId: number,
      values: { operatingSystem: string; desktopClientVersion: string; timeZone: string; ipAddress: string },
    ): Promise<void> {
      await db.update(backupMachines).set(values).where(eq(backupMachines.id, machineId));
    },

    // --- One-time linking codes (stored as SHA-256 hashes) ---

    /** Serialises code making per user, so the live-code cap holds under concurrent requests. */
    async lockUser(userId: number): Promise<void> {
      await db.execute(sql`select id from users where id = ${userId} for update`);
    },

    async liveCodeCount(userId: number, now: Date): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(machineLinkingCodes)
        .where(and(eq(machineLinkingCodes.userId, userId), liveCode(now)));
      return row?.n ?? 0;
    },

    async insertCode(values: { codeHash: string; userId: number; createdAt: Date; expiresAt: Date }) {
      await db.insert(machineLinkingCodes).values(values);
    },

    /** The user who made a code that is still unused and unexpired, or null. */
    async liveCodeOwner(codeHash: string, now: Date): Promise<number | null> {
      const [row] = await db
        .select({ userId: machineLinkingCodes.userId })
        .from(machineLinkingCodes)
        .where(and(eq(machineLinkingCodes.codeHash, codeHash), liveCode(now)));
      return row?.userId ?? null;
    },

    /**
     * Uses the code for the machine it linked, if it is still live: one UPDATE, so of two links racing
     * with the same code exactly one gets it (the other's transaction then rolls back its machine).
     */
    async useCode(codeHash: string, userId: number, machineId: number, now: Date): Promise<boolean> {
      const rows = await db
        .update(machineLinkingCodes)
        .set({ usedAt: now, backupMachineId: machineId })
        .where(and(eq(machineLinkingCodes.codeHash, codeHash), eq(machineLinkingCodes.userId, userId), liveCode(now)))
        .returning({ id: machineLinkingCodes.id });
      return rows.length === 1;
    },

    /** Housekeeping: codes past their expiry, used or not. */
    async deleteExpiredCodes(now: Date): Promise<void> {
      await db.delete(machineLinkingCodes).where(lt(machineLinkingCodes.expiresAt, now));
    },
  };
}

export type MachineLinkRepo = ReturnType<typeof createMachineLinkRepo>;
