import type { SummaryFrequency } from '@portal/domain';
import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgTable, primaryKey, varchar } from 'drizzle-orm/pg-core';
import { customers, users } from './accounts.js';
import { backupMachines, backupPackages } from './backup.js';
import { belongsTo, ts } from './columns.js';

/** A customer's alert thresholds (issue 17); no row means the domain's defaults. */
export const notificationThresholds = pgTable('notification_thresholds', {
  customerId: integer('customer_id')
    .primaryKey()
    .references(() => customers.id, { onDelete: 'cascade' }),
  offlineHours: integer('offline_hours').notNull(),
  quotaNearPercent: integer('quota_near_percent').notNull(),
});

/**
 * A user's alerts (issue 17); no row means the domain's defaults for the user's role
 * (defaultNotificationChoices). summarySentFor is the period of the last summary queued for the user: the
 * summary job takes the rows whose period has moved on, so each period's summary is queued once.
 */
export const userNotificationSettings = pgTable(
  'user_notification_settings',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    customerId: belongsTo('customer_id', () => customers.id),
    runFailed: boolean('run_failed').notNull(),
    runWarnings: boolean('run_warnings').notNull(),
    runMissed: boolean('run_missed').notNull(),
    machineOffline: boolean('machine_offline').notNull(),
    quota: boolean('quota').notNull(),
    /** Issue 32 item 3: a task's verification failed or is overdue (defaults like runFailed). */
    verification: boolean('verification').notNull().default(false),
    summary: varchar('summary', { length: 10 }).$type<SummaryFrequency>().notNull(),
    allMachines: boolean('all_machines').notNull(),
    summarySentFor: date('summary_sent_for', { mode: 'string' }),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('user_notification_settings_customer_idx').on(t.customerId),
    index('user_notification_settings_summary_idx').on(t.summary, t.summarySentFor).where(sql`${t.summary} <> 'NONE'`),
  ],
);

/** The machines a user chose, when not all machines (issue 17). */
export const userNotificationMachines = pgTable(
  'user_notification_machines',
  {
    userId: belongsTo('user_id', () => users.id),
    machineId: belongsTo('machine_id', () => backupMachines.id),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.machineId] }),
    index('user_notification_machines_machine_idx').on(t.machineId),
  ],
);

export const QUOTA_ALERT_LEVELS = ['NONE', 'NEAR', 'OVER'] as const;
export type QuotaAlertLevel = (typeof QUOTA_ALERT_LEVELS)[number];

/**
 * The quota level last reported for a package (issue 17): a report goes out when the level rises (NONE →
 * NEAR → OVER); falling back records the lower level, so the next rise is reported again.
 */
export const packageQuotaAlerts = pgTable('package_quota_alerts', {
  packageId: integer('package_id')
    .primaryKey()
    .references(() => backupPackages.id, { onDelete: 'cascade' }),
  level: varchar('level', { length: 4 }).$type<QuotaAlertLevel>().notNull(),
  changedAt: ts('changed_at').notNull(),
});
