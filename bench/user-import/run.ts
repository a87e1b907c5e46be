/**
 * Bulk user import benchmark (issue #6: "an import of 1,000 rows finishes within 30 seconds"): the real
 * app on a fresh database (embedded PGlite, or PostgreSQL with DATABASE_URL), a customer super admin
 * signed in like the login form, and RUNS uploads of a 1,000-row spreadsheet through the import call the
 * web app uses. Prints each run's time; exits 1 when a run misses. An upload answered with anything but 2xx, or a row
 * not saved, fails the run and no times are printed.
 */
import { USER_IMPORT_LIMITS } from '@portal/domain';
import { row, spreadsheet, upload } from '../../apps/server/src/features/users/testing.js';
import { createTestApp } from '../../apps/server/src/testing/app.js';
import { backupFixtures } from '../../apps/server/src/testing/backup-fixtures.js';
import { TestClient } from '../../apps/server/src/testing/client.js';
import { createTenants, FIXTURE_PASSWORD } from '../../apps/server/src/testing/fixtures.js';
import { Answers } from '../answers.js';
import { signInClient } from '../two-factor.js';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 1000);
const RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 3);
const TARGET_SECONDS = 30;

const t = await createTestApp();
const answers = new Answers();
const lines: string[] = [];
let missed = false;
try {
  const tenants = await createTenants(t.database.db);
  await backupFixtures(t.database.db).setSuperAdmin(tenants.customerA.customerId, tenants.customerA.superAdmin.id);
  const client = new TestClient(t.app);
  await signInClient(client, tenants.customerA.superAdmin.email, FIXTURE_PASSWORD);
  console.log(
    `Bulk user import: ${ROWS.toLocaleString('en')} rows per file (limit ${USER_IMPORT_LIMITS.maxRows.toLocaleString('en')}), ${RUNS} runs, database ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`,
  );
  for (let run = 1; run <= RUNS; run++) {
    const file = await spreadsheet(Array.from({ length: ROWS }, () => row()));
    const started = performance.now();
    const response = await upload(client, { data: file }, false);
    const seconds = (performance.now() - started) / 1000;
    const answered = answers.http('POST /admin/account/users/import', response.statusCode, response.body);
    const result = answered ? (response.json().result as { imported: number }) : null;
    const whole = result?.imported === ROWS;
    answers.outcome('import of a row', true, '', result?.imported ?? 0);
    answers.outcome(
      'import of a row',
      false,
      `run ${run}: ${result?.imported ?? 0} of ${ROWS} saved`,
      ROWS - (result?.imported ?? 0),
    );
    const met = whole && seconds < TARGET_SECONDS;
    if (!met) missed = true;
    lines.push(
      `  run ${run}: ${seconds.toFixed(1)} s, ${(file.length / 1024).toFixed(0)} KB, HTTP ${response.statusCode}, imported ${result?.imported ?? 0} — ${met ? 'met' : 'MISSED'} (< ${TARGET_SECONDS} s, every row saved)`,
    );
  }
} finally {
  await t.close();
}
if (answers.verdict('Bulk user import')) {
  for (const line of lines) console.log(line);
  if (missed) process.exitCode = 1;
}
