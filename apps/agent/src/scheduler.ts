/**
 * The agent's scheduler (DESIGN §6): holds the task list the portal sends, computes each ACTIVE task's next run
 * from its cron in the machine's time zone (the domain's nextRunAfter) and starts runs when they are due.
 *
 * - One timer, to the earliest next run (capped, so a changed system clock or a sleeping machine is noticed
 *   within `maxTimerMs`); the clock is injectable for tests.
 * - A task never runs twice at once: a start while it runs is refused (a scheduled one is skipped with a
 *   message). Runs that fell due while the machine slept or the agent was busy collapse into one run.
 * - Pause (status PAUSED, or any status but ACTIVE) and a stop by the task's owners (runnable false: its
 *   machine, package or customer suspended, blocked or over quota) let a running run finish and stop future
 *   runs; run-now (startTask) works for tasks the agent runs (agentRunsTask) only, except that a task awaiting its seed makes its seed (startSeed).
 * - Events go to `emit` (the outbox), which keeps them while the portal is unreachable: the schedule never
 *   depends on the connection.
 */
import { randomUUID } from 'node:crypto';
import { type AgentTask, type AgentToServer, agentRunsTask, awaitsSeedCreation, nextRunAfter } from '@portal/domain';
import type { RunEvent, RunFinishedEvent } from './restic.js';

export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Runs one backup (ResticRunner.backup); resolves with its runFinished event. */
export type BackupFunction = (
  task: AgentTask,
  runKey: string,
  emit: (event: RunEvent) => void,
  signal: AbortSignal,
) => Promise<RunFinishedEvent>;

export interface SchedulerOptions {
  backup: BackupFunction;
  /** Makes a task's seed (seed.ts), reported as BACKUP_SEED_CREATION; without it, no seeds. */
  createSeed?: BackupFunction;
  emit: (event: AgentToServer) => void;
  clock?: Clock;
  /** The agent's own id for a run (unique per machine). */
  newRunKey?: (taskId: number) => string;
  /** The longest single timer; the schedule is re-read at least this often. Default one hour. */
  maxTimerMs?: number;
}

type RunStartedEvent = Extract<AgentToServer, { type: 'runStarted' }>;

export type StartResult = { ok: true; runKey: string } | { ok: false; reason: string };

interface Running {
  runKey: string;
  controller: AbortController;
  done: Promise<void>;
}

export class Scheduler {
  private readonly clock: Clock;
  private readonly newRunKey: (taskId: number) => string;
  private tasks = new Map<number, AgentTask>();
  private timeZone = 'UTC';
  private readonly nextRuns = new Map<number, number>();
  private readonly running = new Map<number, Running>();
  private timer: unknown = null;
  private stopped = false;

  constructor(private readonly options: SchedulerOptions) {
    this.clock = options.clock ?? systemClock;
    this.newRunKey = options.newRunKey ?? ((taskId) => `${taskId}-${randomUUID()}`);
  }

  /** Replaces the task list (the portal's 'tasks' message). Unchanged schedules keep their next run. */
  setTasks(tasks: readonly AgentTask[], timeZone: string): void {
    const zoneChanged = timeZone !== this.timeZone;
    const previous = this.tasks;
    this.tasks = new Map(tasks.map((task) => [task.id, task]));
    this.timeZone = timeZone;
    const now = this.clock.now();
    for (const id of [...this.nextRuns.keys()]) if (!this.tasks.has(id)) this.nextRuns.delete(id);
    for (const task of tasks) {
      if (!agentRunsTask(task)) {
        this.nextRuns.delete(task.id);
        continue;
      }
      const before = previous.get(task.id);
      const unchanged =
        !zoneChanged &&
        before !== undefined &&
        agentRunsTask(before) &&
        before.scheduleCron === task.scheduleCron &&
        this.nextRuns.has(task.id);
      if (!unchanged) this.schedule(task, now);
    }
    this.arm();
  }

  /** When a task runs next, or null (not ACTIVE, never runs, or an unreadable schedule). */
  nextRun(taskId: number): Date | null {
    const at = this.nextRuns.get(taskId);
    return at === undefined ? null : new Date(at);
  }

  isRunning(taskId: number): boolean {
    return this.running.has(taskId);
  }

  runKeyOf(taskId: number): string | null {
    return this.running.get(taskId)?.runKey ?? null;
  }

  /** Run now (the portal's 'startTask'): ACTIVE tasks only, and not while the task runs. */
  startTask(taskId: number, requestId?: string): StartResult {
    const task = this.tasks.get(taskId);
    if (!task) return { ok: false, reason: `Task ${taskId} is not known to this agent.` };
    if (awaitsSeedCreation(task) && this.options.createSeed) return this.startSeed(taskId, requestId, true);
    if (task.status !== 'ACTIVE') return { ok: false, reason: `Task ${taskId} is ${task.status.toLowerCase()}.` };
    if (!task.runnable) return { ok: false, reason: `Task ${taskId} is stopped by its machine, package or customer.` };
    return this.start(task, true, requestId);
  }

