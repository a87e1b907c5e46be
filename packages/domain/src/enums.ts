/**
 * Enumerations of the specification (000 §3, 001 §3, 002 §3), each declared once; an enumeration with display
 * texts is declared as its [value, text] pairs, so that no value lacks its text. The specification gives texts
 * for some values only; where it gives none the text is ours, written in sentence case so that a badge or table
 * cell reads naturally. Quoted spec texts are kept exactly.
 */
import { valuesWithTexts } from './enum-texts.js';

export const [ROLES, ROLE_NAMES] = valuesWithTexts([
  ['ROLE_BOLT_ADMIN_USER', 'Provider admin'],
  ['ROLE_CUSTOMER_SUPER_ADMIN_USER', 'Super admin'],
  ['ROLE_CUSTOMER_ADMIN_USER', 'Admin'],
  ['ROLE_CUSTOMER_USER', 'User'],
]);
export type Role = (typeof ROLES)[number];

export const [USER_STATUSES, USER_STATUS_TEXTS] = valuesWithTexts([
  ['ACTIVE', 'Active'],
  ['INACTIVE', 'Inactive'],
]);
export type UserStatus = (typeof USER_STATUSES)[number];

export const [CUSTOMER_STATUSES, CUSTOMER_STATUS_TEXTS] = valuesWithTexts([
  ['ACTIVE', 'Active'],
  ['APPROVED', 'Approved'],
  ['BLOCKED', 'Blocked'],
  ['SIGNUP_REQUESTED', 'Signup requested'],
  ['SUSPENDED', 'Suspended'],
]);
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];

export const [PACKAGE_STATUSES, PACKAGE_STATUS_TEXTS] = valuesWithTexts([
  ['REQUESTED', 'Requested'],
  ['APPROVED', 'Approved'],
  ['ACTIVE', 'Active'],
  ['OVER_QUOTA', 'Over quota'],
  ['SUSPENDED', 'Suspended'],
  ['BLOCKED', 'Blocked'],
]);
export type PackageStatus = (typeof PACKAGE_STATUSES)[number];

export const PACKAGE_REQUEST_TYPES = ['NEW_SIGNUP', 'ADDITIONAL_PACKAGE', 'CHANGE_PACKAGE'] as const;
export type PackageRequestType = (typeof PACKAGE_REQUEST_TYPES)[number];

export const PACKAGE_REQUEST_STATUSES = ['PENDING', 'APPROVED', 'DECLINED'] as const;
export type PackageRequestStatus = (typeof PACKAGE_REQUEST_STATUSES)[number];

export const STORAGE_QUOTA_UNITS = ['MB', 'GB', 'TB', 'PB'] as const;
export type StorageQuotaUnit = (typeof STORAGE_QUOTA_UNITS)[number];

export const STORAGE_ITEM_TYPES = ['STORAGE_ACCOUNT', 'RESELLER_BACKUP_PACKAGE', 'EXISTING_STORAGE_LOCATION'] as const;
export type StorageItemType = (typeof STORAGE_ITEM_TYPES)[number];

export const STORAGE_ACCOUNT_TYPES = ['LOCAL', 'S3'] as const;
export type StorageAccountType = (typeof STORAGE_ACCOUNT_TYPES)[number];

/**
 * How an S3 storage account's users and access keys are managed (DESIGN §7): Ceph RADOS Gateway's
 * admin-ops API (`/admin/user`) or the AWS IAM API. Null for the embedded LOCAL account.
 */
export const STORAGE_USER_APIS = ['RGW_ADMIN', 'IAM'] as const;
export type StorageUserApi = (typeof STORAGE_USER_APIS)[number];

export const [MACHINE_STATUSES, MACHINE_STATUS_TEXTS] = valuesWithTexts([
  ['ACTIVE', 'Active'],
  ['OVER_PER_MACHINE_QUOTA', 'Over per-machine quota'],
  ['SUSPENDED', 'Suspended'],
  ['PACKAGE_SUSPENDED', 'Package suspended'],
  ['PACKAGE_OVER_QUOTA', 'Package over quota'],
  ['BLOCKED', 'Blocked'],
]);
export type MachineStatus = (typeof MACHINE_STATUSES)[number];

