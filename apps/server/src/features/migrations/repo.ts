import type { MigrationLocation, MigrationStatus, SyncType } from '@portal/domain';
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import { type Db, type Executor, oneOrNull } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import {
  backupMachines,
  backupPackages,
  buckets,
  packageMigrations,
  realtimeCommands,
  storageAccounts,
  storageLocations,
  taskActions,
} from '../../db/schema/index.js';
import { joinLocationStorage } from '../../db/storage-joins.js';
import {
  type CommandFields,
  commandFieldColumns,
  insertNewCommand,
  type NewCommand,
  withOutputLines,
} from '../realtime-commands/repo.js';

export type MigrationRecord = typeof packageMigrations.$inferSelect;

export interface MigrationCommandRow extends CommandFields {
  packageMigrationId: number;
  syncType: SyncType;
}

const commandColumns = {
  ...commandFieldColumns,
  packageMigrationId: realtimeCommands.packageMigrationId,
  syncType: realtimeCommands.syncType,
};

type CommandSelect = Omit<MigrationCommandRow, 'packageMigrationId' | 'syncType'> & {
  packageMigrationId: number | null;
  syncType: SyncType | null;
};
const asCommand = (row: CommandSelect): MigrationCommandRow => ({
  ...row,
  packageMigrationId: row.packageMigrationId ?? 0,
  syncType: row.syncType ?? 'MISCELLANEOUS',
});

const locationColumns = {
  id: storageLocations.id,
  customerId: storageLocations.customerId,
  bucketName: buckets.name,
  subfolder: storageLocations.subfolder,
  defaultForCustomer: storageLocations.defaultForCustomer,
  accountId: storageAccounts.id,
  accountName: storageAccounts.name,
  accountType: storageAccounts.type,
};
const asLocation = (row: {
  id: number;
  customerId: number;
  bucketName: string;
  subfolder: string | null;
  defaultForCustomer: boolean;
  accountId: number;
  accountName: string;
  accountType: MigrationLocation['storageAccount']['type'];
}): MigrationLocation => ({
  storageLocation: {
    id: row.id,
    customerId: row.customerId,
    bucketName: row.bucketName,
    subfolder: row.subfolder,
    defaultForCustomer: row.defaultForCustomer,
  },
  storageAccount: { id: row.accountId, name: row.accountName, type: row.accountType },
});

/** A migration whose open state forbids it (finalised or rolled back) is no longer open. */
const isOpen = and(eq(packageMigrations.finalized, false), ne(packageMigrations.status, 'ROLLED_BACK'));

