import { COMMAND_TYPES, MIGRATION_STATUSES, SYNC_TYPES } from '@portal/domain';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { customers } from './accounts.js';
import { backupMachines, backupPackages, taskActions } from './backup.js';
import { belongsTo, createdAt, ts } from './columns.js';
import { storageAccounts, storageLocations } from './storage-accounts.js';

export const migrationStatusEnum = pgEnum('migration_status', MIGRATION_STATUSES);
export const commandTypeEnum = pgEnum('command_type', COMMAND_TYPES);
export const syncTypeEnum = pgEnum('sync_type', SYNC_TYPES);

/**
 * Whether the portal manages a storage principal (a user or a key) and which portal entity it was made for;
 * the links are nulled when that entity goes, so the policy view can show the principal as dangling.
 */
const principalLinks = () => ({
  managed: boolean('managed').notNull().default(false),
  customerId: integer('customer_id').references(() => customers.id, { onDelete: 'set null' }),
  storageLocationId: integer('storage_location_id').references(() => storageLocations.id, {
    onDelete: 'set null',
  }),
  backupMachineId: integer('backup_machine_id').references((): AnyPgColumn => backupMachines.id, {
    onDelete: 'set null',
  }),
  /** Short-lived principals made for one action (a download or restore). */
  taskActionId: bigint('task_action_id', { mode: 'number' }).references((): AnyPgColumn => taskActions.id, {
    onDelete: 'set null',
  }),
});

