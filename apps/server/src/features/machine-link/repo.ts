import type { OsFamily } from '@portal/domain';
import { and, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { backupMachines, backupPackages, userBackupPackages } from '../../db/schema/index.js';

/** The queries of machine linking. */
export function createMachineLinkRepo(db: Db) {
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
    async lockPackage(tx: Db, packageId: number) {
      const result = await tx.execute(
        sql`select no_of_machines_limit from backup_packages where id = ${packageId} for update`,
      );
      const row = (result as unknown as { rows: { no_of_machines_limit: number }[] }).rows[0];
      return row ? { machinesLimit: Number(row.no_of_machines_limit) } : null;
    },

    async machineCount(tx: Db, packageId: number): Promise<number> {
      const [row] = await tx
        .select({ n: count() })
        .from(backupMachines)
        .where(eq(backupMachines.backupPackageId, packageId));
      return row?.n ?? 0;
    },

    /** The machine this device linked before in the package, for the same user. */
    async machineOfDevice(tx: Db, packageId: number, userId: number, fingerprint: string) {
      const [row] = await tx
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

    async insertMachine(
      tx: Db,
      values: {
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
      },
    ): Promise<number> {
      const [row] = await tx.insert(backupMachines).values(values).returning({ id: backupMachines.id });
      if (!row) throw new Error('machine not inserted');
      return row.id;
    },

    async updateLinkedMachine(
      tx: Db,
      machineId: number,
      values: { operatingSystem: string; desktopClientVersion: string; timeZone: string; ipAddress: string },
    ): Promise<void> {
      await tx.update(backupMachines).set(values).where(eq(backupMachines.id, machineId));
    },
  };
}

export type MachineLinkRepo = ReturnType<typeof createMachineLinkRepo>;
