import { eq } from 'drizzle-orm';
import type { PgSelect, PgSelectBase, SelectedFields } from 'drizzle-orm/pg-core';
import type { Executor } from './client.js';
import { backupPackages, buckets, storageAccounts, storageLocations } from './schema/index.js';

/**
 * Joins a query that reads storage_locations to the location's bucket and the bucket's storage account
 * (every location has both), so it can select their columns. Pass the query in dynamic mode
 * (`.$dynamic()`).
 */
export const joinLocationStorage = <T extends PgSelect>(query: T) =>
  query
    .innerJoin(buckets, eq(buckets.id, storageLocations.bucketId))
    .innerJoin(storageAccounts, eq(storageAccounts.id, buckets.storageAccountId));

/**
 * Joins a query that reads backup_packages to where the package keeps its data (001 §2): its storage
 * location, the location's bucket and the bucket's account; a package without a location drops out. Inner
 * joins only: through a dynamic query the selected columns of a left join would not be typed nullable.
 */
export const joinPackageStorage = <T extends PgSelect>(query: T) =>
  joinLocationStorage(query.innerJoin(storageLocations, eq(storageLocations.id, backupPackages.storageLocationId)));

/** The join chain below on any fields: what it makes nullable. */
const packagesJoinedToStorage = (db: Executor, fields: SelectedFields) =>
  db
    .select(fields)
    .from(backupPackages)
    .leftJoin(storageLocations, eq(storageLocations.id, backupPackages.storageLocationId))
    .leftJoin(buckets, eq(buckets.id, storageLocations.bucketId))
    .leftJoin(storageAccounts, eq(storageAccounts.id, buckets.storageAccountId));

/**
 * Selects `fields` from backup_packages left-joined to where each package keeps its data: its storage location,
 * the location's bucket and the bucket's account, null for a package without a location. Typed as a plain query
 * of the caller's fields with those tables nullable (drizzle cannot join on a query of generic fields, nor type
 * a dynamic query's left joins nullable); the caller joins and filters further.
 */
export const selectPackagesWithStorage = <Fields extends SelectedFields>(db: Executor, fields: Fields) =>
  packagesJoinedToStorage(db, fields) as unknown as PgSelectBase<
    'backup_packages',
    Fields,
    'partial',
    ReturnType<typeof packagesJoinedToStorage>['_']['nullabilityMap']
  >;
