import type {
  AggregateCounts,
  AggregateTaskStatus,
  CustomerStatus,
  MachineStatus,
  PackageStatus,
  RunStatus,
  TaskDisplayStatus,
  TaskStatusInput,
} from '@portal/domain';
import { and, eq, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { type Executor, rowsOf } from '../../db/client.js';
import { joinMachineOwners, machineStatuses } from '../../db/machine-statuses.js';
import { backupMachines, backupTasks } from '../../db/schema/index.js';

/** One task with what its display status is computed from, and what is stored for it now. */
export interface TaskStateRow extends TaskStatusInput {
  id: number;
  machineId: number;
  customerId: number;
  displayStatus: TaskDisplayStatus;
}

/** Which tasks an operation touches, by a key that the operation itself does not change. */
export type TaskScope =
  | { kind: 'task'; taskId: number }
  | { kind: 'tasks'; taskIds: readonly number[] }
  | { kind: 'machine'; machineId: number }
  | { kind: 'package'; packageId: number }
  | { kind: 'customer'; customerId: number };

const scopeCondition = (scope: TaskScope): SQL => {
  switch (scope.kind) {
    case 'task':
      return eq(backupTasks.id, scope.taskId);
    case 'tasks':
      return inArray(backupTasks.id, [...scope.taskIds]);
    case 'machine':
      return eq(backupTasks.backupMachineId, scope.machineId);
    case 'package':
      return eq(backupMachines.backupPackageId, scope.packageId);
    case 'customer':
      return eq(backupTasks.customerId, scope.customerId);
  }
};

/** A scope with one owning customer. */
export type OwnedScope = Exclude<TaskScope, { kind: 'tasks' }>;

export interface CounterRow {
  id: number;
  counts: AggregateCounts;
}

/** An owner's task counters as its table stores them (also read by the dashboard benchmark's check). */
export interface RawCounterRow extends Record<string, unknown> {
  id: number;
  tasks_failed: number;
  tasks_missed: number;
  tasks_successful: number;
  tasks_never_run: number;
  tasks_ignored: number;
  tasks_in_progress: number;
}

export const storedCounts = (r: RawCounterRow): AggregateCounts => ({
  failed: r.tasks_failed,
  missed: r.tasks_missed,
  successful: r.tasks_successful,
  neverRun: r.tasks_never_run,
  ignored: r.tasks_ignored,
  inProgress: r.tasks_in_progress,
});

/** The two tables that hold task counters. */
export type CounterOwner = 'backup_machines' | 'customers';

/** What a task's display status is computed from, and what is stored for it now (TaskStateRow). */
const taskStateColumns = {
  id: backupTasks.id,
  machineId: backupTasks.backupMachineId,
  customerId: backupTasks.customerId,
  status: backupTasks.status,
  lastExecutionMissed: backupTasks.lastExecutionMissed,
  statusOfLastRun: backupTasks.statusOfLastRun,
  statusOfRunBeforeLast: backupTasks.statusOfRunBeforeLast,
  displayStatus: backupTasks.displayStatus,
  ...machineStatuses,
};
const machineOfTask = eq(backupMachines.id, backupTasks.backupMachineId);

/** A due task under the missed-run job's locks: its state, schedule, zone and the run that was expected. */
export interface DueTaskState extends TaskStateRow {
  scheduleCron: string;
  timeZone: string;
  nextRunAt: Date;
}

/**
 * The queries of the dashboard read model's upkeep (DESIGN §9). Writers serialise per customer by
 * locking its row first, so every later read and write in the transaction sees a stable picture.
 */
export function createBackupStateRepo(db: Executor) {
  return {
    /** The customer that owns a task, machine or package; null when it does not exist. */
    async customerOf(scope: OwnedScope): Promise<number | null> {
      const query =
        scope.kind === 'customer'
          ? sql`select id as customer_id from customers where id = ${scope.customerId}`
          : scope.kind === 'package'
            ? sql`select customer_id from backup_packages where id = ${scope.packageId}`
            : scope.kind === 'machine'
              ? sql`select customer_id from backup_machines where id = ${scope.machineId}`
              : sql`select customer_id from backup_tasks where id = ${scope.taskId}`;
      const [row] = rowsOf<{ customer_id: number }>(await db.execute(query));
      return row ? Number(row.customer_id) : null;
    },

    /** Locks the customer row: the per-customer mutex of every read-model change. */
    async lockCustomer(customerId: number): Promise<boolean> {
      const rows = rowsOf(await db.execute(sql`select id from customers where id = ${customerId} for update`));
      return rows.length > 0;
    },

    /**
     * Locks the customers of these tasks, in id order (so two writers of many customers never wait for each other
     * in a circle); answers their ids.
     */
    async lockCustomersOfTasks(taskIds: readonly number[]): Promise<number[]> {
      if (taskIds.length === 0) return [];
      const rows = rowsOf<{ id: number }>(
        await db.execute(sql`
          select id from customers
           where id in (select customer_id from backup_tasks
                         where id in (select (jsonb_array_elements_text(${JSON.stringify(taskIds)}::jsonb))::int))
           order by id for update`),
      );
      return rows.map((r) => Number(r.id));
    },

    async taskStates(scope: TaskScope, extraTaskIds: readonly number[] = []): Promise<TaskStateRow[]> {
      const query = db.select(taskStateColumns).from(backupTasks).innerJoin(backupMachines, machineOfTask).$dynamic();
      return joinMachineOwners(query).where(
        extraTaskIds.length > 0
          ? or(scopeCondition(scope), inArray(backupTasks.id, [...extraTaskIds]))
          : scopeCondition(scope),
      );
    },

    /** Whether any task's expected run should have started by `cutoff`: the idle pass's one index probe. */
    async anyDue(cutoff: Date): Promise<boolean> {
      const rows = await db
        .select({ id: backupTasks.id })
        .from(backupTasks)
        .where(lte(backupTasks.nextRunAt, cutoff))
        .limit(1);
      return rows.length > 0;
    },

    /**
     * Locks up to `limit` tasks whose expected run should have started by `cutoff`, oldest first (indexed on
     * next_run_at), or only `taskId`. Rows another transaction holds are skipped, so several instances take
     * different batches; a row another one marked meanwhile is re-checked on its newest version and left out.
     */
    async claimDueTasks(cutoff: Date, limit: number, taskId?: number): Promise<{ id: number; customerId: number }[]> {
      return db
        .select({ id: backupTasks.id, customerId: backupTasks.customerId })
        .from(backupTasks)
        .where(and(lte(backupTasks.nextRunAt, cutoff), taskId === undefined ? undefined : eq(backupTasks.id, taskId)))
        .orderBy(backupTasks.nextRunAt)
        .limit(limit)
        .for('update', { skipLocked: true });
    },

    /**
     * Locks those of the customers no other transaction holds (the read model's per-customer mutex), in id
     * order; answers their ids. Never waits: a batch holds task rows that a waiting writer may need.
     */
    async lockFreeCustomers(customerIds: readonly number[]): Promise<number[]> {
      if (customerIds.length === 0) return [];
      const rows = rowsOf<{ id: number }>(
        await db.execute(sql`
          select id from customers
           where id in (select (jsonb_array_elements_text(${JSON.stringify(customerIds)}::jsonb))::int)
           order by id for update skip locked`),
      );
      return rows.map((r) => Number(r.id));
    },

    /** The tasks' states with what their next expected run is computed from, for tasks of the given customers. */
    async dueTaskStates(taskIds: readonly number[], customerIds: readonly number[]): Promise<DueTaskState[]> {
      if (taskIds.length === 0 || customerIds.length === 0) return [];
      const query = db
        .select({
          ...taskStateColumns,
          scheduleCron: backupTasks.scheduleCron,
          nextRunAt: backupTasks.nextRunAt,
          timeZone: backupMachines.timeZone,
        })
        .from(backupTasks)
        .innerJoin(backupMachines, machineOfTask)
        .$dynamic();
      const rows = await joinMachineOwners(query).where(
        and(inArray(backupTasks.id, [...taskIds]), inArray(backupTasks.customerId, [...customerIds])),
      );
      return rows.flatMap(({ nextRunAt, ...row }) => (nextRunAt ? [{ ...row, nextRunAt }] : []));
    },

    async writeDisplayStatuses(changes: readonly { id: number; status: TaskDisplayStatus }[]) {
      if (changes.length === 0) return;
      await db.execute(sql`
        update backup_tasks t set display_status = x.status::task_display_status
          from jsonb_to_recordset(${JSON.stringify(changes)}::jsonb) as x(id int, status text)
         where t.id = x.id`);
    },

    async counters(owner: CounterOwner, ids: readonly number[]): Promise<CounterRow[]> {
      if (ids.length === 0) return [];
      const result = await db.execute(sql`
        select id, tasks_failed, tasks_missed, tasks_successful, tasks_never_run, tasks_ignored, tasks_in_progress
          from ${sql.identifier(owner)}
         where id in (select (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::int)`);
      return rowsOf<RawCounterRow>(result).map((r) => ({
        id: Number(r.id),
        counts: storedCounts(r),
      }));
    },

    async writeCounters(
      owner: CounterOwner,
      rows: readonly { id: number; counts: AggregateCounts; taskStatus: AggregateTaskStatus }[],
    ) {
      if (rows.length === 0) return;
      const flat = rows.map(({ id, counts, taskStatus }) => ({ id, ...counts, taskStatus }));
      await db.execute(sql`
        update ${sql.identifier(owner)} o
           set tasks_failed = x.failed, tasks_missed = x.missed, tasks_successful = x.successful,
               tasks_never_run = x."neverRun", tasks_ignored = x.ignored, tasks_in_progress = x."inProgress",
               task_status = x."taskStatus"::aggregate_task_status
          from jsonb_to_recordset(${JSON.stringify(flat)}::jsonb)
            as x(id int, failed int, missed int, successful int, "neverRun" int, ignored int, "inProgress" int,
                 "taskStatus" text)
         where o.id = x.id`);
    },
  };
}

/** A new task: its machine decides its customer and package. */
export type NewTask = Omit<
  typeof backupTasks.$inferInsert,
  'id' | 'customerId' | 'backupPackageId' | 'displayStatus' | 'version' | 'createdAt'
>;

/** The task fields whose change can change its display status, besides runs. */
export interface TaskStatePatch {
  status?: TaskStatusInput['status'];
  lastExecutionMissed?: boolean;
}

/** The source-row changes the read model follows; each returns whether a row was there to change. */
export function createBackupStateWrites(db: Executor) {
  const changed = (rows: unknown[]) => rows.length > 0;
  const updateTask = async (taskId: number, values: PgUpdateSetSource<typeof backupTasks>) =>
    changed(
      await db.update(backupTasks).set(values).where(eq(backupTasks.id, taskId)).returning({ id: backupTasks.id }),
    );
  type Owner = 'backup_tasks' | 'backup_machines' | 'backup_packages' | 'customers';
  const setStatus = async (table: Owner, id: number, status: string) =>
    changed(
      rowsOf(
        await db.execute(sql`update ${sql.identifier(table)} set status = ${status} where id = ${id} returning id`),
      ),
    );
  /** What the expected next runs of these tasks are computed from, with the ones stored now, by task id. */
  const schedulesOf = async (taskIds: readonly number[]) => {
    const rows = await db
      .select({
        id: backupTasks.id,
        status: backupTasks.status,
        scheduleCron: backupTasks.scheduleCron,
        nextRunAt: backupTasks.nextRunAt,
        timeZone: backupMachines.timeZone,
      })
      .from(backupTasks)
      .innerJoin(backupMachines, eq(backupMachines.id, backupTasks.backupMachineId))
      .where(inArray(backupTasks.id, [...taskIds]));
    return new Map(rows.map(({ id, ...schedule }) => [id, schedule]));
  };
  const removeRow = async (table: Owner, id: number) =>
    changed(rowsOf(await db.execute(sql`delete from ${sql.identifier(table)} where id = ${id} returning id`)));
  return {
    async insertTask(task: NewTask): Promise<number | null> {
      const [machine] = await db
        .select({ customerId: backupMachines.customerId, packageId: backupMachines.backupPackageId })
        .from(backupMachines)
        .where(eq(backupMachines.id, task.backupMachineId));
      if (!machine) return null;
      const [row] = await db
        .insert(backupTasks)
        .values({ ...task, customerId: machine.customerId, backupPackageId: machine.packageId })
        .returning({ id: backupTasks.id });
      return row?.id ?? null;
    },
    patchTask: (taskId: number, patch: TaskStatePatch) =>
      updateTask(taskId, { ...patch, version: sql`${backupTasks.version} + 1` }),
    /** A new run: the last run becomes the run before last, and a missed execution is behind us. */
    startRun: (taskId: number, status: TaskStatusInput['statusOfLastRun']) =>
      updateTask(taskId, {
        statusOfRunBeforeLast: sql`${backupTasks.statusOfLastRun}`,
        statusOfLastRun: status,
        lastExecutionMissed: false,
      }),
    setLastRunStatus: (taskId: number, status: TaskStatusInput['statusOfLastRun']) =>
      updateTask(taskId, { statusOfLastRun: status }),
    deleteTask: (taskId: number) => removeRow('backup_tasks', taskId),
    setMachineStatus: (machineId: number, status: MachineStatus) => setStatus('backup_machines', machineId, status),
    setPackageStatus: (packageId: number, status: PackageStatus) => setStatus('backup_packages', packageId, status),
    setCustomerStatus: (customerId: number, status: CustomerStatus) => setStatus('customers', customerId, status),
    /** Moves a machine, and the copies of its package id on its tasks, to another package of its customer. */
    async moveMachine(machineId: number, packageId: number) {
      const moved = await db.execute(sql`
        update backup_machines m set backup_package_id = p.id
          from backup_packages p
         where m.id = ${machineId} and p.id = ${packageId} and p.customer_id = m.customer_id
        returning m.id`);
      if (!changed(rowsOf(moved))) return false;
      await db
        .update(backupTasks)
        .set({ backupPackageId: packageId })
        .where(eq(backupTasks.backupMachineId, machineId));
      return true;
    },
    /** What the expected next run is computed from, with the one stored now. */
    scheduleOf: async (taskId: number) => (await schedulesOf([taskId])).get(taskId) ?? null,
    setNextRun: (taskId: number, nextRunAt: Date | null) => updateTask(taskId, { nextRunAt }),
    schedulesOf,
    /**
     * Many tasks' runs moved on, in one statement: a started run (startRun, with the next expected run) or the
     * latest run's new status (setLastRunStatus), one move a task.
     */
    async moveRuns(moves: readonly { id: number; started: boolean; status: RunStatus; nextRunAt: Date | null }[]) {
      if (moves.length === 0) return;
      await db.execute(sql`
        update backup_tasks t
           set status_of_run_before_last = case when x.started then t.status_of_last_run else t.status_of_run_before_last end,
               status_of_last_run = x.status::run_status,
               last_execution_missed = case when x.started then false else t.last_execution_missed end,
               next_run_at = case when x.started then x."nextRunAt" else t.next_run_at end
          from jsonb_to_recordset(${JSON.stringify(moves)}::jsonb)
            as x(id int, started boolean, status text, "nextRunAt" timestamptz)
         where t.id = x.id`);
    },
    /**
     * Marks each task's last execution missed or not, sets its next expected run and its display status, in one
     * statement.
     */
    async setMissed(
      marks: readonly { id: number; missed: boolean; nextRunAt: Date | null; displayStatus: TaskDisplayStatus }[],
    ): Promise<void> {
      if (marks.length === 0) return;
      await db.execute(sql`
        update backup_tasks t
           set last_execution_missed = x.missed, next_run_at = x."nextRunAt",
               display_status = x."displayStatus"::task_display_status
          from jsonb_to_recordset(${JSON.stringify(marks)}::jsonb)
            as x(id int, missed boolean, "nextRunAt" timestamptz, "displayStatus" text)
         where t.id = x.id`);
    },
    deleteMachine: (machineId: number) => removeRow('backup_machines', machineId),
    deletePackage: (packageId: number) => removeRow('backup_packages', packageId),
  };
}

export type BackupStateWrites = ReturnType<typeof createBackupStateWrites>;
export type BackupStateRepo = ReturnType<typeof createBackupStateRepo>;
