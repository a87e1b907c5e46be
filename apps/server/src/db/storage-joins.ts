import { eq } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
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
