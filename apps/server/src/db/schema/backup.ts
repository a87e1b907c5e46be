import {
  ACTION_TYPES,
  BACKUP_TYPES,
  type BackupItemType,
  type ChangeReason,
  type DownloadRequest,
  MACHINE_STATUSES,
  MESSAGE_TYPES,
  OS_FAMILIES,
  PACKAGE_REQUEST_STATUSES,
  PACKAGE_REQUEST_TYPES,
  PACKAGE_STATUSES,
  type RestoreSummary,
  RUN_STATUSES,
  type RunSummary,
  SNAPSHOT_STORAGE_STATUSES,
  SPEED_UNITS,
  STORAGE_QUOTA_UNITS,
  TASK_DISPLAY_STATUSES,
  TASK_STATUSES,
  TIME_UNITS,
  type TransferPhase,
  type VerificationStatus,
} from '@portal/domain';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
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
import { aggregateTaskStatusEnum, customers, users } from './accounts.js';
import { belongsTo, createdAt, taskCounterColumns, ts } from './columns.js';
import { storageLocations } from './storage-accounts.js';

export const storageQuotaUnitEnum = pgEnum('storage_quota_unit', STORAGE_QUOTA_UNITS);
export const packageStatusEnum = pgEnum('package_status', PACKAGE_STATUSES);
export const packageRequestTypeEnum = pgEnum('package_request_type', PACKAGE_REQUEST_TYPES);
export const packageRequestStatusEnum = pgEnum('package_request_status', PACKAGE_REQUEST_STATUSES);
export const machineStatusEnum = pgEnum('machine_status', MACHINE_STATUSES);
export const osFamilyEnum = pgEnum('os_family', OS_FAMILIES);
export const backupTypeEnum = pgEnum('backup_type', BACKUP_TYPES);
export const taskStatusEnum = pgEnum('task_status', TASK_STATUSES);
export const taskDisplayStatusEnum = pgEnum('task_display_status', TASK_DISPLAY_STATUSES);
export const runStatusEnum = pgEnum('run_status', RUN_STATUSES);
export const actionTypeEnum = pgEnum('action_type', ACTION_TYPES);
export const snapshotStorageStatusEnum = pgEnum('snapshot_storage_status', SNAPSHOT_STORAGE_STATUSES);
export const speedUnitEnum = pgEnum('speed_unit', SPEED_UNITS);
export const timeUnitEnum = pgEnum('time_unit', TIME_UNITS);
export const messageTypeEnum = pgEnum('message_type', MESSAGE_TYPES);

/** A selected backup item as stored in backup_tasks.backup_items (002 §3 'Backup item (selected)'). */
export interface StoredBackupItem {
  path: string;
  name: string;
  type: BackupItemType;
  missing: boolean;
}

/**
 * Package templates (000 §3). Without an owner they are the provider's own; otherwise they belong to the
 * reseller that offers them to its child customers, and go with that reseller.
 */
export const packageTemplates = pgTable(
  'package_templates',
  {
    id: serial('id').primaryKey(),
    ownerCustomerId: integer('owner_customer_id').references(() => customers.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 100 }).notNull(),
    storageQuota: bigint('storage_quota', { mode: 'number' }).notNull(),
    storageQuotaUnit: storageQuotaUnitEnum('storage_quota_unit').notNull().default('GB'),
    /** 0 means unlimited. */
    noOfMachinesLimit: integer('no_of_machines_limit').notNull().default(0),
    /** Ours: a provider's template offered to resellers only; a reseller's own templates keep false. */
    resellersOnly: boolean('resellers_only').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('package_templates_owner_idx').on(t.ownerCustomerId, t.name)],
);

/**
 * Backup packages (000 §3). A package lives in one storage location; a child customer's package of a
 * reseller also lives inside one of the reseller's own packages (parent_reseller_package_id), whose quota
 * it draws on. Quotas are bytes (package) and megabytes (per machine) as in the specification.
 */
