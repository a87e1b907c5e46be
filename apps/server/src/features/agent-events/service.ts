import {
  type ActionType,
  type AgentToServer,
  interruptedActionMessage,
  isTaskRunAction,
  isValidTimeZone,
  machineQuotaStatus,
  megabytesToBytes,
  type RunStatus,
  type ServerToAgent,
} from '@portal/domain';
import type { Executor } from '../../db/client.js';
import { createGroupCommit } from '../../db/group-commit.js';
import type { BackupStateService } from '../backup-state/service.js';
import type { RepositoryFacts } from '../local-storage/repository-settings.js';
import type { AuthenticatedMachine } from '../machine-auth/credentials.js';
import type { BusyRun, HelloFacts, HelloReport } from './hello-repo.js';
import { type AgentEventsRepo, createAgentEventsRepo, type ProgressReport } from './repo.js';

const DAY_MS = 86_400_000;
/** Most progress reports in one statement (twelve parameters each, under PostgreSQL's 65,535). */
const PROGRESS_BATCH = 2_000;
/** Most hellos in one statement (five parameters each). */
const HELLO_BATCH = 2_000;

/** Monday 00:00 UTC of the week holding `at`: snapshot archives are kept at most one per week. */
export function weekStartOf(at: Date): Date {
  const day = Math.floor(at.getTime() / DAY_MS);
  // 1 January 1970 was a Thursday: day 0 is weekday 3 counting from Monday.
  const sinceMonday = (day + 3) % 7;
  return new Date((day - sinceMonday) * DAY_MS);
}

/** What happened, for the browsers watching the machine (the live channel publishes it). */
export type MachineUpdate = { kind: 'run'; taskId: number; runId: number } | { kind: 'machine' };

/**
 * Records what a machine's agent reports (DESIGN §5–6): the database is the truth, every report is
 * idempotent (a run by its run key, a finish only while the run is busy), and the task's run status
 * fields move with the run through the backup-state service, so the dashboard follows. Returns the
 * messages to send back to the agent.
 */
