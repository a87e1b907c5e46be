import type {
  ManagedCustomers,
  VerificationCustomerRow,
  VerificationPeriod,
  VerificationReportCounts,
  VerificationReportTaskRow,
} from '@portal/domain';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.js';
import { customers, users, verificationReportSettings } from '../../db/schema/index.js';

/** Whose tasks a report covers: one customer's, or the customers a provider or reseller manages. */
export type ReportScope = { customerId: number } | { managed: ManagedCustomers };

/** The condition on backup_tasks `t` for a scope (a reseller's: its child customers, through their index). */
function taskScope(scope: ReportScope): SQL {
  if ('customerId' in scope) return sql`t.customer_id = ${scope.customerId}`;
  if (scope.managed.kind === 'all') return sql`true`;
  return sql`t.customer_id in (select c.id from customers c where c.parent_reseller_customer_id = ${scope.managed.resellerCustomerId})`;
}

/**
 * A kind of proof the report counts: its table (aliased), the task or machine it is of, its start column, what makes
 * one passed or failed, and which of the table's rows are proofs.
 */
interface Proof {
  table: SQL;
  of: { task: SQL } | { machine: SQL };
  at: SQL;
  passed: SQL;
  failed: SQL;
  only: SQL;
}

// What counts as what: a run succeeded when restic made its snapshot (with or without warnings); a restore test
// failed on a mismatch too; a data check failed when it found damage or could not run.
const RUN_OK = sql`('FINISHED_SUCCESS', 'FINISHED_WARNINGS')`;
const RUNS: Proof = {
  table: sql`task_actions a`,
  of: { task: sql`a.backup_task_id` },
  at: sql`a.time_started`,
  passed: sql`a.status in ${RUN_OK}`,
  failed: sql`a.status = 'FAILED'`,
  only: sql`a.type = 'BACKUP_RUN'`,
};
/** Restore tests and data checks alike: started at `started_at`, passed on PASSED, failed on the `failed` outcomes. */
const outcomeProof = (table: string, alias: string, of: Proof['of'], failed: SQL): Proof => ({
  table: sql.raw(`${table} ${alias}`),
  of,
  at: sql.raw(`${alias}.started_at`),
  passed: sql.raw(`${alias}.outcome = 'PASSED'`),
  failed: sql`${sql.raw(alias)}.outcome in ${failed}`,
  only: sql`true`,
});
const TESTS = outcomeProof('restore_tests', 'r', { task: sql`r.backup_task_id` }, sql`('MISMATCH', 'FAILED')`);
const CHECKS = outcomeProof(
  'repository_data_checks',
  'd',
  { machine: sql`d.backup_machine_id` },
  sql`('FAILED', 'ERROR')`,
);

/**
 * A CTE's body: the proofs started in the period that passed and that failed, per task (or machine) of the CTE `t`,
 * by their per-task indexes, or per customer (a machine's checks through the CTE `machines`); the key is named `id`.
 */
function periodCounts(proof: Proof, per: 'task' | 'customer', { start, end }: VerificationPeriod): SQL {
  const [owner, ownerOfT, customerJoin] =
    'task' in proof.of
      ? [proof.of.task, sql`id`, sql`t on t.id = ${proof.of.task}`]
      : [proof.of.machine, sql`backup_machine_id`, sql`machines t on t.backup_machine_id = ${proof.of.machine}`];
  const [key, from, where] =
    per === 'task'
      ? [owner, proof.table, sql`${proof.only} and ${owner} in (select ${ownerOfT} from t)`]
      : [sql`t.customer_id`, sql`${proof.table} join ${customerJoin}`, proof.only];
  return sql`select ${key} as id, count(*) filter (where ${proof.passed}) as passed,
                    count(*) filter (where ${proof.failed}) as failed
               from ${from}
              where ${where} and ${proof.at} >= ${start} and ${proof.at} < ${end}
              group by ${key}`;
}

/** The period's counts of the CTEs `runs`, `tests` and `checks`, as the rows name them. */
const COUNT_COLUMNS = sql`coalesce(runs.passed, 0) as runs_ok, coalesce(runs.failed, 0) as runs_failed,
  coalesce(tests.passed, 0) as tests_passed, coalesce(tests.failed, 0) as tests_failed,
  coalesce(checks.passed, 0) as checks_passed, coalesce(checks.failed, 0) as checks_failed`;

interface CountRecord {
  runs_ok: number | string;
  runs_failed: number | string;
  tests_passed: number | string;
  tests_failed: number | string;
  checks_passed: number | string;
  checks_failed: number | string;
}

const countsOf = (r: CountRecord): VerificationReportCounts => ({
  runsSucceeded: Number(r.runs_ok),
  runsFailed: Number(r.runs_failed),
  restoreTestsPassed: Number(r.tests_passed),
  restoreTestsFailed: Number(r.tests_failed),
  dataChecksPassed: Number(r.checks_passed),
  dataChecksFailed: Number(r.checks_failed),
});