/** Users of a storage account's IAM (or of the embedded service), with their principal links. */
export const storageUsers = pgTable(
  'storage_users',
  {
    id: serial('id').primaryKey(),
    // Users and keys only describe the account; they go with it.
    storageAccountId: belongsTo('storage_account_id', () => storageAccounts.id),
    name: varchar('name', { length: 128 }).notNull(),
    ...principalLinks(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('storage_users_account_name_uq').on(t.storageAccountId, t.name),
    index('storage_users_customer_idx').on(t.customerId),
    index('storage_users_location_idx').on(t.storageLocationId),
    index('storage_users_machine_idx').on(t.backupMachineId),
    index('storage_users_action_idx').on(t.taskActionId),
  ],
);

/**
 * Access keys of storage users. The embedded service checks every request against key_id, so it is
 * unique and indexed. The secret is encrypted (not hashed) because agents are handed it to reach their
 * repository; it is null for keys found at a service, whose secret is never revealed.
 */
export const accessKeys = pgTable(
  'access_keys',
  {
    id: serial('id').primaryKey(),
    storageAccountId: belongsTo('storage_account_id', () => storageAccounts.id),
    storageUserId: belongsTo('storage_user_id', () => storageUsers.id),
    keyId: varchar('key_id', { length: 128 }).notNull(),
    secretEncrypted: text('secret_encrypted'),
    ...principalLinks(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('access_keys_key_id_uq').on(t.keyId),
    index('access_keys_user_idx').on(t.storageUserId),
    index('access_keys_account_idx').on(t.storageAccountId),
    index('access_keys_location_idx').on(t.storageLocationId),
    index('access_keys_machine_idx').on(t.backupMachineId),
    index('access_keys_action_idx').on(t.taskActionId),
  ],
);

/**
 * Copies of a package from one location to another (001 §4, DESIGN §7). Nothing is removed from the
 * source until finalisation; a migration record is meaningless without its package or locations, so it
 * goes with any of them (a location still holding a package cannot be deleted anyway).
 */
export const packageMigrations = pgTable(
  'package_migrations',
  {
    id: serial('id').primaryKey(),
    backupPackageId: belongsTo('backup_package_id', (): AnyPgColumn => backupPackages.id),
    sourceStorageLocationId: belongsTo('source_storage_location_id', () => storageLocations.id),
    destinationStorageLocationId: belongsTo('destination_storage_location_id', () => storageLocations.id),
    status: migrationStatusEnum('status').notNull().default('INITIALIZED'),
    finalized: boolean('finalized').notNull().default(false),
    /** The package's tasks are held (not started) while a final sync copies the last changes. */
    tasksHeld: boolean('tasks_held').notNull().default(false),
    /** When `rclone check` last proved the destination equal to the source (finalising needs it). */
    verifiedAt: ts('verified_at'),
    /** The server instance running the migration's current sync, and until when its claim holds. */
    leaseHolder: varchar('lease_holder', { length: 100 }),
    leaseUntil: ts('lease_until'),
    createdAt: createdAt(),
    finalizedAt: ts('finalized_at'),
    /** Started by a storage account migration: the migration job drives it to its finalisation. */
    automatic: boolean('automatic').notNull().default(false),
    /** When the source copies of a finalised migration were removed (the removal job's progress). */
    sourceRemovedAt: ts('source_removed_at'),
  },
  (t) => [
    index('package_migrations_package_idx').on(t.backupPackageId, t.createdAt),
    index('package_migrations_source_idx').on(t.sourceStorageLocationId),
    index('package_migrations_destination_idx').on(t.destinationStorageLocationId),
    // One open migration per package: two copies running at once would race on the destination.
    uniqueIndex('package_migrations_open_uq')
      .on(t.backupPackageId)
      .where(sql`not ${t.finalized} and ${t.status} <> 'ROLLED_BACK'`),
    check(
      'package_migrations_distinct_locations',
      sql`${t.sourceStorageLocationId} <> ${t.destinationStorageLocationId}`,
    ),
  ],
);

/**
 * Realtime commands (001 §3): restic diagnostics on a machine, or rclone sequences of a migration. The
 * command id is the browser's requestId, which makes a resent submission idempotent.
 */
export const realtimeCommands = pgTable(
  'realtime_commands',
  {
    id: serial('id').primaryKey(),
    commandId: varchar('command_id', { length: 100 }).notNull(),
    commandType: commandTypeEnum('command_type').notNull(),
    backupMachineId: integer('backup_machine_id').references((): AnyPgColumn => backupMachines.id, {
      onDelete: 'cascade',
    }),
    packageMigrationId: integer('package_migration_id').references(() => packageMigrations.id, {
      onDelete: 'cascade',
    }),
    syncType: syncTypeEnum('sync_type'),
    baseCommand: varchar('base_command', { length: 100 }).notNull(),
    commandArguments: jsonb('command_arguments').$type<string[]>().notNull().default([]),
    commandFlags: jsonb('command_flags').$type<string[]>().notNull().default([]),
    timeStarted: ts('time_started').notNull().defaultNow(),
    timeFinished: ts('time_finished'),
    /** Null while the command runs (001 §3: in progress while it has no exit code). */
    exitCode: integer('exit_code'),
    /** The exit code's name (SUCCESS, SOME_FILES_NOT_ACCESSIBLE, ...), which decides the badge. */
    resultCode: text('result_code'),
  },
  (t) => [
    uniqueIndex('realtime_commands_command_id_uq').on(t.commandId),
    index('realtime_commands_machine_idx').on(t.backupMachineId, t.timeStarted),
    index('realtime_commands_migration_idx').on(t.packageMigrationId, t.timeStarted),
    // A command runs either on a machine (restic) or for a migration (rclone), never both or neither.
    check('realtime_commands_one_target', sql`num_nonnulls(${t.backupMachineId}, ${t.packageMigrationId}) = 1`),
  ],
);

/** Output lines of a realtime command, in the order they arrived. */
export const realtimeCommandOutput = pgTable(
  'realtime_command_output',
  {
    commandId: belongsTo('command_id', () => realtimeCommands.id),
    seq: integer('seq').notNull(),
    line: text('line').notNull(),
  },
  (t) => [primaryKey({ columns: [t.commandId, t.seq] })],
);

/**
 * A machine's current or last burst of attempts on its backups (issue 32): refused deletes and overwrites on the
 * embedded storage, replaced objects found in an S3 bucket. One row per machine, updated by one upsert per
 * attempt, so a machine hammering the storage costs one row and the provider one alert per burst: an attempt more
 * than TAMPERING_BURST_MINUTES after the last starts a new burst (started_at moves, attempts restart at 1).
 */
export const storageTamperingBursts = pgTable('storage_tampering_bursts', {
  backupMachineId: integer('backup_machine_id')
    .primaryKey()
    .references(() => backupMachines.id, { onDelete: 'cascade' }),
  startedAt: ts('started_at').notNull(),
  lastAt: ts('last_at').notNull(),
  attempts: integer('attempts').notNull(),
});
