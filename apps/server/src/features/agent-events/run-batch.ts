import { type AgentToServer, isTaskRunAction, type RunStatus } from '@portal/domain';
import type { Executor } from '../../db/client.js';
import type { BackupStateService, RunMove } from '../backup-state/service.js';
import { type ActionOfRun, type AgentEventsRepo, createAgentEventsRepo, type MachineMessage } from './repo.js';

/** The reports of a run's life that move a task and the dashboard: gathered many to a transaction (issue 33). */
export type RunReport = Extract<AgentToServer, { type: 'runStarted' | 'runFinished' | 'messages' }>;

export interface QueuedRunReport {
  machineId: number;
  report: RunReport;
  /** The server's time of the report (a run's first progress clock). */
  reportedAt: Date;
}

/** The task fields a finished run's follow-up reads (retention, weekly archive). */
export interface TaskOfRun {
  id: number;
  snapshotsEnabled: boolean;
  numberOfSnapshotsToKeep: number;
}

/** What storing a report did, for its follow-up and its answer to the agent. */
export type RunReportOutcome =
  | { kind: 'started'; runId: number; taskId: number }
  /** A run start of a task that is not the machine's. */
  | { kind: 'foreignTask' }
  /** A run finished by this report (not by an earlier copy of it). */
  | { kind: 'finished'; run: ActionOfRun; task: TaskOfRun | null }
  | { kind: 'stored' };

/** Task runs ended, in the transaction that records them (the failure and warning alerts, issue 17). */
export type RunsEnded = (
  tx: Executor,
  runs: readonly {
    actionId: number;
    taskId: number;
    status: RunStatus;
    finishedAt: Date;
    failureMessage: string | null;
  }[],
) => Promise<unknown>;

/** Messages per INSERT (six parameters each, under PostgreSQL's 65,535). */
const MESSAGES_PER_STATEMENT = 5_000;

const keyOf = (machineId: number, id: number | string) => `${machineId}:${id}`;

/**
 * Stores many agents' run starts, run ends and messages in one transaction: a few statements for the lot (the
 * tasks' customers locked, runs inserted, runs finished, messages inserted, the tasks' run statuses and the read
 * model moved) instead of a transaction each. Each report is idempotent as alone: a start repeated finds its run,
 * a finish repeated finds it finished and moves nothing, and the read model follows only the moves that took effect.
 * One report a machine per call (the group commit's key), so one move a task.
 */
