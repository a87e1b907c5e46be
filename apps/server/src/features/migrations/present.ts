import type {
  MigrationActions,
  MigrationCommandView,
  MigrationLocation,
  PackageMigrationDetail,
  PackageMigrationRow,
} from '@portal/domain';
import { presentCommand } from '../realtime-commands/present.js';
import type { MigrationCommandRow, MigrationRecord } from './repo.js';

/** The wire shapes of package migrations (001 §3): the fields listed, nothing else. */

export function presentMigrationRow(
  migration: MigrationRecord,
  locations: ReadonlyMap<number, MigrationLocation>,
): PackageMigrationRow {
  const location = (id: number) => {
    const found = locations.get(id);
    if (!found) throw new Error(`storage location ${id} of migration ${migration.id} not loaded`);
    return found;
  };
  return {
    id: migration.id,
    dateCreated: migration.createdAt.toISOString(),
    sourceStorageLocation: location(migration.sourceStorageLocationId),
    destinationStorageLocation: location(migration.destinationStorageLocationId),
    status: migration.status,
    finalized: migration.finalized,
  };
}

export const presentCommandSequence = (row: MigrationCommandRow & { output: string[] }): MigrationCommandView => ({
  ...presentCommand(row),
  syncType: row.syncType,
});

export function presentMigrationDetail(args: {
  migration: MigrationRecord;
  locations: ReadonlyMap<number, MigrationLocation>;
  backupPackage: { id: number; name: string; customerId: number; storageLocationId: number | null };
  actions: MigrationActions;
  commands: Array<MigrationCommandRow & { output: string[] }>;
}): PackageMigrationDetail {
  const { migration, backupPackage } = args;
  return {
    ...presentMigrationRow(migration, args.locations),
    backupPackage: { id: backupPackage.id, name: backupPackage.name, customerId: backupPackage.customerId },
    inUse: backupPackage.storageLocationId === migration.destinationStorageLocationId ? 'destination' : 'source',
    tasksHeld: migration.tasksHeld,
    verifiedAt: migration.verifiedAt ? migration.verifiedAt.toISOString() : null,
    finalizedAt: migration.finalizedAt ? migration.finalizedAt.toISOString() : null,
    actions: args.actions,
    commandSequences: args.commands.map(presentCommandSequence),
  };
}
