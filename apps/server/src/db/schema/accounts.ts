import {
  AGGREGATE_TASK_STATUSES,
  type AuditOutcome,
  CUSTOMER_STATUSES,
  PAYMENT_METHODS,
  ROLES,
  USER_STATUSES,
} from '@portal/domain';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  serial,
  smallint,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { belongsTo, createdAt, taskCounterColumns, ts } from './columns.js';

export const roleEnum = pgEnum('role', ROLES);
export const userStatusEnum = pgEnum('user_status', USER_STATUSES);
export const customerStatusEnum = pgEnum('customer_status', CUSTOMER_STATUSES);
export const paymentMethodEnum = pgEnum('payment_method', PAYMENT_METHODS);
export const aggregateTaskStatusEnum = pgEnum('aggregate_task_status', AGGREGATE_TASK_STATUSES);

/** Billing (WHMCS) host servers of 001 §2; secrets are stored encrypted with MASTER_KEY. */
export const billingServers = pgTable('billing_servers', {
  id: serial('id').primaryKey(),
  description: varchar('description', { length: 100 }).notNull(),
  region: varchar('region', { length: 50 }).notNull().default('default'),
  whmcsHost: varchar('whmcs_host', { length: 255 }).notNull(),
  whmcsPort: integer('whmcs_port').notNull().default(443),
  whmcsPath: varchar('whmcs_path', { length: 255 }).notNull().default('/'),
  whmcsIdentifier: varchar('whmcs_identifier', { length: 255 }).notNull(),
  whmcsSecretEncrypted: text('whmcs_secret_encrypted').notNull(),
  whmcsApiAccessKeyEncrypted: text('whmcs_api_access_key_encrypted'),
  createdAt: createdAt(),
});

/**
 * A customer of the provider or of a reseller. A reseller is a customer whose reseller settings are
 * enabled; its child customers point at it through parent_reseller_customer_id.
 */
export const customers = pgTable(
  'customers',
  {
    id: serial('id').primaryKey(),
    companyName: varchar('company_name', { length: 50 }).notNull().default(''),
    status: customerStatusEnum('status').notNull().default('SIGNUP_REQUESTED'),
    parentResellerCustomerId: integer('parent_reseller_customer_id').references((): AnyPgColumn => customers.id, {
      onDelete: 'restrict',
    }),
    superAdminUserId: integer('super_admin_user_id').references((): AnyPgColumn => users.id, {
      onDelete: 'set null',
    }),
    whmcsServerId: integer('whmcs_server_id').references(() => billingServers.id, { onDelete: 'set null' }),
    whmcsClientId: integer('whmcs_client_id'),
    paymentMethod: paymentMethodEnum('payment_method').notNull().default('banktransfer'),
    cpanelPluginEnabled: boolean('cpanel_plugin_enabled').notNull().default(false),
    allowProviderMachineControl: boolean('allow_provider_machine_control').notNull().default(false),
    /** Ours (issue 18): every user of the account must use two-factor sign-in; its super admin decides. */
    requireMfa: boolean('require_mfa').notNull().default(false),
    firstPaymentRequired: boolean('first_payment_required').notNull().default(true),
    unpaidInvoices: integer('unpaid_invoices').notNull().default(0),
    beingDeleted: boolean('being_deleted').notNull().default(false),
    /**
     * While a server instance removes a customer marked being_deleted, no other takes it up; an instance
     * that stops half-way leaves the lease to run out, and another resumes (jobs/deletion-job.ts).
     */
    deletionLeaseUntil: ts('deletion_lease_until'),
    createdAt: createdAt(),
    // --- Dashboard read model (000 §2, §4; DESIGN §9), kept current by features/backup-state ---
    /** Storage locations the customer has (a database trigger counts them); none means a new signup. */
    storageLocationCount: integer('storage_location_count').notNull().default(0),
    /**
     * The domain's customerDisplayStatus (000 §4) as a generated column, so no write can leave it stale;
     * read-model.db.test.ts checks it against the domain rule for every status.
     */
    displayStatus: customerStatusEnum('display_status')
      .notNull()
      .generatedAlwaysAs(
        sql`case when storage_location_count <= 0 then 'SIGNUP_REQUESTED'::customer_status else status end`,
      ),
    /** Copies of the super admin's e-mail and full name (database triggers keep them), for sorting. */
    superAdminEmail: varchar('super_admin_email', { length: 100 }),
    superAdminName: varchar('super_admin_name', { length: 101 }),
    /** What the Name column shows and sorts on: companyName, else the super admin's full name (000 §3). */
    displayName: text('display_name')
      .notNull()
      .generatedAlwaysAs(sql`coalesce(nullif(company_name, ''), super_admin_name, '')`),
    ...taskCounterColumns(),
    taskStatus: aggregateTaskStatusEnum('task_status').notNull().default('NO_COMPLETED_TASKS'),
  },
  (t) => [
    index('customers_parent_idx').on(t.parentResellerCustomerId),
    index('customers_status_idx').on(t.status),
    index('customers_company_name_idx').on(sql`lower(${t.companyName})`),
    // Every sortable dashboard column, with id as the tie-break so pages are stable.
    index('customers_dash_name_idx').on(sql`lower(${t.displayName})`, t.id),
    index('customers_dash_email_idx').on(sql`lower(${t.superAdminEmail})`, t.id),
    index('customers_dash_status_idx').on(t.displayStatus, t.id),
    index('customers_dash_task_status_idx').on(t.taskStatus, t.id),
    index('customers_dash_status_task_status_idx').on(t.displayStatus, t.taskStatus, t.id),
    index('customers_dash_task_status_status_idx').on(t.taskStatus, t.displayStatus, t.id),
    index('customers_dash_parent_name_idx').on(t.parentResellerCustomerId, sql`lower(${t.displayName})`, t.id),
    // The customer lists' search: a case-insensitive "contains" (ILIKE '%...%') over these three (pg_trgm).
    index('customers_company_name_trgm_idx').using('gin', t.companyName.op('gin_trgm_ops')),
    index('customers_super_admin_name_trgm_idx').using('gin', t.superAdminName.op('gin_trgm_ops')),
    index('customers_super_admin_email_trgm_idx').using('gin', t.superAdminEmail.op('gin_trgm_ops')),
    // The deletion job's sweep reads only the customers marked for deletion.
    index('customers_being_deleted_idx').on(t.id).where(sql`${t.beingDeleted}`),
  ],
);

