/** Enumerations of the specification (000 §3, 001 §3, 002 §3), each declared once. */

export const ROLES = [
  'ROLE_BOLT_ADMIN_USER',
  'ROLE_CUSTOMER_SUPER_ADMIN_USER',
  'ROLE_CUSTOMER_ADMIN_USER',
  'ROLE_CUSTOMER_USER',
] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_NAMES: Record<Role, string> = {
  ROLE_BOLT_ADMIN_USER: 'Provider admin',
  ROLE_CUSTOMER_SUPER_ADMIN_USER: 'Super admin',
  ROLE_CUSTOMER_ADMIN_USER: 'Admin',
  ROLE_CUSTOMER_USER: 'User',
};

export const USER_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

export const CUSTOMER_STATUSES = ['ACTIVE', 'APPROVED', 'BLOCKED', 'SIGNUP_REQUESTED', 'SUSPENDED'] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];

export const PACKAGE_STATUSES = ['REQUESTED', 'APPROVED', 'ACTIVE', 'OVER_QUOTA', 'SUSPENDED', 'BLOCKED'] as const;
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

export const MACHINE_STATUSES = [
  'ACTIVE',
  'OVER_PER_MACHINE_QUOTA',
  'SUSPENDED',
  'PACKAGE_SUSPENDED',
  'PACKAGE_OVER_QUOTA',
  'BLOCKED',
] as const;
export type MachineStatus = (typeof MACHINE_STATUSES)[number];

export const OS_FAMILIES = ['WINDOWS', 'LINUX', 'MAC'] as const;
export type OsFamily = (typeof OS_FAMILIES)[number];

/** Raw task status as stored (000 §3 and 002 §4.2). */
export const TASK_STATUSES = ['ACTIVE', 'PAUSED', 'AWAITING_SEED', 'BEING_DELETED', 'DELETION_FAILED'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TASK_DISPLAY_STATUSES = [
  'MISSED',
  'LAST_SUCCEEDED',
  'LAST_FAILED',
  'NOT_COMPLETED_YET',
  'AWAITING_SEED',
  'BEING_DELETED',
  'DELETION_FAILED',
  'NOT_RUNNABLE',
] as const;
export type TaskDisplayStatus = (typeof TASK_DISPLAY_STATUSES)[number];

export const AGGREGATE_TASK_STATUSES = [
  'NO_COMPLETED_TASKS',
  'NO_RUNNABLE_TASKS',
  'SUCCESSFUL_TASKS',
  'MISSED_TASKS',
  'FAILED_TASKS',
  'FAILED_AND_MISSED_TASKS',
  'UNDEFINED',
] as const;
export type AggregateTaskStatus = (typeof AGGREGATE_TASK_STATUSES)[number];

export const RUN_STATUSES = ['INITIATED', 'IN_PROGRESS', 'FAILED', 'FINISHED_SUCCESS', 'FINISHED_WARNINGS'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const BACKUP_TYPES = ['FILES_AND_FOLDERS', 'CPANEL', 'DIRECT_ADMIN'] as const;
export type BackupType = (typeof BACKUP_TYPES)[number];

export const BACKUP_ITEM_TYPES = ['DIRECTORY', 'FILE', 'CPANEL_ACCOUNT', 'DIRECT_ADMIN_ACCOUNT'] as const;
export type BackupItemType = (typeof BACKUP_ITEM_TYPES)[number];

export const ACTION_TYPES = [
  'BACKUP_RUN',
  'BACKUP_RESTORE',
  'BACKUP_SNAPSHOT',
  'BACKUP_SEED_CREATION',
  'BACKUP_SEED_LOADING',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const SNAPSHOT_STORAGE_STATUSES = ['AVAILABLE', 'BEING_DELETED', 'DELETED'] as const;
export type SnapshotStorageStatus = (typeof SNAPSHOT_STORAGE_STATUSES)[number];

export const SPEED_UNITS = ['KILO_BYTES_PER_SECOND', 'MEGA_BYTES_PER_SECOND', 'MEGA_BITS_PER_SECOND'] as const;
export type SpeedUnit = (typeof SPEED_UNITS)[number];

export const TIME_UNITS = ['MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];

export const MESSAGE_TYPES = ['DEBUG', 'INFO', 'WARNING', 'ERROR'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

export const MIGRATION_STATUSES = [
  'INITIALIZED',
  'INITIAL_SYNC_IN_PROGRESS',
  'INITIAL_SYNC_FINISHED_SUCCESS',
  'INITIAL_SYNC_FAILED',
  'FINAL_SYNC_IN_PROGRESS',
  'FINAL_SYNC_FINISHED_SUCCESS',
  'FINAL_SYNC_FAILED',
  'ROLLED_BACK',
] as const;
export type MigrationStatus = (typeof MIGRATION_STATUSES)[number];

export const COMMAND_TYPES = ['RESTIC_COMMAND', 'RCLONE_COMMAND_SEQUENCE'] as const;
export type CommandType = (typeof COMMAND_TYPES)[number];

export const SYNC_TYPES = ['SYNC', 'FINAL_SYNC', 'MISCELLANEOUS'] as const;
export type SyncType = (typeof SYNC_TYPES)[number];

export const PAYMENT_METHODS = ['payfast', 'stripe', 'banktransfer'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const AUDIT_EVENT_TYPES = [
  'SIGN_IN_SUCCEEDED',
  'SIGN_IN_FAILED',
  'SIGN_IN_THROTTLED',
  'SIGNED_OUT',
  'PASSWORD_CHANGED',
  'PASSWORD_RESET_REQUESTED',
  'PASSWORD_RESET',
  'PROFILE_UPDATED',
] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/** How the account activity list names each audit event. */
export const AUDIT_EVENT_TEXTS: Record<AuditEventType, string> = {
  SIGN_IN_SUCCEEDED: 'Signed in',
  SIGN_IN_FAILED: 'Sign-in failed',
  SIGN_IN_THROTTLED: 'Sign-in slowed down after failures',
  SIGNED_OUT: 'Signed out',
  PASSWORD_CHANGED: 'Password changed',
  PASSWORD_RESET_REQUESTED: 'Password reset link requested',
  PASSWORD_RESET: 'Password reset',
  PROFILE_UPDATED: 'Profile updated',
};

/** Phases of a running action (002 §4.2 'Transfer phases'), in the order a run passes through them. */
export const TRANSFER_PHASES = [
  'INITIATED_ON_SERVER',
  'BEING_SCHEDULED',
  'PREPARING_FILES_TO_TRANSFER',
  'WAITING_TO_LOCK_REPOSITORY',
  'PREPARING_FOR_TRANSFER',
  'TRANSFERRING_FILES',
  'PROCESSING_TRANSFERRED_FILES',
  'CLEANING_UP_REPOSITORY',
  'FINALIZED',
] as const;
export type TransferPhase = (typeof TRANSFER_PHASES)[number];
