import { and, desc, eq, isNull } from 'drizzle-orm';
import { type Executor, oneOrNull } from '../db/client.js';
import {
  accessKeys,
  backupMachines,
  backupPackages,
  buckets,
  storageAccounts,
  storageLocations,
} from '../db/schema/index.js';
import { joinLocationStorage } from '../db/storage-joins.js';

/** A storage location as the portal's own access needs it: its bucket, folder and account. */
export interface LocationRow {
  id: number;
  bucket: string;
  subfolder: string | null;
  storageAccountId: number;
  accountType: 'LOCAL' | 'S3';
}

/** The queries of the portal's own access to backup data (storage/access.ts). */
export function createStorageAccessRepo(db: Executor) {
  const locationColumns = {
    id: storageLocations.id,
    bucket: buckets.name,
    subfolder: storageLocations.subfolder,
    storageAccountId: storageAccounts.id,
    accountType: storageAccounts.type,
  };
  return {
    async location(storageLocationId: number): Promise<LocationRow | null> {
      return oneOrNull(
        joinLocationStorage(db.select(locationColumns).from(storageLocations).$dynamic()).where(
          eq(storageLocations.id, storageLocationId),
        ),
      );
    },

    /** The machine's package's location; `location` null when the package has none. Null: no such machine. */
    async machineLocation(machineId: number): Promise<{ location: LocationRow | null } | null> {
      const [row] = await db
        .select({ machineId: backupMachines.id, storageLocationId: backupPackages.storageLocationId })
        .from(backupMachines)
        .innerJoin(backupPackages, eq(backupPackages.id, backupMachines.backupPackageId))
        .where(eq(backupMachines.id, machineId));
      if (!row) return null;
      return { location: row.storageLocationId === null ? null : await this.location(row.storageLocationId) };
    },

    /** The location's own key (the newest the portal made for it, not a machine's); null when it has none. */
    async locationKey(storageLocationId: number): Promise<{ keyId: string; secretEncrypted: string } | null> {
      const [row] = await db
        .select({ keyId: accessKeys.keyId, secretEncrypted: accessKeys.secretEncrypted })
        .from(accessKeys)
        .where(
          and(
            eq(accessKeys.storageLocationId, storageLocationId),
            isNull(accessKeys.backupMachineId),
            isNull(accessKeys.taskActionId),
            eq(accessKeys.managed, true),
          ),
        )
        .orderBy(desc(accessKeys.id))
        .limit(1);
      return row?.secretEncrypted ? { keyId: row.keyId, secretEncrypted: row.secretEncrypted } : null;
    },
  };
}
export type StorageAccessRepo = ReturnType<typeof createStorageAccessRepo>;