export const backupPackages = pgTable(
  'backup_packages',
  {
    id: serial('id').primaryKey(),
    customerId: belongsTo('customer_id', () => customers.id),
    name: varchar('name', { length: 50 }).notNull(),
    status: packageStatusEnum('status').notNull().default('REQUESTED'),
    // Templates may be deleted; packages keep their quotas, which were copied at creation.
    templateId: integer('template_id').references(() => packageTemplates.id, { onDelete: 'set null' }),
    packageQuotaSizeInBytes: bigint('package_quota_size_in_bytes', { mode: 'number' }).notNull(),
    maxBackupSizePerMachineInMbs: bigint('max_backup_size_per_machine_in_mbs', { mode: 'number' }).notNull(),
    /** 0 or less means unlimited. */
    noOfMachinesLimit: integer('no_of_machines_limit').notNull().default(0),
    // A location holding packages is removed only once they have moved away or gone.
    storageLocationId: integer('storage_location_id').references((): AnyPgColumn => storageLocations.id, {
      onDelete: 'restrict',
    }),
    parentResellerPackageId: integer('parent_reseller_package_id').references((): AnyPgColumn => backupPackages.id, {
      onDelete: 'restrict',
    }),
    upOrDownGradeRequested: boolean('up_or_down_grade_requested').notNull().default(false),
    requestedTemplateId: integer('requested_template_id').references(() => packageTemplates.id, {
      onDelete: 'set null',
    }),
    whmcsServiceId: integer('whmcs_service_id'),
    beingDeleted: boolean('being_deleted').notNull().default(false),
    /** While an instance removes a package marked being_deleted, no other takes it up (as for customers). */
    deletionLeaseUntil: ts('deletion_lease_until'),
    createdAt: createdAt(),
  },
  (t) => [
    index('backup_packages_customer_idx').on(t.customerId, t.name),
    index('backup_packages_location_idx').on(t.storageLocationId),
    index('backup_packages_parent_idx').on(t.parentResellerPackageId),
    index('backup_packages_status_idx').on(t.status),
  ],
);

/** Which packages a (non super admin) user may use; either side's deletion removes the link. */
export const userBackupPackages = pgTable(
  'user_backup_packages',
  {
    userId: belongsTo('user_id', () => users.id),
    backupPackageId: belongsTo('backup_package_id', () => backupPackages.id),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.backupPackageId] }),
    index('user_backup_packages_package_idx').on(t.backupPackageId),
  ],
);

