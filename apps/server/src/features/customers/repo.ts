import type { CustomerAccountEditPayload, ManagedCustomers, Paging, Role } from '@portal/domain';
import { and, asc, count, eq, ilike, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Executor, oneOrNull, rowsOf } from '../../db/client.js';
import { countOf, selectPage } from '../../db/paging.js';
import {
  backupMachines,
  backupPackages,
  billingServers,
  buckets,
  customers,
  packageRequests,
  resellerSettings,
  sessions,
  storageAccounts,
  storageLocations,
  users,
} from '../../db/schema/index.js';
import { managedCustomersCondition } from '../../db/scope.js';
import { joinLocationStorage, selectPackagesWithStorage } from '../../db/storage-joins.js';
import { machinePlacesWhere } from '../local-storage/repo.js';
import { packageRowColumns } from '../packages/repo.js';

/**
 * Which customers a call covers: the provider's three lists (002 §2.5), a reseller's own customers, and
 * for one customer the same scopes (the provider every customer, a reseller its child customers).
 */
export type CustomerList =
  | { kind: 'all' }
  | { kind: 'toMakeResellers' }
  | { kind: 'resellers' }
  | { kind: 'childrenOf'; resellerCustomerId: number };

const parent = alias(customers, 'parent_reseller');

/** The roles that may become a customer's super admin (001 §5 'super admin user'). */
const ADMIN_ROLES: Role[] = ['ROLE_CUSTOMER_SUPER_ADMIN_USER', 'ROLE_CUSTOMER_ADMIN_USER'];

/** Every field of a customer row (CustomerRow of the domain) the presenter reads. */
const rowFields = {
  id: customers.id,
  companyName: customers.companyName,
  displayName: customers.displayName,
  status: customers.status,
  displayStatus: customers.displayStatus,
  storageLocationCount: customers.storageLocationCount,
  beingDeleted: customers.beingDeleted,
  superAdminId: customers.superAdminUserId,
  superAdminFullName: customers.superAdminName,
  superAdminEmail: customers.superAdminEmail,
  parentResellerCustomerId: customers.parentResellerCustomerId,
  parentResellerCompanyName: parent.displayName,
  hasResellerSettings: sql<boolean>`${resellerSettings.customerId} is not null`,
  resellerEnabled: sql<boolean>`coalesce(${resellerSettings.resellerEnabled}, false)`,
  brandName: resellerSettings.brandName,
  whmcsServerId: customers.whmcsServerId,
  whmcsServerDescription: billingServers.description,
  cpanelPluginEnabled: customers.cpanelPluginEnabled,
  allowProviderMachineControl: customers.allowProviderMachineControl,
  // Ten rows a page: a count per row through the customer and parent indexes costs little.
  numberOfBackupPackages: sql<number>`(select count(*)::int from ${backupPackages} where ${backupPackages.customerId} = ${customers.id} and not ${backupPackages.beingDeleted})`,
  numberOfChildCustomers: sql<number>`(select count(*)::int from ${customers} as child where child.parent_reseller_customer_id = ${customers.id})`,
};

/** LIKE's wildcards in a search text stand for themselves. */
const likeContains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function listWhere(list: CustomerList, search: string | undefined): SQL | undefined {
  const pattern = search === undefined ? null : likeContains(search);
  return and(
    eq(customers.beingDeleted, false),
    list.kind === 'childrenOf' ? eq(customers.parentResellerCustomerId, list.resellerCustomerId) : undefined,
    // The SQL form of the domain's mayBecomeReseller (the tests hold the two together).
    list.kind === 'toMakeResellers'
      ? and(
          isNull(customers.parentResellerCustomerId),
          sql`coalesce(${resellerSettings.resellerEnabled}, false) = false`,
        )
      : undefined,
    list.kind === 'resellers' ? eq(resellerSettings.resellerEnabled, true) : undefined,
    pattern === null
      ? undefined
      : or(
          ilike(customers.companyName, pattern),
          ilike(customers.superAdminName, pattern),
          ilike(customers.superAdminEmail, pattern),
        ),
  );
}

/** A customer's packages that still count: one being deleted is on its way out (as in the users' tables). */
const livePackagesOf = (customerId: number) =>
  and(eq(backupPackages.customerId, customerId), eq(backupPackages.beingDeleted, false));

/**
 * The customers' queries (DESIGN §4): the lists take the caller's CustomerList, one customer the caller's
 * ManagedCustomers; every other method takes a customer id the service found through those, or the
 * caller's own (the account page).
 */
