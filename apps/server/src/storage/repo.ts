import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { backupMachines, backupPackages, storageLocations, storageUsers } from '../db/schema/index.js';
import { machinePrefix, type PolicyGrant } from './provider.js';

/**
 * Who the portal's records say may use a bucket: the users of its storage locations (the location's
 * folder) and of the machines whose packages live there (the machine's repository folder). Minimal
 * stand-in until the storage provider work lands (it replaces this file).
 */
export async function grantsOfBucket(db: Executor, bucketId: number): Promise<PolicyGrant[]> {
  const locationUsers = await db
    .select({ userName: storageUsers.name, subfolder: storageLocations.subfolder })
    .from(storageUsers)
    .innerJoin(storageLocations, eq(storageLocations.id, storageUsers.storageLocationId))
    .where(
      and(
        eq(storageLocations.bucketId, bucketId),
        eq(storageUsers.managed, true),
        isNull(storageUsers.backupMachineId),
        isNull(storageUsers.taskActionId),
      ),
    )
    .orderBy(storageUsers.name);
  const machineUsers = await db
    .select({ userName: storageUsers.name, subfolder: storageLocations.subfolder, machineId: backupMachines.id })
    .from(storageUsers)
    .innerJoin(backupMachines, eq(backupMachines.id, storageUsers.backupMachineId))
    .innerJoin(backupPackages, eq(backupPackages.id, backupMachines.backupPackageId))
    .innerJoin(storageLocations, eq(storageLocations.id, backupPackages.storageLocationId))
    .where(
      and(
        eq(storageLocations.bucketId, bucketId),
        eq(storageUsers.managed, true),
        isNotNull(storageUsers.backupMachineId),
      ),
    )
    .orderBy(storageUsers.name);
  return [
    ...locationUsers.map((u) => ({
      userName: u.userName,
      role: 'location' as const,
      prefix: (u.subfolder ?? '').replace(/^\/+|\/+$/g, ''),
    })),
    ...machineUsers.map((u) => ({
      userName: u.userName,
      role: 'machine' as const,
      prefix: machinePrefix(u.subfolder, u.machineId),
    })),
  ];
}