  /** Makes the seed of a task awaiting one (never on a schedule: the agent asks when the task list arrives). */
  startSeed(taskId: number, requestId?: string, manual = false): StartResult {
    const task = this.tasks.get(taskId);
    const createSeed = this.options.createSeed;
    if (!task || !createSeed || !awaitsSeedCreation(task) || !task.runnable) {
      return { ok: false, reason: `Task ${taskId} does not await a seed on this agent.` };
    }
    return this.start(task, manual, requestId, { work: createSeed, actionType: 'BACKUP_SEED_CREATION' });
  }

  /**
   * Restores a snapshot of a task (the portal's restoreRun): whatever the task's status, but never while the task
   * runs, and the task does not run until it has finished (cancelRun stops it like a backup).
   */
  startRestore(taskId: number, restore: BackupFunction, requestId: string): StartResult {
    const task = this.tasks.get(taskId);
    if (!task) return { ok: false, reason: `Task ${taskId} is not known to this agent.` };
    return this.start(task, true, requestId, { work: restore, actionType: 'BACKUP_RESTORE' });
  }

  /** Cancels the task's running run; false when it is not running. */
  cancelRun(taskId: number): boolean {
    const run = this.running.get(taskId);
    if (!run) return false;
    run.controller.abort();
    return true;
  }

  /** Resolves when every run that is going now has finished. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()].map((r) => r.done));
  }

  /** Stops scheduling; running runs are cancelled when `cancelRuns`, else left to finish. */
  async stop(cancelRuns = false): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    if (cancelRuns) for (const run of this.running.values()) run.controller.abort();
    await this.idle();
  }

  private schedule(task: AgentTask, after: number): void {
    try {
      const next = nextRunAfter(task.scheduleCron, new Date(after), this.timeZone);
      if (next === null) this.nextRuns.delete(task.id);
      else this.nextRuns.set(task.id, next.getTime());
    } catch (error) {
      this.nextRuns.delete(task.id);
      this.message(
        task.id,
        'ERROR',
        `The schedule '${task.scheduleCron}' (${this.timeZone}) cannot be used: ${String(error)}`,
      );
    }
  }

  private arm(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    if (this.stopped || this.nextRuns.size === 0) return;
    const earliest = Math.min(...this.nextRuns.values());
    const delay = Math.min(Math.max(0, earliest - this.clock.now()), this.options.maxTimerMs ?? 3_600_000);
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.tick();
    }, delay);
  }

  /** Starts every due task once and computes its next run after now (missed runs collapse into this one). */
  private tick(): void {
    const now = this.clock.now();
    for (const [id, at] of [...this.nextRuns]) {
      if (at > now) continue;
      const task = this.tasks.get(id);
      if (!task) continue;
      const result = this.start(task, false);
      if (!result.ok) this.message(id, 'WARNING', `A scheduled run was skipped: ${result.reason}`);
      this.schedule(task, now);
    }
    this.arm();
  }

  private start(
    task: AgentTask,
    manual: boolean,
    requestId?: string,
    action?: { work: BackupFunction; actionType: NonNullable<RunStartedEvent['actionType']> },
  ): StartResult {
    if (this.running.has(task.id)) return { ok: false, reason: `Task ${task.id} is already running.` };
    const runKey = this.newRunKey(task.id);
    const controller = new AbortController();
    const { emit } = this.options;
    emit({
      type: 'runStarted',
      runKey,
      taskId: task.id,
      startedAt: new Date(this.clock.now()).toISOString(),
      manual,
      ...(requestId === undefined ? {} : { requestId }),
      ...(action ? { actionType: action.actionType } : {}),
    });
    const done = Promise.resolve()
      .then(() => (action?.work ?? this.options.backup)(task, runKey, emit, controller.signal))
      .catch(
        (error: unknown): RunFinishedEvent => ({
          type: 'runFinished',
          runKey,
          status: 'FAILED',
          exitCodeResult: 'EXIT_CODE_NA',
          finishedAt: new Date(this.clock.now()).toISOString(),
          failureMessage: `The agent failed while running the backup: ${String(error).slice(0, 3900)}`,
          snapshotId: null,
          bytesAdded: null,
          bytesTotal: null,
        }),
      )
      .then((finished) => {
        this.running.delete(task.id);
        emit(finished);
      });
    this.running.set(task.id, { runKey, controller, done });
    return { ok: true, runKey };
  }

  private message(taskId: number, type: 'WARNING' | 'ERROR', text: string): void {
    this.options.emit({
      type: 'messages',
      runKey: null,
      taskId,
      messages: [{ type, text: text.slice(0, 4000), time: new Date(this.clock.now()).toISOString() }],
    });
  }
}
