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
const busyActionColumn = <T>(column: 'type' | 'transfer_progress_percentage') =>
  sql<T | null>`case when "backup_tasks"."status_of_last_run" in ('INITIATED', 'IN_PROGRESS') then (
    select a.${sql.identifier(column)} from "task_actions" a
    where a."backup_task_id" = "backup_tasks"."id" and a."status" in ('INITIATED', 'IN_PROGRESS')
    order by a."time_started" desc limit 1) end`;

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
  numberOfBackupRuns: sql<number>`(select count(*)::int from "task_actions" a
    where a."backup_task_id" = "backup_tasks"."id" and a."type" = 'BACKUP_RUN')`,
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
export function createTasksRepo(db: Executor) {
  return {
    /** The machine with who may see and command it, and what the task page's header shows. */
    async machine(machineId: number) {
      const query = db
        .select({
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
        })
        .from(backupMachines)
        .$dynamic();
      const [row] = await joinMachineOwners(query).where(eq(backupMachines.id, machineId));
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

    async task(machineId: number, taskId: number) {
      const [row] = await db
        .select(taskColumns)
        .from(backupTasks)
        .where(and(eq(backupTasks.id, taskId), eq(backupTasks.backupMachineId, machineId)));
      return row ?? null;
    },

    /** A page of the task's actions, newest first; one type or all. */
    actionPage(taskId: number, type: ActionType | null, page: PagingQuery) {
      const where = and(eq(taskActions.backupTaskId, taskId), type ? eq(taskActions.type, type) : undefined);
      return pageWithTotal(
        db
          .select(actionColumns)
          .from(taskActions)
          .where(where)
          .orderBy(desc(taskActions.timeStarted), desc(taskActions.id))
          .limit(page.size)
          .offset(offsetOf(page)),
        () => db.select({ total: count() }).from(taskActions).where(where),
        page,
      );
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

    /** A page of the task's snapshot archives, newest first, with their run's status. */
    snapshotPage(taskId: number, page: PagingQuery) {
      const where = eq(backupSnapshots.backupTaskId, taskId);
      return pageWithTotal(
        db
          .select({
            id: backupSnapshots.id,
            actionId: backupSnapshots.taskActionId,
            status: backupSnapshots.status,
            storageStatus: backupSnapshots.storageStatus,
            createdAt: backupSnapshots.createdAt,
            snapshotsAvailable: sql<boolean | null>`(select a."snapshots_available" from "task_actions" a
              where a."id" = "backup_snapshots"."task_action_id")`,
          })
          .from(backupSnapshots)
          .where(where)
          .orderBy(desc(backupSnapshots.createdAt), desc(backupSnapshots.id))
          .limit(page.size)
          .offset(offsetOf(page)),
        () => db.select({ total: count() }).from(backupSnapshots).where(where),
        page,
      );
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
      const [current] = await db
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
      const [archives] = await db
        .select({ bytes: sql<number>`coalesce(sum(${backupSnapshots.sizeBytes}), 0)::bigint` })
        .from(backupSnapshots)
        .where(and(eq(backupSnapshots.backupTaskId, taskId), eq(backupSnapshots.storageStatus, 'AVAILABLE')));
      return { currentBytes: Number(current?.bytes ?? 0), snapshotBytes: Number(archives?.bytes ?? 0) };
    },
  };
}

export type TasksRepo = ReturnType<typeof createTasksRepo>;
export type TaskMachine = NonNullable<Awaited<ReturnType<TasksRepo['machine']>>>;
export type TaskRecord = NonNullable<Awaited<ReturnType<TasksRepo['task']>>>;
export type ActionRecord = NonNullable<Awaited<ReturnType<TasksRepo['action']>>>;
export type SnapshotRecord = Awaited<ReturnType<TasksRepo['snapshotPage']>>['rows'][number];
