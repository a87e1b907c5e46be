import { eq } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import { backupMachines, backupPackages, customers } from './schema/index.js';

/**
 * The three statuses that decide whether a machine's tasks may run (000 §4): the machine's own, its
 * package's and its customer's. Select them on a query joined with joinMachineOwners.
 */
export const machineStatuses = {
  machineStatus: backupMachines.status,
  packageStatus: backupPackages.status,
  customerStatus: customers.status,
};

/**
 * Joins a query that reads backup_machines to the machine's package and customer (every machine has
 * both), so it can select machineStatuses and the customer's columns. Pass the query in dynamic mode
 * (`.$dynamic()`).
 */
export const joinMachineOwners = <T extends PgSelect>(query: T) =>
  query
    .innerJoin(backupPackages, eq(backupPackages.id, backupMachines.backupPackageId))
    .innerJoin(customers, eq(customers.id, backupMachines.customerId));
