import { CHANGE_DETECTION, type ChangeReason, type RunFigures } from '@portal/domain';
import { and, desc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { machineContext } from '../../db/machine-context.js';
import { backupSnapshots, backupTasks, customers, taskActions, users } from '../../db/schema/index.js';
import { taskOfMachine } from '../../db/task-of-machine.js';

/** The statuses of a run whose snapshot is good: restic finished, perhaps with unreadable files. */
const GOOD = ['FINISHED_SUCCESS', 'FINISHED_WARNINGS'] as const;

/** A finished run's figures from its run report; null without one (older agents). */
function figuresOf(row: {
  summary: { filesNew: number; filesChanged: number; filesUnmodified: number } | null;
  bytesAdded: number | null;
  bytesTotal: number | null;
}): RunFigures | null {
  if (row.summary === null) return null;
  const { filesNew, filesChanged, filesUnmodified } = row.summary;
  return { filesNew, filesChanged, filesUnmodified, bytesAdded: row.bytesAdded ?? 0, bytesTotal: row.bytesTotal ?? 0 };
}

const figureColumns = {
  summary: taskActions.summary,
  bytesAdded: taskActions.bytesAdded,
  bytesTotal: taskActions.bytesTotal,
};

/**
 * The queries of the guard rails (issue 32 items 7, 8): a finished run and its task's history, the marks and the
 * task's retention hold, and what the alert and the preview need. Reads by a caller's path name the machine, so
 * another machine's task or run is not found.
 */
export function createGuardrailsRepo(db: Executor) {
  return {
    /** Who may see and command the machine (db/machine-context.ts). */
    machine: (machineId: number) => machineContext(db, machineId),

    task: (machineId: number, taskId: number) =>
      taskOfMachine(db, machineId, taskId, {
        id: backupTasks.id,
        retentionHoldActionId: backupTasks.retentionHoldActionId,
      }),

    /** A run of the task with its restic snapshot. */
    async run(taskId: number, runId: number) {
      const [run] = await db
        .select({ id: taskActions.id, resticSnapshotId: taskActions.resticSnapshotId, status: taskActions.status })
        .from(taskActions)
        .where(and(eq(taskActions.id, runId), eq(taskActions.backupTaskId, taskId)));
      return run ?? null;
    },

    /** A good backup run as the detection reads it (null: another action, a failed run, or no run report). */
    async finishedRun(actionId: number) {
      const [row] = await db
        .select({
          taskId: taskActions.backupTaskId,
          type: taskActions.type,
          status: taskActions.status,
          ...figureColumns,
        })
        .from(taskActions)
        .where(eq(taskActions.id, actionId));
      if (row?.type !== 'BACKUP_RUN' || !(GOOD as readonly string[]).includes(row.status)) return null;
      const figures = figuresOf(row);
      return figures ? { taskId: row.taskId, figures } : null;
    },

    /** The task's good backup runs with a run report before `actionId`, newest first (the task's action index). */
    async history(taskId: number, actionId: number): Promise<RunFigures[]> {
      const rows = await db
        .select(figureColumns)
        .from(taskActions)
        .where(
          and(
            eq(taskActions.backupTaskId, taskId),
            eq(taskActions.type, 'BACKUP_RUN'),
            inArray(taskActions.status, [...GOOD]),
            isNotNull(taskActions.summary),
            lt(taskActions.id, actionId),
          ),
        )
        .orderBy(desc(taskActions.timeStarted), desc(taskActions.id))
        .limit(CHANGE_DETECTION.historyRuns);
      return rows.flatMap((row) => figuresOf(row) ?? []);
    },

    async markRun(actionId: number, reasons: readonly ChangeReason[], smallerThanUsual: boolean): Promise<void> {
      await db
        .update(taskActions)
        .set({ changeReasons: reasons.length > 0 ? [...reasons] : null, smallerThanUsual })
        .where(eq(taskActions.id, actionId));
    },

    /** The unusual run holds the task's retention; an earlier hold not yet acknowledged stays the one shown. */
    async hold(taskId: number, actionId: number): Promise<void> {
      await db
        .update(backupTasks)
        .set({ retentionHoldActionId: sql`coalesce(${backupTasks.retentionHoldActionId}, ${actionId})` })
        .where(eq(backupTasks.id, taskId));
    },

    /**
     * Acknowledges every unusual run of the task and releases its retention; false when nothing was held (another
     * request got there first).
     */
    async acknowledge(taskId: number, at: Date): Promise<boolean> {
      const released = await db
        .update(backupTasks)
        .set({ retentionHoldActionId: null })
        .where(and(eq(backupTasks.id, taskId), isNotNull(backupTasks.retentionHoldActionId)))
        .returning({ id: backupTasks.id });
      await db
        .update(taskActions)
        .set({ changeAcknowledgedAt: at })
        .where(
          and(
            eq(taskActions.backupTaskId, taskId),
            isNotNull(taskActions.changeReasons),
            isNull(taskActions.changeAcknowledgedAt),
          ),
        );
      return released.length > 0;
    },

    /** The machine's customer's name, for the alert. */
    async customerName(customerId: number): Promise<string> {
      const [row] = await db
        .select({ name: customers.companyName })
        .from(customers)
        .where(eq(customers.id, customerId));
      return row?.name ?? '';
    },

    /** The provider's active admins: the provider hears of every unusual run. */
    providerAdmins() {
      return db
        .select({ userId: users.id, email: users.email })
        .from(users)
        .where(and(eq(users.role, 'ROLE_BOLT_ADMIN_USER'), eq(users.status, 'ACTIVE')))
        .orderBy(users.id);
    },

    /** restic saved a (re)tagged snapshot under a new id: the task's run and weekly archive follow it. */
    async moveSnapshot(taskId: number, from: string, to: string): Promise<void> {
      await db
        .update(taskActions)
        .set({ resticSnapshotId: to })
        .where(and(eq(taskActions.backupTaskId, taskId), eq(taskActions.resticSnapshotId, from)));
      await db
        .update(backupSnapshots)
        .set({ resticSnapshotId: to })
        .where(and(eq(backupSnapshots.backupTaskId, taskId), eq(backupSnapshots.resticSnapshotId, from)));
    },

    /** The task's runs that made these snapshots (restic's full ids, as agents report them). */
    async runsOfSnapshots(taskId: number, snapshotIds: readonly string[]): Promise<Map<string, number>> {
      if (snapshotIds.length === 0) return new Map();
      const rows = await db
        .select({ id: taskActions.id, snapshot: taskActions.resticSnapshotId })
        .from(taskActions)
        .where(and(eq(taskActions.backupTaskId, taskId), inArray(taskActions.resticSnapshotId, [...snapshotIds])));
      return new Map(rows.flatMap((row) => (row.snapshot === null ? [] : [[row.snapshot, row.id] as const])));
    },
  };
}
export type GuardrailsRepo = ReturnType<typeof createGuardrailsRepo>;
