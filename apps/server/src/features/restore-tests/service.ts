import { randomUUID } from 'node:crypto';
import {
  type Actor,
  type AgentToServer,
  MESSAGES,
  machineAudience,
  machineCommandBlockedReason,
  mayChange,
  mayCommandMachine,
  type Paged,
  type PagingQuery,
  pageOf,
  RESTORE_TEST,
  RESTORE_TEST_TEXTS,
  type RestoreTestResult,
  type RestoreTestRow,
  type RestoreTestSettings,
  type RestoreTestSettingsView,
  type RestoreTestSummary,
  restoreTestIntervalDays,
  type ServerToAgent,
} from '@portal/domain';
import { conflict, forbidden, notFound } from '../../http/errors.js';
import { offline } from '../machine-commands/service.js';
import type { S3ReplacementScan } from '../storage-tampering/service.js';
import type { CommandReply } from '../task-commands/repo.js';
import { presentRestoreTest } from './present.js';
import type { RestoreTestsRepo } from './repo.js';

/** Sends the machine's agent a command and waits for its reply, as the live channel's `ask` does. */
export type AskAgent = (
  machineId: number,
  command: (requestId: string) => ServerToAgent,
) => Promise<CommandReply | 'offline' | 'timeout'>;

/** The provider's defaults (configuration): the interval and the sample every test asks for. */
export interface RestoreTestDefaults {
  intervalDays: number;
  sampleFiles: number;
  sampleBytes: number;
}

export interface TaskPath {
  machineId: number;
  taskId: number;
}

const COMMUNICATION_ERROR = MESSAGES.liveChannel.backupMachineCommunicationError;

type RepairScan = Pick<S3ReplacementScan, 'repair'>;

/**
 * Restore tests (issue 32 item 1): started by the schedule (a due task's test, job restore-tests) or by whoever may run
 * the task ('Test restore now'); the agent restores a sample and reports the result, kept per task. Readable by
 * whoever sees the machine; anyone else finds no task.
 */
