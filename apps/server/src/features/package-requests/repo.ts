import type { PackageRequestStatus, PackageRequestType, Paging, StorageItem, StorageItemType } from '@portal/domain';
import { aliasedTable, and, asc, count, desc, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import { type Executor, oneOrNull } from '../../db/client.js';
import { countOf, selectPage } from '../../db/paging.js';
import {
  backupPackages,
  buckets,
  customers,
  packageRequests,
  packageTemplates,
  storageAccounts,
  storageLocations,
  users,
} from '../../db/schema/index.js';
import { type TemplateRecord, templateFields } from '../package-templates/repo.js';

/** Whose requests: the provider's direct customers (null) or a reseller's children (its customer id). */
export type RequestScope = number | null;

const inScope = (scope: RequestScope): SQL =>
  scope === null ? isNull(customers.parentResellerCustomerId) : eq(customers.parentResellerCustomerId, scope);

const requestedTemplate = aliasedTable(packageTemplates, 'requested_template');
const requester = aliasedTable(users, 'requester');

const requestFields = {
  id: packageRequests.id,
  requestType: packageRequests.requestType,
  status: packageRequests.status,
  customerId: packageRequests.customerId,
  parentResellerCustomerId: customers.parentResellerCustomerId,
  backupPackageId: packageRequests.backupPackageId,
  backupPackageName: backupPackages.name,
  requestedTemplateId: packageRequests.requestedTemplateId,
  requestedBackupPackageName: requestedTemplate.name,
  customerCompanyName: customers.displayName,
  customerUsername: sql<string>`coalesce(${requester.email}, ${customers.superAdminEmail}, '')`,
  firstApprovalRequest: packageRequests.firstApprovalRequest,
  createdAt: packageRequests.createdAt,
  decidedAt: packageRequests.decidedAt,
};

export interface RequestRecord {
  id: number;
  requestType: PackageRequestType;
  status: PackageRequestStatus;
  customerId: number;
  parentResellerCustomerId: number | null;
  backupPackageId: number | null;
  backupPackageName: string | null;
  requestedTemplateId: number | null;
  requestedBackupPackageName: string | null;
  customerCompanyName: string;
  customerUsername: string;
  firstApprovalRequest: boolean;
  createdAt: Date;
  decidedAt: Date | null;
}

/** A reseller package children's packages may live in, with where it is stored. */
export interface HostPackage {
  id: number;
  bucketId: number;
  subfolder: string | null;
}

const selectRequests = (db: Executor) =>
  db
    .select(requestFields)
    .from(packageRequests)
    .innerJoin(customers, eq(customers.id, packageRequests.customerId))
    .leftJoin(backupPackages, eq(backupPackages.id, packageRequests.backupPackageId))
    .leftJoin(requestedTemplate, eq(requestedTemplate.id, packageRequests.requestedTemplateId))
    .leftJoin(requester, eq(requester.id, packageRequests.requestedByUserId));

/**
 * The queries of package requests (000 §2, §3) and of what their approval links and creates. Reads of
 * the admin tables take the scope, so another tenant's request is not found; the writes take ids the
 * service found that way first, in its transaction.
 */
export function createPackageRequestsRepo(db: Executor) {
  return {
    async pendingPage(scope: RequestScope, paging: Paging): Promise<{ rows: RequestRecord[]; total: number }> {
      const where = and(eq(packageRequests.status, 'PENDING'), inScope(scope), eq(customers.beingDeleted, false));
      return selectPage(
        selectRequests(db).where(where).orderBy(asc(packageRequests.createdAt), asc(packageRequests.id)),
        () =>
          db
            .select({ total: count() })
            .from(packageRequests)
            .innerJoin(customers, eq(customers.id, packageRequests.customerId))
            .where(where),
        paging,
      );
    },

    /** A customer's own requests, pending first, then the newest. */
    async ofCustomer(customerId: number, paging: Paging): Promise<{ rows: RequestRecord[]; total: number }> {
      const where = eq(packageRequests.customerId, customerId);
      return selectPage(
        selectRequests(db)
          .where(where)
          .orderBy(
            sql`${packageRequests.status} <> 'PENDING'`,
            desc(packageRequests.createdAt),
            desc(packageRequests.id),
          ),
        () => countOf(db, packageRequests, where),
        paging,
      );
    },

    /** The request, its row locked until the transaction ends; null outside the scope ('system': any). */
    async lock(scope: RequestScope | 'system', requestId: number): Promise<RequestRecord | null> {
      const where = and(eq(packageRequests.id, requestId), scope === 'system' ? undefined : inScope(scope));
      return oneOrNull(selectRequests(db).where(where).for('update', { of: packageRequests }));
    },

    /** Moves a pending request on; false when it is no longer pending (decided by someone else). */
    async decide(
      requestId: number,
      status: Exclude<PackageRequestStatus, 'PENDING'>,
      at: Date,
      linked: { type: StorageItemType; id: number } | null,
    ): Promise<boolean> {
      const rows = await db
        .update(packageRequests)
        .set({
          status,
          decidedAt: at,
          linkedStorageItemType: linked?.type ?? null,
          linkedStorageItemId: linked?.id ?? null,
        })
        .where(and(eq(packageRequests.id, requestId), eq(packageRequests.status, 'PENDING')))
        .returning({ id: packageRequests.id });
      return rows.length > 0;
    },

    /** The declined request keeps its row when its requested package goes. */
    async detachPackage(requestId: number): Promise<void> {
      await db.update(packageRequests).set({ backupPackageId: null }).where(eq(packageRequests.id, requestId));
    },

    async template(templateId: number): Promise<TemplateRecord | null> {
      return oneOrNull(db.select(templateFields).from(packageTemplates).where(eq(packageTemplates.id, templateId)));
    },

    // --- Storage items (000 §3) ---------------------------------------------------------------------

    async storageAccounts(): Promise<StorageItem[]> {
      const rows = await db
        .select({ id: storageAccounts.id, name: storageAccounts.name })
        .from(storageAccounts)
        .orderBy(desc(storageAccounts.defaultStorageAccount), asc(storageAccounts.name));
      // The portal does not know an account's size: unlimited.
      return rows.map((r) => ({ ...r, capacityInBytes: -1 }));
    },

    /** The storage locations of the given customers, named bucket/subfolder. */
    async locationsOf(customerIds: number[]): Promise<Array<StorageItem & { customerId: number }>> {
      if (customerIds.length === 0) return [];
      const rows = await db
        .select({
          id: storageLocations.id,
          customerId: storageLocations.customerId,
          bucket: buckets.name,
          subfolder: storageLocations.subfolder,
        })
        .from(storageLocations)
        .innerJoin(buckets, eq(buckets.id, storageLocations.bucketId))
        .where(inArray(storageLocations.customerId, customerIds))
        .orderBy(desc(storageLocations.defaultForCustomer), asc(storageLocations.id));
      return rows.map((r) => ({
        id: r.id,
        customerId: r.customerId,
        name: r.subfolder ? `${r.bucket}/${r.subfolder}` : r.bucket,
        capacityInBytes: -1,
      }));
    },

    /** The reseller's own running packages with the quota left in each: its quota minus its live children's. */
    async resellerPackages(resellerCustomerId: number): Promise<StorageItem[]> {
      const children = db
        .select({
          parentId: backupPackages.parentResellerPackageId,
          used: sql<number>`sum(${backupPackages.packageQuotaSizeInBytes})`.as('used'),
        })
        .from(backupPackages)
        .where(eq(backupPackages.beingDeleted, false))
        .groupBy(backupPackages.parentResellerPackageId)
        .as('children');
      return db
        .select({
          id: backupPackages.id,
          name: backupPackages.name,
          capacityInBytes:
            sql<number>`${backupPackages.packageQuotaSizeInBytes} - coalesce(${children.used}, 0)`.mapWith(Number),
        })
        .from(backupPackages)
        .leftJoin(children, eq(children.parentId, backupPackages.id))
        .where(
          and(
            eq(backupPackages.customerId, resellerCustomerId),
            eq(backupPackages.status, 'ACTIVE'),
            eq(backupPackages.beingDeleted, false),
          ),
        )
        .orderBy(asc(backupPackages.name), asc(backupPackages.id));
    },

    async hostPackage(packageId: number): Promise<HostPackage | null> {
      return oneOrNull(
        db
          .select({
            id: backupPackages.id,
            bucketId: storageLocations.bucketId,
            subfolder: storageLocations.subfolder,
          })
          .from(backupPackages)
          .innerJoin(storageLocations, eq(storageLocations.id, backupPackages.storageLocationId))
          .where(eq(backupPackages.id, packageId)),
      );
    },

    // --- What an approval creates and changes ---------------------------------------------------------

    async defaultLocation(customerId: number): Promise<number | null> {
      const [row] = await db
        .select({ id: storageLocations.id })
        .from(storageLocations)
        .where(eq(storageLocations.customerId, customerId))
        .orderBy(desc(storageLocations.defaultForCustomer), asc(storageLocations.id))
        .limit(1);
      return row?.id ?? null;
    },

    async insertPackage(values: typeof backupPackages.$inferInsert): Promise<number> {
      const [row] = await db.insert(backupPackages).values(values).returning({ id: backupPackages.id });
      if (!row) throw new Error('package not inserted');
      return row.id;
    },

    /** Places a REQUESTED package (false when it is not one); the status itself moves through the backup state. */
    async placePackage(
      packageId: number,
      place: { storageLocationId: number; parentResellerPackageId: number | null },
    ): Promise<boolean> {
      const rows = await db
        .update(backupPackages)
        .set(place)
        .where(and(eq(backupPackages.id, packageId), eq(backupPackages.status, 'REQUESTED')))
        .returning({ id: backupPackages.id });
      return rows.length > 0;
    },

    async packageSizes(packageId: number) {
      return oneOrNull(
        db
          .select({
            packageQuotaSizeInBytes: backupPackages.packageQuotaSizeInBytes,
            maxBackupSizePerMachineInMbs: backupPackages.maxBackupSizePerMachineInMbs,
          })
          .from(backupPackages)
          .where(eq(backupPackages.id, packageId)),
      );
    },

    async changePackage(
      packageId: number,
      change: {
        templateId: number;
        packageQuotaSizeInBytes: number;
        maxBackupSizePerMachineInMbs: number;
        noOfMachinesLimit: number;
      },
    ) {
      await db
        .update(backupPackages)
        .set({ ...change, upOrDownGradeRequested: false, requestedTemplateId: null })
        .where(eq(backupPackages.id, packageId));
    },

    async clearChangeRequest(packageId: number) {
      await db
        .update(backupPackages)
        .set({ upOrDownGradeRequested: false, requestedTemplateId: null })
        .where(eq(backupPackages.id, packageId));
    },

    /** The customer's super admin, whom a decline is mailed to. */
    async superAdminOf(customerId: number): Promise<{ email: string; firstName: string } | null> {
      return oneOrNull(
        db
          .select({ email: users.email, firstName: users.firstName })
          .from(customers)
          .innerJoin(users, eq(users.id, customers.superAdminUserId))
          .where(and(eq(customers.id, customerId), ne(users.status, 'INACTIVE'))),
      );
    },
  };
}
export type PackageRequestsRepo = ReturnType<typeof createPackageRequestsRepo>;
