import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../db/client.js';
import { backupMachines, backupPackages, storageLocations, storageUsers } from '../db/schema/index.js';
import { machinePrefix, type PolicyGrant } from './provider.js';

/**
 * MINIMAL STAND-IN until the provider helper's storage/repo.ts is merged (same signature): who the
 * portal's records say may use a bucket. A user linked to a location of the bucket and to no machine is a
 * location grant on the location's folder; a user linked to a machine is a machine grant on the machine's
 * repository folder in its package's location.
 */
export async function grantsOfBucket(db: Executor, bucketId: number): Promise<PolicyGrant[]> {
  const machineLocation = alias(storageLocations, 'machine_location');
  const locationUsers = await db
    .select({ userName: storageUsers.name, subfolder: storageLocations.subfolder })
    .from(storageUsers)
    .innerJoin(storageLocations, eq(storageLocations.id, storageUsers.storageLocationId))
    .where(and(eq(storageLocations.bucketId, bucketId), isNull(storageUsers.backupMachineId)))
    .orderBy(storageUsers.name);
  const machineUsers = await db
    .select({ userName: storageUsers.name, machineId: backupMachines.id, subfolder: machineLocation.subfolder })
    .from(storageUsers)
    .innerJoin(backupMachines, eq(backupMachines.id, storageUsers.backupMachineId))
    .innerJoin(backupPackages, eq(backupPackages.id, backupMachines.backupPackageId))
    .innerJoin(machineLocation, eq(machineLocation.id, backupPackages.storageLocationId))
    .where(and(eq(machineLocation.bucketId, bucketId), isNotNull(storageUsers.backupMachineId)))
    .orderBy(storageUsers.name);
  const folder = (subfolder: string | null) => (subfolder ?? '').replace(/^\/+|\/+$/g, '');
  return [
    ...locationUsers.map((u) => ({ userName: u.userName, role: 'location' as const, prefix: folder(u.subfolder) })),
    ...machineUsers.map((u) => ({
      userName: u.userName,
      role: 'machine' as const,
      prefix: machinePrefix(u.subfolder, u.machineId),
    })),
  ];
}
