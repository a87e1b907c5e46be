import type {
  AccountSnapshot,
  ActionType,
  AgentTask,
  MessageType,
  RestoreSummary,
  RunProgressFigures,
  RunStatus,
  RunSummary,
  TransferPhase,
} from '@portal/domain';
import { and, asc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { type Executor, oneOrNull, rowsOf } from '../../db/client.js';
import { joinMachineOwners } from '../../db/machine-statuses.js';
import {
  backupMachines,
  backupPackages,
  backupSnapshots,
  backupTasks,
  machineMessages,
  runAccountSnapshots,
  taskActions,
} from '../../db/schema/index.js';
import { taskOfMachine } from '../../db/task-of-machine.js';
import { agentTaskFields, toAgentTask } from './agent-tasks.js';
import { BUSY, createHelloRepo } from './hello-repo.js';

/** A run's progress as its agent reported it (agent-protocol runProgress), with the machine and when it came. */
export interface ProgressReport extends RunProgressFigures {
  machineId: number;
  runKey: string;
  phase: TransferPhase;
  percentage: number;
  currentItem: number;
  totalItems: number;
  bytesDone: number;
  reportedAt: Date;
}

/** How an action (a run, a seed loading) ended. */
export interface ActionOutcome {
  status: RunStatus;
  finishedAt: Date;
  exitCodeResult: string;
  failureMessage: string | null;
  snapshotId: string | null;
  bytesAdded: number | null;
  bytesTotal: number | null;
  /** Whether the portal can reach the snapshot (default: when there is one); a seed's is on the seed disk. */
  snapshotsAvailable?: boolean;
  /** A restore's summary (issue 31). */
  restoreSummary?: RestoreSummary | null;
  /** What the backup did (issue 31), when its agent said. */
  summary?: RunSummary | undefined;
}

/** The columns of a finished action: a failed one keeps the progress it had reached. */
export const finishedAction = (outcome: ActionOutcome) => ({
  status: outcome.status,
  timeFinished: outcome.finishedAt,
  exitCodeResult: outcome.exitCodeResult,
  failureMessage: outcome.failureMessage,
  resticSnapshotId: outcome.snapshotId,
  bytesAdded: outcome.bytesAdded,
  bytesTotal: outcome.bytesTotal,
  phase: 'FINALIZED' as const,
  transferProgressPercentage: outcome.status === 'FAILED' ? sql`${taskActions.transferProgressPercentage}` : 100,
  snapshotsAvailable: outcome.snapshotsAvailable ?? outcome.snapshotId !== null,
  restoreSummary: outcome.restoreSummary ?? null,
  summary: outcome.summary ?? null,
});

/** The queries behind what agents report: runs, progress, messages, snapshots and the machine itself. */
export function createAgentEventsRepo(db: Executor) {
  const actionOf = (machineId: number, runKey: string) =>
    and(eq(taskActions.backupMachineId, machineId), eq(taskActions.runKey, runKey));

  return {
    /** The hellos of many agents in one statement (hello-repo.ts). */
    answerHellos: createHelloRepo(db).answer,

    async setUsedSpace(machineId: number, usedSpaceBytes: number): Promise<void> {
      await db.update(backupMachines).set({ usedSpaceBytes }).where(eq(backupMachines.id, machineId));
    },

    /** The machine's status and its package's per-machine limit (the quota rule reads both). */
    async machineQuota(machineId: number) {
      return oneOrNull(
        db
          .select({ status: backupMachines.status, limitMb: backupPackages.maxBackupSizePerMachineInMbs })
          .from(backupMachines)
          .innerJoin(backupPackages, eq(backupPackages.id, backupMachines.backupPackageId))
          .where(eq(backupMachines.id, machineId)),
      );
    },

    /** The machine's tasks as its agent holds them. */
    async tasksOf(machineId: number): Promise<AgentTask[]> {
      const query = db
        .select(agentTaskFields)
        .from(backupTasks)
        .innerJoin(backupMachines, eq(backupMachines.id, backupTasks.backupMachineId))
        .$dynamic();
      const rows = await joinMachineOwners(query)
        .where(eq(backupTasks.backupMachineId, machineId))
        .orderBy(asc(backupTasks.id));
      return rows.map(toAgentTask);
    },

    async machineTimeZone(machineId: number): Promise<string> {
      const [row] = await db
        .select({ timeZone: backupMachines.timeZone })
        .from(backupMachines)
        .where(eq(backupMachines.id, machineId));
      return row?.timeZone ?? 'UTC';
    },

    /** The task when it belongs to the machine. */
    async taskOfMachine(machineId: number, taskId: number) {
      return taskOfMachine(db, machineId, taskId, {
        id: backupTasks.id,
        snapshotsEnabled: backupTasks.snapshotsEnabled,
        numberOfSnapshotsToKeep: backupTasks.numberOfSnapshotsToKeep,
      });
    },

    /** Records a run (a backup run or a seed creation) once per run key: the id and whether this call created it. */
    async insertRun(
      machineId: number,
      taskId: number,
      runKey: string,
      startedAt: Date,
      type: ActionType = 'BACKUP_RUN',
      /** The server's time of the report: stalls are measured on the server's clock, not the agent's. */
      reportedAt: Date = new Date(),
    ): Promise<{ id: number; created: boolean }> {
      const inserted = await db
        .insert(taskActions)
        .values({
          backupMachineId: machineId,
          backupTaskId: taskId,
          runKey,
          type,
          status: 'IN_PROGRESS',
          timeStarted: startedAt,
          lastProgressAt: reportedAt,
          phase: 'PREPARING_FILES_TO_TRANSFER',
        })
        .onConflictDoNothing({ target: [taskActions.backupMachineId, taskActions.runKey] })
        .returning({ id: taskActions.id });
      if (inserted[0]) return { id: inserted[0].id, created: true };
      const [existing] = await db.select({ id: taskActions.id }).from(taskActions).where(actionOf(machineId, runKey));
      if (!existing) throw new Error('run neither inserted nor found');
      return { id: existing.id, created: false };
    },

    /**
     * Many runs' progress reports in one statement (the agent-events service gathers them, db/group-commit.ts); at
     * most one report a run. Answers, per report, its run (to tell the dashboard) or null when the run is unknown or
     * no longer busy. A report that repeats the run's last one is not progress (issue 29): restic prints its status
     * every second even while it hangs, so only a change moves the run's clock, and a run that moves again is no
     * longer stalled. (SET expressions read the row as it was.)
     */
    async recordProgress(reports: readonly ProgressReport[]): Promise<Array<{ id: number; taskId: number } | null>> {
      if (reports.length === 0) return [];
      const values = sql.join(
        reports.map(
          (r, i) =>
            sql`(${i}::integer, ${r.machineId}::integer, ${r.runKey}::varchar, ${r.phase}::text, ${r.percentage}::integer,
              ${r.currentItem}::integer, ${r.totalItems}::integer, ${r.bytesDone}::bigint,
              ${r.filesDone ?? null}::integer, ${r.bytesPerSecond ?? null}::bigint,
              ${r.secondsRemaining ?? null}::integer, ${r.reportedAt.toISOString()}::timestamptz)`,
        ),
        sql`, `,
      );
      const a = taskActions;
      const moved = sql`(${a.phase}, ${a.transferProgressPercentage}, ${a.currentTransfer}, ${a.totalTransfers},
        ${a.progressBytesDone}) is distinct from (v.phase, v.percentage, v.current_item, v.total_items, v.bytes_done)`;
      const rows = rowsOf<{ i: number; id: number; task_id: number }>(
        await db.execute(sql`
          update ${a} set
            last_progress_at = case when ${moved} then v.reported_at else ${a.lastProgressAt} end,
            stalled_at = case when ${moved} then null else ${a.stalledAt} end,
            phase = v.phase,
            transfer_progress_percentage = v.percentage,
            current_transfer = v.current_item,
            total_transfers = v.total_items,
            progress_bytes_done = v.bytes_done,
            progress_files_done = v.files_done,
            progress_bytes_per_second = v.bytes_per_second,
            progress_seconds_remaining = v.seconds_remaining
          from (values ${values}) as v(i, machine_id, run_key, phase, percentage, current_item, total_items, bytes_done,
            files_done, bytes_per_second, seconds_remaining, reported_at)
          where ${a.backupMachineId} = v.machine_id and ${a.runKey} = v.run_key and ${inArray(a.status, BUSY)}
          returning v.i as i, ${a.id} as id, ${a.backupTaskId} as task_id`),
      );
      const runs: Array<{ id: number; taskId: number } | null> = reports.map(() => null);
      for (const row of rows) runs[Number(row.i)] = { id: Number(row.id), taskId: Number(row.task_id) };
      return runs;
    },

    /** Finishes a busy run; null when it is unknown or already finished (a repeated report). */
    async finishRun(
      machineId: number,
      runKey: string,
      outcome: ActionOutcome,
    ): Promise<{ id: number; taskId: number } | null> {
      return oneOrNull(
        db
          .update(taskActions)
          .set(finishedAction(outcome))
          .where(and(actionOf(machineId, runKey), inArray(taskActions.status, BUSY)))
          .returning({ id: taskActions.id, taskId: taskActions.backupTaskId }),
      );
    },

    async runOf(machineId: number, runKey: string): Promise<{ id: number; taskId: number; type: ActionType } | null> {
      return oneOrNull(
        db
          .select({ id: taskActions.id, taskId: taskActions.backupTaskId, type: taskActions.type })
          .from(taskActions)
          .where(actionOf(machineId, runKey)),
      );
    },

    /** Keeps the run's snapshot as the task's archive unless the task already has one from this week. */
    async keepWeeklySnapshot(
      taskId: number,
      actionId: number,
      snapshotId: string,
      sizeBytes: number,
      at: Date,
      week: { start: Date; end: Date },
    ): Promise<boolean> {
      const [recent] = await db
        .select({ id: backupSnapshots.id })
        .from(backupSnapshots)
        .where(
          and(
            eq(backupSnapshots.backupTaskId, taskId),
            gte(backupSnapshots.createdAt, week.start),
            lt(backupSnapshots.createdAt, week.end),
          ),
        )
        .limit(1);
      if (recent) return false;
      const inserted = await db
        .insert(backupSnapshots)
        .values({
          backupTaskId: taskId,
          taskActionId: actionId,
          resticSnapshotId: snapshotId,
          status: 'FINISHED_SUCCESS',
          sizeBytes,
          createdAt: at,
        })
        .onConflictDoNothing()
        .returning({ id: backupSnapshots.id });
      return inserted.length > 0;
    },

    /** A panel run's account snapshots, under the run's own snapshot id; a report repeated adds nothing. */
    async insertAccountSnapshots(
      taskId: number,
      runSnapshotId: string,
      accounts: readonly AccountSnapshot[],
    ): Promise<void> {
      if (accounts.length === 0) return;
      await db
        .insert(runAccountSnapshots)
        .values(
          accounts.map((a) => ({
            backupTaskId: taskId,
            runSnapshotId,
            account: a.account,
            resticSnapshotId: a.snapshotId,
          })),
        )
        .onConflictDoNothing();
    },

    async insertMessages(
      machineId: number,
      taskId: number | null,
      actionId: number | null,
      messages: readonly { type: MessageType; text: string; time: Date }[],
    ): Promise<void> {
      if (messages.length === 0) return;
      await db.insert(machineMessages).values(
        messages.map((m) => ({
          backupMachineId: machineId,
          backupTaskId: taskId,
          taskActionId: actionId,
          time: m.time,
          messageType: m.type,
          message: m.text,
        })),
      );
    },
  };
}

export type AgentEventsRepo = ReturnType<typeof createAgentEventsRepo>;
