import type {
  AggregateTaskStatus,
  CustomerSortColumn,
  CustomerStatus,
  MachineSortColumn,
  MachineStatus,
  ManagedCustomers,
  Paging,
  Sort,
  TaskDisplayStatus,
  TaskSortColumn,
} from '@portal/domain';
import { and, asc, count, desc, eq, exists, inArray, isNotNull, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type Executor, oneOrNull } from '../../db/client.js';
import { machineContext } from '../../db/machine-context.js';
import { countOf, selectCountedPage, totalColumn } from '../../db/paging.js';
import {
  backupMachines,
  backupTasks,
  customers,
  machineStatusCounts,
  resellerSettings,
} from '../../db/schema/index.js';
import { managedCustomersCondition } from '../../db/scope.js';
import { verificationColumns } from '../verification/repo.js';
import { createAttentionReads } from './attention-repo.js';

/** Which machines a machines-table call covers: all, one customer's, or one customer user's. */
export interface MachineListScope {
  customerId: number | null;
  assignedUserId: number | null;
}

/** Every sort is by its column, then by id in the same direction, so pages never overlap (indexes match). */
function orderBy(expression: SQL | AnyPgColumn, id: AnyPgColumn, direction: 'asc' | 'desc'): SQL[] {
  const by = direction === 'asc' ? asc : desc;
  return [by(expression), by(id)];
}

const customerSortExpression = (column: CustomerSortColumn): SQL | AnyPgColumn => {
  switch (column) {
    case 'name':
      return sql`lower(${customers.displayName})`;
    case 'superAdminEmail':
      return sql`lower(${customers.superAdminEmail})`;
    case 'status':
      return customers.displayStatus;
    case 'taskStatus':
      return customers.taskStatus;
  }
};

const machineSortExpression = (column: MachineSortColumn): SQL | AnyPgColumn => {
  switch (column) {
    case 'name':
      return sql`lower(${backupMachines.name})`;
    case 'user':
      return sql`lower(${backupMachines.assignedUserName})`;
    case 'os':
      return backupMachines.osFamily;
    case 'softwareVersion':
      return backupMachines.desktopClientVersion;
    case 'status':
      return backupMachines.status;
    case 'taskStatus':
      return backupMachines.taskStatus;
  }
};

const taskSortExpression = (column: TaskSortColumn): SQL | AnyPgColumn => {
  switch (column) {
    case 'name':
      return sql`lower(${backupTasks.name})`;
    case 'schedule':
      return sql`lower(${backupTasks.scheduleDescription})`;
    case 'status':
      return backupTasks.displayStatus;
  }
};

/** A scope's ids, or the placeholders a prepared statement takes them in. */
type ScopeIds = { [K in keyof MachineListScope]: MachineListScope[K] | Placeholder };

const machineScopeWhere = (scope: ScopeIds): SQL | undefined =>
  and(
    scope.customerId === null ? undefined : eq(backupMachines.customerId, scope.customerId),
    scope.assignedUserId === null ? undefined : eq(backupMachines.assignedUserId, scope.assignedUserId),
  );

/**
 * Machines per (task status, machine status) over every machine: the sums of the kept summary's stripes (a few
 * hundred rows; schema/dashboard.ts), not a scan of every machine. Also the read model check's stored side.
 */
export const summedMachineStatusCounts = (db: Executor) =>
  db
    .select({
      taskStatus: machineStatusCounts.taskStatus,
      status: machineStatusCounts.status,
      n: sql<number>`cast(sum(${machineStatusCounts.n}) as int)`,
    })
    .from(machineStatusCounts)
    .groupBy(machineStatusCounts.taskStatus, machineStatusCounts.status)
    .having(sql`sum(${machineStatusCounts.n}) <> 0`);

/**
 * The dashboard's reads: every one is a page of an index-ordered scan or a grouped count (DESIGN §9). A page comes
 * with its total in the same statement (issue 33 item 5: one round trip per list call).
 */