export function createCustomersRepo(db: Executor) {
  const selectRows = () =>
    db
      .select(rowFields)
      .from(customers)
      .leftJoin(parent, eq(parent.id, customers.parentResellerCustomerId))
      .leftJoin(resellerSettings, eq(resellerSettings.customerId, customers.id))
      .leftJoin(billingServers, eq(billingServers.id, customers.whmcsServerId));

  return {
    /** A page of a list, ordered as the dashboard's name column (lower(display name), id; indexed). */
    async customerPage(list: CustomerList, search: string | undefined, page: Paging) {
      const where = listWhere(list, search);
      // The page's ids first, from the index alone; the per-row counts then run for those ten only
      // (in one query, the rows an OFFSET skips would have had theirs computed too).
      const { rows: ids, total } = await selectPage(
        db
          .select({ id: customers.id })
          .from(customers)
          .leftJoin(resellerSettings, eq(resellerSettings.customerId, customers.id))
          .where(where)
          .orderBy(asc(sql`lower(${customers.displayName})`), asc(customers.id)),
        () =>
          db
            .select({ total: count() })
            .from(customers)
            .leftJoin(resellerSettings, eq(resellerSettings.customerId, customers.id))
            .where(where),
        page,
      );
      const pageIds = ids.map((r) => r.id);
      const found = pageIds.length === 0 ? [] : await selectRows().where(inArray(customers.id, pageIds));
      const byId = new Map(found.map((row) => [row.id, row]));
      const rows = pageIds.flatMap((id) => byId.get(id) ?? []);
      return { rows, total };
    },

    /** One customer within the scope; customers being deleted only when asked for (repeated deletes). */
    async customer(scope: ManagedCustomers, customerId: number, options: { includeBeingDeleted?: boolean } = {}) {
      return oneOrNull(
        selectRows().where(
          and(
            eq(customers.id, customerId),
            managedCustomersCondition(scope),
            options.includeBeingDeleted ? undefined : eq(customers.beingDeleted, false),
          ),
        ),
      );
    },

    /** The customer's storage locations with their accounts (002 §3), in creation order. */
    storageLocations: (customerId: number) =>
      joinLocationStorage(
        db
          .select({
            id: storageLocations.id,
            customerId: storageLocations.customerId,
            bucketId: storageLocations.bucketId,
            bucketName: buckets.name,
            subfolder: storageLocations.subfolder,
            defaultForCustomer: storageLocations.defaultForCustomer,
            numberOfBackupPackages: sql<number>`(select count(*)::int from ${backupPackages} where ${backupPackages.storageLocationId} = ${storageLocations.id})`,
            accountId: storageAccounts.id,
            accountName: storageAccounts.name,
            defaultStorageAccount: storageAccounts.defaultStorageAccount,
            accountType: storageAccounts.type,
          })
          .from(storageLocations)
          .$dynamic(),
      )
        .where(eq(storageLocations.customerId, customerId))
        .orderBy(asc(storageLocations.id)),

    /** A page of the customer's packages (002 §3 'as listed under a customer'), by name on its index. */
    packagePage(customerId: number, page: Paging) {
      const packages = selectPackagesWithStorage(db, {
        ...packageRowColumns,
        usedBytes:
          sql<number>`(select coalesce(sum(${backupMachines.usedSpaceBytes}), 0)::bigint from ${backupMachines} where ${backupMachines.backupPackageId} = ${backupPackages.id})`.mapWith(
            Number,
          ),
        // A machine being deleted no longer counts (as in the users' tables); its data does until it is gone.
        numberOfBackupMachines: sql<number>`(select count(*)::int from ${backupMachines} where ${backupMachines.backupPackageId} = ${backupPackages.id} and not ${backupMachines.beingDeleted})`,
        numberOfChildCustomerPackages: sql<number>`(select count(*)::int from ${backupPackages} as child where child.parent_reseller_package_id = ${backupPackages.id})`,
        storageAccountId: storageAccounts.id,
        storageAccountName: storageAccounts.name,
        whmcsServiceId: backupPackages.whmcsServiceId,
        billingServer: {
          whmcsHost: billingServers.whmcsHost,
          whmcsPort: billingServers.whmcsPort,
          whmcsPath: billingServers.whmcsPath,
        },
      })
        .innerJoin(customers, eq(customers.id, backupPackages.customerId))
        .leftJoin(billingServers, eq(billingServers.id, customers.whmcsServerId))
        .where(livePackagesOf(customerId))
        .orderBy(asc(backupPackages.name), asc(backupPackages.id));
      return selectPage(packages, () => countOf(db, backupPackages, livePackagesOf(customerId)), page);
    },

    /** The customer's machines connected now: those whose agents must hear of a change to their tasks. */
    async onlineMachineIds(customerId: number): Promise<number[]> {
      const rows = await db
        .select({ id: backupMachines.id })
        .from(backupMachines)
        .where(and(eq(backupMachines.customerId, customerId), eq(backupMachines.online, true)));
      return rows.map((r) => r.id);
    },

    /** Whether every user of the customer must use two-factor sign-in; false for a customer being deleted. */
    async setRequireMfa(customerId: number, requireMfa: boolean): Promise<boolean> {
      const changed = await db
        .update(customers)
        .set({ requireMfa })
        .where(and(eq(customers.id, customerId), eq(customers.beingDeleted, false)))
        .returning({ id: customers.id });
      return changed.length > 0;
    },

    async setPlugins(customerId: number, cpanelPluginEnabled: boolean): Promise<void> {
      await db.update(customers).set({ cpanelPluginEnabled }).where(eq(customers.id, customerId));
    },

    /** Enables reseller settings, creating them when absent; an existing brand name is kept. */
    async enableReseller(customerId: number, defaultBrandName: string): Promise<void> {
      await db
        .insert(resellerSettings)
        .values({ customerId, resellerEnabled: true, brandName: defaultBrandName })
        .onConflictDoUpdate({
          target: resellerSettings.customerId,
          set: {
            resellerEnabled: true,
            brandName: sql`coalesce(nullif(${resellerSettings.brandName}, ''), excluded.brand_name)`,
          },
        });
    },

    /**
     * Marks a SUSPENDED customer without customers of its own for deletion, and at once: its machines'
     * credentials stop working (a machine being deleted is refused) and its users are signed out. False
     * when the customer no longer qualifies (the caller re-reads why).
     */
    async markForDeletion(customerId: number): Promise<boolean> {
      return db.transaction(async (tx) => {
        const marked = await tx
          .update(customers)
          .set({ beingDeleted: true })
          .where(
            and(
              eq(customers.id, customerId),
              eq(customers.status, 'SUSPENDED'),
              eq(customers.beingDeleted, false),
              sql`not exists (select 1 from ${customers} as child where child.parent_reseller_customer_id = ${customerId})`,
            ),
          )
          .returning({ id: customers.id });
        if (marked.length === 0) return false;
        await tx.update(backupMachines).set({ beingDeleted: true }).where(eq(backupMachines.customerId, customerId));
        await tx
          .delete(sessions)
          .where(
            inArray(sessions.userId, tx.select({ id: users.id }).from(users).where(eq(users.customerId, customerId))),
          );
        return true;
      });
    },

    // --- The customer's own account (001 §2) ---------------------------------------------------------

    async account(customerId: number) {
      return oneOrNull(
        db
          .select({
            id: customers.id,
            status: customers.status,
            displayStatus: customers.displayStatus,
            companyName: customers.companyName,
            superAdminId: customers.superAdminUserId,
            superAdminFullName: customers.superAdminName,
            superAdminEmail: customers.superAdminEmail,
            cpanelPluginEnabled: customers.cpanelPluginEnabled,
            allowProviderMachineControl: customers.allowProviderMachineControl,
            parentResellerCustomerId: customers.parentResellerCustomerId,
            requireMfa: customers.requireMfa,
          })
          .from(customers)
          .where(and(eq(customers.id, customerId), eq(customers.beingDeleted, false))),
      );
    },

    /** The ACTIVE super admin and admins of the customer: who may become its super admin. */
    adminCandidates: (customerId: number) =>
      db
        .select({ id: users.id, firstName: users.firstName, surname: users.surname, email: users.email })
        .from(users)
        .where(and(eq(users.customerId, customerId), eq(users.status, 'ACTIVE'), inArray(users.role, ADMIN_ROLES)))
        .orderBy(asc(users.surname), asc(users.firstName), asc(users.id)),

    /**
     * Saves the account in one transaction. The chosen user (an ACTIVE super admin or admin of the
     * customer) becomes its super admin and every other super admin of it an admin, so the role moves
     * over whole. False when the chosen user does not qualify (nothing is saved then).
     */
    async updateAccount(
      customerId: number,
      changes: Pick<CustomerAccountEditPayload, 'companyName' | 'cpanelPluginEnabled' | 'userIdToBeAdmin'> & {
        allowProviderMachineControl?: boolean | undefined;
      },
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        const locked = await tx
          .select({ id: customers.id })
          .from(customers)
          .where(and(eq(customers.id, customerId), eq(customers.beingDeleted, false)))
          .for('update');
        if (locked.length === 0) return false;
        const newAdmin = changes.userIdToBeAdmin;
        const promoted = await tx
          .update(users)
          .set({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' })
          .where(
            and(
              eq(users.id, newAdmin),
              eq(users.customerId, customerId),
              eq(users.status, 'ACTIVE'),
              inArray(users.role, ADMIN_ROLES),
            ),
          )
          .returning({ id: users.id });
        if (promoted.length === 0) return false;
        await tx
          .update(users)
          .set({ role: 'ROLE_CUSTOMER_ADMIN_USER' })
          .where(
            and(
              eq(users.customerId, customerId),
              eq(users.role, 'ROLE_CUSTOMER_SUPER_ADMIN_USER'),
              ne(users.id, newAdmin),
            ),
          );
        await tx
          .update(customers)
          .set({
            companyName: changes.companyName,
            cpanelPluginEnabled: changes.cpanelPluginEnabled,
            superAdminUserId: newAdmin,
            ...(changes.allowProviderMachineControl === undefined
              ? {}
              : { allowProviderMachineControl: changes.allowProviderMachineControl }),
          })
          .where(eq(customers.id, customerId));
        return true;
      });
    },

    // --- Deletion (jobs/deletion-job.ts) --------------------------------------------------------

    /**
     * Takes the next customer marked for deletion whose lease is free, and leases it until `until`. Row
     * locks with SKIP LOCKED let several server instances claim at once without taking the same one.
     */
    async claimDeletion(now: Date, until: Date): Promise<number | null> {
      const result = await db.execute(sql`
        update ${customers} set deletion_lease_until = ${until}
         where id = (
           select id from ${customers}
            where being_deleted and (deletion_lease_until is null or deletion_lease_until < ${now})
            order by id limit 1
            for update skip locked)
        returning id`);
      return rowsOf<{ id: number }>(result)[0]?.id ?? null;
    },

    /** The customer's machines and where their repositories are. */
    machinePlaces: (customerId: number) => machinePlacesWhere(db, eq(backupMachines.customerId, customerId)),

    /**
     * Removes every row of a customer marked for deletion in one transaction, children before parents,
     * so no restricting reference can stop it half-way: tasks, runs, snapshots and messages go with the
     * machines; requests and migrations with the packages; users (and their sessions, links and codes),
     * reseller settings and templates with the customer. Buckets, storage users and keys outlive it with
     * their customer link cleared (the storage clean-up's business). 'blocked' while it has customers of
     * its own; 'gone' when there is nothing (left) to delete.
     */
    /** `beforeLocations`: the storage locations' own rows, released in this transaction (their users and keys). */
    async deleteRows(
      customerId: number,
      beforeLocations: (tx: Executor) => Promise<void> = async () => {},
    ): Promise<'deleted' | 'gone' | 'blocked'> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select({ id: customers.id })
          .from(customers)
          .where(and(eq(customers.id, customerId), eq(customers.beingDeleted, true)))
          .for('update');
        if (!row) return 'gone';
        const [children] = await tx
          .select({ n: count() })
          .from(customers)
          .where(eq(customers.parentResellerCustomerId, customerId));
        if ((children?.n ?? 0) > 0) return 'blocked';
        await tx.delete(backupMachines).where(eq(backupMachines.customerId, customerId));
        await tx.delete(packageRequests).where(eq(packageRequests.customerId, customerId));
        // A package of the customer may sit inside another of its packages (a reseller's own nesting).
        await tx
          .update(backupPackages)
          .set({ parentResellerPackageId: null })
          .where(eq(backupPackages.customerId, customerId));
        await tx.delete(backupPackages).where(eq(backupPackages.customerId, customerId));
        await beforeLocations(tx);
        await tx.delete(storageLocations).where(eq(storageLocations.customerId, customerId));
        await tx.update(customers).set({ superAdminUserId: null }).where(eq(customers.id, customerId));
        await tx.delete(users).where(eq(users.customerId, customerId));
        await tx.delete(customers).where(eq(customers.id, customerId));
        return 'deleted';
      });
    },
  };
}

export type CustomersRepo = ReturnType<typeof createCustomersRepo>;
export type CustomerRowData = NonNullable<Awaited<ReturnType<CustomersRepo['customer']>>>;
export type CustomerPackageData = Awaited<ReturnType<CustomersRepo['packagePage']>>['rows'][number];
export type StorageLocationData = Awaited<ReturnType<CustomersRepo['storageLocations']>>[number];
export type AccountData = NonNullable<Awaited<ReturnType<CustomersRepo['account']>>>;
