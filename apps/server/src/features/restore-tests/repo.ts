import { DAY_MS, type Paging, type RestoreTestResult } from '@portal/domain';
import { and, desc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import { type Executor, oneOrNull, rowsOf } from '../../db/client.js';
import { machineContext } from '../../db/machine-context.js';
import { countOf, selectPage } from '../../db/paging.js';
import { restoreTestIntervalOverride } from '../../db/restore-test-interval.js';
import { backupMachines, backupTasks, restoreTestSettings, restoreTests, taskActions } from '../../db/schema/index.js';
import { taskOfMachine } from '../../db/task-of-machine.js';

export type RestoreTestRecord = typeof restoreTests.$inferSelect;

/** A task the schedule tests now, with its machine. */
export interface DueRestoreTest {
  taskId: number;
  machineId: number;
  testKey: string;
}

/**
 * Restore tests (issue 32 item 1): every read names the machine the caller was allowed (and a task of it), so
 * another tenant's ids find nothing; `latestForTasks` answers the last result of any set of tasks (task rows,
 * reports).
 */
export function createRestoreTestsRepo(db: Executor) {
  return {
    /** The machine with who may see and command it, and whether commands reach it now (db/machine-context.ts). */
    machine: (machineId: number) => machineContext(db, machineId),

    task: (machineId: number, taskId: number) =>
      taskOfMachine(db, machineId, taskId, { id: backupTasks.id, status: backupTasks.status }),

    /** Whether the task has a backup run whose snapshot is still in the repository. */
    async hasSnapshot(taskId: number): Promise<boolean> {
      const row = await oneOrNull(
        db
          .select({ id: taskActions.id })
          .from(taskActions)
          .where(
            and(
              eq(taskActions.backupTaskId, taskId),
              eq(taskActions.type, 'BACKUP_RUN'),
              eq(taskActions.snapshotsAvailable, true),
            ),
          )
          .limit(1),
      );
      return row !== null;
    },

    /** The customer's interval override, or null for the provider's default. */
    intervalOverride: (customerId: number) => restoreTestIntervalOverride(db, customerId),

    async saveIntervalOverride(customerId: number, intervalDays: number | null): Promise<void> {
      await db
        .insert(restoreTestSettings)
        .values({ customerId, intervalDays })
        .onConflictDoUpdate({ target: restoreTestSettings.customerId, set: { intervalDays } });
    },

    /**
     * A new test, RUNNING, and the task's next scheduled test `intervalDays` after it; null when one of the task is
     * running already.
     */
    async insertRunning(test: {
      taskId: number;
      machineId: number;
      testKey: string;
      manual: boolean;
      userId: number | null;
      startedAt: Date;
      intervalDays: number;
    }): Promise<RestoreTestRecord | null> {
      const [row] = await db
        .insert(restoreTests)
        .values({
          backupTaskId: test.taskId,
          backupMachineId: test.machineId,
          testKey: test.testKey,
          manual: test.manual,
          requestedByUserId: test.userId,
          startedAt: test.startedAt,
        })
        // The one-running-test-per-task index: a test already running leaves nothing inserted.
        .onConflictDoNothing()
        .returning();
      if (row) {
        await db
          .update(backupTasks)
          .set({ restoreTestDueAt: new Date(test.startedAt.getTime() + test.intervalDays * DAY_MS) })
          .where(eq(backupTasks.id, test.taskId));
      }
      return row ?? null;
    },

    /** Records the agent's result of a running test of this machine; the task's id, or null when none was running. */
    async finish(machineId: number, testKey: string, result: RestoreTestResult, finishedAt: Date) {
      const [row] = await db
        .update(restoreTests)
        .set({ ...result, finishedAt })
        .where(runningTest(machineId, testKey))
        .returning({ taskId: restoreTests.backupTaskId });
      return row?.taskId ?? null;
    },

    /** Whether the machine's test with this key is running and was not sent again yet (it may be, once). */
    async mayRerun(machineId: number, testKey: string): Promise<boolean> {
      const row = await oneOrNull(
        db
          .select({ id: restoreTests.id })
          .from(restoreTests)
          .where(and(runningTest(machineId, testKey), eq(restoreTests.rerun, false))),
      );
      return row !== null;
    },

    /**
     * Marks the running test sent again under a new key (a late result of its first try then finds nothing); the
     * test, or null when it ended or was sent again meanwhile.
     */
    async rerun(machineId: number, testKey: string, newKey: string): Promise<RestoreTestRecord | null> {
      const [row] = await db
        .update(restoreTests)
        .set({ testKey: newKey, rerun: true })
        .where(and(runningTest(machineId, testKey), eq(restoreTests.rerun, false)))
        .returning();
      return row ?? null;
    },

    /** Fails a test that could not start (the agent refused it or did not answer); the task's id, or null. */
    async fail(testKey: string, message: string, finishedAt: Date): Promise<number | null> {
      const [row] = await db
        .update(restoreTests)
        .set({ outcome: 'FAILED', message, finishedAt })
        .where(and(eq(restoreTests.testKey, testKey), eq(restoreTests.outcome, 'RUNNING')))
        .returning({ taskId: restoreTests.backupTaskId });
      return row?.taskId ?? null;
    },

    /**
     * Removes a test the agent never got (its machine was offline): nothing was tried, so the task is due again and
     * the schedule tests it once the machine is back.
     */
    async forget(testKey: string, now: Date): Promise<void> {
      const [row] = await db
        .delete(restoreTests)
        .where(and(eq(restoreTests.testKey, testKey), eq(restoreTests.outcome, 'RUNNING')))
        .returning({ taskId: restoreTests.backupTaskId });
      if (row) await db.update(backupTasks).set({ restoreTestDueAt: now }).where(eq(backupTasks.id, row.taskId));
    },

    /** Fails every test running since before `before` (its agent went away); their tasks' ids. */
    async failRunningSince(before: Date, message: string, finishedAt: Date): Promise<number[]> {
      const rows = await db
        .update(restoreTests)
        .set({ outcome: 'FAILED', message, finishedAt })
        .where(and(eq(restoreTests.outcome, 'RUNNING'), lt(restoreTests.startedAt, before)))
        .returning({ taskId: restoreTests.backupTaskId });
      return rows.map((row) => row.taskId);
    },

    /** A page of the task's tests, newest first. */
    history(taskId: number, paging: Paging) {
      const where = eq(restoreTests.backupTaskId, taskId);
      return selectPage(
        db.select().from(restoreTests).where(where).orderBy(desc(restoreTests.startedAt), desc(restoreTests.id)),
        () => countOf(db, restoreTests, where),
        paging,
      );
    },

    /**
     * The latest test of each of these tasks, by task id: the running one included unless `finishedOnly` (the last
     * result, for reports and badges).
     */
    async latestForTasks(
      taskIds: readonly number[],
      options: { finishedOnly?: boolean } = {},
    ): Promise<Map<number, RestoreTestRecord>> {
      if (taskIds.length === 0) return new Map();
      const rows = await db
        .selectDistinctOn([restoreTests.backupTaskId])
        .from(restoreTests)
        .where(
          and(
            inArray(restoreTests.backupTaskId, [...taskIds]),
            options.finishedOnly ? ne(restoreTests.outcome, 'RUNNING') : undefined,
          ),
        )
        .orderBy(restoreTests.backupTaskId, desc(restoreTests.startedAt), desc(restoreTests.id));
      return new Map(rows.map((row) => [row.backupTaskId, row]));
    },

    /**
     * Starts up to `limit` due tests in one statement: marks each RUNNING while its task is locked, so another
     * instance's pass skips it, and moves the task's due mark one interval on (the override, else `defaultDays`).
     * Due: an active task whose due mark has passed (read from its partial index, so a pass reads only due tasks),
     * with a snapshot, on a machine that is online and takes commands, with no test running.
     */
    async startDue(now: Date, defaultDays: number, limit: number): Promise<DueRestoreTest[]> {
      const at = now.toISOString();
      const result = await db.execute(sql`
        with due as (
          select t.id as task_id, t.backup_machine_id as machine_id
          from ${backupTasks} t
          join ${backupMachines} m on m.id = t.backup_machine_id
          where t.status = 'ACTIVE' and t.restore_test_due_at <= ${at}::timestamptz
            and m.online and m.remote_management_enabled and not m.being_deleted
            and exists (
              select 1 from ${taskActions} a
              where a.backup_task_id = t.id and a.type = 'BACKUP_RUN' and a.snapshots_available
            )
            and not exists (
              select 1 from ${restoreTests} r where r.backup_task_id = t.id and r.outcome = 'RUNNING'
            )
          order by t.restore_test_due_at, t.id
          limit ${limit}
          for update of t skip locked
        ), moved as (
          update ${backupTasks} t
             set restore_test_due_at = ${at}::timestamptz + make_interval(days => coalesce(
                   (select s.interval_days from ${restoreTestSettings} s where s.customer_id = t.customer_id),
                   ${defaultDays}::integer))
            from due where t.id = due.task_id
        )
        insert into ${restoreTests} (backup_task_id, backup_machine_id, test_key, manual, started_at)
        select task_id, machine_id, gen_random_uuid(), false, ${at}::timestamptz from due
        on conflict do nothing
        returning backup_task_id as task_id, backup_machine_id as machine_id, test_key`);
      return rowsOf<{ task_id: number; machine_id: number; test_key: string }>(result).map((row) => ({
        taskId: Number(row.task_id),
        machineId: Number(row.machine_id),
        testKey: row.test_key,
      }));
    },
  };
}

/** The machine's test with this key, while it runs. */
const runningTest = (machineId: number, testKey: string) =>
  and(
    eq(restoreTests.testKey, testKey),
    eq(restoreTests.backupMachineId, machineId),
    eq(restoreTests.outcome, 'RUNNING'),
  );

export type RestoreTestsRepo = ReturnType<typeof createRestoreTestsRepo>;
