import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { accessKeys, storageUsers } from '../db/schema/index.js';

/**
 * The storage users (issue 16) of a location or of a machine, each with its key, as the tables keep them: what the
 * tests of the locations, machine keys and package approvals check was made, rotated or removed.
 */
export function storageUsersWithKeys(db: Executor, of: { storageLocationId: number } | { backupMachineId: number }) {
  return db
    .select({
      name: storageUsers.name,
      managed: storageUsers.managed,
      customerId: storageUsers.customerId,
      locationId: storageUsers.storageLocationId,
      machineId: storageUsers.backupMachineId,
      keyId: accessKeys.keyId,
      sealed: accessKeys.secretEncrypted,
      keyManaged: accessKeys.managed,
      keyLocation: accessKeys.storageLocationId,
    })
    .from(storageUsers)
    .innerJoin(accessKeys, eq(accessKeys.storageUserId, storageUsers.id))
    .where(
      'storageLocationId' in of
        ? eq(storageUsers.storageLocationId, of.storageLocationId)
        : eq(storageUsers.backupMachineId, of.backupMachineId),
    );
}
