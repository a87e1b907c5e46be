import type { DataCheckOutcome, DataCheckResult } from '@portal/domain';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { type Executor, oneOrNull, rowsOf } from '../../db/client.js';
import { backupMachines, repositoryCheckStates, repositoryDataChecks } from '../../db/schema/index.js';

/** A repository a server instance took on for a check: its machine and the slice to read. */
export interface ClaimedCheck {
  machineId: number;
  slice: number;
  slices: number;
  /** A provider admin asked for a check of all the data: this check reads it all, and the rotation stays put. */
  fullRead: boolean;
}

/** What a check records. */
export interface DataCheckRecord {
  machineId: number;
  startedAt: Date;
  subset: string;
  outcome: DataCheckOutcome;
  errors: string[];
  bytesRead: number;
  durationMs: number;
}

const present = (row: typeof repositoryDataChecks.$inferSelect): DataCheckResult => ({
  checkedAt: row.startedAt.toISOString(),
  subset: row.subset,
  outcome: row.outcome,
  errors: row.errors,
  bytesRead: row.bytesRead,
  durationMs: row.durationMs,
});

/** The queries of the rotating data checks (features/data-checks/service.ts). */
export function createDataChecksRepo(db: Executor) {
  return {
    /**
     * Gives machines without a rotation one, their first check spread over one interval by id (the domain's
     * dataCheckFirstOffsetMs, in SQL: the same multiplicative hash); machines being deleted get none.
     */
    async addMachines(now: Date, slices: number, intervalMs: number): Promise<number> {
      const rows = await db.execute(sql`
        insert into ${repositoryCheckStates} (backup_machine_id, next_slice, slices, due_at)
        select m.id, 1, ${slices}::int,
               ${now}::timestamptz + ((((m.id::bigint * 2654435761) % 4294967296) * ${intervalMs}::bigint)
                                        / 4294967296) * interval '1 millisecond'
          from ${backupMachines} m
         where not m.being_deleted
           and not exists (select 1 from ${repositoryCheckStates} s where s.backup_machine_id = m.id)
        on conflict do nothing
        returning backup_machine_id`);
      return rowsOf(rows).length;
    },

    /**
     * Takes the repository whose check is due longest and leases it until `until`. A machine running a backup (a busy
     * run) is left for later, so a check never competes with it, and so is one whose retention is leased or waits.
     * Row locks with SKIP LOCKED let several instances claim at once without taking the same row.
     */
    async claim(now: Date, until: Date): Promise<ClaimedCheck | null> {
      const picked = rowsOf<{ machine_id: number }>(
        await db.execute(sql`
          select s.backup_machine_id as machine_id from ${repositoryCheckStates} s
           where s.due_at <= ${now} and (s.lease_until is null or s.lease_until < ${now})
             and not exists (select 1 from task_actions a where a.backup_machine_id = s.backup_machine_id
                              and a.status in ('INITIATED', 'IN_PROGRESS') and a.stalled_at is null)
             and not exists (select 1 from backup_tasks t where t.backup_machine_id = s.backup_machine_id
                              and t.retention_due_at > ${now})
           order by s.due_at, s.backup_machine_id limit 1
           for update of s skip locked`),
      )[0];
      if (!picked) return null;
      const [row] = await db
        .update(repositoryCheckStates)
        .set({ leaseUntil: until })
        .where(
          and(
            eq(repositoryCheckStates.backupMachineId, picked.machine_id),
            or(isNull(repositoryCheckStates.leaseUntil), lt(repositoryCheckStates.leaseUntil, now)),
          ),
        )
        .returning();
      return row
        ? { machineId: row.backupMachineId, slice: row.nextSlice, slices: row.slices, fullRead: row.fullReadRequested }
        : null;
    },

    /**
     * A check of all the machine's data is asked for: due at `now`, its rotation kept (a machine without one gets it,
     * at slice 1 of `slices`). False while a check of the repository holds its lease: nothing changes then.
     */
    async requestFullRead(machineId: number, now: Date, slices: number): Promise<boolean> {
      const rows = await db
        .insert(repositoryCheckStates)
        .values({ backupMachineId: machineId, nextSlice: 1, slices, dueAt: now, fullReadRequested: true })
        .onConflictDoUpdate({
          target: repositoryCheckStates.backupMachineId,
          set: { dueAt: now, fullReadRequested: true },
          setWhere: or(isNull(repositoryCheckStates.leaseUntil), lt(repositoryCheckStates.leaseUntil, now)),
        })
        .returning({ id: repositoryCheckStates.backupMachineId });
      return rows.length > 0;
    },

    /** Whether a check of all the machine's data was asked for and has not ended. */
    async fullReadPending(machineId: number): Promise<boolean> {
      const row = await oneOrNull(
        db
          .select({ pending: repositoryCheckStates.fullReadRequested })
          .from(repositoryCheckStates)
          .where(eq(repositoryCheckStates.backupMachineId, machineId)),
      );
      return row?.pending ?? false;
    },

    /** Done with the lease: the next slice is due at `dueAt` (a check of all data asked for is done too). */
    async release(machineId: number, lease: Date, next: { slice: number; slices: number; dueAt: Date }) {
      await db
        .update(repositoryCheckStates)
        .set({
          nextSlice: next.slice,
          slices: next.slices,
          dueAt: next.dueAt,
          leaseUntil: null,
          fullReadRequested: false,
        })
        .where(and(eq(repositoryCheckStates.backupMachineId, machineId), eq(repositoryCheckStates.leaseUntil, lease)));
    },

    /** The machine as an alert names it; null once it is gone. */
    machine: (machineId: number) =>
      oneOrNull(
        db
          .select({
            id: backupMachines.id,
            name: backupMachines.name,
            customerId: backupMachines.customerId,
            assignedUserId: backupMachines.assignedUserId,
          })
          .from(backupMachines)
          .where(eq(backupMachines.id, machineId)),
      ),

    /** Records a check; answers its id. */
    async record(check: DataCheckRecord): Promise<number> {
      const [row] = await db
        .insert(repositoryDataChecks)
        .values({
          backupMachineId: check.machineId,
          startedAt: check.startedAt,
          subset: check.subset,
          outcome: check.outcome,
          errors: check.errors,
          bytesRead: check.bytesRead,
          durationMs: check.durationMs,
        })
        .returning({ id: repositoryDataChecks.id });
      if (!row) throw new Error('data check not recorded');
      return row.id;
    },

    /** How the latest check of the same subset of the machine's repository ended, or null. */
    async lastOutcomeOf(machineId: number, subset: string): Promise<DataCheckOutcome | null> {
      const row = await oneOrNull(
        db
          .select({ outcome: repositoryDataChecks.outcome })
          .from(repositoryDataChecks)
          .where(and(eq(repositoryDataChecks.backupMachineId, machineId), eq(repositoryDataChecks.subset, subset)))
          .orderBy(sql`${repositoryDataChecks.startedAt} desc`, sql`${repositoryDataChecks.id} desc`)
          .limit(1),
      );
      return row?.outcome ?? null;
    },

    /** The latest check of each machine's repository (machines never checked are left out). */
    async latestForMachines(machineIds: readonly number[]): Promise<Map<number, DataCheckResult>> {
      if (machineIds.length === 0) return new Map();
      const rows = await db
        .selectDistinctOn([repositoryDataChecks.backupMachineId])
        .from(repositoryDataChecks)
        .where(inArray(repositoryDataChecks.backupMachineId, [...machineIds]))
        .orderBy(
          repositoryDataChecks.backupMachineId,
          sql`${repositoryDataChecks.startedAt} desc`,
          sql`${repositoryDataChecks.id} desc`,
        );
      return new Map(rows.map((row) => [row.backupMachineId, present(row)]));
    },

    /**
     * The latest check of each task's repository (its machine's), for the task pages and the verification report
     * (issue 32 items 3 and 4); tasks whose repository was never checked are left out.
     */
    async latestForTasks(taskIds: readonly number[]): Promise<Map<number, DataCheckResult>> {
      if (taskIds.length === 0) return new Map();
      const tasks = rowsOf<{ id: number; machine_id: number }>(
        await db.execute(
          sql`select id, backup_machine_id as machine_id from backup_tasks where id in (${sql.join(
            taskIds.map((id) => sql`${id}::int`),
            sql`, `,
          )})`,
        ),
      );
      const checks = await this.latestForMachines([...new Set(tasks.map((t) => t.machine_id))]);
      const byTask = new Map<number, DataCheckResult>();
      for (const task of tasks) {
        const check = checks.get(task.machine_id);
        if (check) byTask.set(task.id, check);
      }
      return byTask;
    },
  };
}
export type DataChecksRepo = ReturnType<typeof createDataChecksRepo>;