export function createAgentEventService(deps: {
  repo: AgentEventsRepo;
  backupState: BackupStateService;
  onUpdate?: (machineId: number, update: MachineUpdate) => void;
  /** The machine's reported usage changed: its package's quota is evaluated (000 §4). */
  usageChanged?: (machineId: number) => Promise<unknown>;
  /** A backup run finished: the portal's retention and pruning of removed accounts (features/retention, issue 16). */
  backupRunFinished?: (
    taskId: number,
    run: {
      actionId: number;
      snapshotMade: boolean;
      numberOfSnapshotsToKeep: number;
      panelAccounts?: readonly string[] | undefined;
    },
  ) => Promise<void>;
  /** A task's run ended, in the transaction that recorded it (the failure and warning alerts, issue 17). */
  runEnded?: (
    tx: Executor,
    run: { actionId: number; taskId: number; status: RunStatus; finishedAt: Date; failureMessage: string | null },
  ) => Promise<unknown>;
  now?: () => Date;
}) {
  const { repo } = deps;
  const notify = (machineId: number, update: MachineUpdate) => deps.onUpdate?.(machineId, update);
  const now = deps.now ?? (() => new Date());
  /** Progress is most of what agents send: many agents' reports go in one statement (issue 33, ingest). */
  const progress = createGroupCommit<ProgressReport, { id: number; taskId: number } | null>({
    apply: (reports) => repo.recordProgress(reports),
    keyOf: (report) => `${report.machineId}:${report.runKey}`,
    maxBatch: PROGRESS_BATCH,
  });

  /**
   * Writes a run's start or status change: with the task's run statuses (and so the dashboard) through the
   * backup state when the action is one of the task's runs, alone when it is not (a restore, isTaskRunAction).
   */
  async function recordRun(
    type: ActionType,
    taskId: number,
    change: 'started' | RunStatus,
    write: (events: AgentEventsRepo, tx: Executor | null) => Promise<boolean>,
  ): Promise<void> {
    if (!isTaskRunAction(type)) {
      await write(repo, null);
      return;
    }
    const alongside = (tx: Executor) => write(createAgentEventsRepo(tx), tx);
    if (change === 'started') await deps.backupState.runStarted(taskId, 'IN_PROGRESS', alongside);
    else await deps.backupState.runStatusChanged(taskId, change, alongside);
  }

  /** The task list message for the machine's agent (`knownTimeZone`: the machine's, when the caller just read it). */
  async function tasksMessage(machineId: number, knownTimeZone?: string | null): Promise<ServerToAgent> {
    const [tasks, timeZone] = await Promise.all([
      repo.tasksOf(machineId),
      knownTimeZone ?? repo.machineTimeZone(machineId),
    ]);
    return { type: 'tasks', tasks, timeZone };
  }

  /**
   * A (re)connecting agent says which of its runs it still accounts for (running, or finished with the
   * outcome still queued for us). Any other busy run of the machine was cut off — the agent was killed,
   * the machine crashed or lost power — and would otherwise stay IN_PROGRESS for ever and block the
   * task: it is FAILED as interrupted, in the words of its kind (a restore says it was a restore).
   * Idempotent: only busy runs are finished, each at most once.
   */
  async function failInterruptedRuns(
    machineId: number,
    accountedFor: readonly string[],
    busyRuns: readonly BusyRun[],
  ): Promise<void> {
    const known = new Set(accountedFor);
    for (const run of busyRuns) {
      if (known.has(run.runKey)) continue;
      let finished = false;
      await recordRun(run.type, run.taskId, 'FAILED', async (events, tx) => {
        const finishedAt = now();
        const failureMessage = interruptedActionMessage(run.type);
        finished =
          (await events.finishRun(machineId, run.runKey, {
            status: 'FAILED',
            finishedAt,
            exitCodeResult: 'IO_OR_INTERRUPT_EXCEPTION',
            failureMessage,
            snapshotId: null,
            bytesAdded: null,
            bytesTotal: null,
          })) !== null;
        if (finished && tx) {
          await deps.runEnded?.(tx, {
            actionId: run.id,
            taskId: run.taskId,
            status: 'FAILED',
            finishedAt,
            failureMessage,
          });
        }
        return finished;
      });
      if (finished) notify(machineId, { kind: 'run', taskId: run.taskId, runId: run.id });
    }
  }

  /** Many agents' hellos in one statement (issue 33): a reconnecting fleet costs a few statements, not one each. */
  const hellos = createGroupCommit<HelloReport, HelloFacts | null>({
    async apply(reports) {
      const facts = await repo.answerHellos(reports);
      return reports.map((report) => facts.get(report.machineId) ?? null);
    },
    keyOf: (report) => report.machineId,
    maxBatch: HELLO_BATCH,
  });

  /**
   * A (re)connecting agent's hello: what it says of its machine is stored, the runs it no longer accounts for are
   * failed, and it is answered with its task list; `repository` is what its repository settings are made of (sent
   * after the task list, see machine-channel/handlers.ts).
   */
  async function hello(
    machine: AuthenticatedMachine,
    event: Extract<AgentToServer, { type: 'hello' }>,
  ): Promise<{ tasks: ServerToAgent; repository: RepositoryFacts | null }> {
    const facts = await hellos.add({
      machineId: machine.id,
      osFamily: event.osFamily,
      operatingSystem: event.operatingSystem,
      desktopClientVersion: event.clientVersion,
      timeZone: isValidTimeZone(event.timeZone) ? event.timeZone : null,
    });
    notify(machine.id, { kind: 'machine' });
    // A machine deleted meanwhile: an empty list, as its tasks are gone.
    if (!facts) return { tasks: { type: 'tasks', tasks: [], timeZone: 'UTC' }, repository: null };
    if (event.runningRunKeys !== undefined) await failInterruptedRuns(machine.id, event.runningRunKeys, facts.busyRuns);
    return { tasks: { type: 'tasks', tasks: facts.tasks, timeZone: facts.timeZone }, repository: facts.repository };
  }

  return {
    tasksMessage,
    hello,

    async handle(machine: AuthenticatedMachine, event: AgentToServer): Promise<ServerToAgent[]> {
      switch (event.type) {
        case 'hello':
          return [(await hello(machine, event)).tasks];

        case 'runStarted': {
          const task = await repo.taskOfMachine(machine.id, event.taskId);
          if (!task) return replyTo(event.requestId, false, [`Task ${event.taskId} is not a task of this machine`]);
          let runId = 0;
          const type = event.actionType ?? 'BACKUP_RUN';
          await recordRun(type, event.taskId, 'started', async (events) => {
            const run = await events.insertRun(
              machine.id,
              event.taskId,
              event.runKey,
              new Date(event.startedAt),
              type,
              now(),
            );
            runId = run.id;
            return run.created;
          });
          notify(machine.id, { kind: 'run', taskId: event.taskId, runId });
          return replyTo(event.requestId, true, [], { runId });
        }

        case 'runProgress': {
          const { type: _, ...report } = event;
          const run = await progress.add({ ...report, machineId: machine.id, reportedAt: now() });
          if (run) notify(machine.id, { kind: 'run', taskId: run.taskId, runId: run.id });
          return [];
        }

        case 'runFinished': {
          const run = await repo.runOf(machine.id, event.runKey);
          if (!run) return [];
          // A seed's snapshot is in the repository on the seed disk, out of the portal's reach until loaded.
          const onSeedDisk = run.type === 'BACKUP_SEED_CREATION';
          let finished = false;
          const accountSnapshots = event.accountSnapshots ?? [];
          await recordRun(run.type, run.taskId, event.status, async (events, tx) => {
            finished =
              (await events.finishRun(machine.id, event.runKey, {
                status: event.status,
                finishedAt: new Date(event.finishedAt),
                exitCodeResult: event.exitCodeResult,
                failureMessage: event.failureMessage,
                snapshotId: event.snapshotId,
                bytesAdded: event.bytesAdded,
                bytesTotal: event.bytesTotal,
                restoreSummary: run.type === 'BACKUP_RESTORE' ? (event.restoreSummary ?? null) : null,
                summary: event.summary,
                ...(onSeedDisk ? { snapshotsAvailable: false } : {}),
              })) !== null;
            if (finished && event.snapshotId) {
              await events.insertAccountSnapshots(run.taskId, event.snapshotId, accountSnapshots);
            }
            if (finished && tx) {
              await deps.runEnded?.(tx, {
                actionId: run.id,
                taskId: run.taskId,
                status: event.status,
                finishedAt: new Date(event.finishedAt),
                failureMessage: event.failureMessage,
              });
            }
            return finished;
          });
          if (!finished) return [];
          const finishedAt = new Date(event.finishedAt);
          const task = await repo.taskOfMachine(machine.id, run.taskId);
          if (task && run.type === 'BACKUP_RUN') {
            await deps.backupRunFinished?.(run.taskId, {
              actionId: run.id,
              snapshotMade: event.snapshotId !== null,
              numberOfSnapshotsToKeep: task.numberOfSnapshotsToKeep,
              panelAccounts: event.panelAccounts,
            });
          }
          if (event.snapshotId && !onSeedDisk && task?.snapshotsEnabled) {
            await repo.keepWeeklySnapshot(run.taskId, run.id, event.snapshotId, event.bytesTotal ?? 0, finishedAt, {
              start: weekStartOf(finishedAt),
              end: new Date(weekStartOf(finishedAt).getTime() + 7 * DAY_MS),
            });
          }
          notify(machine.id, { kind: 'run', taskId: run.taskId, runId: run.id });
          return [];
        }

        case 'messages': {
          const actionId = event.runKey ? ((await repo.runOf(machine.id, event.runKey))?.id ?? null) : null;
          const taskId =
            event.taskId !== null && (await repo.taskOfMachine(machine.id, event.taskId)) ? event.taskId : null;
          await repo.insertMessages(
            machine.id,
            taskId,
            actionId,
            event.messages.map((m) => ({ type: m.type, text: m.text, time: new Date(m.time) })),
          );
          return [];
        }

        case 'usage': {
          await repo.setUsedSpace(machine.id, event.usedSpaceBytes);
          notify(machine.id, { kind: 'machine' });
          // Per-machine quota (DESIGN §8): over the package's limit the tasks stop, below it they run again;
          // the agent gets its task list with the runnable flags at once.
          const quota = await repo.machineQuota(machine.id);
          const next = quota
            ? machineQuotaStatus(quota.status, event.usedSpaceBytes, megabytesToBytes(quota.limitMb))
            : null;
          const machineChanged = next !== null && (await deps.backupState.setMachineStatus(machine.id, next));
          // The package quota's change tells each of the package's agents, this one included.
          await deps.usageChanged?.(machine.id);
          return machineChanged ? [await tasksMessage(machine.id)] : [];
        }

        case 'reply':
        case 'realtimeOutput':
        case 'realtimeFinished':
        case 'fileSearchMatches':
        case 'fileSearchFinished':
        case 'restoreTestFinished':
          // Answers to commands: the live channel routes them to the browser that asked.
          return [];
      }
    },
  };
}

function replyTo(
  requestId: string | undefined,
  success: boolean,
  messages: string[],
  payload?: unknown,
): ServerToAgent[] {
  if (!requestId) return [];
  return [{ type: 'reply', requestId, success, messages, ...(payload === undefined ? {} : { payload }) }];
}

export type AgentEventService = ReturnType<typeof createAgentEventService>;