export function createRunReportWriter(deps: {
  repo: AgentEventsRepo;
  backupState: Pick<BackupStateService, 'runsMoved'>;
  runsEnded?: RunsEnded | undefined;
}) {
  return async function store(items: readonly QueuedRunReport[]): Promise<RunReportOutcome[]> {
    const { repo } = deps;
    const runKeys = items.flatMap(({ machineId, report }) =>
      report.type !== 'runStarted' && report.runKey ? [{ machineId, runKey: report.runKey }] : [],
    );
    const runs = new Map<string, ActionOfRun>();
    (await repo.runsOf(runKeys)).forEach((run, i) => {
      const key = runKeys[i];
      if (run && key) runs.set(keyOf(key.machineId, key.runKey), run);
    });
    const runOf = (machineId: number, runKey: string | null) =>
      runKey === null ? undefined : runs.get(keyOf(machineId, runKey));
    const taskKeys = items.flatMap(({ machineId, report }) => {
      const taskId = report.type === 'runFinished' ? runOf(machineId, report.runKey)?.taskId : report.taskId;
      return taskId ? [{ machineId, taskId }] : [];
    });
    const tasks = new Map((await repo.tasksOfMachines(taskKeys)).map((t) => [keyOf(t.machineId, t.id), t]));
    const taskOf = (machineId: number, taskId: number | null | undefined) =>
      taskId ? tasks.get(keyOf(machineId, taskId)) : undefined;

    // The tasks whose run statuses may move: their customers are locked, their read model follows.
    const moving = new Set<number>();
    for (const { machineId, report } of items) {
      if (report.type === 'runStarted' && taskOf(machineId, report.taskId)) {
        if (isTaskRunAction(report.actionType ?? 'BACKUP_RUN')) moving.add(report.taskId);
      } else if (report.type === 'runFinished') {
        const run = runOf(machineId, report.runKey);
        if (run && isTaskRunAction(run.type)) moving.add(run.taskId);
      }
    }

    let outcomes: RunReportOutcome[] = [];
    await deps.backupState.runsMoved([...moving], async (tx) => {
      outcomes = items.map(() => ({ kind: 'stored' }));
      const events = createAgentEventsRepo(tx);
      const moves = new Map<number, RunMove>();

      const starts = items.flatMap(({ machineId, report, reportedAt }, i) =>
        report.type === 'runStarted' && taskOf(machineId, report.taskId) ? [{ i, machineId, report, reportedAt }] : [],
      );
      const started = await events.insertRuns(
        starts.map(({ machineId, report, reportedAt }) => ({
          machineId,
          taskId: report.taskId,
          runKey: report.runKey,
          startedAt: new Date(report.startedAt),
          type: report.actionType ?? 'BACKUP_RUN',
          reportedAt,
        })),
      );
      starts.forEach(({ i, report }, k) => {
        const run = started[k] as { id: number; created: boolean };
        outcomes[i] = { kind: 'started', runId: run.id, taskId: report.taskId };
        if (run.created && isTaskRunAction(report.actionType ?? 'BACKUP_RUN')) {
          moves.set(report.taskId, { started: true, status: 'IN_PROGRESS' });
        }
      });
      items.forEach(({ machineId, report }, i) => {
        if (report.type === 'runStarted' && !taskOf(machineId, report.taskId)) outcomes[i] = { kind: 'foreignTask' };
      });

      const ends = items.flatMap(({ machineId, report }, i) => {
        const run = report.type === 'runFinished' ? runOf(machineId, report.runKey) : undefined;
        return run && report.type === 'runFinished' ? [{ i, machineId, report, run }] : [];
      });
      const finished = await events.finishRuns(
        ends.map(({ machineId, report, run }) => ({
          machineId,
          runKey: report.runKey,
          outcome: {
            status: report.status,
            finishedAt: new Date(report.finishedAt),
            exitCodeResult: report.exitCodeResult,
            failureMessage: report.failureMessage,
            snapshotId: report.snapshotId,
            bytesAdded: report.bytesAdded,
            bytesTotal: report.bytesTotal,
            restoreSummary: run.type === 'BACKUP_RESTORE' ? (report.restoreSummary ?? null) : null,
            summary: report.summary,
            // A seed's snapshot is in the repository on the seed disk, out of the portal's reach until loaded.
            ...(run.type === 'BACKUP_SEED_CREATION' ? { snapshotsAvailable: false } : {}),
          },
        })),
      );
      const ended: Parameters<RunsEnded>[1][number][] = [];
      for (const [k, { i, machineId, report, run }] of ends.entries()) {
        if (!finished[k]) continue;
        if (report.snapshotId) {
          await events.insertAccountSnapshots(run.taskId, report.snapshotId, report.accountSnapshots ?? []);
        }
        if (isTaskRunAction(run.type)) {
          ended.push({
            actionId: run.id,
            taskId: run.taskId,
            status: report.status,
            finishedAt: new Date(report.finishedAt),
            failureMessage: report.failureMessage,
          });
          moves.set(run.taskId, { started: false, status: report.status });
        }
        const task = taskOf(machineId, run.taskId);
        outcomes[i] = {
          kind: 'finished',
          run,
          task: task
            ? {
                id: task.id,
                snapshotsEnabled: task.snapshotsEnabled,
                numberOfSnapshotsToKeep: task.numberOfSnapshotsToKeep,
              }
            : null,
        };
      }
      if (ended.length > 0) await deps.runsEnded?.(tx, ended);

      const messages: MachineMessage[] = items.flatMap(({ machineId, report }) =>
        report.type === 'messages'
          ? report.messages.map((m) => ({
              machineId,
              taskId: taskOf(machineId, report.taskId)?.id ?? null,
              actionId: runOf(machineId, report.runKey)?.id ?? null,
              type: m.type,
              text: m.text,
              time: new Date(m.time),
            }))
          : [],
      );
      for (let start = 0; start < messages.length; start += MESSAGES_PER_STATEMENT) {
        await events.insertMachineMessages(messages.slice(start, start + MESSAGES_PER_STATEMENT));
      }
      return moves;
    });
    return outcomes;
  };
}
