import type { DownloadRequest } from '@portal/domain';
import { and, asc, eq, gt, inArray, lte } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { machineContext } from '../../db/machine-context.js';
import { backupSnapshots, backupTasks, downloadIds, runAccountSnapshots, taskActions } from '../../db/schema/index.js';
import { taskOfMachine } from '../../db/task-of-machine.js';

const BUSY = ['INITIATED', 'IN_PROGRESS'] as const;

/** The queries of a run's backed-up data: each read is of one machine's task, so another's ids find nothing. */
export function createRestoreRepo(db: Executor) {
  return {
    /** Who may see and command the machine (db/machine-context.ts). */
    machine: (machineId: number) => machineContext(db, machineId),

    /** The machine's task, and whether one of its actions is busy (002 §4.2: download disabled then). */
    async task(machineId: number, taskId: number) {
      const task = await taskOfMachine(db, machineId, taskId, {
        id: backupTasks.id,
        name: backupTasks.name,
        status: backupTasks.status,
      });
      if (!task) return null;
      const [busy] = await db
        .select({ id: taskActions.id })
        .from(taskActions)
        .where(and(eq(taskActions.backupTaskId, taskId), inArray(taskActions.status, [...BUSY])))
        .limit(1);
      return { ...task, actionInProgress: busy !== undefined };
    },

    /** A backup run of the task with its restic snapshot. */
    async run(taskId: number, runId: number) {
      const [run] = await db
        .select({
          id: taskActions.id,
          type: taskActions.type,
          status: taskActions.status,
          resticSnapshotId: taskActions.resticSnapshotId,
          snapshotsAvailable: taskActions.snapshotsAvailable,
          timeStarted: taskActions.timeStarted,
        })
        .from(taskActions)
        .where(and(eq(taskActions.id, runId), eq(taskActions.backupTaskId, taskId)));
      return run ?? null;
    },

    /**
     * The account snapshots of a cPanel / DirectAdmin run or archive, by its own snapshot id, by account name;
     * none for any other (and for a panel run an older agent reported as one snapshot).
     */
    async accountSnapshots(taskId: number, runSnapshotId: string) {
      return db
        .select({ account: runAccountSnapshots.account, resticSnapshotId: runAccountSnapshots.resticSnapshotId })
        .from(runAccountSnapshots)
        .where(and(eq(runAccountSnapshots.backupTaskId, taskId), eq(runAccountSnapshots.runSnapshotId, runSnapshotId)))
        .orderBy(asc(runAccountSnapshots.account));
    },

    /** A snapshot archive of the task, with the status of the run that made it. */
    async snapshot(taskId: number, snapshotId: number) {
      const [snapshot] = await db
        .select({
          id: backupSnapshots.id,
          status: backupSnapshots.status,
          storageStatus: backupSnapshots.storageStatus,
          resticSnapshotId: backupSnapshots.resticSnapshotId,
        })
        .from(backupSnapshots)
        .where(and(eq(backupSnapshots.id, snapshotId), eq(backupSnapshots.backupTaskId, taskId)));
      return snapshot ?? null;
    },

    /** AVAILABLE → BEING_DELETED; false when another request got there first. */
    async markBeingDeleted(snapshotId: number): Promise<boolean> {
      const rows = await db
        .update(backupSnapshots)
        .set({ storageStatus: 'BEING_DELETED' })
        .where(and(eq(backupSnapshots.id, snapshotId), eq(backupSnapshots.storageStatus, 'AVAILABLE')))
        .returning({ id: backupSnapshots.id });
      return rows.length > 0;
    },

    /** Archives whose deletion was asked and not finished (after a restart too), with their machine. */
    async beingDeleted() {
      return db
        .select({
          id: backupSnapshots.id,
          taskId: backupSnapshots.backupTaskId,
          machineId: backupTasks.backupMachineId,
          resticSnapshotId: backupSnapshots.resticSnapshotId,
        })
        .from(backupSnapshots)
        .innerJoin(backupTasks, eq(backupTasks.id, backupSnapshots.backupTaskId))
        .where(eq(backupSnapshots.storageStatus, 'BEING_DELETED'));
    },

    /**
     * The archive is gone from the repository: DELETED, and the runs of the task that made that restic
     * snapshot have no snapshot to download any more.
     */
    async markDeleted(snapshot: { id: number; taskId: number; resticSnapshotId: string | null }): Promise<void> {
      await db
        .update(backupSnapshots)
        .set({ storageStatus: 'DELETED' })
        .where(and(eq(backupSnapshots.id, snapshot.id), eq(backupSnapshots.storageStatus, 'BEING_DELETED')));
      if (snapshot.resticSnapshotId === null) return;
      await db
        .update(taskActions)
        .set({ snapshotsAvailable: false })
        .where(
          and(
            eq(taskActions.backupTaskId, snapshot.taskId),
            eq(taskActions.resticSnapshotId, snapshot.resticSnapshotId),
          ),
        );
    },

    /** A download id the initiate call issued, by its hash (db/schema downloadIds). */
    async insertDownload(values: {
      idHash: string;
      userId: number;
      run: { machineId: number; taskId: number; runId: number };
      request: DownloadRequest;
      expiresAt: Date;
    }): Promise<void> {
      await db.insert(downloadIds).values({
        idHash: values.idHash,
        userId: values.userId,
        backupMachineId: values.run.machineId,
        backupTaskId: values.run.taskId,
        taskActionId: values.run.runId,
        request: values.request,
        expiresAt: values.expiresAt,
      });
    },

    /**
     * Redeems a download id for its user and run before it expires, answering what to download; null for any
     * other. One DELETE: of two requests with the same id, only one gets the row.
     */
    async redeemDownload(
      idHash: string,
      userId: number,
      run: { machineId: number; taskId: number; runId: number },
      now: Date,
    ): Promise<DownloadRequest | null> {
      const [row] = await db
        .delete(downloadIds)
        .where(
          and(
            eq(downloadIds.idHash, idHash),
            eq(downloadIds.userId, userId),
            eq(downloadIds.backupMachineId, run.machineId),
            eq(downloadIds.backupTaskId, run.taskId),
            eq(downloadIds.taskActionId, run.runId),
            gt(downloadIds.expiresAt, now),
          ),
        )
        .returning({ request: downloadIds.request });
      return row?.request ?? null;
    },

    /** Housekeeping: download ids past their expiry, never redeemed. */
    async deleteExpiredDownloads(now: Date): Promise<void> {
      await db.delete(downloadIds).where(lte(downloadIds.expiresAt, now));
    },
  };
}

export type RestoreRepo = ReturnType<typeof createRestoreRepo>;