interface TaskRecord extends CountRecord {
  id: number;
  customer_id: number;
  customer_name: string;
  machine_name: string;
  task_name: string;
  last_backup: string | Date | null;
  last_test: string | Date | null;
  last_test_outcome: string | null;
  last_check: string | Date | null;
  last_check_outcome: string | null;
}

const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

function presentTask(r: TaskRecord): VerificationReportTaskRow {
  return {
    customerId: r.customer_id,
    customerName: r.customer_name,
    machineName: r.machine_name,
    taskName: r.task_name,
    lastSuccessfulBackupAt: iso(r.last_backup),
    lastRestoreTestAt: iso(r.last_test),
    lastRestoreTestOutcome: r.last_test_outcome,
    lastDataCheckAt: iso(r.last_check),
    lastDataCheckOutcome: r.last_check_outcome,
    ...countsOf(r),
  };
}

/**
 * The report's queries (issue 32 item 4). Every one is set-based: a batch of tasks is one statement whatever its
 * size (each task's latest run, test and check by the per-task indexes, the period's counts grouped), and the
 * roll-up is one grouped statement over the scope; nothing is asked once per task.
 */
export function createVerificationReportRepo(db: Executor) {
  /** Tasks of the scope after `afterId` (by id), at most `limit`, with what the report says of each. */
  async function taskBatch(
    scope: ReportScope,
    period: VerificationPeriod,
    page: { afterId: number; limit: number } | { byName: true; limit: number },
  ): Promise<Array<VerificationReportTaskRow & { id: number }>> {
    const { end } = period;
    const keyset = 'afterId' in page ? sql`and t.id > ${page.afterId}` : sql``;
    const order = 'afterId' in page ? sql`t.id` : sql`lower(m.name), lower(t.name), t.id`;
    const outerOrder = 'afterId' in page ? sql`t.id` : sql`lower(t.machine_name), lower(t.name), t.id`;
    const result = await db.execute(sql`
      with t as (
        select t.id, t.customer_id, t.backup_machine_id, t.name, m.name as machine_name
          from backup_tasks t join backup_machines m on m.id = t.backup_machine_id
         where ${taskScope(scope)} and t.status <> 'BEING_DELETED' ${keyset}
         order by ${order} limit ${page.limit}
      ),
      runs as (${periodCounts(RUNS, 'task', period)}),
      tests as (${periodCounts(TESTS, 'task', period)}),
      checks as (${periodCounts(CHECKS, 'task', period)})
      select t.id, t.customer_id, c.company_name as customer_name, t.machine_name, t.name as task_name,
             lb.at as last_backup, lr.at as last_test, lr.outcome as last_test_outcome,
             ld.at as last_check, ld.outcome as last_check_outcome, ${COUNT_COLUMNS}
        from t
        join customers c on c.id = t.customer_id
        left join lateral (
          select coalesce(a.time_finished, a.time_started) as at from task_actions a
           where a.backup_task_id = t.id and a.type = 'BACKUP_RUN' and a.status in ${RUN_OK} and a.time_started < ${end}
           order by a.time_started desc nulls first, a.id desc nulls first limit 1) lb on true
        left join lateral (
          select r.started_at as at, r.outcome from restore_tests r
           where r.backup_task_id = t.id and r.outcome <> 'RUNNING' and r.started_at < ${end}
           order by r.started_at desc, r.id desc limit 1) lr on true
        left join lateral (
          select d.started_at as at, d.outcome from repository_data_checks d
           where d.backup_machine_id = t.backup_machine_id and d.started_at < ${end}
           order by d.started_at desc, d.id desc limit 1) ld on true
        left join runs on runs.id = t.id
        left join tests on tests.id = t.id
        left join checks on checks.id = t.backup_machine_id
       order by ${outerOrder}`);
    return rowsOf<TaskRecord>(result).map((r) => ({ id: r.id, ...presentTask(r) }));
  }

  return {
    /** The first `limit` tasks by machine and task name (the PDF's table). */
    firstTasks: (scope: ReportScope, period: VerificationPeriod, limit: number) =>
      taskBatch(scope, period, { byName: true, limit }),

    /** Every task of the scope, in batches of `batch` walked by id: what the CSV streams. */
    async *allTasks(scope: ReportScope, period: VerificationPeriod, batch: number) {
      let afterId = 0;
      for (;;) {
        const rows = await taskBatch(scope, period, { afterId, limit: batch });
        for (const row of rows) yield row;
        const last = rows.at(-1);
        if (!last || rows.length < batch) return;
        afterId = last.id;
      }
    },

    /**
     * A row per customer of the scope that has tasks: its task count, the tasks whose last restore test and last
     * data check (up to the period's end) both passed, and the period's counts; one grouped statement.
     */
    async customerRows(scope: ReportScope, period: VerificationPeriod): Promise<VerificationCustomerRow[]> {
      const { end } = period;
      const result = await db.execute(sql`
        with t as (
          select t.id, t.customer_id, t.backup_machine_id from backup_tasks t
           where ${taskScope(scope)} and t.status <> 'BEING_DELETED'
        ),
        last_test as (
          select distinct on (r.backup_task_id) r.backup_task_id as id, r.outcome from restore_tests r
           where r.backup_task_id in (select id from t) and r.outcome <> 'RUNNING' and r.started_at < ${end}
           order by r.backup_task_id, r.started_at desc, r.id desc
        ),
        last_check as (
          select distinct on (d.backup_machine_id) d.backup_machine_id as id, d.outcome from repository_data_checks d
           where d.backup_machine_id in (select backup_machine_id from t) and d.started_at < ${end}
           order by d.backup_machine_id, d.started_at desc, d.id desc
        ),
        runs as (${periodCounts(RUNS, 'customer', period)}),
        tests as (${periodCounts(TESTS, 'customer', period)}),
        machines as (select distinct t.customer_id, t.backup_machine_id from t),
        checks as (${periodCounts(CHECKS, 'customer', period)}),
        per_customer as (
          select t.customer_id, count(*) as tasks,
                 count(*) filter (where lt.outcome = 'PASSED' and lc.outcome = 'PASSED') as verified
            from t left join last_test lt on lt.id = t.id left join last_check lc on lc.id = t.backup_machine_id
           group by t.customer_id
        )
        select p.customer_id, c.company_name as customer_name, p.tasks, p.verified, ${COUNT_COLUMNS}
          from per_customer p
          join customers c on c.id = p.customer_id
          left join runs on runs.id = p.customer_id
          left join tests on tests.id = p.customer_id
          left join checks on checks.id = p.customer_id
         order by lower(c.company_name), p.customer_id`);
      return rowsOf<
        CountRecord & { customer_id: number; customer_name: string; tasks: number | string; verified: number | string }
      >(result).map((r) => ({
        customerId: r.customer_id,
        customerName: r.customer_name,
        tasks: Number(r.tasks),
        tasksVerified: Number(r.verified),
        ...countsOf(r),
      }));
    },

    /** A customer's name, when the scope reaches it (a reseller only its child customers); null otherwise. */
    async customerIn(customerId: number, managed: ManagedCustomers): Promise<{ id: number; name: string } | null> {
      const [row] = await db
        .select({ id: customers.id, name: customers.companyName })
        .from(customers)
        .where(
          and(
            eq(customers.id, customerId),
            managed.kind === 'all' ? undefined : eq(customers.parentResellerCustomerId, managed.resellerCustomerId),
          ),
        );
      return row ?? null;
    },

    async monthlyMail(customerId: number): Promise<boolean> {
      const [row] = await db
        .select({ monthlyMail: verificationReportSettings.monthlyMail })
        .from(verificationReportSettings)
        .where(eq(verificationReportSettings.customerId, customerId));
      return row?.monthlyMail ?? false;
    },

    async saveMonthlyMail(customerId: number, monthlyMail: boolean): Promise<void> {
      await db
        .insert(verificationReportSettings)
        .values({ customerId, monthlyMail })
        .onConflictDoUpdate({ target: verificationReportSettings.customerId, set: { monthlyMail } });
    },

    /**
     * Claims up to `limit` opted-in customers not yet mailed for `month`, marking them mailed in the same statement
     * (SKIP LOCKED: several instances never claim one twice). The caller queues the mails in the same transaction.
     */
    async claimMonthly(month: string, limit: number): Promise<number[]> {
      const result = await db.execute(sql`
        update verification_report_settings s set last_mailed_month = ${month}
         where s.customer_id in (
           select customer_id from verification_report_settings
            where monthly_mail and (last_mailed_month is null or last_mailed_month < ${month})
            order by customer_id limit ${limit} for update skip locked)
        returning s.customer_id`);
      return rowsOf<{ customer_id: number }>(result).map((r) => r.customer_id);
    },

    /** The customer's active super admins, who get the monthly mail. */
    superAdmins: (customerId: number) =>
      db
        .select({ userId: users.id, email: users.email })
        .from(users)
        .where(
          and(
            eq(users.customerId, customerId),
            eq(users.role, 'ROLE_CUSTOMER_SUPER_ADMIN_USER'),
            eq(users.status, 'ACTIVE'),
          ),
        ),
  };
}
export type VerificationReportRepo = ReturnType<typeof createVerificationReportRepo>;

/** The sum of the rows' counts. */
export function totalsOf(rows: readonly VerificationReportCounts[]): VerificationReportCounts {
  const sum: VerificationReportCounts = {
    runsSucceeded: 0,
    runsFailed: 0,
    restoreTestsPassed: 0,
    restoreTestsFailed: 0,
    dataChecksPassed: 0,
    dataChecksFailed: 0,
  };
  for (const row of rows)
    for (const key of Object.keys(sum) as Array<keyof VerificationReportCounts>) sum[key] += row[key];
  return sum;
}
