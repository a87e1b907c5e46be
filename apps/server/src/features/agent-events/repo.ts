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

/** A run as its machine's agent names it. */
export interface RunOfMachine {
  machineId: number;
  runKey: string;
}

/** A run as agents' reports find it. */
export interface ActionOfRun {
  id: number;
  taskId: number;
  type: ActionType;
  /** When the run began (the metrics' run duration). */
  timeStarted: Date;
}

/** A run to record (insertRuns). */
export interface NewRun extends RunOfMachine {
  taskId: number;
  startedAt: Date;
  type: ActionType;
  /** The server's time of the report: stalls are measured on the server's clock, not the agent's. */
  reportedAt: Date;
}

/** A message of a machine's agent, with the task and run it is about. */
export interface MachineMessage {
  machineId: number;
  taskId: number | null;
  actionId: number | null;
  type: MessageType;
  text: string;
  time: Date;
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
  /** Runs by machine and run key (one statement for many), in the keys' order: null for an unknown one. */
  async function runsOf(keys: readonly RunOfMachine[]): Promise<Array<ActionOfRun | null>> {
    if (keys.length === 0) return [];
    const rows = rowsOf<{ i: number; id: number; task_id: number; type: ActionType; time_started: string | Date }>(
      await db.execute(sql`
        select x.i, a.id, a.backup_task_id as task_id, a.type, a.time_started
          from jsonb_to_recordset(${JSON.stringify(keys.map((k, i) => ({ i, m: k.machineId, k: k.runKey })))}::jsonb)
            as x(i int, m int, k text)
          join ${taskActions} a on a.backup_machine_id = x.m and a.run_key = x.k`),
    );
    const runs: Array<ActionOfRun | null> = keys.map(() => null);
    for (const r of rows) {
      runs[Number(r.i)] = {
        id: Number(r.id),
        taskId: Number(r.task_id),
        type: r.type,
        timeStarted: new Date(r.time_started),
      };
    }
    return runs;
  }

  /**
   * Records many runs in one statement (insertRun for many); answers, in their order, each run's id and whether this
   * call created it (a report repeated finds the run).
   */
  async function insertRuns(runs: readonly NewRun[]): Promise<Array<{ id: number; created: boolean }>> {
    if (runs.length === 0) return [];
    const inserted = await db
      .insert(taskActions)
      .values(
        runs.map((r) => ({
          backupMachineId: r.machineId,
          backupTaskId: r.taskId,
          runKey: r.runKey,
          type: r.type,
          status: 'IN_PROGRESS' as const,
          timeStarted: r.startedAt,
          lastProgressAt: r.reportedAt,
          phase: 'PREPARING_FILES_TO_TRANSFER' as const,
        })),
      )
      .onConflictDoNothing({ target: [taskActions.backupMachineId, taskActions.runKey] })
      .returning({ id: taskActions.id, machineId: taskActions.backupMachineId, runKey: taskActions.runKey });
    const created = new Map(inserted.map((r) => [`${r.machineId}:${r.runKey}`, r.id]));
    const found = await runsOf(runs.filter((r) => !created.has(`${r.machineId}:${r.runKey}`)));
    let next = 0;
    return runs.map((r) => {
      const id = created.get(`${r.machineId}:${r.runKey}`);
      if (id !== undefined) return { id, created: true };
      const existing = found[next++];
      if (!existing) throw new Error('run neither inserted nor found');
      return { id: existing.id, created: false };
    });
  }

