import type { RunStatus } from '@portal/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { backupTasks, taskActions } from '../../db/schema/index.js';
import { taskOfMachine } from '../../db/task-of-machine.js';
import { type ActionOutcome, finishedAction } from '../agent-events/repo.js';

const BUSY: RunStatus[] = ['INITIATED', 'IN_PROGRESS'];
const LOADING = 'BACKUP_SEED_LOADING' as const;

/** The queries behind seed loading (issue #5): the recorded load actions of a task. */
export function createSeedingRepo(db: Executor) {
  const busyLoadsOf = (taskId: number) =>
    db
      .select({ id: taskActions.id })
      .from(taskActions)
      .where(
        and(eq(taskActions.backupTaskId, taskId), eq(taskActions.type, LOADING), inArray(taskActions.status, BUSY)),
      );

  return {
    /** Whether a seed is being loaded for the task now. */
    async isLoading(taskId: number): Promise<boolean> {
      return (await busyLoadsOf(taskId)).length > 0;
    },

    /**
     * Records a new load of the task's seed, IN_PROGRESS, unless the task no longer awaits its seed or a load
     * of it is busy (run it in a transaction under the customer's lock). The new action's id, or why not.
     */
    async claimLoad(
      machineId: number,
      taskId: number,
      startedAt: Date,
    ): Promise<{ actionId: number } | { refused: 'notAwaitingSeed' | 'alreadyLoading' }> {
      const task = await taskOfMachine(db, machineId, taskId, { status: backupTasks.status });
      if (task?.status !== 'AWAITING_SEED') return { refused: 'notAwaitingSeed' };
      if ((await busyLoadsOf(taskId)).length > 0) return { refused: 'alreadyLoading' };
      const [row] = await db
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
      actionId: number,
      outcome: Pick<ActionOutcome, 'status' | 'finishedAt' | 'exitCodeResult' | 'failureMessage'>,
    ): Promise<boolean> {
      const rows = await db
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
  };
}

export type SeedingRepo = ReturnType<typeof createSeedingRepo>;
