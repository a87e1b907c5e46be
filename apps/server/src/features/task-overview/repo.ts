import type { ActionType, Paging } from '@portal/domain';
import { and, asc, desc, eq, gte, lt, ne, type SQL, sql } from 'drizzle-orm';
import { type Executor, oneOrNull } from '../../db/client.js';
import { machineContext } from '../../db/machine-context.js';
import { joinMachineOwners } from '../../db/machine-statuses.js';
import { countOf, selectPage } from '../../db/paging.js';
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
/** Active tasks, as the partial index backup_tasks_next_period_idx states it. */
const ACTIVE = sql`${backupTasks.status} = 'ACTIVE'`;
/** Tasks being deleted, as the partial index backup_tasks_being_deleted_idx states it. */
const BEING_DELETED = sql`${backupTasks.status} = 'BEING_DELETED'`;

/**
 * The provider's task dashboards (002 §2.6; DESIGN §9: 1,000,000 tasks). Each list is a page of an indexed
 * scan over the few rows it shows (busy actions, tasks due within the period, tasks being deleted), joined
 * to its machine, package and customer by primary key; the pie sums the kept task_status_counts. The
 * provider sees every customer, so these take no scope; the routes admit provider admins only.
 */
export function createTaskOverviewRepo(db: Executor) {
  const tasksWithOwners = () =>
    joinMachineOwners(
      db
        .select(taskColumns)
        .from(backupTasks)
        .innerJoin(backupMachines, eq(backupMachines.id, backupTasks.backupMachineId))
        .$dynamic(),
    );

  return {
    /** One row per running action (a task may restore while it backs up), newest first. */
    async running(page: Paging) {
      return selectPage(
        joinMachineOwners(
          db
            .select({
              ...taskColumns,
              actionId: taskActions.id,
              actionType: sql<ActionType>`${taskActions.type}`,
              actionProgress: taskActions.transferProgressPercentage,
            })
            .from(taskActions)
            .innerJoin(backupTasks, eq(backupTasks.id, taskActions.backupTaskId))
            .innerJoin(backupMachines, eq(backupMachines.id, backupTasks.backupMachineId))
            .$dynamic(),
        )
          .where(RUNNING_ACTION)
          .orderBy(desc(taskActions.timeStarted), desc(taskActions.id)),
        () => countOf(db, taskActions, RUNNING_ACTION),
        page,
      );
    },

    /** Tasks that may run whose next expected run falls in [from, until), soonest first (next-period index). */
    async nextPeriod(from: Date, until: Date, page: Paging) {
      const where: SQL | undefined = and(
        gte(backupTasks.nextRunAt, from),
        lt(backupTasks.nextRunAt, until),
        ACTIVE,
        ne(backupTasks.displayStatus, 'NOT_RUNNABLE'),
      );
      return selectPage(
        tasksWithOwners().where(where).orderBy(asc(backupTasks.nextRunAt), asc(backupTasks.id)),
        () => countOf(db, backupTasks, where),
        page,
      );
    },

    async beingDeleted(page: Paging) {
      return selectPage(
        tasksWithOwners().where(BEING_DELETED).orderBy(asc(backupTasks.id)),
        () => countOf(db, backupTasks, BEING_DELETED),
        page,
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