export const OS_FAMILIES = ['WINDOWS', 'LINUX', 'MAC'] as const;
export type OsFamily = (typeof OS_FAMILIES)[number];

/** Raw task status as stored (000 §3 and 002 §4.2), with its text (ours). */
export const [TASK_STATUSES, TASK_STATUS_TEXTS] = valuesWithTexts([
  ['ACTIVE', 'Active'],
  ['PAUSED', 'Paused'],
  ['AWAITING_SEED', 'Awaiting seed'],
  ['BEING_DELETED', 'Being deleted'],
  ['DELETION_FAILED', 'Deletion failed'],
]);
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Task display statuses with their texts (000 §4 names the values; the texts are ours). */
export const [TASK_DISPLAY_STATUSES, TASK_DISPLAY_STATUS_TEXTS] = valuesWithTexts([
  ['MISSED', 'Missed'],
  ['LAST_SUCCEEDED', 'Last succeeded'],
  ['LAST_FAILED', 'Last failed'],
  ['NOT_COMPLETED_YET', 'Not completed yet'],
  ['AWAITING_SEED', 'Awaiting seed'],
  ['BEING_DELETED', 'Being deleted'],
  ['DELETION_FAILED', 'Deletion failed'],
  ['NOT_RUNNABLE', 'Not runnable'],
]);
export type TaskDisplayStatus = (typeof TASK_DISPLAY_STATUSES)[number];

/** Aggregate task statuses of customers and machines with their texts (000 §4; texts ours). */
export const [AGGREGATE_TASK_STATUSES, AGGREGATE_TASK_STATUS_TEXTS] = valuesWithTexts([
  ['NO_COMPLETED_TASKS', 'No completed tasks'],
  ['NO_RUNNABLE_TASKS', 'No runnable tasks'],
  ['SUCCESSFUL_TASKS', 'Successful tasks'],
  ['MISSED_TASKS', 'Missed tasks'],
  ['FAILED_TASKS', 'Failed tasks'],
  ['FAILED_AND_MISSED_TASKS', 'Failed and missed tasks'],
  ['UNDEFINED', 'Undefined'],
]);
export type AggregateTaskStatus = (typeof AGGREGATE_TASK_STATUSES)[number];

/** Run and action statuses with their texts (002 §4.2; texts ours). */
export const [RUN_STATUSES, RUN_STATUS_TEXTS] = valuesWithTexts([
  ['INITIATED', 'Initiated'],
  ['IN_PROGRESS', 'In progress'],
  ['FAILED', 'Failed'],
  ['FINISHED_SUCCESS', 'Finished successfully'],
  ['FINISHED_WARNINGS', 'Finished with warnings'],
]);
export type RunStatus = (typeof RUN_STATUSES)[number];

export const BACKUP_TYPES = ['FILES_AND_FOLDERS', 'CPANEL', 'DIRECT_ADMIN'] as const;
export type BackupType = (typeof BACKUP_TYPES)[number];

export const BACKUP_ITEM_TYPES = ['DIRECTORY', 'FILE', 'CPANEL_ACCOUNT', 'DIRECT_ADMIN_ACCOUNT'] as const;
export type BackupItemType = (typeof BACKUP_ITEM_TYPES)[number];

/**
 * Action types with their texts (001 §3; texts ours). Sentence case for tables; the cancellation toast
 * 'The {action} has been cancelled' (002 §8.4) lower-cases them.
 */
export const [ACTION_TYPES, ACTION_TYPE_TEXTS] = valuesWithTexts([
  ['BACKUP_RUN', 'Backup run'],
  ['BACKUP_RESTORE', 'Restore'],
  ['BACKUP_SNAPSHOT', 'Snapshot archive'],
  ['BACKUP_SEED_CREATION', 'Seed creation'],
  ['BACKUP_SEED_LOADING', 'Seed loading'],
]);
export type ActionType = (typeof ACTION_TYPES)[number];

