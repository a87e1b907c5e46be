import { STORAGE_ACCOUNT_TYPES, STORAGE_USER_APIS } from '@portal/domain';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgEnum, pgTable, serial, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { customers } from './accounts.js';
import { belongsTo, createdAt } from './columns.js';

// The storage services, their buckets and the customers' locations in them. A package lives in a location, and
// storage.ts's users, keys and migrations point at packages and machines: backup.ts and storage.ts both import
// this file, and it imports neither, so the schema files form no circle.

export const storageAccountTypeEnum = pgEnum('storage_account_type', STORAGE_ACCOUNT_TYPES);
export const storageUserApiEnum = pgEnum('storage_user_api', STORAGE_USER_APIS);

/**
 * Object storage services the provider uses (001 §3, DESIGN §7). LOCAL is the embedded service served by
 * the portal itself and needs no endpoint or keys; S3 is any S3 + IAM service. Secrets are encrypted with
 * MASTER_KEY.
 */
export const storageAccounts = pgTable(
  'storage_accounts',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 100 }).notNull(),
    type: storageAccountTypeEnum('type').notNull(),
    defaultStorageAccount: boolean('default_storage_account').notNull().default(false),
    endpoint: varchar('endpoint', { length: 255 }),
    /** Some services (Wasabi, Ceph) serve IAM on another host than S3; null means the AWS default. */
    iamEndpoint: varchar('iam_endpoint', { length: 255 }),
    region: varchar('region', { length: 50 }),
    /** MinIO and Ceph usually need path-style bucket addressing. */
    forcePathStyle: boolean('force_path_style').notNull().default(false),
    accessKeyId: varchar('access_key_id', { length: 128 }),
    secretAccessKeyEncrypted: text('secret_access_key_encrypted'),
    /** S3 only: which API manages its users and keys (RGW admin-ops or AWS IAM). */
    userApi: storageUserApiEnum('user_api'),
    /** New buckets are created with S3 Object Lock, so written backup objects cannot be destroyed early. */
    requireObjectLock: boolean('require_object_lock').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('storage_accounts_name_uq').on(sql`lower(${t.name})`),
    // New packages go to the default account, so there must never be two.
    uniqueIndex('storage_accounts_default_uq').on(t.defaultStorageAccount).where(sql`${t.defaultStorageAccount}`),
  ],
);

/**
 * Buckets of a storage account, whether the portal created them (managed) or found them at the service.
 * The policy is the JSON text the portal last wrote or read, compared with the expected one for
 * 'Policy consistent'.
 */
export const buckets = pgTable(
  'buckets',
  {
    id: serial('id').primaryKey(),
    // Buckets hold backup data: an account with buckets is removed only after its buckets, deliberately.
    storageAccountId: integer('storage_account_id')
      .notNull()
      .references(() => storageAccounts.id, { onDelete: 'restrict' }),
    name: varchar('name', { length: 63 }).notNull(),
    managed: boolean('managed').notNull().default(false),
    // The bucket and its data outlive the customer's row until the storage clean-up removes them.
    customerId: integer('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    policy: text('policy'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('buckets_account_name_uq').on(t.storageAccountId, t.name),
    index('buckets_customer_idx').on(t.customerId),
  ],
);

/**
 * A customer's place for backup data: a bucket plus an optional subfolder (001 §3). Packages live in one
 * location; at most one location per customer is its default.
 */
export const storageLocations = pgTable(
  'storage_locations',
  {
    id: serial('id').primaryKey(),
    customerId: belongsTo('customer_id', () => customers.id),
    bucketId: integer('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'restrict' }),
    subfolder: varchar('subfolder', { length: 255 }),
    defaultForCustomer: boolean('default_for_customer').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('storage_locations_customer_idx').on(t.customerId),
    uniqueIndex('storage_locations_default_uq').on(t.customerId).where(sql`${t.defaultForCustomer}`),
    // Two locations on the same bucket folder would let two customers see each other's repositories.
    uniqueIndex('storage_locations_place_uq').on(t.bucketId, sql`coalesce(${t.subfolder}, '')`),
  ],
);
