import type { MachineStatus, PackageStatus, Paging } from '@portal/domain';
import { and, asc, eq, exists, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Executor, oneOrNull, rowsOf } from '../../db/client.js';
import { countOf, selectPage } from '../../db/paging.js';
import {
  backupMachines,
  backupPackages,
  billingServers,
  buckets,
  customers,
  packageTemplates,
  storageAccounts,
  storageLocations,
  userBackupPackages,
} from '../../db/schema/index.js';
import { selectPackagesWithStorage } from '../../db/storage-joins.js';
import { machinePlacesWhere } from '../local-storage/repo.js';

const requestedTemplate = alias(packageTemplates, 'requested_template');

// Correlated subqueries name their tables in full: drizzle leaves columns unqualified in a one-table select,
// where a bare "id" inside the subquery would be the machine's own.
const PACKAGE_ID = sql`${backupPackages}.id`;

/** The sum of the package's machines' last reported usage; a machine being deleted counts until it is gone. */
const usedBytes = () =>
  sql<number>`(select coalesce(sum(m.used_space_bytes), 0)::bigint from ${backupMachines} m where m.backup_package_id = ${PACKAGE_ID})`.mapWith(
    Number,
  );

/** Whether the user is linked to the package (user_backup_packages). */
const linkedTo = (userId: number) =>
  exists(
    sql`(select 1 from ${userBackupPackages} l where l.user_id = ${userId} and l.backup_package_id = ${PACKAGE_ID})`,
  );

const livePackage = eq(backupPackages.beingDeleted, false);

/** The columns every table of packages shows (the packages', a customer's and a user's). */
export const packageRowColumns = {
  id: backupPackages.id,
  customerId: backupPackages.customerId,
  name: backupPackages.name,
  status: backupPackages.status,
  packageQuotaSizeInBytes: backupPackages.packageQuotaSizeInBytes,
};

/**
 * Every field a package row, its page and the decisions about it read. `linkedUserId` is the caller's id
 * when the caller is a customer-side user (null for provider and reseller admins).
 */
function recordFields(linkedUserId: number | null) {
  return {
    ...packageRowColumns,
    customerName: customers.companyName,
    parentResellerCustomerId: customers.parentResellerCustomerId,
    maxBackupSizePerMachineInMbs: backupPackages.maxBackupSizePerMachineInMbs,
    noOfMachinesLimit: backupPackages.noOfMachinesLimit,
    // A machine being deleted no longer counts (as in the customers' and users' tables).
    numberOfBackupMachines: sql<number>`(select count(*)::int from ${backupMachines} m where m.backup_package_id = ${PACKAGE_ID} and not m.being_deleted)`,
    usedSpaceInBytes: usedBytes(),
    upOrDownGradeRequested: backupPackages.upOrDownGradeRequested,
    templateId: backupPackages.templateId,
    requestedBackupPackageTemplateName: requestedTemplate.name,
    whmcsServiceId: backupPackages.whmcsServiceId,
    billingServer: {
      whmcsHost: billingServers.whmcsHost,
      whmcsPort: billingServers.whmcsPort,
      whmcsPath: billingServers.whmcsPath,
    },
    bucketId: buckets.id,
    bucketName: buckets.name,
    subfolder: storageLocations.subfolder,
    storageAccountId: storageAccounts.id,
    storageAccountName: storageAccounts.name,
    beingDeleted: backupPackages.beingDeleted,
    linkedToViewer: linkedUserId === null ? sql<boolean>`false` : sql<boolean>`${linkedTo(linkedUserId)}`,
  };
}

/**
 * The queries of the package pages (000 §2, §4): lookups by id return the package with its owners and
 * the service decides with the domain's rules whether the caller sees it; the customer's table takes the
 * customer (and, for an admin who is not the super admin, the user whose links it is limited to).
 */
