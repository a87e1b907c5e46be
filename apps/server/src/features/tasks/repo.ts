import type { ActionType, PagingQuery } from '@portal/domain';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { joinMachineOwners, machineStatuses } from '../../db/machine-statuses.js';
import {
  backupMachines,
  backupPackages,
  backupSnapshots,
  backupTasks,
  customers,
  taskActions,
} from '../../db/schema/index.js';

const BUSY = ['INITIATED', 'IN_PROGRESS'] as const;
const offsetOf = (page: PagingQuery) => page.page * page.size;

/** A page and its total; a short page tells the total itself, so the count runs only when needed. */
async function pageWithTotal<R>(
  rowsQuery: PromiseLike<R[]>,
  countQuery: () => PromiseLike<{ total: number }[]>,
  page: PagingQuery,
): Promise<{ rows: R[]; total: number }> {
  const rows = await rowsQuery;
  if (rows.length < page.size && (rows.length > 0 || page.page === 0)) {
    return { rows, total: offsetOf(page) + rows.length };
  }
  const [counted] = await countQuery();
  return { rows, total: counted?.total ?? 0 };
}

/*
 * The subqueries below name their tables in full: drizzle leaves columns unqualified in a one-table select,
 * where an unqualified "id" inside the subquery would mean the action's own id.
 */

/** A column of the task's newest busy action, read only while the task's last run is busy. */
// Any busy action of the task, a restore included (it leaves the task's last-run status alone): found through the
// partial index of busy actions per machine (task_actions_busy_idx), so a task with 10,000 finished runs costs nothing.
const busyActionColumn = <T>(column: 'type' | 'transfer_progress_percentage') =>
  sql<T | null>`(
    select a.${sql.identifier(column)} from "task_actions" a
    where a."backup_machine_id" = "backup_tasks"."backup_machine_id" and a."backup_task_id" = "backup_tasks"."id"
      and a."status" in ('INITIATED', 'IN_PROGRESS')
    order by a."time_started" desc limit 1)`;

const taskColumns = {
  id: backupTasks.id,
  name: backupTasks.name,
  type: backupTasks.type,
  status: backupTasks.status,
  displayStatus: backupTasks.displayStatus,
  lastExecutionMissed: backupTasks.lastExecutionMissed,
  statusOfLastRun: backupTasks.statusOfLastRun,
  statusOfRunBeforeLast: backupTasks.statusOfRunBeforeLast,
  scheduleDescription: backupTasks.scheduleDescription,
  snapshotsEnabled: backupTasks.snapshotsEnabled,
  numberOfSnapshotsToKeep: backupTasks.numberOfSnapshotsToKeep,
  autoDeleteFailedSnapshots: backupTasks.autoDeleteFailedSnapshots,
  syncDeletions: backupTasks.syncDeletions,
  volumeSnapshotsEnabled: backupTasks.volumeSnapshotsEnabled,
  uploadBandwidthLimit: backupTasks.uploadBandwidthLimit,
  uploadBandwidthLimitUnit: backupTasks.uploadBandwidthLimitUnit,
  numberOfBackupRuns: backupTasks.numberOfBackupRuns,
  inProgressActionType: busyActionColumn<ActionType>('type'),
  inProgressActionProgress: busyActionColumn<number>('transfer_progress_percentage'),
};

const actionColumns = {
  id: taskActions.id,
  type: taskActions.type,
  status: taskActions.status,
  timeStarted: taskActions.timeStarted,
  timeFinished: taskActions.timeFinished,
  transferProgressPercentage: taskActions.transferProgressPercentage,
  currentTransfer: taskActions.currentTransfer,
  totalTransfers: taskActions.totalTransfers,
  phase: taskActions.phase,
  failureMessage: taskActions.failureMessage,
  snapshotsAvailable: taskActions.snapshotsAvailable,
};

/**
 * The reads of the task lists and the task page (002 §7.5, §7.7). Every task query names the machine the
 * service resolved for the caller, every action and snapshot query the task: another tenant's ids find nothing.
 */
