/**
 * Verification report benchmark (issue 32 item 4: "scale to 1M tasks for the provider CSV"): a fresh database
 * (PostgreSQL with DATABASE_URL, else PGlite) with CUSTOMERS customers, TASKS tasks on TASKS/4 machines, three backup
 * runs and one restore test per task in the period and one data check per machine; then the provider's CSV walked to
 * the end as the route streams it (batches of VERIFICATION_REPORT.csvBatch, one statement each), the roll-up's
 * customer rows, and one customer's CSV and PDF rows. Prints each time; exits 1 when the provider's CSV misses
 * TARGET_S or a batch repeats a task. Rows not all written fail the run, and no figures are printed.
 */
import { VERIFICATION_REPORT, verificationPeriod } from '@portal/domain';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../apps/server/src/db/client.js';
import { createVerificationReportRepo } from '../../apps/server/src/features/verification-report/repo.js';
import { openTestDatabase } from '../../apps/server/src/testing/database.js';
import { Answers } from '../answers.js';

const TASKS = Number(process.env.BENCH_REPORT_TASKS ?? (process.env.DATABASE_URL ? 1_000_000 : 100_000));
const CUSTOMERS = Number(process.env.BENCH_REPORT_CUSTOMERS ?? 10_000);
const MACHINES = Math.max(1, Math.floor(TASKS / 4));
const CHUNK = 50_000;
const TARGET_S = Number(process.env.BENCH_REPORT_TARGET_S ?? 600);

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
const database = await openTestDatabase();
let missed = false;
try {
  const db = database.db;
  const now = new Date();
  const period = verificationPeriod({}, now);
  let at = performance.now();
  await db.execute(sql`
    insert into customers (id, company_name, status)
    select g, 'Customer ' || g, 'ACTIVE' from generate_series(1, ${CUSTOMERS}) g`);
  await db.execute(sql`
    insert into backup_packages (id, customer_id, name, status, package_quota_size_in_bytes, max_backup_size_per_machine_in_mbs)
    select g, g, 'Package ' || g, 'ACTIVE', 1099511627776, 10240 from generate_series(1, ${CUSTOMERS}) g`);
  await db.execute(sql`
    insert into backup_machines (id, customer_id, backup_package_id, name, os_family)
    select g, 1 + g % ${CUSTOMERS}, 1 + g % ${CUSTOMERS}, 'machine-' || g, 'LINUX' from generate_series(1, ${MACHINES}) g`);
  // In slices of CHUNK tasks, each with its history: one statement stays within the pool's statement timeout.
  for (let from = 1; from <= TASKS; from += CHUNK) {
    const to = Math.min(TASKS, from + CHUNK - 1);
    await db.execute(sql`
      insert into backup_tasks (id, backup_machine_id, customer_id, backup_package_id, name, schedule_cron)
      select g, 1 + g % ${MACHINES}, 1 + (1 + g % ${MACHINES}) % ${CUSTOMERS}, 1 + (1 + g % ${MACHINES}) % ${CUSTOMERS},
             'Task ' || g, '0 2 * * *'
        from generate_series(${from}::int, ${to}::int) g`);
    await db.execute(sql`
      insert into task_actions (backup_task_id, backup_machine_id, type, status, time_started, time_finished)
      select t.id, t.backup_machine_id, 'BACKUP_RUN',
             (case when (t.id + k) % 10 = 0 then 'FAILED' else 'FINISHED_SUCCESS' end)::run_status,
             ${now}::timestamptz - (k * 7 + t.id % 5) * interval '1 day',
             ${now}::timestamptz - (k * 7 + t.id % 5) * interval '1 day' + interval '10 minutes'
        from backup_tasks t cross join generate_series(0, 2) k where t.id between ${from} and ${to}`);
    await db.execute(sql`
      insert into restore_tests (backup_task_id, backup_machine_id, test_key, manual, outcome, started_at, finished_at)
      select t.id, t.backup_machine_id, gen_random_uuid(), false, case when t.id % 50 = 0 then 'MISMATCH' else 'PASSED' end,
             ${now}::timestamptz - (t.id % 20) * interval '1 day', ${now}::timestamptz - (t.id % 20) * interval '1 day'
        from backup_tasks t where t.id between ${from} and ${to}`);
  }
  await db.execute(sql`
    insert into repository_data_checks (backup_machine_id, started_at, subset, outcome, duration_ms)
    select m.id, ${now}::timestamptz - (m.id % 25) * interval '1 day', '1/30',
           case when m.id % 100 = 0 then 'FAILED' else 'PASSED' end, 1000
      from backup_machines m`);
  await db.execute(sql`analyze`);
  const answers = new Answers();
  const count = async (table: string) =>
    rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`))[0]?.n;
  for (const [table, expected] of [
    ['backup_tasks', TASKS],
    ['task_actions', 3 * TASKS],
    ['restore_tests', TASKS],
    ['repository_data_checks', MACHINES],
  ] as const) {
    const written = await count(table);
    answers.outcome(`insert into ${table}`, written === expected, `${written} of ${expected} rows written`);
  }
  if (!answers.verdict('Verification report')) process.exit(1);
  console.log(
    `Verification report: ${TASKS.toLocaleString('en')} tasks with 3 runs and a restore test each, a data check per machine, seeded in ${seconds(at)} s (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`,
  );

  const repo = createVerificationReportRepo(db);
  at = performance.now();
  let rows = 0;
  let lastId = 0;
  for await (const row of repo.allTasks({ managed: { kind: 'all' } }, period, VERIFICATION_REPORT.csvBatch)) {
    if (row.id <= lastId) missed = true;
    lastId = row.id;
    rows += 1;
  }
  const csvSeconds = (performance.now() - at) / 1000;
  if (rows !== TASKS || csvSeconds > TARGET_S) missed = true;
  console.log(
    `  provider CSV: ${rows.toLocaleString('en')} task rows in ${csvSeconds.toFixed(1)} s (${Math.ceil(TASKS / VERIFICATION_REPORT.csvBatch)} statements) — ${rows === TASKS && csvSeconds <= TARGET_S ? 'met' : 'MISSED'} (every task, ≤ ${TARGET_S} s)`,
  );
  at = performance.now();
  const customers = await repo.customerRows({ managed: { kind: 'all' } }, period);
  console.log(`  roll-up: ${customers.length.toLocaleString('en')} customer rows in ${seconds(at)} s`);
  at = performance.now();
  let one = 0;
  for await (const _row of repo.allTasks({ customerId: 42 }, period, VERIFICATION_REPORT.csvBatch)) one += 1;
  console.log(`  one customer's CSV: ${one} task rows in ${((performance.now() - at) * 1).toFixed(0)} ms`);
  at = performance.now();
  const first = await repo.firstTasks({ customerId: 42 }, period, VERIFICATION_REPORT.pdfTaskRows);
  const summary = await repo.customerRows({ customerId: 42 }, period);
  console.log(
    `  one customer's PDF rows and totals: ${first.length} rows, ${summary.length} summary in ${(performance.now() - at).toFixed(0)} ms`,
  );
} finally {
  await database.close();
}
if (missed) process.exitCode = 1;
