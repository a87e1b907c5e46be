import type { ActionType, Paging } from '@portal/domain';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import { type Executor, oneOrNull } from '../../db/client.js';
import { joinMachineOwners, machineStatuses } from '../../db/machine-statuses.js';
import { countOf, offsetOf, pageWithTotal, selectPage } from '../../db/paging.js';
import {
  backupMachines,
  backupPackages,
  backupSnapshots,
  backupTasks,
  customers,
  taskActions,
} from '../../db/schema/index.js';
import { verificationColumns } from '../verification/repo.js';

const BUSY = ['INITIATED', 'IN_PROGRESS'] as const;
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
  ...verificationColumns,
  // Issue 32: the unusual run holding the task's retention, and when it finished (one row by its key).
  retentionHoldActionId: backupTasks.retentionHoldActionId,
  retentionHoldSince: sql<string | null>`(
    select a."time_finished" from "task_actions" a where a."id" = "backup_tasks"."retention_hold_action_id")`,
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
  stalledAt: taskActions.stalledAt,
  restoreSummary: taskActions.restoreSummary,
  // The run report (issue 31).
  resticSnapshotId: taskActions.resticSnapshotId,
  bytesAdded: taskActions.bytesAdded,
  bytesTotal: taskActions.bytesTotal,
  summary: taskActions.summary,
  changeReasons: taskActions.changeReasons,
  changeAcknowledgedAt: taskActions.changeAcknowledgedAt,
  smallerThanUsual: taskActions.smallerThanUsual,
  progressBytesDone: taskActions.progressBytesDone,
  progressFilesDone: taskActions.progressFilesDone,
  progressBytesPerSecond: taskActions.progressBytesPerSecond,
  progressSecondsRemaining: taskActions.progressSecondsRemaining,
};

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

const snapshotColumns = {
  id: backupSnapshots.id,
  actionId: backupSnapshots.taskActionId,
  status: backupSnapshots.status,
  storageStatus: backupSnapshots.storageStatus,
  createdAt: backupSnapshots.createdAt,
  snapshotsAvailable: taskActions.snapshotsAvailable,
};

/**
 * What the runs, snapshots and storage calls need of the task: not its busy action, whose subqueries PostgreSQL
 * would run again for each row of a page.
 */
const pagedTaskColumns = { id: backupTasks.id, numberOfBackupRuns: backupTasks.numberOfBackupRuns };

/** A page's place in a prepared statement (placeholders `size` and `offset`) and its values there. */
const PAGE = { size: sql.placeholder('size'), offset: sql.placeholder('offset') };
const pageValues = (page: Paging) => ({ size: page.size, offset: offsetOf(page) });

/** The fields of a subquery as its outer query selects them, under the names `fields` gave them inside. */
const outerFields = <F extends Record<string, unknown>, S extends Record<keyof F, unknown>>(subquery: S, fields: F) =>
  Object.fromEntries(Object.keys(fields).map((key) => [key, subquery[key]])) as { [K in keyof F]: S[K] };

/** The rows of a page joined laterally: a page without rows still answers one row, whose `row` is null. */
const pageRows = <R>(rows: { row: R | null }[]) => rows.flatMap(({ row }) => (row ? [row] : []));

/**
 * The reads of the task lists and the task page (002 §7.5, §7.7). Every task query names the machine the
 * service resolved for the caller, every action and snapshot query the task: another tenant's ids find nothing.
 */
