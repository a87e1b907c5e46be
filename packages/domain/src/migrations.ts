import { z } from 'zod';
import { type MigrationStatus, type StorageAccountType, SYNC_TYPES, type SyncType } from './enums.js';
import { RESTIC_COMMAND_LIMITS } from './forms/restic.js';
import { fieldRequired, fieldTooLong, someErrorsOccurred, unknownErrorWhile } from './messages.js';
import type { RealtimeCommandView } from './realtime-commands.js';

/**
 * Package migrations (001 §2, §3, §4; DESIGN §7): which action each state allows, the sync command
 * payload, the wire shapes and our texts. The spec lists the actions but not which statuses allow them
 * ('not shown'); the rule below is ours, chosen so that nothing is deleted from the source before a
 * verified final sync and a finalisation.
 */

/** One side of a migration: the storage location with the account it is on (001 §3 pair). */
export interface MigrationLocation {
  storageLocation: {
    id: number;
    customerId: number;
    bucketName: string;
    subfolder: string | null;
    defaultForCustomer: boolean;
  };
  storageAccount: { id: number; name: string; type: StorageAccountType };
}

/** A package migration as its table lists it (001 §3). */
export interface PackageMigrationRow {
  id: number;
  dateCreated: string;
  sourceStorageLocation: MigrationLocation;
  destinationStorageLocation: MigrationLocation;
  status: MigrationStatus;
  finalized: boolean;
}

/** An rclone command sequence of a migration: a realtime command (001 §3) with its sync kind. */
export interface MigrationCommandView extends RealtimeCommandView {
  syncType: SyncType;
}

/** What a migration's page offers (server-computed; the web only reads it). */
export type MigrationActions = Record<MigrationAction, boolean>;

/** The migration page (ours: the spec shows the page, not its call). */
export interface PackageMigrationDetail extends PackageMigrationRow {
  backupPackage: { id: number; name: string; customerId: number };
  /** Which location the package uses now (the IN USE badge, 001 §4). */
  inUse: 'source' | 'destination';
  tasksHeld: boolean;
  verifiedAt: string | null;
  finalizedAt: string | null;
  actions: MigrationActions;
  commandSequences: MigrationCommandView[];
}

export const MIGRATION_ACTIONS = ['sync', 'finalSync', 'miscellaneous', 'cancel', 'rollback', 'finalize'] as const;
export type MigrationAction = (typeof MIGRATION_ACTIONS)[number];

/** What the action rule reads of a migration. */
export interface MigrationState {
  status: MigrationStatus;
  finalized: boolean;
  /** A command sequence of the migration is running (has no exit code). */
  running: boolean;
  /** `rclone check` proved the destination equal to the source after the final sync. */
  verified: boolean;
}

const IN_PROGRESS: readonly MigrationStatus[] = ['INITIAL_SYNC_IN_PROGRESS', 'FINAL_SYNC_IN_PROGRESS'];

/**
 * Which actions a migration allows (ours). A closed migration (finalised or rolled back) allows nothing;
 * while a sequence runs only cancel (which stops it). Otherwise: an initial sync until a final sync has
 * succeeded; a final sync once an initial sync has succeeded (and again after a final one, failed or
 * not); a verify (miscellaneous) once anything was copied; roll back at any time; finalise only after a
 * final sync whose check proved the copy equal.
 */
export function migrationActions(state: MigrationState): MigrationActions {
  const closed = state.finalized || state.status === 'ROLLED_BACK';
  const idle = !closed && !state.running && !IN_PROGRESS.includes(state.status);
  const s = state.status;
  return {
    sync: idle && ['INITIALIZED', 'INITIAL_SYNC_FINISHED_SUCCESS', 'INITIAL_SYNC_FAILED'].includes(s),
    finalSync:
      idle && ['INITIAL_SYNC_FINISHED_SUCCESS', 'FINAL_SYNC_FINISHED_SUCCESS', 'FINAL_SYNC_FAILED'].includes(s),
    miscellaneous: idle && s !== 'INITIALIZED',
    cancel: !closed,
    rollback: idle,
    finalize: idle && s === 'FINAL_SYNC_FINISHED_SUCCESS' && state.verified,
  };
}

/** The action a sync type asks for. */
export const SYNC_TYPE_ACTIONS: Record<SyncType, MigrationAction> = {
  SYNC: 'sync',
  FINAL_SYNC: 'finalSync',
  MISCELLANEOUS: 'miscellaneous',
};

/** The status a sync kind puts a migration in while it runs, and after it (MISCELLANEOUS changes none). */
export const SYNC_STATUSES: Record<
  Exclude<SyncType, 'MISCELLANEOUS'>,
  { running: MigrationStatus; success: MigrationStatus; failed: MigrationStatus }
> = {
  SYNC: {
    running: 'INITIAL_SYNC_IN_PROGRESS',
    success: 'INITIAL_SYNC_FINISHED_SUCCESS',
    failed: 'INITIAL_SYNC_FAILED',
  },
  FINAL_SYNC: {
    running: 'FINAL_SYNC_IN_PROGRESS',
    success: 'FINAL_SYNC_FINISHED_SUCCESS',
    failed: 'FINAL_SYNC_FAILED',
  },
};

