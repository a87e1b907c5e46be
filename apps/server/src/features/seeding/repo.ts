import type { RunStatus } from '@portal/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { backupTasks, taskActions } from '../../db/schema/index.js';
import { type ActionOutcome, createAgentEventsRepo, finishedAction } from '../agent-events/repo.js';
import { createLocalStorageRepo } from '../local-storage/repo.js';
import { createTaskCommandsRepo } from '../task-commands/repo.js';

const BUSY: RunStatus[] = ['INITIATED', 'IN_PROGRESS'];
const LOADING = 'BACKUP_SEED_LOADING' as const;

/** The queries behind seed loading (issue #5): the task, its machine's storage, the recorded load actions. */
export function createSeedingRepo(db: Executor) {
  const places = createLocalStorageRepo(db);
  const events = createAgentEventsRepo(db);
  const tasks = createTaskCommandsRepo(db);

  const busyLoadsOf = (executor: Executor, taskId: number) =>
    executor
      .select({ id: taskActions.id })
      .from(taskActions)
      .where(
        and(eq(taskActions.backupTaskId, taskId), eq(taskActions.type, LOADING), inArray(taskActions.status, BUSY)),
      );

  return {
    /** The machine with its customer, package and statuses (db/machine-context.ts). */
    machine: tasks.machine,

    /** Where the machine's repository is: its package's storage location, or none (the default folder). */
    machinePlace: (machineId: number) => places.machinePlace(machineId),

    /** The task when it is the machine's, with its status. */
    task: (machineId: number, taskId: number) => tasks.task(machineId, taskId),

    /** Whether a seed is being loaded for the task now. */
    async isLoading(taskId: number): Promise<boolean> {
      return (await busyLoadsOf(db, taskId)).length > 0;
    },

    /**
     * In the caller's transaction (under the customer's lock): records a new load of the task's seed, IN_PROGRESS,
     * unless the task no longer awaits its seed or a load of it is busy. The new action's id, or why not.
     */
    async claimLoad(
      tx: Executor,
      machineId: number,
      taskId: number,
      startedAt: Date,
    ): Promise<{ actionId: number } | { refused: 'notAwaitingSeed' | 'alreadyLoading' }> {
      const [task] = await tx
        .select({ status: backupTasks.status })
        .from(backupTasks)
        .where(and(eq(backupTasks.id, taskId), eq(backupTasks.backupMachineId, machineId)));
      if (task?.status !== 'AWAITING_SEED') return { refused: 'notAwaitingSeed' };
      if ((await busyLoadsOf(tx, taskId)).length > 0) return { refused: 'alreadyLoading' };
      const [row] = await tx
        .insert(taskActions)
        .values({
          backupMachineId: machineId,
          backupTaskId: taskId,
          type: LOADING,
          status: 'IN_PROGRESS',
          timeStarted: startedAt,
          phase: 'TRANSFERRING_FILES',
        })
        .returning({ id: taskActions.id });
      if (!row) throw new Error('seed loading action not inserted');
      return { actionId: row.id };
    },

    /** Finishes a busy load; false when it is no longer busy (finished already). */
    async finishLoad(
      tx: Executor,
      actionId: number,
      outcome: Pick<ActionOutcome, 'status' | 'finishedAt' | 'exitCodeResult' | 'failureMessage'>,
    ): Promise<boolean> {
      const rows = await tx
        .update(taskActions)
        .set(finishedAction({ ...outcome, snapshotId: null, bytesAdded: null, bytesTotal: null }))
        .where(and(eq(taskActions.id, actionId), eq(taskActions.type, LOADING), inArray(taskActions.status, BUSY)))
        .returning({ id: taskActions.id });
      return rows.length > 0;
    },

    /** Every busy load (for the start-up sweep: a load's restic dies with the server that ran it). */
    busyLoads() {
      return db
        .select({ id: taskActions.id, taskId: taskActions.backupTaskId })
        .from(taskActions)
        .where(and(eq(taskActions.type, LOADING), inArray(taskActions.status, BUSY)));
    },

    /** The load's lines for the machine's message log (machineId, taskId, actionId, messages). */
    addMessages: events.insertMessages,
  };
}

export type SeedingRepo = ReturnType<typeof createSeedingRepo>;
