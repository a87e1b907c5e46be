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
  type TaskScope,
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
  /** A runnable task's expected run was marked missed, in the marking transaction (its alert mails, issue 17). */
  taskMissed?: (tx: Executor, missed: { taskId: number; expectedAt: Date }) => Promise<unknown>;
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
   * Runs `change` on the tasks of `scope` under the customer's lock and brings the read model along.
   * `change` returns false when its row was not there (nothing happens then), or the ids of tasks it
   * created. Returns false when the owner or the row does not exist. `change` writes with `writes`, made
   * from the same transaction `tx` (which an AlongsideWrite receives).
   */
  async function changeTasks(
    scope: TaskScope,
    change: (step: { tx: Executor; writes: BackupStateWrites }, before: TaskStateRow[]) => Promise<boolean | number[]>,
  ) {
    let touched = new Set<number>();
    const changed = await transaction(async (tx) => {
      const repo = createBackupStateRepo(tx);
      touched = new Set(scope.kind === 'machine' ? [scope.machineId] : []);
      const customerId = await repo.customerOf(scope);
      if (customerId === null || !(await repo.lockCustomer(customerId))) return false;
      const before = await repo.taskStates(scope);
      const outcome = await change({ tx, writes: createBackupStateWrites(tx) }, before);
      if (outcome === false) return false;
      const created = Array.isArray(outcome) ? outcome : [];
      const after = await repo.taskStates(scope, created);

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
      return true;
    });
    if (changed && touched.size > 0) deps.onMachinesChanged?.([...touched]);
    return changed;
  }

  return {
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
     * Marks the task's last execution missed when its expected run is more than the grace period
     * overdue (DESIGN §8), and expects the next one. Checked again under the customer's lock, so several
     * server instances may call it for the same task: one marks it, the others find nothing due. A task
     * that may not run (machine, package or customer stopped) is not marked, only moved on.
     */
    markMissedIfDue: (taskId: number) =>
      changeTasks({ kind: 'task', taskId }, async ({ tx, writes }, [task]) => {
        const schedule = await writes.scheduleOf(taskId);
        if (!task || !schedule?.nextRunAt) return false;
        const at = now();
        const expectedAt = schedule.nextRunAt;
        if (expectedAt.getTime() > at.getTime() - MISSED_RUN_GRACE_MINUTES * 60_000) return false;
        const missed = isTaskRunnable(task) || task.lastExecutionMissed;
        if (!(await writes.setMissed(taskId, missed, expectedNextRun(schedule, at, schedule.timeZone)))) return false;
        if (isTaskRunnable(task)) await deps.taskMissed?.(tx, { taskId, expectedAt });
        return true;
      }),
    /** Tasks whose expected run is overdue past the grace period, for the missed-run job. */
    dueTaskIds: (limit: number) =>
      createBackupStateRepo(deps.db).dueTaskIds(new Date(now().getTime() - MISSED_RUN_GRACE_MINUTES * 60_000), limit),
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
