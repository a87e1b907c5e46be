import {
  type Paging,
  VERIFICATION_STATUSES,
  type VerificationCounts,
  type VerificationFacts,
  type VerificationStatus,
} from '@portal/domain';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.js';
import { restoreTestIntervalOverride } from '../../db/restore-test-interval.js';
import { backupTasks } from '../../db/schema/index.js';
import { type TenantScope, tenantScopeCondition } from './scope.js';

/** The verification columns of a task as the rows and the page present them (presentVerification). */
export const verificationColumns = {
  verificationStatus: backupTasks.verificationStatus,
  lastRestoreTestAt: backupTasks.lastRestoreTestAt,
  lastRestoreTestFiles: backupTasks.lastRestoreTestFiles,
  lastFullReadAt: backupTasks.lastFullReadAt,
};

/** A task whose facts were recomputed, with its status before and after. */
export interface RefreshedTask {
  taskId: number;
  status: VerificationStatus;
  since: Date;
  changed: boolean;
}

/**
 * The queries of 'Last verified' (issue 32 item 3): the facts of a task's proofs from its restore tests and its
 * repository's data checks, kept on the task; the overdue sweep; the dashboard's counts and list, each taking the
 * caller's scope.
 */
export function createVerificationRepo(db: Executor) {
  return {
    /**
     * The tasks of these ids (or of the machine) with what the rule needs, locked: two refreshes of a task (a restore
     * test and a data check ending together) take turns, so the later one reads what the earlier one wrote from.
     */
    async tasks(where: { taskIds?: readonly number[]; machineId?: number }) {
      return db
        .select({
          id: backupTasks.id,
          customerId: backupTasks.customerId,
          machineId: backupTasks.backupMachineId,
          status: backupTasks.verificationStatus,
          since: backupTasks.verificationStatusSince,
        })
        .from(backupTasks)
        .where(
          where.taskIds
            ? inArray(backupTasks.id, [...where.taskIds])
            : eq(backupTasks.backupMachineId, where.machineId ?? -1),
        )
        .orderBy(backupTasks.id)
        .for('update');
    },

    /** The customer's restore test interval override, or null for the provider's default. */
    intervalOverride: (customerId: number) => restoreTestIntervalOverride(db, customerId),

    /** The task's last passing restore test (its end and files) and whether its last finished test failed. */
    async restoreTestFacts(taskId: number) {
      const [row] = rowsOf<{ passed_at: Date | string | null; files: number | null; last_outcome: string | null }>(
        await db.execute(sql`
          select p.passed_at, p.files, l.outcome as last_outcome
            from (select 1) one
            left join lateral (select coalesce(finished_at, started_at) as passed_at, files_tested as files
                                 from restore_tests where backup_task_id = ${taskId} and outcome = 'PASSED'
                                order by started_at desc, id desc limit 1) p on true
            left join lateral (select outcome from restore_tests
                                where backup_task_id = ${taskId} and outcome <> 'RUNNING'
                                order by started_at desc, id desc limit 1) l on true`),
      );
      return {
        lastRestoreTestAt: row?.passed_at ? new Date(row.passed_at) : null,
        lastRestoreTestFiles: row?.files ?? null,
        restoreTestFailed: row?.last_outcome === 'MISMATCH' || row?.last_outcome === 'FAILED',
      };
    },

    /**
     * The machine's repository: damaged when the latest check of a part found damage; read in full since the oldest
     * of the latest passing checks of every part of the current rotation (null until each part has passed). Checks
     * that could not run (ERROR) read nothing and are skipped.
     */
    async dataCheckFacts(machineId: number): Promise<Pick<VerificationFacts, 'lastFullReadAt' | 'dataCheckDamaged'>> {
      const [row] = rowsOf<{ damaged: boolean | null; full_read: Date | string | null }>(
        await db.execute(sql`
          select bool_or(l.outcome = 'FAILED') as damaged,
                 case when count(*) = max(l.slices) and bool_and(l.outcome = 'PASSED') then min(l.started_at) end
                   as full_read
            from (select distinct on (c.subset) c.outcome, c.started_at, s.slices
                    from repository_data_checks c
                    join repository_check_states s on s.backup_machine_id = c.backup_machine_id
                   where c.backup_machine_id = ${machineId} and c.outcome <> 'ERROR'
                     and split_part(c.subset, '/', 2) = s.slices::text
                   order by c.subset, c.started_at desc, c.id desc) l`),
      );
      return {
        dataCheckDamaged: row?.damaged === true,
        lastFullReadAt: row?.full_read ? new Date(row.full_read) : null,
      };
    },

    /** Stores a task's facts, deadline and status; the status's start moves only when it changed. */
    async save(
      taskId: number,
      facts: VerificationFacts & { lastRestoreTestFiles: number | null },
      overdueAt: Date | null,
      status: VerificationStatus,
      now: Date,
    ): Promise<{ since: Date; changed: boolean }> {
      const [row] = rowsOf<{ since: Date | string; changed: boolean }>(
        await db.execute(sql`
          update backup_tasks t set
                 last_restore_test_at = ${facts.lastRestoreTestAt}, last_restore_test_files = ${facts.lastRestoreTestFiles},
                 restore_test_failed = ${facts.restoreTestFailed}, last_full_read_at = ${facts.lastFullReadAt},
                 data_check_damaged = ${facts.dataCheckDamaged}, verification_overdue_at = ${overdueAt},
                 verification_status = ${status},
                 verification_status_since = case when o.verification_status = ${status}
                   then o.verification_status_since else ${now}::timestamptz end
            from backup_tasks o where o.id = t.id and t.id = ${taskId}
          returning t.verification_status_since as since, o.verification_status <> ${status} as changed`),
      );
      return { since: row ? new Date(row.since) : now, changed: row?.changed === true };
    },

    /** Turns up to `limit` verified tasks past their deadline overdue; answers them. */
    async sweepOverdue(now: Date, limit: number) {
      const rows = rowsOf<{ id: number }>(
        await db.execute(sql`
          update backup_tasks set verification_status = 'OVERDUE', verification_status_since = ${now}::timestamptz
           where id in (select id from backup_tasks
                         where verification_status = 'VERIFIED' and verification_overdue_at <= ${now}::timestamptz
                         order by verification_overdue_at limit ${limit} for update skip locked)
          returning id`),
      );
      return rows.map((row) => Number(row.id));
    },

    /**
     * The customer's restore test interval changed to `days`: its tasks' next scheduled test (last start + days) and
     * their deadlines move with it (the domain's verificationOverdueAt, in SQL); an overdue task whose new deadline is
     * ahead is verified again, a verified one past it is left to the sweep.
     */
    async rescheduleCustomer(
      customerId: number,
      days: number,
      limits: { periodDays: number; graceDays: number },
      now: Date,
    ) {
      await db.execute(sql`
        update backup_tasks t set restore_test_due_at = r.started_at + make_interval(days => ${days}::int)
          from (select backup_task_id, max(started_at) as started_at from restore_tests
                 where backup_task_id in (select id from backup_tasks where customer_id = ${customerId}) group by 1) r
         where r.backup_task_id = t.id`);
      await db.execute(sql`
        update backup_tasks set verification_overdue_at = least(
                 last_restore_test_at + make_interval(days => ${days + limits.graceDays}::int),
                 last_full_read_at + make_interval(days => ${limits.periodDays + limits.graceDays}::int))
         where customer_id = ${customerId} and last_restore_test_at is not null`);
      await db.execute(sql`
        update backup_tasks set verification_status = 'VERIFIED', verification_status_since = ${now}::timestamptz
         where customer_id = ${customerId} and verification_status = 'OVERDUE'
           and verification_overdue_at > ${now}::timestamptz`);
    },

    /** Tasks per verification status in the scope: the kept counts per customer, or the user's machines' tasks. */
    async counts(scope: TenantScope): Promise<VerificationCounts> {
      const rows =
        scope.kind === 'customers' && scope.assignedUserId !== null
          ? rowsOf<{ status: VerificationStatus; n: number | string }>(
              await db.execute(sql`
                select t.verification_status as status, count(*) as n
                  from backup_tasks t join backup_machines m on m.id = t.backup_machine_id
                 where ${tenantScopeCondition(scope, sql`t.customer_id`, 'm')} group by 1`),
            )
          : rowsOf<{ status: VerificationStatus; n: number | string }>(
              await db.execute(sql`
                select t.verification_status as status, sum(t.n) as n from task_verification_counts t
                 where ${tenantScopeCondition(scope, sql`t.customer_id`, 'm')} group by 1`),
            );
      const counts = Object.fromEntries(VERIFICATION_STATUSES.map((s) => [s, 0])) as VerificationCounts;
      for (const row of rows) counts[row.status] = Number(row.n);
      return counts;
    },

    /**
     * A page of the scope's tasks, of one status or all, by id (the status index gives them in order); the total comes
     * from `counts`, so no page counts a million rows.
     */
    async taskPage(scope: TenantScope, status: VerificationStatus | undefined, paging: Paging) {
      const where = and(
        tenantScopeCondition(scope, sql`t.customer_id`, 'm'),
        status ? sql`t.verification_status = ${status}` : undefined,
      ) as SQL;
      const from = sql`backup_tasks t join backup_machines m on m.id = t.backup_machine_id
                       join customers c on c.id = t.customer_id`;
      const rows = rowsOf<{
        id: number;
        name: string;
        customer_id: number;
        package_id: number;
        machine_id: number;
        machine_name: string;
        customer_name: string;
        verification_status: VerificationStatus;
        last_restore_test_at: Date | string | null;
        last_restore_test_files: number | null;
        last_full_read_at: Date | string | null;
      }>(
        await db.execute(sql`
          select t.id, t.name, t.customer_id, m.backup_package_id as package_id, m.id as machine_id,
                 m.name as machine_name, c.display_name as customer_name, t.verification_status,
                 t.last_restore_test_at, t.last_restore_test_files, t.last_full_read_at
            from ${from} where ${where}
           order by t.id limit ${paging.size} offset ${paging.page * paging.size}`),
      );
      const date = (value: Date | string | null) => (value === null ? null : new Date(value));
      return {
        rows: rows.map((row) => ({
          id: Number(row.id),
          name: row.name,
          customerId: Number(row.customer_id),
          packageId: Number(row.package_id),
          machineId: Number(row.machine_id),
          machineName: row.machine_name,
          customerName: row.customer_name,
          verificationStatus: row.verification_status,
          lastRestoreTestAt: date(row.last_restore_test_at),
          lastRestoreTestFiles: row.last_restore_test_files,
          lastFullReadAt: date(row.last_full_read_at),
        })),
      };
    },
  };
}
export type VerificationRepo = ReturnType<typeof createVerificationRepo>;