export function createPackagesRepo(db: Executor) {
  const select = (linkedUserId: number | null) =>
    selectPackagesWithStorage(db, recordFields(linkedUserId))
      .innerJoin(customers, eq(customers.id, backupPackages.customerId))
      .leftJoin(billingServers, eq(billingServers.id, customers.whmcsServerId))
      .leftJoin(requestedTemplate, eq(requestedTemplate.id, backupPackages.requestedTemplateId))
      .$dynamic();

  return {
    /** One package, also while it is being deleted (the service decides what that means). */
    async package(packageId: number, linkedUserId: number | null) {
      return oneOrNull(select(linkedUserId).where(eq(backupPackages.id, packageId)));
    },

    /** A page of the customer's live packages by name; with `linkedUserId` only those linked to that user. */
    async page(scope: { customerId: number; linkedUserId: number | null; onlyLinked: boolean }, paging: Paging) {
      const conditions: SQL[] = [eq(backupPackages.customerId, scope.customerId), livePackage];
      if (scope.onlyLinked && scope.linkedUserId !== null) conditions.push(linkedTo(scope.linkedUserId));
      const where = and(...conditions);
      return selectPage(
        select(scope.linkedUserId).where(where).orderBy(sql`lower(${backupPackages.name})`, asc(backupPackages.id)),
        () => countOf(db, backupPackages, where),
        paging,
      );
    },

    /** Renames a live ACTIVE or OVER_QUOTA package and sets its per-machine limit (checked in the statement). */
    async edit(packageId: number, change: { name: string; maxBackupSizePerMachineInMbs: number }): Promise<boolean> {
      const rows = await db
        .update(backupPackages)
        .set(change)
        .where(
          and(eq(backupPackages.id, packageId), livePackage, sql`${backupPackages.status} in ('ACTIVE', 'OVER_QUOTA')`),
        )
        .returning({ id: backupPackages.id });
      return rows.length > 0;
    },

    /** Names an APPROVED package; its status moves on through the backup state. */
    async rename(packageId: number, name: string): Promise<void> {
      await db.update(backupPackages).set({ name }).where(eq(backupPackages.id, packageId));
    },

    /** The quota, status and usage the quota rule reads; null for a package gone or being deleted. */
    async quotaOf(packageId: number): Promise<{ status: PackageStatus; quota: number; used: number } | null> {
      return oneOrNull(
        db
          .select({ status: backupPackages.status, quota: backupPackages.packageQuotaSizeInBytes, used: usedBytes() })
          .from(backupPackages)
          .where(and(eq(backupPackages.id, packageId), livePackage)),
      );
    },

    /** The package's live machines with what the per-machine quota rule reads. */
    async machineUsage(packageId: number): Promise<{ id: number; status: MachineStatus; usedSpaceBytes: number }[]> {
      return db
        .select({ id: backupMachines.id, status: backupMachines.status, usedSpaceBytes: backupMachines.usedSpaceBytes })
        .from(backupMachines)
        .where(and(eq(backupMachines.backupPackageId, packageId), eq(backupMachines.beingDeleted, false)));
    },

    /** The package a machine is in (null once the machine is gone). */
    async packageOfMachine(machineId: number): Promise<number | null> {
      const [row] = await db
        .select({ id: backupMachines.backupPackageId })
        .from(backupMachines)
        .where(eq(backupMachines.id, machineId));
      return row?.id ?? null;
    },

    /** The package's machines connected now: those whose agents must hear of a change to their tasks. */
    async onlineMachineIds(packageId: number): Promise<number[]> {
      const rows = await db
        .select({ id: backupMachines.id })
        .from(backupMachines)
        .where(and(eq(backupMachines.backupPackageId, packageId), eq(backupMachines.online, true)));
      return rows.map((r) => r.id);
    },

    /**
     * Marks a SUSPENDED package for deletion (000 §4) and its machines with it, so their agents are refused
     * at once. The status is checked in the statement itself, so a change in between refuses.
     */
    async markForDeletion(packageId: number): Promise<boolean> {
      return db.transaction(async (tx) => {
        const rows = await tx
          .update(backupPackages)
          .set({ beingDeleted: true })
          .where(and(eq(backupPackages.id, packageId), eq(backupPackages.status, 'SUSPENDED'), livePackage))
          .returning({ id: backupPackages.id });
        if (rows.length === 0) return false;
        await tx
          .update(backupMachines)
          .set({ beingDeleted: true })
          .where(eq(backupMachines.backupPackageId, packageId));
        return true;
      });
    },

    /** Takes one package marked for deletion that no other instance holds, for `until`. */
    async claimDeletion(now: Date, until: Date): Promise<number | null> {
      const result = await db.execute(sql`
        update ${backupPackages} set deletion_lease_until = ${until}
         where id = (
           select p.id from ${backupPackages} p
             join ${customers} c on c.id = p.customer_id
            where p.being_deleted and not c.being_deleted
              and (p.deletion_lease_until is null or p.deletion_lease_until < ${now})
            order by p.id limit 1
            for update of p skip locked)
        returning id`);
      return rowsOf<{ id: number }>(result)[0]?.id ?? null;
    },

    /** The package's machines and where their repositories are. */
    machinePlaces: (packageId: number) => machinePlacesWhere(db, eq(backupMachines.backupPackageId, packageId)),

    /** Whether the package still waits to be deleted (another instance may have finished it). */
    async markedForDeletion(packageId: number): Promise<boolean> {
      const [row] = await db
        .select({ id: backupPackages.id })
        .from(backupPackages)
        .where(and(eq(backupPackages.id, packageId), eq(backupPackages.beingDeleted, true)));
      return row !== undefined;
    },
  };
}

export type PackagesRepo = ReturnType<typeof createPackagesRepo>;
export type PackageRecord = NonNullable<Awaited<ReturnType<PackagesRepo['package']>>>;
