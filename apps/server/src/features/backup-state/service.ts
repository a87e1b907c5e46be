import {
  type AggregateCounts,
  addCounts,
  aggregateFromCounts,
  type CustomerStatus,
  countsDelta,
  EMPTY_AGGREGATE_COUNTS,
  expectedNextRun,
  isTaskRunnable,
  type MachineStatus,
  MISSED_RUN_GRACE_MINUTES,
  type PackageStatus,
  type RunStatus,
  type TaskDisplayStatus,
  taskDisplayStatus,
} from '@portal/domain';
import type { Db, Executor } from '../../db/client.js';
import { isRetryableTransactionError } from '../../db/errors.js';
import {
  type BackupStateRepo,
  type BackupStateWrites,
  type CounterOwner,
  createBackupStateRepo,
  createBackupStateWrites,
  type NewTask,
  type OwnedScope,
  type TaskStatePatch,
  type TaskStateRow,
} from './repo.js';

const MAX_ATTEMPTS = 5;

/**
 * A write that belongs with a state change, in its transaction (recording the run itself, say);
 * false means it was already done, and the change is skipped, so a repeated report counts once.
 */
export type AlongsideWrite = (tx: Executor) => Promise<boolean>;

const isZero = (c: AggregateCounts) => Object.values(c).every((v) => v === 0);

/** What happened to a task's runs (runsMoved): a run started, or its latest run has a new status. */
export type RunMove =
  | { started: true; status: Extract<RunStatus, 'INITIATED' | 'IN_PROGRESS'> }
  | { started: false; status: RunStatus };

/**
 * Every change of task, run, machine, package or customer state goes through here, so the dashboard
 * read model (each task's display status, each machine's and customer's counters and aggregate
 * status; DESIGN §9) changes in the same transaction as its source rows. An operation locks the owning
 * customer's row first, reads the affected tasks before and after the change, and applies only the
 * difference: the cost is that of the tasks touched, never of all tasks.
 */