export function createTasksRepo(db: Executor) {
  /**
   * The machine joined with one of its tasks (placeholders `machineId` and `taskId`), selecting `fields` besides
   * the machine: each call of the task page reads all it needs in one statement, prepared, so neither drizzle nor
   * PostgreSQL builds and plans it again.
   */
  const machineTaskWith = <F extends SelectedFields>(fields: F) =>
    joinMachineOwners(
      db
        .select({ machine: machineColumns, ...fields })
        .from(backupMachines)
        .$dynamic(),
    )
      .innerJoin(backupTasks, eq(backupTasks.backupMachineId, backupMachines.id))
      .where(and(eq(backupMachines.id, sql.placeholder('machineId')), eq(backupTasks.id, sql.placeholder('taskId'))));

  const machineTaskQuery = machineTaskWith({ task: taskColumns }).prepare('tasks_machine_task');

  const actionPage = db
    .select(actionColumns)
    .from(taskActions)
    .where(and(eq(taskActions.backupTaskId, backupTasks.id), eq(taskActions.type, sql.placeholder('type'))))
    .orderBy(desc(taskActions.timeStarted), desc(taskActions.id))
    .limit(PAGE.size)
    .offset(PAGE.offset)
    .as('page');
  const actionPageQuery = machineTaskWith({ task: pagedTaskColumns, row: outerFields(actionPage, actionColumns) })
    .leftJoinLateral(actionPage, sql`true`)
    .prepare('tasks_action_page');

  // The total comes with each row of the page (counted once, a task keeps at most one archive a week).
  const snapshotTotal = db
    .select({ total: count() })
    .from(backupSnapshots)
    .where(eq(backupSnapshots.backupTaskId, backupTasks.id));
  const snapshotPageColumns = {
    ...snapshotColumns,
    total: sql<number>`(${snapshotTotal})`.mapWith(Number).as('total'),
  };
  const snapshotPage = db
    .select(snapshotPageColumns)
    .from(backupSnapshots)
    .leftJoin(taskActions, eq(taskActions.id, backupSnapshots.taskActionId))
    .where(eq(backupSnapshots.backupTaskId, backupTasks.id))
    .orderBy(desc(backupSnapshots.createdAt), desc(backupSnapshots.id))
    .limit(PAGE.size)
    .offset(PAGE.offset)
    .as('page');
  const snapshotPageQuery = machineTaskWith({
    task: pagedTaskColumns,
    row: outerFields(snapshotPage, snapshotPageColumns),
  })
    .leftJoinLateral(snapshotPage, sql`true`)
    .prepare('tasks_snapshot_page');

  // The task's share of storage: current content is the total size of its newest finished run with a snapshot;
  // snapshot content the sizes of the archives it keeps.
  const currentBytes = db
    .select({ bytes: taskActions.bytesTotal })
    .from(taskActions)
    .where(
      and(
        eq(taskActions.backupTaskId, backupTasks.id),
        inArray(taskActions.status, ['FINISHED_SUCCESS', 'FINISHED_WARNINGS']),
        sql`${taskActions.resticSnapshotId} is not null`,
      ),
    )
    .orderBy(desc(taskActions.timeStarted))
    .limit(1);
  const archiveBytes = db
    .select({ bytes: sql`coalesce(sum(${backupSnapshots.sizeBytes}), 0)` })
    .from(backupSnapshots)
    .where(and(eq(backupSnapshots.backupTaskId, backupTasks.id), eq(backupSnapshots.storageStatus, 'AVAILABLE')));
  const usageQuery = machineTaskWith({
    task: pagedTaskColumns,
    usage: {
      currentBytes: sql<number>`coalesce((${currentBytes}), 0)`.mapWith(Number),
      snapshotBytes: sql<number>`(${archiveBytes})`.mapWith(Number),
    },
  }).prepare('tasks_machine_task_usage');

  return {
    async machine(machineId: number) {
      const query = db.select(machineColumns).from(backupMachines).$dynamic();
      return oneOrNull(joinMachineOwners(query).where(eq(backupMachines.id, machineId)));
    },

    /** The machine and one of its tasks in one round trip. */
    async machineTask(machineId: number, taskId: number) {
      return oneOrNull(machineTaskQuery.execute({ machineId, taskId }));
    },

    /** A page of the machine's tasks by name (002 §7.7). */
    taskPage(machineId: number, page: Paging) {
      const where = eq(backupTasks.backupMachineId, machineId);
      return selectPage(
        db.select(taskColumns).from(backupTasks).where(where).orderBy(asc(backupTasks.name), asc(backupTasks.id)),
        () => countOf(db, backupTasks, where),
        page,
      );
    },

    /**
     * The machine, its task and a page of the task's actions of one type, newest first. The backup runs' total is
     * the task's kept count; other totals are counted when the page does not tell them.
     */
    async machineTaskActions(machineId: number, taskId: number, type: ActionType, page: Paging) {
      const found = await actionPageQuery.execute({ machineId, taskId, type, ...pageValues(page) });
      const [first] = found;
      if (!first) return null;
      const { machine, task } = first;
      const rows = pageRows(found);
      if (type === 'BACKUP_RUN') return { machine, task, rows, total: task.numberOfBackupRuns };
      const where = and(eq(taskActions.backupTaskId, task.id), eq(taskActions.type, type));
      const counted = await pageWithTotal(rows, () => countOf(db, taskActions, where), page);
      return { machine, task, ...counted };
    },

    /** The machine, its task and a page of the task's snapshot archives, newest first, with their run's status. */
    async machineTaskSnapshots(machineId: number, taskId: number, page: Paging) {
      const found = await snapshotPageQuery.execute({ machineId, taskId, ...pageValues(page) });
      const [first] = found;
      if (!first) return null;
      const rows = pageRows(found);
      // A page past the last has no row to carry the total.
      const [counted] =
        rows.length > 0
          ? rows
          : await db.select({ total: count() }).from(backupSnapshots).where(eq(backupSnapshots.backupTaskId, taskId));
      return { machine: first.machine, task: first.task, rows, total: counted?.total ?? 0 };
    },

    /** The machine, its task and the task's share of storage. */
    async machineTaskUsage(machineId: number, taskId: number) {
      return oneOrNull(usageQuery.execute({ machineId, taskId }));
    },

    async action(taskId: number, actionId: number) {
      return oneOrNull(
        db
          .select(actionColumns)
          .from(taskActions)
          .where(and(eq(taskActions.id, actionId), eq(taskActions.backupTaskId, taskId))),
      );
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

    async snapshot(taskId: number, snapshotId: number) {
      return oneOrNull(
        db
          .select({ id: backupSnapshots.id, sizeBytes: backupSnapshots.sizeBytes })
          .from(backupSnapshots)
          .where(and(eq(backupSnapshots.id, snapshotId), eq(backupSnapshots.backupTaskId, taskId))),
      );
    },
  };
}

export type TasksRepo = ReturnType<typeof createTasksRepo>;
type MachineTask = NonNullable<Awaited<ReturnType<TasksRepo['machineTask']>>>;
export type TaskMachine = MachineTask['machine'];
export type TaskRecord = MachineTask['task'];
export type ActionRecord = NonNullable<Awaited<ReturnType<TasksRepo['action']>>>;
export type SnapshotRecord = NonNullable<Awaited<ReturnType<TasksRepo['machineTaskSnapshots']>>>['rows'][number];
