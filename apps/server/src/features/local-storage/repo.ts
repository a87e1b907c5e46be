import { eq, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { backupMachines, backupPackages, buckets, storageAccounts, storageLocations } from '../../db/schema/index.js';
import { selectPackagesWithStorage } from '../../db/storage-joins.js';
import { repositoryDir } from './paths.js';

/** Where a machine's repository lives, as its package → storage location → bucket → account say. */
export interface MachinePlace {
  machineId: number;
  /** Null when the package has no storage location (yet): the embedded storage's default folder. */
  location: { bucket: string; subfolder: string | null; accountType: 'LOCAL' | 'S3' } | null;
}

/** Where the machines matching `where` keep their repositories (one query, whatever their number). */
export async function machinePlacesWhere(db: Executor, where: SQL): Promise<MachinePlace[]> {
  const rows = await selectPackagesWithStorage(db, {
    machineId: backupMachines.id,
    bucket: buckets.name,
    subfolder: storageLocations.subfolder,
    accountType: storageAccounts.type,
  })
    .innerJoin(backupMachines, eq(backupMachines.backupPackageId, backupPackages.id))
    .where(where);
  return rows.map((row) => ({
    machineId: row.machineId,
    location:
      row.bucket !== null && row.accountType !== null
        ? { bucket: row.bucket, subfolder: row.subfolder, accountType: row.accountType }
        : null,
  }));
}

export function createLocalStorageRepo(db: Executor) {
  return {
    async machinePlace(machineId: number): Promise<MachinePlace | null> {
      const [place] = await machinePlacesWhere(db, eq(backupMachines.id, machineId));
      return place ?? null;
    },
  };
}
export type LocalStorageRepo = ReturnType<typeof createLocalStorageRepo>;

/** The machine's repository folder when it is kept on the embedded storage; null when kept elsewhere (S3). */
export function embeddedRepositoryDir(dataDir: string, place: MachinePlace): string | null {
  if (place.location !== null && place.location.accountType !== 'LOCAL') return null;
  return repositoryDir(dataDir, place.location, place.machineId);
}
