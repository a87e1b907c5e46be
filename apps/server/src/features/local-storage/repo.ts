import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { backupMachines, backupPackages, buckets, storageAccounts, storageLocations } from '../../db/schema/index.js';

/** Where a machine's repository lives, as its package → storage location → bucket → account say. */
export interface MachinePlace {
  machineId: number;
  /** Null when the package has no storage location (yet): the embedded storage's default folder. */
  location: { bucket: string; subfolder: string | null; accountType: 'LOCAL' | 'S3' } | null;
}

export function createLocalStorageRepo(db: Db) {
  return {
    async machinePlace(machineId: number): Promise<MachinePlace | null> {
      const [row] = await db
        .select({
          machineId: backupMachines.id,
          bucket: buckets.name,
          subfolder: storageLocations.subfolder,
          accountType: storageAccounts.type,
        })
        .from(backupMachines)
        .innerJoin(backupPackages, eq(backupPackages.id, backupMachines.backupPackageId))
        .leftJoin(storageLocations, eq(storageLocations.id, backupPackages.storageLocationId))
        .leftJoin(buckets, eq(buckets.id, storageLocations.bucketId))
        .leftJoin(storageAccounts, eq(storageAccounts.id, buckets.storageAccountId))
        .where(eq(backupMachines.id, machineId));
      if (!row) return null;
      const location =
        row.bucket !== null && row.accountType !== null
          ? { bucket: row.bucket, subfolder: row.subfolder, accountType: row.accountType }
          : null;
      return { machineId: row.machineId, location };
    },
  };
}
export type LocalStorageRepo = ReturnType<typeof createLocalStorageRepo>;