/** Sync command sequence payload (001 §3, §7: requestId, type); requestId is the generated unique id. */
export const syncCommandSchema = z.object({
  requestId: z
    .string({ error: fieldRequired('Request id') })
    .trim()
    .min(1, fieldRequired('Request id'))
    .max(RESTIC_COMMAND_LIMITS.requestIdMax, fieldTooLong('Request id', RESTIC_COMMAND_LIMITS.requestIdMax)),
  type: z.enum(SYNC_TYPES, { error: 'Choose a sync type' }),
});
export type SyncCommandPayload = z.output<typeof syncCommandSchema>;

/**
 * Output lines kept per command sequence (ours): the first HEAD and the last TAIL, with one line saying
 * how many were left out between them, so the stored output never grows with the repository's size.
 */
export const MIGRATION_OUTPUT_LIMITS = { head: 2000, tail: 200 } as const;

export const omittedLinesText = (count: number) =>
  `... ${count} output line${count === 1 ? '' : 's'} not kept (the first ${MIGRATION_OUTPUT_LIMITS.head} and the last ${MIGRATION_OUTPUT_LIMITS.tail} are) ...`;

/** Our texts of the migration use cases (the spec quotes only the toasts, in MESSAGES.migration). */
export const MIGRATION_TEXTS = {
  notFound: 'Migration not found',
  packageNotFound: 'Backup package not found',
  commandNotFound: 'Command not found',
  openMigrationExists: 'This backup package already has a migration in progress; finalise or roll it back first.',
  packageHasNoLocation: 'This backup package has no storage location to migrate from.',
  actionNotAllowed: (action: string, status: string) => `A migration in status ${status} cannot ${action} now.`,
  runsInProgress: 'A backup of this package is running; start the final sync once it has finished.',
  commandIdTaken: 'A command with this request id already exists.',
  notVerified: 'The destination has not been verified equal to the source; run the final sync again.',
  sourceChanged: 'The source changed after the final sync; run the final sync again before finalising.',
  interrupted: 'The server running this command stopped before it finished; start it again.',
  cancelled: 'Migration cancelled by a provider administrator.',
  noPackagesToMigrate: 'No backup package is stored on this storage account.',
  /** Ours: the leading 'nothing chosen' option of the destination select of a package migration. */
  chooseDestinationLocation: '-- Choose a storage location --',
  sameAccount: 'Choose another storage account than the source.',
  destinationAccountNotFound: 'Storage account not found',
  /** Buttons and labels of the migration page. */
  startSync: 'Start sync',
  finalSync: 'Final sync',
  miscellaneous: 'Miscellaneous',
  cancel: 'Cancel',
  cancelTitle: 'Cancel migration',
  rollback: 'Roll back',
  finalize: 'Finalise',
  manage: 'Manage',
  syncDialogQuestion: (type: string) => `Start a ${type.toLowerCase()} of this backup package now?`,
  cancelQuestion: 'Cancel this migration? A running command is stopped and the package’s tasks are released.',
  rollbackQuestion: 'Roll back this migration? What was copied to the destination is removed; the source stays in use.',
  finalizeQuestion:
    'Finalise this migration? The package then uses the destination, its agents are told, and the source copy is removed.',
  finalized: 'Migration finalised.',
  finalizedWithErrors: someErrorsOccurred('Migration finalised'),
  unknownWhileFinalizing: unknownErrorWhile('finalising migration'),
  columns: {
    dateInitialized: 'Date initialized',
    source: 'Source',
    destination: 'Destination',
    status: 'Status',
    finalized: 'Finalized',
    actions: 'Actions',
    dateCreated: 'Date created',
    backupPackage: 'Backup Package',
    sourceLocation: 'Source Location',
    destinationLocation: 'Destination Location',
    destinationField: 'Destination location',
    destinationAccountField: 'Destination storage account',
  },
  sectionTitle: 'Migrations',
  summaryTitle: 'Migration',
  commandsTitle: 'Command sequences',
  pageTitle: (migrationId: number) => `Migration ${migrationId}`,
  yes: 'Yes',
  no: 'No',
} as const;

/** How a location reads in a table: `account / bucket/subfolder`. */
export function migrationLocationText(location: MigrationLocation): string {
  const folder = location.storageLocation.subfolder ? `/${location.storageLocation.subfolder}` : '';
  return `${location.storageAccount.name} / ${location.storageLocation.bucketName}${folder}`;
}

/** The command line a sequence's tab shows: 'rclone' plus its first step's verb, folders and flags. */
export const rcloneCommandLine = (command: {
  baseCommand: string;
  commandArguments: readonly string[];
  commandFlags: readonly string[];
}) => ['rclone', command.baseCommand, ...command.commandArguments, ...command.commandFlags].join(' ');

/** Migration tables: 10 rows a page, fetched once (001 §9). */
export const MIGRATIONS_PAGE_SIZE = 10;