export function createBackupStateService(deps: {
  db: Db;
  now?: () => Date;
  /** Told after each committed change which machines' dashboard rows it touched (the live dashboard). */
  onMachinesChanged?: (machineIds: number[]) => void;
  /** Runnable tasks' expected runs were marked missed, in the marking transaction (their alert mails, issue 17). */
  tasksMissed?: (tx: Executor, missed: readonly { taskId: number; expectedAt: Date }[]) => Promise<unknown>;
  /** Told after a customer's status changed: its users' sessions carry it (whether they may sign in at all). */
  customerStatusChanged?: (customerId: number) => Promise<void>;
}) {
  const now = deps.now ?? (() => new Date());

  /** Sets the run the server expects next from the task's schedule in its machine's time zone. */
  async function refreshNextRun(writes: BackupStateWrites, taskId: number): Promise<void> {
    const schedule = await writes.scheduleOf(taskId);
    if (schedule) await writes.setNextRun(taskId, expectedNextRun(schedule, now(), schedule.timeZone));
  }

  async function transaction<T>(work: (tx: Executor) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await deps.db.transaction(work);
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || !isRetryableTransactionError(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
      }
    }
  }

  async function applyCounterDeltas(repo: BackupStateRepo, owner: CounterOwner, deltas: Map<number, AggregateCounts>) {
    const ids = [...deltas].filter(([, d]) => !isZero(d)).map(([id]) => id);
    const current = await repo.counters(owner, ids);
    await repo.writeCounters(
      owner,
      current.map(({ id, counts }) => {
        const next = addCounts(counts, deltas.get(id) ?? EMPTY_AGGREGATE_COUNTS);
        return { id, counts: next, taskStatus: aggregateFromCounts(next) };
      }),
    );
  }

  /**
   * Brings the read model from `before` to `after` (the affected tasks' states, a task absent from one of them
   * created or deleted): each changed display status, each machine's and customer's counters by the difference.
   * Answers the machines whose dashboard rows it touched.
   */
  async function followReadModel(
    repo: BackupStateRepo,
    before: readonly TaskStateRow[],
    after: readonly TaskStateRow[],
  ): Promise<Set<number>> {
    const touched = new Set<number>();
    const beforeById = new Map(before.map((t) => [t.id, t]));
    const afterById = new Map(after.map((t) => [t.id, t]));
    const machineDeltas = new Map<number, AggregateCounts>();
    const customerDeltas = new Map<number, AggregateCounts>();
    const add = (map: Map<number, AggregateCounts>, id: number, delta: AggregateCounts) =>
      map.set(id, addCounts(map.get(id) ?? EMPTY_AGGREGATE_COUNTS, delta));
    const statusChanges: { id: number; status: TaskDisplayStatus }[] = [];

    for (const id of new Set([...beforeById.keys(), ...afterById.keys()])) {
      const was = beforeById.get(id) ?? null;
      const is = afterById.get(id) ?? null;
      if (is) {
        const status = taskDisplayStatus(is);
        if (status !== is.displayStatus) statusChanges.push({ id, status });
      }
      // A task that changed machine leaves the old one's counters and joins the new one's.
      const removed = countsDelta(was, null);
      const added = countsDelta(null, is);
      if (was) add(machineDeltas, was.machineId, removed);
      if (is) add(machineDeltas, is.machineId, added);
      if (was) touched.add(was.machineId);
      if (is) touched.add(is.machineId);
      if (was) add(customerDeltas, was.customerId, removed);
      if (is) add(customerDeltas, is.customerId, added);
    }
    await repo.writeDisplayStatuses(statusChanges);
    await applyCounterDeltas(repo, 'backup_machines', machineDeltas);
    await applyCounterDeltas(repo, 'customers', customerDeltas);
    return touched;
  }

  /**
   * Runs `change` on the tasks of `scope` under the customer's lock and brings the read model along.
   * `change` returns false when its row was not there (nothing happens then), or the ids of tasks it
   * created. Returns false when the owner or the row does not exist. `change` writes with `writes`, made
   * from the same transaction `tx` (which an AlongsideWrite receives).
   */
  async function changeTasks(
    scope: OwnedScope,
    change: (step: { tx: Executor; writes: BackupStateWrites }, before: TaskStateRow[]) => Promise<boolean | number[]>,
  ) {
    let touched = new Set<number>();
    const changed = await transaction(async (tx) => {
      const repo = createBackupStateRepo(tx);
      const customerId = await repo.customerOf(scope);
      if (customerId === null || !(await repo.lockCustomer(customerId))) return false;
      const before = await repo.taskStates(scope);
      const outcome = await change({ tx, writes: createBackupStateWrites(tx) }, before);
      if (outcome === false) return false;
      const created = Array.isArray(outcome) ? outcome : [];
      const after = await repo.taskStates(scope, created);
      touched = await followReadModel(repo, before, after);
      if (scope.kind === 'machine') touched.add(scope.machineId);
      return true;
    });
    if (changed && touched.size > 0) deps.onMachinesChanged?.([...touched]);
    return changed;
  }

  /**
   * One batch of missed-run detection (DESIGN §8), in one transaction: locks up to `limit` due tasks (or only
   * `taskId`) and their customers, skipping rows other transactions hold, so several server instances take
   * different tasks and none is marked twice. Each locked task's last execution is marked missed when it may
   * run (a task that may not is only moved on, a missed mark it had stays) and its next expected run is set;
   * the read model follows, and the missed runs' alerts are queued in the same transaction. A handful of
   * statements per batch whatever its size. Answers how many tasks were claimed and how many marked.
   */
  async function markMissedBatch(limit: number, taskId?: number): Promise<{ claimed: number; marked: number }> {
    const at = now();
    const cutoff = new Date(at.getTime() - MISSED_RUN_GRACE_MINUTES * 60_000);
    let touched = new Set<number>();
    const outcome = await transaction(async (tx) => {
      touched = new Set();
      const repo = createBackupStateRepo(tx);
      const claimed = await repo.claimDueTasks(cutoff, limit, taskId);
      if (claimed.length === 0) return { claimed: 0, marked: 0 };
      // The customer locks come after the task locks here, the other way round for every other writer: so
      // neither waits (SKIP LOCKED), and a task whose customer is busy is left for the next batch.
      const customers = await repo.lockFreeCustomers([...new Set(claimed.map((t) => t.customerId))]);
      // Read again under the customer locks: a machine's or customer's status may have changed since.
      const before = await repo.dueTaskStates(
        claimed.map((t) => t.id),
        customers,
      );
      const marks = before.map((task) => {
        const runnable = isTaskRunnable(task);
        const after = { ...task, lastExecutionMissed: runnable || task.lastExecutionMissed };
        return {
          task,
          after: { ...after, displayStatus: taskDisplayStatus(after) },
          runnable,
          nextRunAt: expectedNextRun(task, at, task.timeZone),
        };
      });
      // The display status is written with the mark (one new row version per task, not two): followReadModel then
      // finds none left to write and moves the counters.
      await createBackupStateWrites(tx).setMissed(
        marks.map(({ after, nextRunAt }) => ({
          id: after.id,
          missed: after.lastExecutionMissed,
          nextRunAt,
          displayStatus: after.displayStatus,
        })),
      );
      touched = await followReadModel(
        repo,
        before,
        marks.map(({ after }) => after),
      );
      const alerts = marks.filter((m) => m.runnable).map((m) => ({ taskId: m.task.id, expectedAt: m.task.nextRunAt }));
      if (alerts.length > 0) await deps.tasksMissed?.(tx, alerts);
      return { claimed: claimed.length, marked: marks.length };
    });
    if (touched.size > 0) deps.onMachinesChanged?.([...touched]);
    return outcome;
  }

  /**
   * Many tasks' runs started or moved on, in one transaction (the agents' reports gathered, issue 33 ingest):
   * `write` records the runs and answers, by task id, the moves that took effect (a repeated report moves
   * nothing); each task's run statuses and the read model follow as runStarted and runStatusChanged would move
   * them, one move a task. The tasks' customers are locked first, in id order.
   */
  async function runsMoved(
    taskIds: readonly number[],
    write: (tx: Executor) => Promise<ReadonlyMap<number, RunMove>>,
  ): Promise<void> {
    let touched = new Set<number>();
    await transaction(async (tx) => {
      touched = new Set();
      const repo = createBackupStateRepo(tx);
      await repo.lockCustomersOfTasks(taskIds);
      const scope = { kind: 'tasks', taskIds } as const;
      const before = taskIds.length > 0 ? await repo.taskStates(scope) : [];
      const moves = await write(tx);
      if (moves.size === 0) return;
      const writes = createBackupStateWrites(tx);
      const started = [...moves].filter(([, move]) => move.started).map(([id]) => id);
      const schedules = await writes.schedulesOf(started);
      await writes.moveRuns(
        [...moves].map(([id, move]) => {
          const schedule = schedules.get(id);
          return {
            id,
            ...move,
            nextRunAt: schedule ? expectedNextRun(schedule, now(), schedule.timeZone) : null,
          };
        }),
      );
      touched = await followReadModel(repo, before, await repo.taskStates(scope));
    });
    if (touched.size > 0) deps.onMachinesChanged?.([...touched]);
  }

  return {
    runsMoved,
    /** Adds a task to a machine; null when the machine does not exist. */
    async createTask(task: NewTask): Promise<number | null> {
      let id: number | null = null;
      await changeTasks({ kind: 'machine', machineId: task.backupMachineId }, async ({ writes }) => {
        id = await writes.insertTask(task);
        if (id === null) return false;
        await refreshNextRun(writes, id);
        return [id];
      });
      return id;
    },
    /** Pauses, resumes, marks missed or moves a task through seeding and deletion. */
    updateTask: (taskId: number, patch: TaskStatePatch) =>
      changeTasks({ kind: 'task', taskId }, async ({ writes }) => {
        if (!(await writes.patchTask(taskId, patch))) return false;
        if (patch.status) await refreshNextRun(writes, taskId);
        return true;
      }),
    /**
     * A run of the task started (INITIATED or straight IN_PROGRESS): it clears a missed execution, and
     * the next expected run is the one after now.
     */
    runStarted: (
      taskId: number,
      status: Extract<RunStatus, 'INITIATED' | 'IN_PROGRESS'> = 'INITIATED',
      alongside?: AlongsideWrite,
    ) =>
      changeTasks({ kind: 'task', taskId }, async ({ tx, writes }) => {
        if (alongside && !(await alongside(tx))) return false;
        if (!(await writes.startRun(taskId, status))) return false;
        await refreshNextRun(writes, taskId);
        return true;
      }),
    /**
     * Marks the task's last execution missed when its expected run is more than the grace period overdue
     * (DESIGN §8), and expects the next one: markMissedBatch for this one task. False when it was not due, or
     * another transaction holds it or its customer (another instance marking it, say).
     */
    markMissedIfDue: async (taskId: number) => (await markMissedBatch(1, taskId)).marked > 0,
    markMissedBatch: (limit: number) => markMissedBatch(limit),
    /** Whether any task is overdue past the grace period: the missed-run job's one index probe when idle. */
    anyMissedRunDue: () =>
      createBackupStateRepo(deps.db).anyDue(new Date(now().getTime() - MISSED_RUN_GRACE_MINUTES * 60_000)),
    /** The task's latest run moved on (in progress, failed, finished). */
    runStatusChanged: (taskId: number, status: RunStatus, alongside?: AlongsideWrite) =>
      changeTasks({ kind: 'task', taskId }, async ({ tx, writes }) => {
        if (alongside && !(await alongside(tx))) return false;
        return writes.setLastRunStatus(taskId, status);
      }),
    deleteTask: (taskId: number) => changeTasks({ kind: 'task', taskId }, ({ writes }) => writes.deleteTask(taskId)),
    setMachineStatus: (machineId: number, status: MachineStatus) =>
      changeTasks({ kind: 'machine', machineId }, ({ writes }) => writes.setMachineStatus(machineId, status)),
    setPackageStatus: (packageId: number, status: PackageStatus) =>
      changeTasks({ kind: 'package', packageId }, ({ writes }) => writes.setPackageStatus(packageId, status)),
    async setCustomerStatus(customerId: number, status: CustomerStatus) {
      const changed = await changeTasks({ kind: 'customer', customerId }, ({ writes }) =>
        writes.setCustomerStatus(customerId, status),
      );
      if (changed) await deps.customerStatusChanged?.(customerId);
      return changed;
    },
    /** Moves a machine to another package of the same customer; false when either is missing or foreign. */
    moveMachineToPackage: (machineId: number, packageId: number) =>
      changeTasks({ kind: 'machine', machineId }, ({ writes }) => writes.moveMachine(machineId, packageId)),
    deleteMachine: (machineId: number) =>
      changeTasks({ kind: 'machine', machineId }, ({ writes }) => writes.deleteMachine(machineId)),
    deletePackage: (packageId: number) =>
      changeTasks({ kind: 'package', packageId }, ({ writes }) => writes.deletePackage(packageId)),
  };
}

export type BackupStateService = ReturnType<typeof createBackupStateService>;
