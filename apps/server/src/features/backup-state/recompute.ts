import {
  type AggregateCounts,
  type AggregateTaskStatus,
  addCounts,
  aggregateFromCounts,
  countsOfTask,
  EMPTY_AGGREGATE_COUNTS,
  type MachineStatus,
  type TaskDisplayStatus,
  type TaskStatusInput,
  taskDisplayStatus,
} from '@portal/domain';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { joinMachineOwners, machineStatuses } from '../../db/machine-statuses.js';
import { backupMachines, backupTasks, customers } from '../../db/schema/index.js';
import { summedMachineStatusCounts } from '../dashboard/repo.js';

/** What the dashboard read model holds for one customer or machine. */
export interface StoredAggregate {
  counts: AggregateCounts;
  taskStatus: AggregateTaskStatus;
}

/**
 * The read model computed from scratch: every task's display status, every owner's counters, and how many machines
 * have each (task status, machine status), keyed `TASK_STATUS MACHINE_STATUS` (the all-machines pies' summary).
 */
export interface ReadModel {
  tasks: Map<number, TaskDisplayStatus>;
  machines: Map<number, StoredAggregate>;
  customers: Map<number, StoredAggregate>;
  machineStatusCounts: Map<string, number>;
}

const statusPair = (taskStatus: AggregateTaskStatus, status: MachineStatus) => `${taskStatus} ${status}`;

/**
 * The dashboard read model computed from the source rows with the domain rules (000 §4). This is the
 * reference the incrementally kept columns must always equal; `rebuildReadModel` writes it back (after
 * a bulk import, or to repair). It reads every task, so it is never on a request path.
 */
export async function computeReadModel(db: Db): Promise<ReadModel> {
  const query = db
    .select({
      id: backupTasks.id,
      machineId: backupTasks.backupMachineId,
      customerId: backupMachines.customerId,
      status: backupTasks.status,
      lastExecutionMissed: backupTasks.lastExecutionMissed,
      statusOfLastRun: backupTasks.statusOfLastRun,
      statusOfRunBeforeLast: backupTasks.statusOfRunBeforeLast,
      ...machineStatuses,
    })
    .from(backupTasks)
    .innerJoin(backupMachines, eq(backupMachines.id, backupTasks.backupMachineId))
    .$dynamic();
  const rows = await joinMachineOwners(query);

  const machineCounts = new Map<number, AggregateCounts>();
  const customerCounts = new Map<number, AggregateCounts>();
  const machineRows = await db.select({ id: backupMachines.id, status: backupMachines.status }).from(backupMachines);
  for (const { id } of machineRows) machineCounts.set(id, EMPTY_AGGREGATE_COUNTS);
  for (const { id } of await db.select({ id: customers.id }).from(customers)) {
    customerCounts.set(id, EMPTY_AGGREGATE_COUNTS);
  }

  const tasks = new Map<number, TaskDisplayStatus>();
  for (const row of rows) {
    const input: TaskStatusInput = row;
    tasks.set(row.id, taskDisplayStatus(input));
    const counts = countsOfTask(input);
    machineCounts.set(row.machineId, addCounts(machineCounts.get(row.machineId) ?? EMPTY_AGGREGATE_COUNTS, counts));
    customerCounts.set(row.customerId, addCounts(customerCounts.get(row.customerId) ?? EMPTY_AGGREGATE_COUNTS, counts));
  }
  const aggregate = (counts: AggregateCounts): StoredAggregate => ({ counts, taskStatus: aggregateFromCounts(counts) });
  const machines = new Map([...machineCounts].map(([id, counts]) => [id, aggregate(counts)]));
  const machineStatusCounts = new Map<string, number>();
  for (const { id, status } of machineRows) {
    const key = statusPair(aggregateFromCounts(machineCounts.get(id) ?? EMPTY_AGGREGATE_COUNTS), status);
    machineStatusCounts.set(key, (machineStatusCounts.get(key) ?? 0) + 1);
  }
  return {
    tasks,
    machines,
    customers: new Map([...customerCounts].map(([id, counts]) => [id, aggregate(counts)])),
    machineStatusCounts,
  };
}

/** The read model as stored, in the same shape, for comparison with computeReadModel. */
export async function readStoredReadModel(db: Db): Promise<ReadModel> {
  const counters = <T extends typeof backupMachines | typeof customers>(t: T) => ({
    id: t.id,
    failed: t.tasksFailed,
    missed: t.tasksMissed,
    successful: t.tasksSuccessful,
    neverRun: t.tasksNeverRun,
    ignored: t.tasksIgnored,
    inProgress: t.tasksInProgress,
    taskStatus: t.taskStatus,
  });
  const stored = (rows: (AggregateCounts & { id: number; taskStatus: AggregateTaskStatus })[]) =>
    new Map(rows.map(({ id, taskStatus, ...counts }) => [id, { counts, taskStatus }]));
  const taskRows = await db.select({ id: backupTasks.id, displayStatus: backupTasks.displayStatus }).from(backupTasks);
  const summary = await summedMachineStatusCounts(db);
  return {
    tasks: new Map(taskRows.map((t) => [t.id, t.displayStatus])),
    machines: stored(await db.select(counters(backupMachines)).from(backupMachines)),
    customers: stored(await db.select(counters(customers)).from(customers)),
    machineStatusCounts: new Map(summary.map((r) => [statusPair(r.taskStatus, r.status), r.n])),
  };
}

/** Writes a from-scratch read model over the stored one, in one transaction. */
export async function rebuildReadModel(db: Db): Promise<void> {
  const model = await computeReadModel(db);
  await db.transaction(async (tx) => {
    const byStatus = new Map<TaskDisplayStatus, number[]>();
    for (const [id, status] of model.tasks) byStatus.set(status, [...(byStatus.get(status) ?? []), id]);
    for (const [status, ids] of byStatus) {
      for (let i = 0; i < ids.length; i += 5000) {
        const chunk = ids.slice(i, i + 5000);
        await tx.execute(
          sql`update ${backupTasks} set display_status = ${status} where id = any(${sql.raw(`'{${chunk.join(',')}}'::int[]`)})`,
        );
      }
    }
    const write = async (table: typeof backupMachines | typeof customers, rows: Map<number, StoredAggregate>) => {
      for (const [id, { counts, taskStatus }] of rows) {
        await tx
          .update(table)
          .set({
            tasksFailed: counts.failed,
            tasksMissed: counts.missed,
            tasksSuccessful: counts.successful,
            tasksNeverRun: counts.neverRun,
            tasksIgnored: counts.ignored,
            tasksInProgress: counts.inProgress,
            taskStatus,
          })
          .where(eq(table.id, id));
      }
    };
    await write(backupMachines, model.machines);
    await write(customers, model.customers);
  });
}
