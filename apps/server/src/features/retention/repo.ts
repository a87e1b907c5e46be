import { and, desc, eq, inArray, isNotNull, notInArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/client.js';
import {
  backupTasks,
  panelRemovedAccounts,
  repositoryCheckStates,
  runAccountSnapshots,
  taskActions,
} from '../../db/schema/index.js';

/** A task whose retention a server instance took on, with the rules it applies. */
export interface DueTask {
  id: number;
  type: (typeof backupTasks.$inferSelect)['type'];
  numberOfSnapshotsToKeep: number;
  pruneAfterCount: number;
  pruneTimeUnit: (typeof backupTasks.$inferSelect)['pruneTimeUnit'];
  /** Issue 32: the unusual run holding the task's retention; null when none does. */
  retentionHoldActionId: number | null;
}

/**
 * The pass holding `lease` still owns the task: the mark is its lease, or its lease moved by the marks made since
 * (a millisecond each, so well under a second); another instance's later lease starts a whole lease further on.
 */
const ownLease = (lease: Date) =>
  sql`${backupTasks.retentionDueAt} >= ${lease} and ${backupTasks.retentionDueAt} < ${lease}::timestamptz + interval '1 second'`;

/** The queries of the portal's retention (features/retention/service.ts). */
export function createRetentionRepo(db: Executor) {
  return {
    /**
     * The task's retention is due from `at` on; a mark already due stays. A mark in the future is a pass's lease (or a
     * wait to retry): it moves by a millisecond, so the pass in flight, which clears only its own lease, sees that
     * the task was marked again after it read the task (an acknowledged hold, a new snapshot) and leaves it due.
     */
    async markDue(taskId: number, at: Date): Promise<void> {
      const due = backupTasks.retentionDueAt;
      await db
        .update(backupTasks)
        .set({
          retentionDueAt: sql`case when ${due} > ${at} then ${due} + interval '1 millisecond' else coalesce(${due}, ${at}) end`,
        })
        .where(eq(backupTasks.id, taskId));
    },

    /**
     * Takes the due tasks of one machine (the one waiting longest) and leases them until `until`: their mark moves
     * to `until`, so no other instance takes them meanwhile, and a crashed instance's lease simply runs out. Row
     * locks with SKIP LOCKED let several instances claim at once without waiting for or taking the same rows; the
     * update takes only what is still due, so of two instances that picked the same machine one gets no tasks.
     */
    async claimMachine(now: Date, until: Date): Promise<{ machineId: number; tasks: DueTask[] } | null> {
      const picked = rowsOf<{ machine_id: number }>(
        await db.execute(sql`
          select backup_machine_id as machine_id from ${backupTasks} t
           where retention_due_at <= ${now}
             -- A repository under the portal's data check (issue 32) is not pruned meanwhile: the check reads unlocked.
             and not exists (select 1 from ${repositoryCheckStates} c
                              where c.backup_machine_id = t.backup_machine_id and c.lease_until > ${now})
           order by retention_due_at, id limit 1
           for update skip locked`),
      )[0];
      if (!picked) return null;
      const tasks = await db
        .update(backupTasks)
        .set({ retentionDueAt: until })
        .where(
          inArray(
            backupTasks.id,
            sql`(select id from ${backupTasks}
                  where backup_machine_id = ${picked.machine_id} and retention_due_at <= ${now}
                  order by id for update skip locked)`,
          ),
        )
        .returning({
          id: backupTasks.id,
          type: backupTasks.type,
          numberOfSnapshotsToKeep: backupTasks.numberOfSnapshotsToKeep,
          pruneAfterCount: backupTasks.pruneAfterCount,
          pruneTimeUnit: backupTasks.pruneTimeUnit,
          retentionHoldActionId: backupTasks.retentionHoldActionId,
        });
      return { machineId: picked.machine_id, tasks };
    },

    /** Done: the mark goes; a task marked again during the lease (see markDue) is due again from `at` on. */
    async finish(taskId: number, lease: Date, at: Date): Promise<void> {
      await db
        .update(backupTasks)
        .set({
          retentionDueAt: sql`case when ${backupTasks.retentionDueAt} = ${lease} then null else ${at}::timestamptz end`,
        })
        .where(and(eq(backupTasks.id, taskId), ownLease(lease)));
    },

    /** Failed: tried again from `at` on (a mark during the lease included). */
    async retryAt(taskId: number, lease: Date, at: Date): Promise<void> {
      await db
        .update(backupTasks)
        .set({ retentionDueAt: at })
        .where(and(eq(backupTasks.id, taskId), ownLease(lease)));
    },

    /**
     * A panel run reported the accounts on the server: each account with backups of the task that is not among
     * them is recorded as missing from `at` (a first report only), and each that is there again is dropped.
     */
    async recordPanelAccounts(taskId: number, present: readonly string[], at: Date): Promise<void> {
      const backedUp = await db
        .selectDistinct({ account: runAccountSnapshots.account })
        .from(runAccountSnapshots)
        .where(eq(runAccountSnapshots.backupTaskId, taskId));
      const missing = backedUp.map((row) => row.account).filter((account) => !present.includes(account));
      if (missing.length > 0) {
        await db
          .insert(panelRemovedAccounts)
          .values(missing.map((account) => ({ backupTaskId: taskId, account, missingSince: at })))
          .onConflictDoNothing();
      }
      const back = eq(panelRemovedAccounts.backupTaskId, taskId);
      await db
        .delete(panelRemovedAccounts)
        .where(missing.length > 0 ? and(back, notInArray(panelRemovedAccounts.account, missing)) : back);
    },

    async removedAccounts(taskId: number): Promise<{ account: string; missingSince: Date }[]> {
      return db
        .select({ account: panelRemovedAccounts.account, missingSince: panelRemovedAccounts.missingSince })
        .from(panelRemovedAccounts)
        .where(eq(panelRemovedAccounts.backupTaskId, taskId));
    },

    /** The pruned accounts' records go, and their account snapshots with them. */
    async dropRemovedAccounts(taskId: number, accounts: readonly string[]): Promise<void> {
      if (accounts.length === 0) return;
      await db
        .delete(panelRemovedAccounts)
        .where(and(eq(panelRemovedAccounts.backupTaskId, taskId), inArray(panelRemovedAccounts.account, accounts)));
      await db
        .delete(runAccountSnapshots)
        .where(and(eq(runAccountSnapshots.backupTaskId, taskId), inArray(runAccountSnapshots.account, accounts)));
    },

    /** The restic snapshot of the task's newest good backup run (issue 32: retention never forgets it). */
    async newestGoodSnapshot(taskId: number): Promise<string | null> {
      const [row] = await db
        .select({ id: taskActions.resticSnapshotId })
        .from(taskActions)
        .where(
          and(
            eq(taskActions.backupTaskId, taskId),
            eq(taskActions.type, 'BACKUP_RUN'),
            inArray(taskActions.status, ['FINISHED_SUCCESS', 'FINISHED_WARNINGS']),
            isNotNull(taskActions.resticSnapshotId),
          ),
        )
        .orderBy(desc(taskActions.timeStarted), desc(taskActions.id))
        .limit(1);
      return row?.id ?? null;
    },

    /** When the task's retention is due (or leased until); null when none waits. */
    async dueAt(taskId: number): Promise<Date | null> {
      const [row] = await db
        .select({ at: backupTasks.retentionDueAt })
        .from(backupTasks)
        .where(eq(backupTasks.id, taskId));
      return row?.at ?? null;
    },
  };
}
export type RetentionRepo = ReturnType<typeof createRetentionRepo>;