export function createRestoreTestService(deps: {
  repo: RestoreTestsRepo;
  askAgent: AskAgent;
  defaults: RestoreTestDefaults;
  now: () => Date;
  newKey?: () => string;
  /** Tests of these tasks ended (a result, a failure, a timeout): their 'Last verified' is kept (issue 32 item 3). */
  ended?: (taskIds: readonly number[]) => Promise<void>;
  /** The customer's interval changed: its tasks' schedule and deadlines move with it. */
  intervalChanged?: (customerId: number, overrideDays: number | null) => Promise<void>;
  /**
   * Puts back what the machine replaced in its Object Lock bucket (features/storage-tampering), before a failed
   * test is believed; with what went wrong on the way.
   */
  replacements?: { scan: RepairScan; onError: (error: unknown) => void };
}) {
  const { repo, defaults } = deps;
  const newKey = deps.newKey ?? randomUUID;
  /** Failed tests being looked at again: their results are recorded when done (close and tests wait for them). */
  const rechecking = new Set<Promise<void>>();

  async function visibleTask(actor: Actor, path: TaskPath) {
    const machine = await repo.machine(path.machineId);
    if (!machine || machineAudience(actor, machine) === null) throw notFound(MESSAGES.backupMachine.notFound);
    const task = await repo.task(path.machineId, path.taskId);
    if (!task) throw notFound(MESSAGES.liveChannel.taskNotFound);
    return { machine, task };
  }

  /** Why the caller may not start a test now (the machine's command reason first), or null. */
  async function startReason(actor: Actor, found: Awaited<ReturnType<typeof visibleTask>>, running: boolean) {
    const reason = machineCommandBlockedReason(actor, found.machine);
    if (reason) return reason;
    if (found.task.status === 'BEING_DELETED') return MESSAGES.remoteManagement.taskBeingDeleted;
    if (running) return RESTORE_TEST_TEXTS.busy;
    if (!(await repo.hasSnapshot(found.task.id))) return RESTORE_TEST_TEXTS.noSnapshot;
    return null;
  }

  /** Sends a marked test to its agent: true when taken; otherwise the row is removed (offline) or failed. */
  async function send(test: { machineId: number; taskId: number; testKey: string }): Promise<CommandReply | 'offline'> {
    const answer = await deps.askAgent(test.machineId, (requestId) => ({
      type: 'restoreTest',
      requestId,
      testKey: test.testKey,
      taskId: test.taskId,
      maxFiles: defaults.sampleFiles,
      maxBytes: defaults.sampleBytes,
    }));
    if (answer === 'offline') {
      await repo.forget(test.testKey, deps.now());
      return 'offline';
    }
    const reply = answer === 'timeout' ? { success: false, messages: [COMMUNICATION_ERROR] } : answer;
    if (!reply.success) {
      const taskId = await repo.fail(test.testKey, reply.messages[0] ?? COMMUNICATION_ERROR, deps.now());
      if (taskId !== null) await ended([taskId]);
    }
    return reply;
  }

  const ended = (taskIds: readonly number[]) => deps.ended?.(taskIds) ?? Promise.resolve();

  async function finish(machineId: number, testKey: string, result: RestoreTestResult): Promise<number | null> {
    const taskId = await repo.finish(machineId, testKey, result, deps.now());
    if (taskId !== null) await ended([taskId]);
    return taskId;
  }

  /**
   * A failed first try on S3 with Object Lock (issue 32): the machine's replacement of an object (its key may write)
   * fails a test until the next scan puts the original back. So the machine's repository is scanned now: when
   * anything was put back the agent tests again, once, under a new key (sent as any test is); else the failure stands.
   */
  async function recheck(machineId: number, testKey: string, result: RestoreTestResult, scan: RepairScan) {
    const again = (await scan.repair(machineId)) > 0 ? await repo.rerun(machineId, testKey, newKey()) : null;
    if (again) await send({ machineId, taskId: again.backupTaskId, testKey: again.testKey });
    else await finish(machineId, testKey, result);
  }

  const intervalOf = async (customerId: number) =>
    restoreTestIntervalDays(defaults.intervalDays, await repo.intervalOverride(customerId));

  return {
    async summary(actor: Actor, path: TaskPath): Promise<RestoreTestSummary> {
      const found = await visibleTask(actor, path);
      const latest = (await repo.latestForTasks([found.task.id])).get(found.task.id) ?? null;
      return {
        latest: latest ? presentRestoreTest(latest) : null,
        startReason: await startReason(actor, found, latest?.outcome === 'RUNNING'),
        intervalDays: await intervalOf(found.machine.customerId),
      };
    },

    async history(actor: Actor, path: TaskPath, paging: PagingQuery): Promise<Paged<RestoreTestRow>> {
      const { task } = await visibleTask(actor, path);
      const page = await repo.history(task.id, paging);
      return pageOf(page.rows.map(presentRestoreTest), page.total, paging.size);
    },

    /** 'Test restore now': for whoever may run the task (403 otherwise), answered once the agent has taken it. */
    async start(actor: Actor, path: TaskPath): Promise<RestoreTestRow> {
      const found = await visibleTask(actor, path);
      if (!mayChange(actor) || !mayCommandMachine(actor, found.machine)) throw forbidden();
      const reason = await startReason(actor, found, false);
      if (reason) throw conflict(reason);
      const row = await repo.insertRunning({
        taskId: found.task.id,
        machineId: found.machine.id,
        testKey: newKey(),
        manual: true,
        userId: actor.userId,
        startedAt: deps.now(),
        intervalDays: await intervalOf(found.machine.customerId),
      });
      if (!row) throw conflict(RESTORE_TEST_TEXTS.busy);
      const reply = await send({ machineId: row.backupMachineId, taskId: row.backupTaskId, testKey: row.testKey });
      if (reply === 'offline') throw offline();
      if (!reply.success) throw conflict(reply.messages[0] ?? COMMUNICATION_ERROR);
      return presentRestoreTest(row);
    },

    /**
     * The agent's result: recorded once, for a test of this machine that is still running; the task's id, or null
     * when there is none or a failure is looked at again first (in the background: the agent's events wait for
     * this, and its second try is asked of it).
     */
    async onAgentEvent(machineId: number, event: Extract<AgentToServer, { type: 'restoreTestFinished' }>) {
      const { type: _type, testKey, ...result } = event;
      const { replacements } = deps;
      if (result.outcome !== 'PASSED' && replacements && (await repo.mayRerun(machineId, testKey))) {
        // A test left running by a failure here is failed by the timeout sweep.
        const work: Promise<void> = recheck(machineId, testKey, result, replacements.scan)
          .catch(replacements.onError)
          .finally(() => rechecking.delete(work));
        rechecking.add(work);
        return null;
      }
      return finish(machineId, testKey, result);
    },

    /** Resolves when the failed tests being looked at again are recorded or sent again (shutdown, tests). */
    async settled(): Promise<void> {
      while (rechecking.size > 0) await Promise.all(rechecking);
    },

    /**
     * One pass of the schedule: tests that never reported are failed, then up to RESTORE_TEST.scheduledPerPass due
     * tests start (one at a time, each waiting for its agent's reply). Answers how many started.
     */
    async runScheduled(): Promise<number> {
      const now = deps.now();
      await ended(
        await repo.failRunningSince(
          new Date(now.getTime() - RESTORE_TEST.timeoutMs),
          RESTORE_TEST_TEXTS.interrupted,
          now,
        ),
      );
      const due = await repo.startDue(now, defaults.intervalDays, RESTORE_TEST.scheduledPerPass);
      let started = 0;
      for (const test of due) {
        const reply = await send(test);
        if (reply !== 'offline' && reply.success) started++;
      }
      return started;
    },

    async settings(actor: Actor): Promise<RestoreTestSettingsView> {
      if (actor.customerId === null) throw forbidden();
      return {
        intervalDays: await repo.intervalOverride(actor.customerId),
        providerDefaultDays: defaults.intervalDays,
      };
    },

    async saveSettings(actor: Actor, settings: RestoreTestSettings): Promise<RestoreTestSettingsView> {
      if (actor.customerId === null || !mayChange(actor)) throw forbidden();
      await repo.saveIntervalOverride(actor.customerId, settings.intervalDays);
      await deps.intervalChanged?.(actor.customerId, settings.intervalDays);
      return { intervalDays: settings.intervalDays, providerDefaultDays: defaults.intervalDays };
    },
  };
}

export type RestoreTestService = ReturnType<typeof createRestoreTestService>;