export const SNAPSHOT_STORAGE_STATUSES = ['AVAILABLE', 'BEING_DELETED', 'DELETED'] as const;
export type SnapshotStorageStatus = (typeof SNAPSHOT_STORAGE_STATUSES)[number];

export const SPEED_UNITS = ['KILO_BYTES_PER_SECOND', 'MEGA_BYTES_PER_SECOND', 'MEGA_BITS_PER_SECOND'] as const;
export type SpeedUnit = (typeof SPEED_UNITS)[number];

export const TIME_UNITS = ['MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];

export const MESSAGE_TYPES = ['DEBUG', 'INFO', 'WARNING', 'ERROR'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/**
 * Migration statuses with their badge texts (001 §4). The spec quotes the texts of the sync states; INITIALIZED
 * and ROLLED_BACK have only a colour there, so their texts are the status names with spaces.
 */
export const [MIGRATION_STATUSES, MIGRATION_STATUS_TEXTS] = valuesWithTexts([
  ['INITIALIZED', 'INITIALIZED'],
  ['INITIAL_SYNC_IN_PROGRESS', 'SYNCING'],
  ['INITIAL_SYNC_FINISHED_SUCCESS', 'SYNC SUCCESS'],
  ['INITIAL_SYNC_FAILED', 'SYNC FAILED'],
  ['FINAL_SYNC_IN_PROGRESS', 'FINAL SYNCING'],
  ['FINAL_SYNC_FINISHED_SUCCESS', 'FINAL SYNC SUCCESS'],
  ['FINAL_SYNC_FAILED', 'FINAL SYNC FAILED'],
  ['ROLLED_BACK', 'ROLLED BACK'],
]);
export type MigrationStatus = (typeof MIGRATION_STATUSES)[number];

export const COMMAND_TYPES = ['RESTIC_COMMAND', 'RCLONE_COMMAND_SEQUENCE'] as const;
export type CommandType = (typeof COMMAND_TYPES)[number];

/** The live-channel queues a browser subscribes to (001 §3): a machine's, as customer or admin, or a migration's. */
export const WEBSOCKET_QUEUE_TYPES = [
  'CUSTOMER_MACHINE',
  'BOLT_ADMIN_CUSTOMER_MACHINE',
  'BOLT_ADMIN_MIGRATION',
] as const;
export type WebsocketQueueType = (typeof WEBSOCKET_QUEUE_TYPES)[number];

/** Sync kinds of a migration command sequence (001 §3; texts ours). */
export const [SYNC_TYPES, SYNC_TYPE_TEXTS] = valuesWithTexts([
  ['SYNC', 'Initial sync'],
  ['FINAL_SYNC', 'Final sync'],
  ['MISCELLANEOUS', 'Miscellaneous'],
]);
export type SyncType = (typeof SYNC_TYPES)[number];

export const PAYMENT_METHODS = ['payfast', 'stripe', 'banktransfer'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** Audit events, with how the account activity list names each. */
export const [AUDIT_EVENT_TYPES, AUDIT_EVENT_TEXTS] = valuesWithTexts([
  ['SIGN_IN_SUCCEEDED', 'Signed in'],
  ['SIGN_IN_FAILED', 'Sign-in failed'],
  ['SIGN_IN_THROTTLED', 'Sign-in slowed down after failures'],
  ['SIGNED_OUT', 'Signed out'],
  ['PASSWORD_CHANGED', 'Password changed'],
  ['PASSWORD_RESET_REQUESTED', 'Password reset link requested'],
  ['PASSWORD_RESET', 'Password reset'],
  ['PROFILE_UPDATED', 'Profile updated'],
  ['LINKING_CODE_CREATED', 'Machine linking code made'],
  ['LINKING_CODE_USED', 'Machine linked with a linking code'],
  ['MFA_ENABLED', 'Two-factor sign-in turned on'],
  ['MFA_DISABLED', 'Two-factor sign-in turned off'],
  ['MFA_CODE_FAILED', 'Two-factor code refused'],
  ['MFA_RECOVERY_CODE_USED', 'Signed in with a recovery code'],
  ['MFA_RECOVERY_CODES_REGENERATED', 'New recovery codes made'],
  ['API_TOKEN_CREATED', 'API token created'],
  ['API_TOKEN_REVOKED', 'API token revoked'],
  ['ACCOUNT_MFA_REQUIRED', "Two-factor sign-in required of the account's users"],
  ['ACCOUNT_MFA_NOT_REQUIRED', "Two-factor sign-in no longer required of the account's users"],
  // Issue 32: a machine's key tried to delete or replace its backups (one record per burst, with a count).
  ['STORAGE_TAMPERING_REFUSED', 'Machine refused deleting or replacing its backups'],
  // Issue 32: a killed restic's lock, older than a run's time limit, removed by the portal's data check.
  ['STALE_LOCK_REMOVED', 'Stale repository lock removed by the portal'],
]);
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/**
 * Phases of a running action (002 §4.2 'Transfer phases'), in the order a run passes through them. Their texts
 * are exactly as 002 §4.2 lists them (lower case, as written there); the web may capitalise them with CSS where
 * a phase starts a sentence.
 */
export const [TRANSFER_PHASES, TRANSFER_PHASE_TEXTS] = valuesWithTexts([
  ['INITIATED_ON_SERVER', 'initiated on server'],
  ['BEING_SCHEDULED', 'being scheduled'],
  ['PREPARING_FILES_TO_TRANSFER', 'preparing files to transfer'],
  ['WAITING_TO_LOCK_REPOSITORY', 'waiting to lock repository'],
  ['PREPARING_FOR_TRANSFER', 'preparing for transfer'],
  ['TRANSFERRING_FILES', 'transferring files'],
  ['PROCESSING_TRANSFERRED_FILES', 'processing transferred files'],
  ['CLEANING_UP_REPOSITORY', 'cleaning up repository'],
  ['FINALIZED', 'finalized'],
]);
export type TransferPhase = (typeof TRANSFER_PHASES)[number];

// --- Badge enumerations (owned by the status modules: statuses, transitions, actions) -------------------

/** Bootstrap 5 contextual colour names used for badges, progress bars and pie legends. */
export const BADGE_VARIANTS = ['success', 'danger', 'warning', 'info', 'secondary', 'primary', 'dark'] as const;
export type BadgeVariant = (typeof BADGE_VARIANTS)[number];

/** Results of a backup or diagnostics command, with their texts exactly as 001 §8 'Exit code texts' gives them. */
export const [COMMAND_RESULT_CODES, COMMAND_RESULT_TEXTS] = valuesWithTexts([
  ['SUCCESS', 'Success'],
  ['FATAL', 'Fatal error'],
  ['SOME_FILES_NOT_ACCESSIBLE', 'Some source files could not be read'],
  ['WINDOWS_VSS_INVOCATION_ERROR', 'Windows VSS invocation failed'],
  ['COMMAND_FROZEN', 'Transfer ceased'],
  ['EXIT_CODE_NA', 'Unknown error'],
  ['SYSTEM_PREP_FAILURE', 'Could not prepare system for transfer'],
  ['CANCELLATION_REQUESTED', 'Transfer cancelled'],
  ['BACKUP_ACTION_UPDATE_NOT_FOUND', 'Local database update error'],
  ['IO_OR_INTERRUPT_EXCEPTION', 'I/O failure or interrupt exception occurred'],
  ['REPO_LOCKED_EXCLUSIVELY', 'Repo is locked exclusively'],
  ['REPO_EXCLUSIVE_LOCK_COULD_NOT_BE_UNLOCKED', 'Could not remove exclusive repo lock'],
  ['CANCELLABLE_COMMAND_ID_ALREADY_EXISTS', 'Command with given ID already exists'],
]);
export type CommandResultCode = (typeof COMMAND_RESULT_CODES)[number];

/**
 * The transfer tool's (rclone's) own result codes (001 §8), in rclone's exit-code order of the
 * Debian 1.60 release (0 = SUCCESS ... 9 = SUCCESS_NOTHING_TRANSFERRED; 10 = TIME_LIMIT_EXCEEDED came
 * later), then our post-transfer check. The command codes above also apply to rclone sequences. The texts
 * are ours (the spec gives none).
 */
export const [RCLONE_RESULT_CODES, RCLONE_RESULT_TEXTS] = valuesWithTexts([
  ['SUCCESS', 'Success'],
  ['SYNTAX_OR_USAGE_ERROR', 'Syntax or usage error'],
  ['UNCATEGORIZED_ERROR', 'Uncategorized error'],
  ['DIR_NOT_FOUND_ERROR', 'Directory not found'],
  ['FILE_NOT_FOUND_ERROR', 'File not found'],
  ['TEMPORARY_ERROR', 'Temporary error, the transfer may be retried'],
  ['NON_FATAL_ERROR', 'Non-fatal error, retrying would not help'],
  ['FATAL_ERROR', 'Fatal error'],
  ['TRANSFERS_LIMIT_EXCEEDED_ERROR', 'Transfer limit exceeded'],
  ['SUCCESS_NOTHING_TRANSFERRED', 'Success, nothing needed to be transferred'],
  ['TIME_LIMIT_EXCEEDED', 'Time limit exceeded'],
  ['POST_RCLONE_INVOCATION_CHECKS_FAILED', 'Checks after the transfer failed'],
]);
export type RcloneResultCode = (typeof RCLONE_RESULT_CODES)[number];

/** Every result a transfer-tool sequence can end with: rclone's codes plus the command codes. */
export const TRANSFER_RESULT_CODES = [
  ...RCLONE_RESULT_CODES,
  ...COMMAND_RESULT_CODES.filter((c) => c !== 'SUCCESS'),
] as const satisfies readonly (RcloneResultCode | CommandResultCode)[];
export type TransferResultCode = RcloneResultCode | CommandResultCode;

/** The extra badges of a task row (000 §4), texts exactly as the spec writes them. */
export const [TASK_BADGES, TASK_BADGE_TEXTS] = valuesWithTexts([
  ['PAUSED', 'PAUSED'],
  ['RUN_IN_PROGRESS', 'RUN IN PROGRESS'],
  ['CUSTOMER_SUSPENDED', 'CUSTOMER SUSPENDED'],
  ['PACKAGE_SUSPENDED', 'PACKAGE SUSPENDED'],
  ['PACKAGE_OVER_QUOTA', 'PACKAGE OVER QUOTA'],
  ['MACHINE_SUSPENDED', 'MACHINE SUSPENDED'],
  ['MACHINE_OVER_QUOTA', 'MACHINE OVER QUOTA'],
]);
export type TaskBadge = (typeof TASK_BADGES)[number];

/**
 * Customer type badges of the customers table (002 §2.5). RESELLER CLIENT and RESELLER are the spec's
 * texts; the spec names the provider's own customers without giving a text, 'DIRECT' is ours.
 */
export const [CUSTOMER_TYPES, CUSTOMER_TYPE_TEXTS] = valuesWithTexts([
  ['PROVIDER_OWN', 'DIRECT'],
  ['RESELLER_CLIENT', 'RESELLER CLIENT'],
  ['RESELLER', 'RESELLER'],
]);
export type CustomerType = (typeof CUSTOMER_TYPES)[number];

/** Slices of the dashboard's customer status pie (000 §4 'Customer display'), in the spec's order. */
export const [CUSTOMER_STATUS_GROUPS, CUSTOMER_STATUS_GROUP_TEXTS] = valuesWithTexts([
  ['ACTIVE', 'Active'],
  ['SUSPENDED_OR_BLOCKED', 'Suspended or blocked'],
  ['APPROVED', 'Approved'],
  ['NEW_SIGNUP', 'New signups'],
]);
export type CustomerStatusGroup = (typeof CUSTOMER_STATUS_GROUPS)[number];