/** Reseller settings (000 §3): branding, links and the reseller's own SMTP settings. */
export const resellerSettings = pgTable(
  'reseller_settings',
  {
    customerId: integer('customer_id')
      .primaryKey()
      .references(() => customers.id, { onDelete: 'cascade' }),
    resellerEnabled: boolean('reseller_enabled').notNull().default(false),
    brandName: varchar('brand_name', { length: 100 }),
    customUrl: varchar('custom_url', { length: 100 }),
    supportEmailAddress: varchar('support_email_address', { length: 50 }),
    supportPhoneNumber: varchar('support_phone_number', { length: 50 }),
    mainSiteLink: varchar('main_site_link', { length: 100 }),
    termsAndConditionsLink: varchar('terms_and_conditions_link', { length: 100 }),
    logo: varchar('logo', { length: 255 }),
    favicon: varchar('favicon', { length: 255 }),
    functionalBackgroundColour: varchar('functional_background_colour', { length: 20 }),
    functionalButtonColour: varchar('functional_button_colour', { length: 20 }),
    appHeaderColour: varchar('app_header_colour', { length: 20 }),
    appHeaderTextColour: varchar('app_header_text_colour', { length: 20 }),
    appEnabledButtonColour: varchar('app_enabled_button_colour', { length: 20 }),
    appDisabledButtonColour: varchar('app_disabled_button_colour', { length: 20 }),
    appBackgroundColour: varchar('app_background_colour', { length: 20 }),
    emailHost: varchar('email_host', { length: 80 }),
    emailPort: integer('email_port'),
    emailUsername: varchar('email_username', { length: 80 }),
    emailPasswordEncrypted: text('email_password_encrypted'),
    sendFromEmailAddress: varchar('send_from_email_address', { length: 50 }),
  },
  (t) => [uniqueIndex('reseller_settings_custom_url_uq').on(sql`lower(${t.customUrl})`)],
);

