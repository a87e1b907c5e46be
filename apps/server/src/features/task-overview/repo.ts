import type { ActionType, ListCursor, Paging } from '@portal/domain';
import { and, eq, gte, lt, ne, type SQL, sql } from 'drizzle-orm';
import { type Executor, oneOrNull } from '../../db/client.js';
import { machineContext } from '../../db/machine-context.js';
import { joinMachineOwners } from '../../db/machine-statuses.js';
import {
  cappedCount,
  type KeysetOrder,
  keysetAfter,
  keysetKeyText,
  keysetOrderBy,
  selectKeysetPage,
} from '../../db/paging.js';
import { backupMachines, backupPackages, backupTasks, customers, taskActions } from '../../db/schema/index.js';
import { taskStatusCounts } from '../../db/schema/task-overview.js';
import { taskOfMachine } from '../../db/task-of-machine.js';
import { verificationColumns } from '../verification/repo.js';

/** What every dashboard row reads: the task, its machine, package and customer (one join each, by key). */
const taskColumns = {
  id: backupTasks.id,
  name: backupTasks.name,
  status: backupTasks.status,
  displayStatus: backupTasks.displayStatus,
  scheduleDescription: backupTasks.scheduleDescription,
  nextRunAt: backupTasks.nextRunAt,
  volumeSnapshotsEnabled: backupTasks.volumeSnapshotsEnabled,
  ...verificationColumns,
  machineId: backupMachines.id,
  machineName: backupMachines.name,
  osFamily: backupMachines.osFamily,
  timeZone: backupMachines.timeZone,
  packageId: backupPackages.id,
  packageName: backupPackages.name,
  customerId: customers.id,
  companyName: customers.companyName,
  superAdminName: customers.superAdminName,
};

export type TaskOverviewRecord = Awaited<ReturnType<TaskOverviewRepo['beingDeleted']>>['rows'][number];
export type RunningTaskRecord = Awaited<ReturnType<TaskOverviewRepo['running']>>['rows'][number];

/**
 * Running actions: busy and not stalled (issue 29: a run without progress for the stall limit is not running),
 * written as the partial index task_actions_running_idx states it so the planner uses it.
 */
const RUNNING_ACTION = sql`${taskActions.status} in ('INITIATED', 'IN_PROGRESS') and ${taskActions.stalledAt} is null`;
/** Active tasks (with the display status below, the partial index backup_tasks_next_period_idx's predicate). */
const ACTIVE = sql`${backupTasks.status} = 'ACTIVE'`;
/** Tasks being deleted, as the partial index backup_tasks_being_deleted_idx states it. */
const BEING_DELETED = sql`${backupTasks.status} = 'BEING_DELETED'`;

/**
 * The lists' orders, each its index's columns (issue 33 item 6: a page is a range read from the cursor on): running
 * actions newest first (task_actions_running_idx), tasks due soonest first (backup_tasks_next_period_idx), tasks
 * being deleted by id (backup_tasks_being_deleted_idx).
 */
export const TASK_OVERVIEW_ORDERS = {
  // The index is (time_started DESC NULLS LAST, id DESC NULLS LAST): a plain DESC (nulls first) sorted all 38,000
  // busy actions of the seed on every page.
  running: { key: taskActions.timeStarted, id: taskActions.id, direction: 'desc', nulls: 'last' },
  nextPeriod: { key: backupTasks.nextRunAt, id: backupTasks.id, direction: 'asc' },
  beingDeleted: { key: null, id: backupTasks.id, direction: 'asc' },
} as const satisfies Record<string, KeysetOrder>;

/** A page of a task dashboard: a bounded page number or the cursor of the page before (validated by the service). */
export type TaskOverviewPaging = Paging & { cursor?: ListCursor | undefined };

/**
 * The provider's task dashboards (002 §2.6; DESIGN §9: 1,000,000 tasks). Each list is a page of an indexed
 * scan over the few rows it shows (busy actions, tasks due within the period, tasks being deleted), joined
 * to its machine, package and customer by primary key; the pie sums the kept task_status_counts. The
 * provider sees every customer, so these take no scope; the routes admit provider admins only.
 */
