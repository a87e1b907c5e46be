/**
 * Bulk user import benchmark (issue #6: "an import of 1,000 rows finishes within 30 seconds"): the real
 * app on a fresh database (embedded PGlite, or PostgreSQL with DATABASE_URL), a customer super admin
 * signed in like the login form, and RUNS uploads of a 1,000-row spreadsheet through the import call the
 * web app uses. Prints each run's time and whether every user was saved; exits 1 when a run misses.
 */
import { USER_IMPORT_LIMITS } from '@portal/domain';
import { row, spreadsheet, upload } from '../../apps/server/src/features/users/testing.js';
import { createTestApp } from '../../apps/server/src/testing/app.js';
import { backupFixtures } from '../../apps/server/src/testing/backup-fixtures.js';
import { TestClient } from '../../apps/server/src/testing/client.js';
import { createTenants, FIXTURE_PASSWORD } from '../../apps/server/src/testing/fixtures.js';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 1000);
const RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 3);
const TARGET_SECONDS = 30;

const t = await createTestApp();
let missed = false;
try {
  const tenants = await createTenants(t.database.db);
  await backupFixtures(t.database.db).setSuperAdmin(tenants.customerA.customerId, tenants.customerA.superAdmin.id);
  const client = new TestClient(t.app);
  await client.signIn(tenants.customerA.superAdmin.email, FIXTURE_PASSWORD);
  console.log(
    `Bulk user import: ${ROWS.toLocaleString('en')} rows per file (limit ${USER_IMPORT_LIMITS.maxRows.toLocaleString('en')}), ${RUNS} runs, database ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`,
  );
  for (let run = 1; run <= RUNS; run++) {
    const file = await spreadsheet(Array.from({ length: ROWS }, () => row()));
    const started = performance.now();
    const response = await upload(client, { data: file }, false);
    const seconds = (performance.now() - started) / 1000;
    const result = response.statusCode === 200 ? (response.json().result as { imported: number }) : null;
    const whole = result?.imported === ROWS;
    const met = whole && seconds < TARGET_SECONDS;
    if (!met) missed = true;
    console.log(
      `  run ${run}: ${seconds.toFixed(1)} s, ${(file.length / 1024).toFixed(0)} KB, HTTP ${response.statusCode}, imported ${result?.imported ?? 0} — ${met ? 'met' : 'MISSED'} (< ${TARGET_SECONDS} s, every row saved)`,
    );
  }
} finally {
  await t.close();
}
if (missed) process.exitCode = 1;