export function createDashboardRepo(db: Executor) {
  // The pie counts and the customer look-up have a fixed shape per scope kind: prepared once (issue 33 item 5), so a
  // call builds no SQL in Node and PostgreSQL parses it once per connection. The pages vary by sort and filter.
  const id = (name: string) => sql.placeholder(name);
  const machineCountsWhere = (where: SQL | undefined, name: string) =>
    db
      .select({ taskStatus: backupMachines.taskStatus, status: backupMachines.status, n: count() })
      .from(backupMachines)
      .where(where)
      .groupBy(backupMachines.taskStatus, backupMachines.status)
      .prepare(name);
  const machineCountsOf = {
    all: summedMachineStatusCounts(db).prepare('dashboard_machine_counts_all'),
    customer: machineCountsWhere(
      machineScopeWhere({ customerId: id('customerId'), assignedUserId: null }),
      'dashboard_machine_counts_customer',
    ),
    user: machineCountsWhere(
      machineScopeWhere({ customerId: id('customerId'), assignedUserId: id('userId') }),
      'dashboard_machine_counts_user',
    ),
  };
  const customerCountsWhere = (where: SQL | undefined) =>
    db
      .select({ taskStatus: customers.taskStatus, displayStatus: customers.displayStatus, n: count() })
      .from(customers)
      .where(where)
      .groupBy(customers.taskStatus, customers.displayStatus);
  // A reseller's (its child customers) is built per call: the scope's condition is db/scope.ts's.
  const allCustomerCounts = customerCountsWhere(undefined).prepare('dashboard_customer_counts_all');
  const taskCountsOf = db
    .select({ displayStatus: backupTasks.displayStatus, n: count() })
    .from(backupTasks)
    .where(eq(backupTasks.backupMachineId, id('machineId')))
    .groupBy(backupTasks.displayStatus)
    .prepare('dashboard_task_counts');
  const customerOf = db
    .select({
      id: customers.id,
      parentResellerCustomerId: customers.parentResellerCustomerId,
      firstPaymentRequired: customers.firstPaymentRequired,
    })
    .from(customers)
    .where(eq(customers.id, id('customerId')))
    .prepare('dashboard_customer');

  return {
    ...createAttentionReads(db),
    async customerPage(
      scope: ManagedCustomers,
      filter: { taskStatus?: AggregateTaskStatus; displayStatuses?: readonly CustomerStatus[] },
      sort: Sort<CustomerSortColumn>,
      page: Paging,
    ) {
      const where = and(
        managedCustomersCondition(scope),
        filter.taskStatus ? eq(customers.taskStatus, filter.taskStatus) : undefined,
        filter.displayStatuses ? inArray(customers.displayStatus, [...filter.displayStatuses]) : undefined,
      );
      return selectCountedPage(
        db
          .select({
            id: customers.id,
            name: customers.displayName,
            superAdminEmail: customers.superAdminEmail,
            displayStatus: customers.displayStatus,
            parentResellerCustomerId: customers.parentResellerCustomerId,
            resellerEnabled: sql<boolean>`coalesce(${resellerSettings.resellerEnabled}, false)`,
            taskStatus: customers.taskStatus,
            tasksInProgress: customers.tasksInProgress,
            total: totalColumn(customers, where),
          })
          .from(customers)
          .leftJoin(resellerSettings, eq(resellerSettings.customerId, customers.id))
          .where(where)
          .orderBy(...orderBy(customerSortExpression(sort.column), customers.id, sort.direction)),
        () => countOf(db, customers, where),
        page,
      );
    },

    /** Customers per (task status, displayed status): both pies in one scan. */
    async customerCounts(scope: ManagedCustomers) {
      return scope.kind === 'all' ? allCustomerCounts.execute() : customerCountsWhere(managedCustomersCondition(scope));
    },

    async machinePage(
      scope: MachineListScope,
      filter: { taskStatus?: AggregateTaskStatus; status?: MachineStatus },
      sort: Sort<MachineSortColumn>,
      page: Paging,
    ) {
      const where = and(
        machineScopeWhere(scope),
        filter.taskStatus ? eq(backupMachines.taskStatus, filter.taskStatus) : undefined,
        filter.status ? eq(backupMachines.status, filter.status) : undefined,
      );
      return selectCountedPage(
        db
          .select({
            id: backupMachines.id,
            name: backupMachines.name,
            customerId: backupMachines.customerId,
            backupPackageId: backupMachines.backupPackageId,
            user: backupMachines.assignedUserName,
            osFamily: backupMachines.osFamily,
            operatingSystem: backupMachines.operatingSystem,
            softwareVersion: backupMachines.desktopClientVersion,
            status: backupMachines.status,
            taskStatus: backupMachines.taskStatus,
            tasksInProgress: backupMachines.tasksInProgress,
            online: backupMachines.online,
            total: totalColumn(backupMachines, where),
          })
          .from(backupMachines)
          .where(where)
          .orderBy(...orderBy(machineSortExpression(sort.column), backupMachines.id, sort.direction)),
        () => countOf(db, backupMachines, where),
        page,
      );
    },

    /** Machines per (task status, machine status): both pies in one scan. */
    async machineCounts(scope: MachineListScope) {
      if (scope.customerId === null) return machineCountsOf.all.execute();
      return scope.assignedUserId === null
        ? machineCountsOf.customer.execute({ customerId: scope.customerId })
        : machineCountsOf.user.execute({ customerId: scope.customerId, userId: scope.assignedUserId });
    },

    /** A machine with what visibility and links need (db/machine-context.ts). */
    machine: (machineId: number) => machineContext(db, machineId),

    async customer(customerId: number) {
      return oneOrNull(customerOf.execute({ customerId }));
    },

    async taskPage(
      machineId: number,
      filter: { taskStatus?: TaskDisplayStatus },
      sort: Sort<TaskSortColumn>,
      page: Paging,
    ) {
      const where = and(
        eq(backupTasks.backupMachineId, machineId),
        filter.taskStatus ? eq(backupTasks.displayStatus, filter.taskStatus) : undefined,
      );
      return selectCountedPage(
        db
          .select({
            id: backupTasks.id,
            name: backupTasks.name,
            scheduleDescription: backupTasks.scheduleDescription,
            status: backupTasks.status,
            displayStatus: backupTasks.displayStatus,
            lastExecutionMissed: backupTasks.lastExecutionMissed,
            statusOfLastRun: backupTasks.statusOfLastRun,
            statusOfRunBeforeLast: backupTasks.statusOfRunBeforeLast,
            ...verificationColumns,
            total: totalColumn(backupTasks, where),
          })
          .from(backupTasks)
          .where(where)
          .orderBy(...orderBy(taskSortExpression(sort.column), backupTasks.id, sort.direction)),
        () => countOf(db, backupTasks, where),
        page,
      );
    },

    async taskCounts(machineId: number) {
      return taskCountsOf.execute({ machineId });
    },

    /** The getting-started flags that come from the customer's machines and tasks (000 §2). */
    async gettingStartedProgress(customerId: number) {
      const [row] = await db
        .select({
          machineLinked: exists(
            db
              .select({ one: sql`1` })
              .from(backupMachines)
              .where(and(eq(backupMachines.customerId, customerId), isNotNull(backupMachines.assignedUserId))),
          ),
          taskCreated: exists(
            db.select({ one: sql`1` }).from(backupTasks).where(eq(backupTasks.customerId, customerId)),
          ),
        })
        .from(sql`(select 1) as one`);
      return { machineLinked: Boolean(row?.machineLinked), taskCreated: Boolean(row?.taskCreated) };
    },
  };
}

export type DashboardRepo = ReturnType<typeof createDashboardRepo>;