/** Users: provider admins have no customer; every other role belongs to exactly one customer. */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id').references((): AnyPgColumn => customers.id, { onDelete: 'cascade' }),
    email: varchar('email', { length: 100 }).notNull(),
    firstName: varchar('first_name', { length: 50 }).notNull(),
    surname: varchar('surname', { length: 50 }).notNull(),
    contactNumber: varchar('contact_number', { length: 50 }).notNull().default(''),
    passwordHash: text('password_hash').notNull(),
    role: roleEnum('role').notNull(),
    status: userStatusEnum('status').notNull().default('ACTIVE'),
    readOnly: boolean('read_only').notNull().default(false),
    createdAt: createdAt(),
    passwordChangedAt: ts('password_changed_at'),
  },
  (t) => [
    uniqueIndex('users_email_uq').on(sql`lower(${t.email})`),
    index('users_customer_idx').on(t.customerId, t.surname, t.firstName),
  ],
);

/** Server-side sessions; the cookie carries a random token whose SHA-256 is the id. */
export const sessions = pgTable(
  'sessions',
  {
    id: varchar('id', { length: 64 }).primaryKey(),
    userId: belongsTo('user_id', () => users.id),
    csrfToken: varchar('csrf_token', { length: 64 }).notNull(),
    createdAt: createdAt(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    ipAddress: varchar('ip_address', { length: 64 }),
    userAgent: varchar('user_agent', { length: 255 }),
    /** Half signed in (issue 18): the password was right, the two-factor code is still to come. */
    mfaPending: boolean('mfa_pending').notNull().default(false),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/** Single-use, expiring password reset links; only the token's hash is kept. */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    tokenHash: varchar('token_hash', { length: 64 }).primaryKey(),
    userId: belongsTo('user_id', () => users.id),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
);

/** Failed sign-in counters per account and per address, shared by every server instance. */
export const signInFailures = pgTable('sign_in_failures', {
  key: varchar('key', { length: 200 }).primaryKey(),
  failures: integer('failures').notNull().default(0),
  lastFailureAt: ts('last_failure_at').notNull().defaultNow(),
});

/**
 * The audit trail (issue 18). Who acted is copied into the row (id, e-mail, name) and the ids carry no foreign
 * key, so deleting a user or customer changes no record; a database trigger (migration audit_immutable) refuses
 * every UPDATE and every DELETE but the retention job's. `type` is text: the domain's AUDIT_EVENT_TYPES and the
 * audited route keys (audit-kinds.ts) are its one set of names.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: ts('at').notNull().defaultNow(),
    type: varchar('type', { length: 100 }).notNull(),
    userId: integer('user_id'),
    /** The customer whose data it is (the tenant); null for the provider's own. */
    customerId: integer('customer_id'),
    /** The actor's own customer; null for a provider admin or a visitor. */
    actorCustomerId: integer('actor_customer_id'),
    /**
     * Whose account page shows the record besides the tenant's own: the tenant's reseller, else the tenant. Kept
     * at recording time, so a reseller still sees what happened to a customer it has since removed.
     */
    accountCustomerId: integer('account_customer_id'),
    email: varchar('email', { length: 100 }),
    name: varchar('name', { length: 201 }),
    ipAddress: varchar('ip_address', { length: 64 }),
    subjectType: varchar('subject_type', { length: 40 }),
    subjectId: integer('subject_id'),
    outcome: varchar('outcome', { length: 10 }).$type<AuditOutcome>(),
    httpStatus: smallint('http_status'),
    detail: jsonb('detail').$type<Record<string, unknown>>(),
  },
  // Each filter of the audit pages walks one of these newest first; the account's serves a reseller's or a direct
  // customer's account page, the tenant's a reseller's customer's.
  (t) => [
    index('audit_events_at_idx').on(t.at, t.id),
    index('audit_events_user_idx').on(t.userId, t.at),
    index('audit_events_customer_idx').on(t.customerId, t.at, t.id),
    index('audit_events_account_idx').on(t.accountCustomerId, t.at, t.id),
    index('audit_events_email_idx').on(sql`lower(${t.email})`, t.at),
    index('audit_events_type_idx').on(t.type, t.at),
    index('audit_events_subject_idx').on(t.subjectType, t.subjectId, t.at),
  ],
);