  /**
   * Finishes many busy runs in one statement (the columns of finishedAction); answers, in their order, each run,
   * or null when it is unknown or already finished (a repeated report).
   */
  async function finishRuns(
    finishes: readonly (RunOfMachine & { outcome: ActionOutcome })[],
  ): Promise<Array<{ id: number; taskId: number } | null>> {
    if (finishes.length === 0) return [];
    const values = finishes.map(({ machineId, runKey, outcome: o }, i) => ({
      i,
      machineId,
      runKey,
      status: o.status,
      finishedAt: o.finishedAt.toISOString(),
      exitCodeResult: o.exitCodeResult,
      failureMessage: o.failureMessage,
      snapshotId: o.snapshotId,
      bytesAdded: o.bytesAdded,
      bytesTotal: o.bytesTotal,
      snapshotsAvailable: o.snapshotsAvailable ?? o.snapshotId !== null,
      restoreSummary: o.restoreSummary ?? null,
      summary: o.summary ?? null,
    }));
    const a = taskActions;
    const rows = rowsOf<{ i: number; id: number; task_id: number }>(
      await db.execute(sql`
        update ${a} set
          status = x.status::run_status, time_finished = x."finishedAt", exit_code_result = x."exitCodeResult",
          failure_message = x."failureMessage", restic_snapshot_id = x."snapshotId", bytes_added = x."bytesAdded",
          bytes_total = x."bytesTotal", phase = 'FINALIZED',
          transfer_progress_percentage = case when x.status = 'FAILED' then ${a.transferProgressPercentage} else 100 end,
          snapshots_available = x."snapshotsAvailable", restore_summary = x."restoreSummary", summary = x.summary
        from jsonb_to_recordset(${JSON.stringify(values)}::jsonb)
          as x(i int, "machineId" int, "runKey" text, status text, "finishedAt" timestamptz, "exitCodeResult" text,
               "failureMessage" text, "snapshotId" text, "bytesAdded" bigint, "bytesTotal" bigint,
               "snapshotsAvailable" boolean, "restoreSummary" jsonb, summary jsonb)
        where ${a.backupMachineId} = x."machineId" and ${a.runKey} = x."runKey" and ${inArray(a.status, BUSY)}
        returning x.i as i, ${a.id} as id, ${a.backupTaskId} as task_id`),
    );
    const runs: Array<{ id: number; taskId: number } | null> = finishes.map(() => null);
    for (const r of rows) runs[Number(r.i)] = { id: Number(r.id), taskId: Number(r.task_id) };
    return runs;
  }

  /** Messages of any machines, tasks and runs, in one statement. */
  async function insertMachineMessages(rows: readonly MachineMessage[]): Promise<void> {
    if (rows.length === 0) return;
    await db.insert(machineMessages).values(
      rows.map((m) => ({
        backupMachineId: m.machineId,
        backupTaskId: m.taskId,
        taskActionId: m.actionId,
        time: m.time,
        messageType: m.type,
        message: m.text,
      })),
    );
  }

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
      const [run] = await insertRuns([{ machineId, taskId, runKey, startedAt, type, reportedAt }]);
      return run as { id: number; created: boolean };
    },

    insertRuns,
    runsOf,
    finishRuns,

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
      const [run] = await finishRuns([{ machineId, runKey, outcome }]);
      return run ?? null;
    },

    async runOf(machineId: number, runKey: string): Promise<ActionOfRun | null> {
      const [run] = await runsOf([{ machineId, runKey }]);
      return run ?? null;
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
      await insertMachineMessages(messages.map((m) => ({ ...m, machineId, taskId, actionId })));
    },

    insertMachineMessages,

    /** Which of these tasks belong to the machine named with them (taskOfMachine for many), with what a run's end reads. */
    async tasksOfMachines(keys: readonly { machineId: number; taskId: number }[]) {
      if (keys.length === 0) return [];
      const asked = new Set(keys.map((k) => `${k.machineId}:${k.taskId}`));
      const rows = await db
        .select({
          id: backupTasks.id,
          machineId: backupTasks.backupMachineId,
          snapshotsEnabled: backupTasks.snapshotsEnabled,
          numberOfSnapshotsToKeep: backupTasks.numberOfSnapshotsToKeep,
        })
        .from(backupTasks)
        .where(inArray(backupTasks.id, [...new Set(keys.map((k) => k.taskId))]));
      return rows.filter((t) => asked.has(`${t.machineId}:${t.id}`));
    },
  };
}

export type AgentEventsRepo = ReturnType<typeof createAgentEventsRepo>;