/** The machine with who may see and command it, and what the task page's header shows. */
const machineColumns = {
  id: backupMachines.id,
  name: backupMachines.name,
  customerId: backupMachines.customerId,
  backupPackageId: backupMachines.backupPackageId,
  assignedUserId: backupMachines.assignedUserId,
  osFamily: backupMachines.osFamily,
  timeZone: backupMachines.timeZone,
  online: backupMachines.online,
  remoteManagementEnabled: backupMachines.remoteManagementEnabled,
  beingDeleted: backupMachines.beingDeleted,
  usedSpaceBytes: backupMachines.usedSpaceBytes,
  packageName: backupPackages.name,
  maxBackupSizePerMachineInMbs: backupPackages.maxBackupSizePerMachineInMbs,
  companyName: customers.companyName,
  superAdminName: customers.superAdminName,
  parentResellerCustomerId: customers.parentResellerCustomerId,
  allowProviderMachineControl: customers.allowProviderMachineControl,
  ...machineStatuses,
};

export function createTasksRepo(db: Executor) {
  // Every call of the task page reads this first: prepared, so neither drizzle nor PostgreSQL builds and
  // plans the five-table read again on each call.
  const machineTaskQuery = joinMachineOwners(
    db.select({ machine: machineColumns, task: taskColumns }).from(backupMachines).$dynamic(),
  )
    .innerJoin(backupTasks, eq(backupTasks.backupMachineId, backupMachines.id))
    .where(and(eq(backupMachines.id, sql.placeholder('machineId')), eq(backupTasks.id, sql.placeholder('taskId'))))
    .prepare('tasks_machine_task');

  return {
    async machine(machineId: number) {
      const query = db.select(machineColumns).from(backupMachines).$dynamic();
      const [row] = await joinMachineOwners(query).where(eq(backupMachines.id, machineId));
      return row ?? null;
    },

    /** The machine and one of its tasks in one round trip (every call of the task page starts here). */
    async machineTask(machineId: number, taskId: number) {
      const [row] = await machineTaskQuery.execute({ machineId, taskId });
      return row ?? null;
    },

    /** A page of the machine's tasks by name (002 §7.7). */
    taskPage(machineId: number, page: PagingQuery) {
      const where = eq(backupTasks.backupMachineId, machineId);
      return pageWithTotal(
        db
          .select(taskColumns)
          .from(backupTasks)
          .where(where)
          .orderBy(asc(backupTasks.name), asc(backupTasks.id))
          .limit(page.size)
          .offset(offsetOf(page)),
        () => db.select({ total: count() }).from(backupTasks).where(where),
        page,
      );
    },

    /**
     * A page of the task's actions, newest first; one type or all. The backup runs' total is the task's
     * kept count; other totals are counted when the page does not tell them.
     */
    async actionPage(task: { id: number; numberOfBackupRuns: number }, type: ActionType | null, page: PagingQuery) {
      const where = and(eq(taskActions.backupTaskId, task.id), type ? eq(taskActions.type, type) : undefined);
      const rows = db
        .select(actionColumns)
        .from(taskActions)
        .where(where)
        .orderBy(desc(taskActions.timeStarted), desc(taskActions.id))
        .limit(page.size)
        .offset(offsetOf(page));
      if (type === 'BACKUP_RUN') return { rows: await rows, total: task.numberOfBackupRuns };
      return pageWithTotal(rows, () => db.select({ total: count() }).from(taskActions).where(where), page);
    },

    async action(taskId: number, actionId: number) {
      const [row] = await db
        .select(actionColumns)
        .from(taskActions)
        .where(and(eq(taskActions.id, actionId), eq(taskActions.backupTaskId, taskId)));
      return row ?? null;
    },

    /** Finishes a busy action as cancelled when its agent no longer runs it; false when it was no longer busy. */
    async finishCancelled(actionId: number, finishedAt: Date, failureMessage: string): Promise<boolean> {
      const rows = await db
        .update(taskActions)
        .set({ status: 'FAILED', timeFinished: finishedAt, exitCodeResult: 'CANCELLATION_REQUESTED', failureMessage })
        .where(and(eq(taskActions.id, actionId), inArray(taskActions.status, [...BUSY])))
        .returning({ id: taskActions.id });
      return rows.length > 0;
    },

    /**
     * A page of the task's snapshot archives, newest first, with their run's status. The total comes with
     * the page: a subquery of the same statement, counted once (a task keeps at most one archive a week).
     */
    async snapshotPage(taskId: number, page: PagingQuery) {
      const where = eq(backupSnapshots.backupTaskId, taskId);
      const counted = db.select({ total: count() }).from(backupSnapshots).where(where);
      const rows = await db
        .select({
          id: backupSnapshots.id,
          actionId: backupSnapshots.taskActionId,
          status: backupSnapshots.status,
          storageStatus: backupSnapshots.storageStatus,
          createdAt: backupSnapshots.createdAt,
          snapshotsAvailable: sql<boolean | null>`(select a."snapshots_available" from "task_actions" a
            where a."id" = "backup_snapshots"."task_action_id")`,
          total: sql<number>`(${counted})`.mapWith(Number),
        })
        .from(backupSnapshots)
        .where(where)
        .orderBy(desc(backupSnapshots.createdAt), desc(backupSnapshots.id))
        .limit(page.size)
        .offset(offsetOf(page));
      // A page past the last has no row to carry the total.
      const [first] = rows.length > 0 ? rows : await counted;
      return { rows, total: first?.total ?? 0 };
    },

    async snapshot(taskId: number, snapshotId: number) {
      const [row] = await db
        .select({ id: backupSnapshots.id, sizeBytes: backupSnapshots.sizeBytes })
        .from(backupSnapshots)
        .where(and(eq(backupSnapshots.id, snapshotId), eq(backupSnapshots.backupTaskId, taskId)));
      return row ?? null;
    },

    /**
     * The task's share of storage: current content is the total size of its newest finished run with a
     * snapshot; snapshot content the sizes of the archives it keeps.
     */
    async taskUsage(taskId: number) {
      const current = db
        .select({ bytes: taskActions.bytesTotal })
        .from(taskActions)
        .where(
          and(
            eq(taskActions.backupTaskId, taskId),
            inArray(taskActions.status, ['FINISHED_SUCCESS', 'FINISHED_WARNINGS']),
            sql`${taskActions.resticSnapshotId} is not null`,
          ),
        )
        .orderBy(desc(taskActions.timeStarted))
        .limit(1);
      const archives = db
        .select({ bytes: sql`coalesce(sum(${backupSnapshots.sizeBytes}), 0)` })
        .from(backupSnapshots)
        .where(and(eq(backupSnapshots.backupTaskId, taskId), eq(backupSnapshots.storageStatus, 'AVAILABLE')));
      // Both in one round trip, as subqueries of a read of the task itself.
      const [usage] = await db
        .select({
          currentBytes: sql<number>`coalesce((${current}), 0)`.mapWith(Number),
          snapshotBytes: sql<number>`(${archives})`.mapWith(Number),
        })
        .from(backupTasks)
        .where(eq(backupTasks.id, taskId));
      return { currentBytes: usage?.currentBytes ?? 0, snapshotBytes: usage?.snapshotBytes ?? 0 };
    },
  };
}

export type TasksRepo = ReturnType<typeof createTasksRepo>;
type MachineTask = NonNullable<Awaited<ReturnType<TasksRepo['machineTask']>>>;
export type TaskMachine = MachineTask['machine'];
export type TaskRecord = MachineTask['task'];
export type ActionRecord = NonNullable<Awaited<ReturnType<TasksRepo['action']>>>;
export type SnapshotRecord = Awaited<ReturnType<TasksRepo['snapshotPage']>>['rows'][number];