export function createTaskOverviewRepo(db: Executor) {
  const tasksWithOwners = (order: KeysetOrder) =>
    joinMachineOwners(
      db
        .select({ ...taskColumns, cursorKey: keysetKeyText(order) })
        .from(backupTasks)
        .innerJoin(backupMachines, eq(backupMachines.id, backupTasks.backupMachineId))
        .$dynamic(),
    );

  return {
    /** One row per running action (a task may restore while it backs up), newest first. */
    async running(page: TaskOverviewPaging) {
      const order = TASK_OVERVIEW_ORDERS.running;
      return selectKeysetPage(
        joinMachineOwners(
          db
            .select({
              ...taskColumns,
              actionId: taskActions.id,
              actionType: sql<ActionType>`${taskActions.type}`,
              actionProgress: taskActions.transferProgressPercentage,
              cursorKey: keysetKeyText(order),
            })
            .from(taskActions)
            .innerJoin(backupTasks, eq(backupTasks.id, taskActions.backupTaskId))
            .innerJoin(backupMachines, eq(backupMachines.id, backupTasks.backupMachineId))
            .$dynamic(),
        )
          .where(and(RUNNING_ACTION, keysetAfter(order, page.cursor)))
          .orderBy(...keysetOrderBy(order)),
        cappedCount(db, taskActions, RUNNING_ACTION),
        page,
        (row) => ({ list: 'taskOverview.running', scope: 'provider', id: row.actionId }),
      );
    },

    /** Tasks that may run whose next expected run falls in [from, until), soonest first (next-period index). */
    async nextPeriod(from: Date, until: Date, page: TaskOverviewPaging) {
      const order = TASK_OVERVIEW_ORDERS.nextPeriod;
      const where: SQL | undefined = and(
        gte(backupTasks.nextRunAt, from),
        lt(backupTasks.nextRunAt, until),
        ACTIVE,
        ne(backupTasks.displayStatus, 'NOT_RUNNABLE'),
      );
      return selectKeysetPage(
        tasksWithOwners(order)
          .where(and(where, keysetAfter(order, page.cursor)))
          .orderBy(...keysetOrderBy(order)),
        cappedCount(db, backupTasks, where),
        page,
        (row) => ({ list: 'taskOverview.nextPeriod', scope: 'provider', id: row.id }),
      );
    },

    async beingDeleted(page: TaskOverviewPaging) {
      const order = TASK_OVERVIEW_ORDERS.beingDeleted;
      return selectKeysetPage(
        tasksWithOwners(order)
          .where(and(BEING_DELETED, keysetAfter(order, page.cursor)))
          .orderBy(...keysetOrderBy(order)),
        cappedCount(db, backupTasks, BEING_DELETED),
        page,
        (row) => ({ list: 'taskOverview.beingDeleted', scope: 'provider', id: row.id }),
      );
    },

    /** Tasks per display status across the provider: a sum over at most eight rows per customer. */
    async counts() {
      return db
        .select({
          displayStatus: taskStatusCounts.displayStatus,
          n: sql<number>`cast(sum(${taskStatusCounts.n}) as int)`,
        })
        .from(taskStatusCounts)
        .groupBy(taskStatusCounts.displayStatus);
    },

    /** The machine with its customer and package (db/machine-context.ts). */
    machine: (machineId: number) => machineContext(db, machineId),

    async task(machineId: number, taskId: number) {
      return taskOfMachine(db, machineId, taskId, { id: backupTasks.id, status: backupTasks.status });
    },

    /**
     * Stores the setting as a new version of the task, so the agent and the server reconcile on it (DESIGN §5);
     * null when the task is (by now) being deleted.
     */
    async setVolumeSnapshots(taskId: number, enabled: boolean) {
      return oneOrNull(
        db
          .update(backupTasks)
          .set({ volumeSnapshotsEnabled: enabled, version: sql`${backupTasks.version} + 1` })
          .where(and(eq(backupTasks.id, taskId), ne(backupTasks.status, 'BEING_DELETED')))
          .returning({ id: backupTasks.id, volumeSnapshotsEnabled: backupTasks.volumeSnapshotsEnabled }),
      );
    },
  };
}

export type TaskOverviewRepo = ReturnType<typeof createTaskOverviewRepo>;