/** Package requests (000 §3): new signups, additional packages and up/downgrades, approved or declined. */
export const packageRequests = pgTable(
  'package_requests',
  {
    id: serial('id').primaryKey(),
    customerId: belongsTo('customer_id', () => customers.id),
    requestType: packageRequestTypeEnum('request_type').notNull(),
    status: packageRequestStatusEnum('status').notNull().default('PENDING'),
    backupPackageId: integer('backup_package_id').references(() => backupPackages.id, { onDelete: 'cascade' }),
    requestedTemplateId: integer('requested_template_id').references(() => packageTemplates.id, {
      onDelete: 'set null',
    }),
    requestedByUserId: integer('requested_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The customer's first request: approving it also approves the signup. */
    firstApprovalRequest: boolean('first_approval_request').notNull().default(false),
    /** The billing order and invoice a purchase or up/downgrade made; paying the invoice approves the request. */
    whmcsOrderId: integer('whmcs_order_id'),
    whmcsInvoiceId: integer('whmcs_invoice_id'),
    /**
     * When the paid-invoice check found the invoice paid and claimed the request for approval: claimed once,
     * so the approval is asked for once even with several instances checking (jobs/passes.ts, 'paid-invoices').
     */
    whmcsInvoicePaidAt: ts('whmcs_invoice_paid_at'),
    /** What the approval linked (000 §3 storage item), kept for the record. */
    linkedStorageItemType: varchar('linked_storage_item_type', { length: 40 }),
    linkedStorageItemId: integer('linked_storage_item_id'),
    createdAt: createdAt(),
    decidedAt: ts('decided_at'),
  },
  (t) => [
    // A package has at most one request waiting (000 §4: no second up/downgrade while one is pending).
    uniqueIndex('package_requests_pending_package_uq')
      .on(t.backupPackageId)
      .where(sql`${t.status} = 'PENDING' and ${t.backupPackageId} is not null`),
    index('package_requests_invoice_idx').on(t.whmcsInvoiceId),
    index('package_requests_status_idx').on(t.status, t.createdAt),
    index('package_requests_customer_idx').on(t.customerId, t.createdAt),
    index('package_requests_package_idx').on(t.backupPackageId),
  ],
);

/**
 * Backup machines: computers running the agent, linked into a package (001 §3, 002 §3). The agent's
 * credential is stored hashed only and can be revoked; the repository password is generated by the
 * server and encrypted with MASTER_KEY (DESIGN §6).
 */
export const backupMachines = pgTable(
  'backup_machines',
  {
    id: serial('id').primaryKey(),
    customerId: belongsTo('customer_id', () => customers.id),
    backupPackageId: belongsTo('backup_package_id', () => backupPackages.id),
    // The machine and its backups stay when the user who linked it is removed.
    assignedUserId: integer('assigned_user_id').references(() => users.id, { onDelete: 'set null' }),
    name: varchar('name', { length: 50 }).notNull(),
    description: varchar('description', { length: 100 }).notNull().default(''),
    status: machineStatusEnum('status').notNull().default('ACTIVE'),
    osFamily: osFamilyEnum('os_family').notNull(),
    operatingSystem: varchar('operating_system', { length: 100 }).notNull().default(''),
    desktopClientVersion: varchar('desktop_client_version', { length: 50 }).notNull().default(''),
    /** IANA zone the agent schedules in, e.g. 'Europe/London'. */
    timeZone: varchar('time_zone', { length: 64 }).notNull().default('UTC'),
    deviceFingerprint: varchar('device_fingerprint', { length: 255 }),
    ipAddress: varchar('ip_address', { length: 64 }),
    noOfSimultaneousRemoteConnections: integer('no_of_simultaneous_remote_connections').notNull().default(0),
    remoteManagementEnabled: boolean('remote_management_enabled').notNull().default(true),
    credentialHash: varchar('credential_hash', { length: 128 }),
    credentialRevokedAt: ts('credential_revoked_at'),
    repositoryPasswordEncrypted: text('repository_password_encrypted'),
    online: boolean('online').notNull().default(false),
    lastSeenAt: ts('last_seen_at'),
    /**
     * The last-seen time of the offline spell already reported to the subscribed users (issue 17): a machine
     * offline whose last-seen differs from it is due a report once its customer's hours have passed.
     */
    offlineAlertedFor: ts('offline_alerted_for'),
    /** Last usage the agent or storage reported; the quota job compares it with the package limits. */
    usedSpaceBytes: bigint('used_space_bytes', { mode: 'number' }).notNull().default(0),
    beingDeleted: boolean('being_deleted').notNull().default(false),
    createdAt: createdAt(),
    // --- Dashboard read model (000 §2, §4; DESIGN §9), kept current by features/backup-state ---
    /** Copy of the assigned user's full name (a database trigger keeps it), for the User column's sort. */
    assignedUserName: varchar('assigned_user_name', { length: 101 }),
    ...taskCounterColumns(),
    taskStatus: aggregateTaskStatusEnum('task_status').notNull().default('NO_COMPLETED_TASKS'),
    /** When the status last changed, kept by a database trigger (migration 0029): 'Needs attention' dates by it. */
    statusSince: ts('status_since').notNull().defaultNow(),
  },
  (t) => [
    index('backup_machines_package_idx').on(t.backupPackageId, t.name),
    index('backup_machines_customer_idx').on(t.customerId, t.name),
    index('backup_machines_user_idx').on(t.assignedUserId),
    uniqueIndex('backup_machines_credential_uq').on(t.credentialHash),
    // The stale-presence sweep reads only the machines marked online, oldest last-seen first.
    index('backup_machines_online_seen_idx').on(t.lastSeenAt).where(sql`${t.online}`),
    // The offline-alert job reads only the offline spells not yet reported, oldest first.
    index('backup_machines_offline_alert_idx')
      .on(t.lastSeenAt)
      .where(
        sql`not ${t.online} and ${t.lastSeenAt} is not null and ${t.offlineAlertedFor} is distinct from ${t.lastSeenAt}`,
      ),
    // Every sortable dashboard column, across all machines (provider) and within a customer; id breaks ties.
    index('backup_machines_dash_name_idx').on(sql`lower(${t.name})`, t.id),
    index('backup_machines_dash_user_idx').on(sql`lower(${t.assignedUserName})`, t.id),
    index('backup_machines_dash_os_idx').on(t.osFamily, t.id),
    index('backup_machines_dash_version_idx').on(t.desktopClientVersion, t.id),
    index('backup_machines_dash_status_idx').on(t.status, t.id),
    index('backup_machines_dash_task_status_idx').on(t.taskStatus, t.id),
    // One status filter with a sort on the other, and both machine pies in one index-only scan.
    index('backup_machines_dash_task_status_status_idx').on(t.taskStatus, t.status, t.id),
    index('backup_machines_dash_status_task_status_idx').on(t.status, t.taskStatus, t.id),
    index('backup_machines_dash_customer_name_idx').on(t.customerId, sql`lower(${t.name})`, t.id),
    index('backup_machines_dash_customer_status_idx').on(t.customerId, t.status, t.id),
    index('backup_machines_dash_customer_task_status_idx').on(t.customerId, t.taskStatus, t.id),
    index('backup_machines_dash_customer_user_idx').on(t.customerId, sql`lower(${t.assignedUserName})`, t.id),
    index('backup_machines_dash_customer_os_idx').on(t.customerId, t.osFamily, t.id),
    index('backup_machines_dash_customer_version_idx').on(t.customerId, t.desktopClientVersion, t.id),
    // 'Needs attention' (issue 31): offline and over-quota machines newest first, across all and per customer.
    index('backup_machines_attention_offline_idx')
      .on(t.lastSeenAt.desc(), t.id.desc())
      .where(sql`not ${t.online} and ${t.lastSeenAt} is not null and not ${t.beingDeleted}`),
    index('backup_machines_customer_attention_offline_idx')
      .on(t.customerId, t.lastSeenAt.desc(), t.id.desc())
      .where(sql`not ${t.online} and ${t.lastSeenAt} is not null and not ${t.beingDeleted}`),
    index('backup_machines_attention_quota_idx')
      .on(t.statusSince.desc(), t.id.desc())
      .where(sql`${t.status} in ('OVER_PER_MACHINE_QUOTA', 'PACKAGE_OVER_QUOTA') and not ${t.beingDeleted}`),
    index('backup_machines_customer_attention_quota_idx')
      .on(t.customerId, t.statusSince.desc(), t.id.desc())
      .where(sql`${t.status} in ('OVER_PER_MACHINE_QUOTA', 'PACKAGE_OVER_QUOTA') and not ${t.beingDeleted}`),
  ],
);

/**
 * Scheduled backup tasks of a machine (002 §3). customer_id and package_id are copies of the machine's,
 * so every tenant-scoped task query filters on one indexed column without joins. version grows with each
 * change and lets the agent and the server reconcile after a reconnect (DESIGN §5).
 */
export const backupTasks = pgTable(
  'backup_tasks',
  {
    id: serial('id').primaryKey(),
    backupMachineId: belongsTo('backup_machine_id', () => backupMachines.id),
    customerId: belongsTo('customer_id', () => customers.id),
    backupPackageId: belongsTo('backup_package_id', () => backupPackages.id),
    name: varchar('name', { length: 50 }).notNull(),
    type: backupTypeEnum('type').notNull().default('FILES_AND_FOLDERS'),
    status: taskStatusEnum('status').notNull().default('ACTIVE'),
    /** Five-field cron, read in the machine's time zone. */
    scheduleCron: text('schedule_cron').notNull(),
    scheduleDescription: text('schedule_description').notNull().default(''),
    snapshotsEnabled: boolean('snapshots_enabled').notNull().default(true),
    /** -1 unlimited, 0 snapshots off. */
    numberOfSnapshotsToKeep: integer('number_of_snapshots_to_keep').notNull().default(-1),
    autoDeleteFailedSnapshots: boolean('auto_delete_failed_snapshots').notNull().default(false),
    syncDeletions: boolean('sync_deletions').notNull().default(false),
    volumeSnapshotsEnabled: boolean('volume_snapshots_enabled').notNull().default(false),
    backupItems: jsonb('backup_items').$type<StoredBackupItem[]>().notNull().default([]),
    exclusions: jsonb('exclusions').$type<string[]>().notNull().default([]),
    createSeed: boolean('create_seed').notNull().default(false),
    pathToSeedDisk: text('path_to_seed_disk'),
    /** -1 unlimited. */
    uploadBandwidthLimit: integer('upload_bandwidth_limit').notNull().default(-1),
    uploadBandwidthLimitUnit: speedUnitEnum('upload_bandwidth_limit_unit').notNull().default('KILO_BYTES_PER_SECOND'),
    /** cPanel pruning of removed accounts: -1 off. */
    pruneAfterCount: integer('prune_after_count').notNull().default(-1),
    pruneTimeUnit: timeUnitEnum('prune_time_unit'),
    backupAnyNewAvailableItems: boolean('backup_any_new_available_items').notNull().default(false),
    // Kept on the task (not derived from task_actions) so list pages compute display status without joins.
    statusOfLastRun: runStatusEnum('status_of_last_run'),
    statusOfRunBeforeLast: runStatusEnum('status_of_run_before_last'),
    lastExecutionMissed: boolean('last_execution_missed').notNull().default(false),
    nextRunAt: ts('next_run_at'),
    /** taskDisplayStatus of the domain, kept current by features/backup-state (000 §4). */
    displayStatus: taskDisplayStatusEnum('display_status').notNull().default('NOT_COMPLETED_YET'),
    /** When the displayed status last changed, kept by a database trigger (migration 0029) for 'Needs attention'. */
    displayStatusSince: ts('display_status_since').notNull().defaultNow(),
    /**
     * The task's BACKUP_RUN actions, kept by database triggers on task_actions (migration 0011) whatever
     * code adds or removes them, so the task page shows the run count and pages the runs without counting.
     */
    numberOfBackupRuns: integer('number_of_backup_runs').notNull().default(0),
    /**
     * Set when a run finished and the task's retention must be applied by the portal (machine keys may
     * not delete backup data); cleared when `forget --prune` succeeded.
     */
    retentionDueAt: ts('retention_due_at'),
    /**
     * Issue 32: the unusual run (task_actions.id) that holds the task's retention until someone acknowledges it;
     * while set, retention forgets nothing.
     */
    retentionHoldActionId: bigint('retention_hold_action_id', { mode: 'number' }),
    /**
     * Issue 32 item 3, 'Last verified': the facts of the task's last proofs, kept by features/verification when a
     * restore test or a data check ends, and the status the domain's verificationStatus gives them (the overdue sweep
     * turns VERIFIED into OVERDUE at `verification_overdue_at`), so task lists and the dashboard read no history.
     */
    verificationStatus: varchar('verification_status', { length: 16 })
      .$type<VerificationStatus>()
      .notNull()
      .default('NEVER'),
    verificationStatusSince: ts('verification_status_since').notNull().defaultNow(),
    lastRestoreTestAt: ts('last_restore_test_at'),
    lastRestoreTestFiles: integer('last_restore_test_files'),
    restoreTestFailed: boolean('restore_test_failed').notNull().default(false),
    lastFullReadAt: ts('last_full_read_at'),
    dataCheckDamaged: boolean('data_check_damaged').notNull().default(false),
    verificationOverdueAt: ts('verification_overdue_at'),
    /** When the schedule's next restore test of the task is due (its last test's start plus the interval). */
    restoreTestDueAt: ts('restore_test_due_at').notNull().defaultNow(),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    index('backup_tasks_machine_idx').on(t.backupMachineId, t.name),
    index('backup_tasks_machine_display_status_idx').on(t.backupMachineId, t.displayStatus),
    index('backup_tasks_customer_idx').on(t.customerId),
    index('backup_tasks_package_idx').on(t.backupPackageId),
    // The missed-run job and 'tasks running in the next period' scan by time.
    index('backup_tasks_next_run_idx').on(t.nextRunAt),
    // The provider's 'tasks being deleted' dashboard reads only these (002 §2.6).
    index('backup_tasks_being_deleted_idx').on(t.id).where(sql`${t.status} = 'BEING_DELETED'`),
    // 'Tasks running in the next period': the tasks that may run by next expected run, in page order (002 §2.6).
    // The predicate is the list's whole filter, so a keyset page and its capped count read only index entries
    // (issue 33 item 6), where a filter on display_status outside it made the count visit every task's row.
    index('backup_tasks_next_period_idx')
      .on(t.nextRunAt, t.id)
      .where(sql`${t.status} = 'ACTIVE' and ${t.displayStatus} <> 'NOT_RUNNABLE'`),
    // The retention job reads only the tasks waiting for it.
    index('backup_tasks_retention_due_idx').on(t.retentionDueAt).where(sql`${t.retentionDueAt} is not null`),
    // 'Needs attention' (issue 31): failed and missed tasks newest first, across all and per customer.
    index('backup_tasks_attention_idx')
      .on(t.displayStatusSince.desc(), t.id.desc())
      .where(sql`${t.displayStatus} in ('LAST_FAILED', 'MISSED')`),
    index('backup_tasks_customer_attention_idx')
      .on(t.customerId, t.displayStatusSince.desc(), t.id.desc())
      .where(sql`${t.displayStatus} in ('LAST_FAILED', 'MISSED')`),
    // Issue 32 item 3: the restore test schedule and the overdue sweep read only what is due.
    index('backup_tasks_restore_test_due_idx').on(t.restoreTestDueAt).where(sql`${t.status} = 'ACTIVE'`),
    index('backup_tasks_verification_overdue_idx')
      .on(t.verificationOverdueAt)
      .where(sql`${t.verificationStatus} = 'VERIFIED'`),
    // The dashboard's tasks by verification status, across all and per customer, and 'Needs attention'.
    index('backup_tasks_verification_status_idx').on(t.verificationStatus, t.id),
    index('backup_tasks_customer_verification_status_idx').on(t.customerId, t.verificationStatus, t.id),
    index('backup_tasks_verification_attention_idx')
      .on(t.verificationStatusSince.desc(), t.id.desc())
      .where(sql`${t.verificationStatus} in ('FAILED', 'OVERDUE')`),
    index('backup_tasks_customer_verification_attention_idx')
      .on(t.customerId, t.verificationStatusSince.desc(), t.id.desc())
      .where(sql`${t.verificationStatus} in ('FAILED', 'OVERDUE')`),
  ],
);

/**
 * Actions and runs of a task (002 §3 'Action / run'): backup runs, restores, snapshot archives and
 * seeding. Many per task over the years, hence a 64-bit id.
 */
export const taskActions = pgTable(
  'task_actions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    backupTaskId: belongsTo('backup_task_id', () => backupTasks.id),
    backupMachineId: belongsTo('backup_machine_id', () => backupMachines.id),
    type: actionTypeEnum('type').notNull(),
    status: runStatusEnum('status').notNull().default('INITIATED'),
    timeStarted: ts('time_started').notNull().defaultNow(),
    timeFinished: ts('time_finished'),
    transferProgressPercentage: integer('transfer_progress_percentage').notNull().default(0),
    currentTransfer: integer('current_transfer').notNull().default(0),
    totalTransfers: integer('total_transfers').notNull().default(0),
    /** A TRANSFER_PHASES value; text so that a phase added later needs no enum migration. */
    phase: text('phase').$type<TransferPhase>(),
    failureMessage: text('failure_message'),
    /** restic's exit code by name (SUCCESS, SOME_FILES_NOT_ACCESSIBLE, ...), null while running. */
    exitCodeResult: text('exit_code_result'),
    resticSnapshotId: varchar('restic_snapshot_id', { length: 64 }),
    bytesAdded: bigint('bytes_added', { mode: 'number' }),
    bytesTotal: bigint('bytes_total', { mode: 'number' }),
    snapshotsAvailable: boolean('snapshots_available').notNull().default(false),
    /** The agent's own id of a run it started, so a start reported twice is recorded once. */
    runKey: varchar('run_key', { length: 100 }),
    /** Bytes the run's last progress report had done: with phase and counts, whether a report moved. */
    progressBytesDone: bigint('progress_bytes_done', { mode: 'number' }).notNull().default(0),
    /**
     * When the run last moved: its start, then each progress report that differs from the one before (issue 29:
     * the stall job reads it; restic repeats an unchanged status every second while it hangs).
     */
    lastProgressAt: ts('last_progress_at').notNull().defaultNow(),
    /** Set when a busy run reported no progress for the stall limit; its next progress report clears it. */
    stalledAt: ts('stalled_at'),
    /** A finished restore's summary as its agent reported it (issue 31; the domain's restoreSummarySchema). */
    restoreSummary: jsonb('restore_summary').$type<RestoreSummary>(),
    /** The run report (issue 31): the last progress report's files done, speed and time left (null: not reported). */
    progressFilesDone: integer('progress_files_done'),
    progressBytesPerSecond: bigint('progress_bytes_per_second', { mode: 'number' }),
    progressSecondsRemaining: integer('progress_seconds_remaining'),
    /** What the finished backup did (restic's summary counts and duration); null from older agents. */
    summary: jsonb('summary').$type<RunSummary>(),
    /** Issue 32: why the finished run looks like ransomware at work (the domain's detectChange); null: it does not. */
    changeReasons: jsonb('change_reasons').$type<ChangeReason[]>(),
    /** When someone acknowledged the unusual run (the audit trail says who). */
    changeAcknowledgedAt: ts('change_acknowledged_at'),
    /** Issue 32: the run's total size was far below the task's usual one. */
    smallerThanUsual: boolean('smaller_than_usual').notNull().default(false),
  },
  (t) => [
    uniqueIndex('task_actions_run_key_uq').on(t.backupMachineId, t.runKey),
    // The task page's action pages, newest first with the id tie-break: all types, and one type.
    index('task_actions_task_idx').on(t.backupTaskId, t.timeStarted.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('task_actions_task_type_idx').on(
      t.backupTaskId,
      t.type,
      t.timeStarted.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('task_actions_machine_idx').on(t.backupMachineId),
    // The 'currently running tasks' dashboard and the cancel checks look only at busy actions.
    index('task_actions_busy_idx').on(t.backupMachineId).where(sql`${t.status} in ('INITIATED', 'IN_PROGRESS')`),
    // The stall job reads only busy runs not yet stalled, longest without progress first.
    index('task_actions_stall_idx')
      .on(t.lastProgressAt)
      .where(sql`${t.status} in ('INITIATED', 'IN_PROGRESS') and ${t.stalledAt} is null`),
    // 'Currently running tasks' (002 §2.6): busy runs that are not stalled, newest first.
    index('task_actions_running_idx')
      .on(t.timeStarted.desc(), t.id.desc())
      .where(sql`${t.status} in ('INITIATED', 'IN_PROGRESS') and ${t.stalledAt} is null`),
    // 'Needs attention' (issue 31): stalled busy runs, newest stall first.
    index('task_actions_stalled_idx')
      .on(t.stalledAt.desc(), t.id.desc())
      .where(sql`${t.status} in ('INITIATED', 'IN_PROGRESS') and ${t.stalledAt} is not null`),
  ],
);

/** Snapshot archives of a task (002 §3 'Snapshot'), at most one kept per week per task. */
export const backupSnapshots = pgTable(
  'backup_snapshots',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    backupTaskId: belongsTo('backup_task_id', () => backupTasks.id),
    // The archive outlives the run record that made it.
    taskActionId: bigint('task_action_id', { mode: 'number' }).references(() => taskActions.id, {
      onDelete: 'set null',
    }),
    resticSnapshotId: varchar('restic_snapshot_id', { length: 64 }),
    status: runStatusEnum('status').notNull().default('IN_PROGRESS'),
    storageStatus: snapshotStorageStatusEnum('storage_status').notNull().default('AVAILABLE'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('backup_snapshots_task_idx').on(t.backupTaskId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('backup_snapshots_action_idx').on(t.taskActionId),
    uniqueIndex('backup_snapshots_restic_uq').on(t.backupTaskId, t.resticSnapshotId),
  ],
);

/**
 * The account snapshots of a cPanel / DirectAdmin run (issue 14): the agent backs up each hosting account as a
 * restic snapshot of its own. The run (task_actions) and its archive (backup_snapshots) keep one snapshot id, the
 * first account's, so counts, sizes and the weekly archive stay one per run; its accounts are found here by that
 * id, which outlives the run record as the archive does. Runs of other tasks (and of older agents) have no rows.
 */
export const runAccountSnapshots = pgTable(
  'run_account_snapshots',
  {
    backupTaskId: belongsTo('backup_task_id', () => backupTasks.id),
    /** The run's own snapshot id (task_actions and backup_snapshots restic_snapshot_id). */
    runSnapshotId: varchar('run_snapshot_id', { length: 64 }).notNull(),
    account: varchar('account', { length: 64 }).notNull(),
    resticSnapshotId: varchar('restic_snapshot_id', { length: 64 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.backupTaskId, t.runSnapshotId, t.account] })],
);

/**
 * The hosting accounts of a cPanel / DirectAdmin task that have backups but were reported gone from the server
 * (issue 16): the portal prunes their backups once the task's pruning delay has passed since `missing_since`,
 * the time the portal first learned it, never a time the machine claims. An account reported back is removed.
 */
export const panelRemovedAccounts = pgTable(
  'panel_removed_accounts',
  {
    backupTaskId: belongsTo('backup_task_id', () => backupTasks.id),
    account: varchar('account', { length: 64 }).notNull(),
    missingSince: ts('missing_since').notNull(),
  },
  (t) => [primaryKey({ columns: [t.backupTaskId, t.account] })],
);

/** The machine's message log (001 §3), read newest first and filtered by type. */
export const machineMessages = pgTable(
  'machine_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    backupMachineId: belongsTo('backup_machine_id', () => backupMachines.id),
    backupTaskId: integer('backup_task_id').references(() => backupTasks.id, { onDelete: 'cascade' }),
    taskActionId: bigint('task_action_id', { mode: 'number' }).references(() => taskActions.id, {
      onDelete: 'cascade',
    }),
    time: ts('time').notNull().defaultNow(),
    messageType: messageTypeEnum('message_type').notNull(),
    message: text('message').notNull(),
  },
  (t) => [
    index('machine_messages_machine_idx').on(t.backupMachineId, t.time.desc().nullsFirst()),
    index('machine_messages_task_idx').on(t.backupTaskId),
    index('machine_messages_action_idx').on(t.taskActionId),
  ],
);

/** Log files the agent uploaded on request (001 §3); a new upload of the same file replaces it. */
export const logFiles = pgTable(
  'log_files',
  {
    id: serial('id').primaryKey(),
    backupMachineId: belongsTo('backup_machine_id', () => backupMachines.id),
    fileName: varchar('file_name', { length: 255 }).notNull(),
    lastModified: ts('last_modified').notNull(),
    /** Agent logs are text; drizzle 0.45 has no bytea column and PGlite and pg return it differently. */
    content: text('content').notNull().default(''),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    uploadedAt: ts('uploaded_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('log_files_machine_file_uq').on(t.backupMachineId, t.fileName)],
);

/**
 * Commands a browser sent to a machine over the live channel (002 §7.8), by request id: a command
 * delivered twice is carried out once, and the second delivery gets the first one's reply.
 */
export const machineCommandRequests = pgTable(
  'machine_command_requests',
  {
    backupMachineId: belongsTo('backup_machine_id', () => backupMachines.id),
    requestId: varchar('request_id', { length: 100 }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    command: varchar('command', { length: 32 }).notNull(),
    reply: jsonb('reply').$type<{ success: boolean; messages: string[] }>(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.backupMachineId, t.requestId] }),
    index('machine_command_requests_created_idx').on(t.createdAt),
  ],
);

/**
 * One-time linking codes (`agent link --code`, issue #5), made in the portal by a customer-side user. Only
 * the SHA-256 of the code is kept; a code is used at most once (used_at, the machine it linked) and stops
 * working at expires_at. Housekeeping removes expired rows.
 */
export const machineLinkingCodes = pgTable(
  'machine_linking_codes',
  {
    id: serial('id').primaryKey(),
    codeHash: varchar('code_hash', { length: 64 }).notNull(),
    /** Who made the code: the machine is linked for this user, under their customer. */
    userId: belongsTo('user_id', () => users.id),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    backupMachineId: integer('backup_machine_id').references(() => backupMachines.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('machine_linking_codes_hash_uq').on(t.codeHash),
    index('machine_linking_codes_user_idx').on(t.userId, t.expiresAt),
    index('machine_linking_codes_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Download ids (002 §7.6): the initiate call issues one, the browser's form POST redeems it on whichever server
 * instance it reaches. The id is a bearer secret, so only its SHA-256 is kept; it is bound to the user, the run
 * and the chosen items, and redeeming deletes the row (one statement, so an id streams once). Housekeeping
 * removes the expired ones nobody redeemed.
 */
export const downloadIds = pgTable(
  'download_ids',
  {
    idHash: varchar('id_hash', { length: 64 }).primaryKey(),
    userId: belongsTo('user_id', () => users.id),
    backupMachineId: belongsTo('backup_machine_id', () => backupMachines.id),
    backupTaskId: belongsTo('backup_task_id', () => backupTasks.id),
    taskActionId: bigint('task_action_id', { mode: 'number' })
      .notNull()
      .references(() => taskActions.id, { onDelete: 'cascade' }),
    request: jsonb('request').$type<DownloadRequest>().notNull(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('download_ids_expires_idx').on(t.expiresAt)],
);