/** The queries behind package migrations (001 §2, §7; issue 16). Scoped by the path's customer and package. */
export function createMigrationsRepo(db: Db) {
  async function locationsWhere(executor: Executor, where: SQL) {
    const rows = await joinLocationStorage(executor.select(locationColumns).from(storageLocations).$dynamic())
      .where(where)
      .orderBy(asc(storageLocations.id));
    return rows.map(asLocation);
  }

  async function packageWhere(where: SQL | undefined) {
    return oneOrNull(
      db
        .select({
          id: backupPackages.id,
          name: backupPackages.name,
          customerId: backupPackages.customerId,
          storageLocationId: backupPackages.storageLocationId,
        })
        .from(backupPackages)
        .where(where),
    );
  }

  return {
    /** The package when it belongs to the customer (the path's scope). */
    packageIn: (customerId: number, packageId: number) =>
      packageWhere(and(eq(backupPackages.id, packageId), eq(backupPackages.customerId, customerId))),

    /** The package a migration belongs to (the migration was found in its scope already). */
    package: (packageId: number) => packageWhere(eq(backupPackages.id, packageId)),

    /** The customer's storage locations with their accounts. */
    customerLocations: (customerId: number) => locationsWhere(db, eq(storageLocations.customerId, customerId)),

    async locations(ids: number[]): Promise<Map<number, MigrationLocation>> {
      if (ids.length === 0) return new Map();
      const rows = await locationsWhere(db, inArray(storageLocations.id, ids));
      return new Map(rows.map((l) => [l.storageLocation.id, l]));
    },

    /** Stores a new migration; null when the package already has an open one (the unique index). */
    async insert(values: {
      backupPackageId: number;
      sourceStorageLocationId: number;
      destinationStorageLocationId: number;
      automatic?: boolean;
      createdAt: Date;
    }): Promise<MigrationRecord | null> {
      try {
        const [row] = await db.insert(packageMigrations).values(values).returning();
        return row ?? null;
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },

    async list(packageId: number): Promise<MigrationRecord[]> {
      return db
        .select()
        .from(packageMigrations)
        .where(eq(packageMigrations.backupPackageId, packageId))
        .orderBy(desc(packageMigrations.createdAt), desc(packageMigrations.id));
    },

    async migrationIn(packageId: number, migrationId: number): Promise<MigrationRecord | null> {
      return oneOrNull(
        db
          .select()
          .from(packageMigrations)
          .where(and(eq(packageMigrations.id, migrationId), eq(packageMigrations.backupPackageId, packageId))),
      );
    },

    async byId(migrationId: number): Promise<MigrationRecord | null> {
      return oneOrNull(db.select().from(packageMigrations).where(eq(packageMigrations.id, migrationId)));
    },

    /** Changes a migration; with `when`, only while it still holds (false when it no longer did). */
    async update(
      migrationId: number,
      values: Partial<Omit<MigrationRecord, 'id' | 'backupPackageId'>>,
      when?: { status?: readonly MigrationStatus[]; leaseHolder?: string; open?: boolean },
    ): Promise<boolean> {
      const conditions = [eq(packageMigrations.id, migrationId)];
      if (when?.status) conditions.push(inArray(packageMigrations.status, [...when.status]));
      if (when?.leaseHolder) conditions.push(eq(packageMigrations.leaseHolder, when.leaseHolder));
      if (when?.open) conditions.push(isOpen as ReturnType<typeof eq>);
      const rows = await db
        .update(packageMigrations)
        .set(values)
        .where(and(...conditions))
        .returning({ id: packageMigrations.id });
      return rows.length > 0;
    },

    /**
     * Claims the migration for a sequence run by this instance: from one of `from` to `to`, only while no
     * lease holds (none, or expired). False when another request or instance got there first.
     */
    async claim(
      migrationId: number,
      from: readonly MigrationStatus[],
      values: { status: MigrationStatus; leaseHolder: string; leaseUntil: Date; tasksHeld?: boolean },
      now: Date,
    ): Promise<boolean> {
      const rows = await db
        .update(packageMigrations)
        .set(values)
        .where(
          and(
            eq(packageMigrations.id, migrationId),
            isOpen,
            inArray(packageMigrations.status, [...from]),
            or(isNull(packageMigrations.leaseUntil), lt(packageMigrations.leaseUntil, now)),
          ),
        )
        .returning({ id: packageMigrations.id });
      return rows.length > 0;
    },

    /** Migrations whose running sequence's instance stopped renewing its lease. */
    async expiredLeases(now: Date): Promise<MigrationRecord[]> {
      return db
        .select()
        .from(packageMigrations)
        .where(and(isNotNull(packageMigrations.leaseHolder), lt(packageMigrations.leaseUntil, now)));
    },

    /** Open migrations a storage account migration started, for the job to move on. */
    async automaticOpen(): Promise<MigrationRecord[]> {
      return db
        .select()
        .from(packageMigrations)
        .where(and(eq(packageMigrations.automatic, true), isOpen, isNull(packageMigrations.leaseHolder)))
        .orderBy(asc(packageMigrations.id));
    },

    /** Finalised migrations whose source copies are still to be removed. */
    async pendingSourceRemovals(): Promise<MigrationRecord[]> {
      return db
        .select()
        .from(packageMigrations)
        .where(and(eq(packageMigrations.finalized, true), isNull(packageMigrations.sourceRemovedAt)))
        .orderBy(asc(packageMigrations.id));
    },

    /** Whether an open migration of the package copies into the location. */
    async openMigrationTo(packageId: number, storageLocationId: number): Promise<boolean> {
      const [row] = await db
        .select({ id: packageMigrations.id })
        .from(packageMigrations)
        .where(
          and(
            eq(packageMigrations.backupPackageId, packageId),
            eq(packageMigrations.destinationStorageLocationId, storageLocationId),
            isOpen,
          ),
        );
      return row !== undefined;
    },

    /** The ids of the package's machines (their repositories are the package's folders). */
    async machineIds(packageId: number): Promise<number[]> {
      const rows = await db
        .select({ id: backupMachines.id })
        .from(backupMachines)
        .where(eq(backupMachines.backupPackageId, packageId))
        .orderBy(asc(backupMachines.id));
      return rows.map((r) => r.id);
    },

    /**
     * How many runs (backups, restores, ...) of the package's connected machines are under way. A busy run
     * of a machine that is not connected is left to the checks: its agent hears of the hold on connecting,
     * and a change it made to the source fails the final check or the finalisation's listing check.
     */
    async busyRuns(packageId: number): Promise<number> {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(taskActions)
        .innerJoin(backupMachines, eq(backupMachines.id, taskActions.backupMachineId))
        .where(
          and(
            eq(backupMachines.backupPackageId, packageId),
            eq(backupMachines.online, true),
            inArray(taskActions.status, ['INITIATED', 'IN_PROGRESS']),
          ),
        );
      return Number(row?.count ?? 0);
    },

    /**
     * Finalisation (one transaction): the package moves to the destination (only if it is still at the
     * source), the migration is closed and the tasks released. False when either changed meanwhile.
     */
    async finalize(migration: MigrationRecord, at: Date): Promise<boolean> {
      return db
        .transaction(async (tx) => {
          const moved = await tx
            .update(backupPackages)
            .set({ storageLocationId: migration.destinationStorageLocationId })
            .where(
              and(
                eq(backupPackages.id, migration.backupPackageId),
                eq(backupPackages.storageLocationId, migration.sourceStorageLocationId),
              ),
            )
            .returning({ id: backupPackages.id });
          if (moved.length === 0) return false;
          const closed = await tx
            .update(packageMigrations)
            .set({ finalized: true, finalizedAt: at, tasksHeld: false })
            .where(
              and(
                eq(packageMigrations.id, migration.id),
                eq(packageMigrations.status, 'FINAL_SYNC_FINISHED_SUCCESS'),
                isNotNull(packageMigrations.verifiedAt),
                isNull(packageMigrations.leaseHolder),
                isOpen,
              ),
            )
            .returning({ id: packageMigrations.id });
          if (closed.length === 0) {
            tx.rollback();
          }
          return true;
        })
        .catch((error: unknown) => {
          if ((error as Error)?.name === 'TransactionRollbackError') return false;
          throw error;
        });
    },

    /** The packages kept on a storage account's buckets, with their location's customer. */
    async packagesOnAccount(storageAccountId: number) {
      return db
        .select({
          id: backupPackages.id,
          customerId: backupPackages.customerId,
          storageLocationId: storageLocations.id,
        })
        .from(backupPackages)
        .innerJoin(storageLocations, eq(storageLocations.id, backupPackages.storageLocationId))
        .innerJoin(buckets, eq(buckets.id, storageLocations.bucketId))
        .where(eq(buckets.storageAccountId, storageAccountId))
        .orderBy(asc(backupPackages.id));
    },

    async accountExists(storageAccountId: number): Promise<boolean> {
      const [row] = await db
        .select({ id: storageAccounts.id })
        .from(storageAccounts)
        .where(eq(storageAccounts.id, storageAccountId));
      return row !== undefined;
    },

    // --- Command sequences (realtime_commands of type RCLONE_COMMAND_SEQUENCE) ---

    /** Stores a new sequence; null when its command id is taken (a resent submission). */
    async insertCommand(
      values: NewCommand & { packageMigrationId: number; syncType: SyncType },
    ): Promise<MigrationCommandRow | null> {
      const [row] = await insertNewCommand(db, { ...values, commandType: 'RCLONE_COMMAND_SEQUENCE' }, commandColumns);
      return row ? asCommand(row) : null;
    },

    async commandByCommandId(migrationId: number, commandId: string): Promise<MigrationCommandRow | null> {
      const [row] = await db
        .select(commandColumns)
        .from(realtimeCommands)
        .where(and(eq(realtimeCommands.packageMigrationId, migrationId), eq(realtimeCommands.commandId, commandId)));
      return row ? asCommand(row) : null;
    },

    /** Any command (of any migration or machine) with this id: a resent submission or a taken id. */
    async commandIdTaken(commandId: string): Promise<{ packageMigrationId: number | null } | null> {
      return oneOrNull(
        db
          .select({ packageMigrationId: realtimeCommands.packageMigrationId })
          .from(realtimeCommands)
          .where(eq(realtimeCommands.commandId, commandId)),
      );
    },

    async runningCommands(migrationId: number): Promise<MigrationCommandRow[]> {
      const rows = await db
        .select(commandColumns)
        .from(realtimeCommands)
        .where(and(eq(realtimeCommands.packageMigrationId, migrationId), isNull(realtimeCommands.resultCode)));
      return rows.map(asCommand);
    },

    async commandFinished(id: number): Promise<boolean> {
      const [row] = await db
        .select({ resultCode: realtimeCommands.resultCode })
        .from(realtimeCommands)
        .where(eq(realtimeCommands.id, id));
      return row === undefined || row.resultCode !== null;
    },

    /** The migration's sequences, oldest first, with their kept output lines in order. */
    async commands(migrationId: number): Promise<Array<MigrationCommandRow & { output: string[] }>> {
      const rows = (
        await db
          .select(commandColumns)
          .from(realtimeCommands)
          .where(eq(realtimeCommands.packageMigrationId, migrationId))
          .orderBy(asc(realtimeCommands.timeStarted), asc(realtimeCommands.id))
      ).map(asCommand);
      return withOutputLines(db, rows);
    },
  };
}

export type MigrationsRepo = ReturnType<typeof createMigrationsRepo>;
