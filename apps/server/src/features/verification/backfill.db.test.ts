import { readFileSync } from 'node:fs';
import { DAY_MS } from '@portal/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  backupTasks,
  repositoryCheckStates,
  repositoryDataChecks,
  restoreTests,
  taskVerificationCounts,
} from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';
import { createBackupStateService } from '../backup-state/service.js';

/**
 * Migration 0037's backfill (issue 32 item 3): run again on tasks whose verification columns are still the defaults,
 * it derives what the services would keep from the restore tests and data checks already stored.
 */
const MIGRATION = new URL('../../../drizzle/0037_verification.sql', import.meta.url);
let t: TestApp;
let tenants: Tenants;

beforeAll(async () => {
  t = await createTestApp();
  tenants = await createTenants(t.database.db);
});
afterAll(async () => {
  await t?.close();
});

/** The migration's statements from its backfill up to the notification settings' update. */
function backfillStatements(): string[] {
  const text = readFileSync(MIGRATION, 'utf8');
  const part = text.slice(text.indexOf('-- Backfill'), text.indexOf('-- Users who get'));
  return part
    .split('--> statement-breakpoint')
    .map((statement) => statement.replace(/^--.*$/gm, '').trim())
    .filter(Boolean);
}

it('backfills the last passing test, a failed last test, the full read and the due mark', async () => {
  const db = t.database.db;
  const fixtures = backupFixtures(db);
  const machineId = await fixtures.machine(await fixtures.package(tenants.customerA.customerId));
  const state = createBackupStateService({ db });
  const passed = (await state.createTask(fixtures.task(machineId, { name: 'Passed' }))) as number;
  const failed = (await state.createTask(fixtures.task(machineId, { name: 'Failed' }))) as number;
  const now = Date.now();
  const ago = (days: number) => new Date(now - days * DAY_MS);
  let key = 0;
  const test = (taskId: number, outcome: 'PASSED' | 'MISMATCH', days: number) =>
    db.insert(restoreTests).values({
      backupTaskId: taskId,
      backupMachineId: machineId,
      testKey: `00000000-0000-4000-8000-${String(++key).padStart(12, '0')}`,
      manual: false,
      outcome,
      startedAt: ago(days),
      finishedAt: ago(days),
      filesTested: 7,
    });
  await test(passed, 'PASSED', 3);
  await test(failed, 'PASSED', 5);
  await test(failed, 'MISMATCH', 2);
  await db.insert(repositoryCheckStates).values({ backupMachineId: machineId, slices: 2, dueAt: ago(0) });
  for (const [subset, days] of [
    ['1/2', 9],
    ['2/2', 4],
  ] as const) {
    await db
      .insert(repositoryDataChecks)
      .values({ backupMachineId: machineId, startedAt: ago(days), subset, outcome: 'PASSED', durationMs: 1 });
  }

  for (const statement of backfillStatements()) await db.execute(sql.raw(statement));

  const rows = await db.select().from(backupTasks).where(eq(backupTasks.backupMachineId, machineId));
  const byName = new Map(rows.map((row) => [row.name, row]));
  expect(byName.get('Passed')).toMatchObject({
    verificationStatus: 'VERIFIED',
    lastRestoreTestAt: ago(3),
    lastRestoreTestFiles: 7,
    restoreTestFailed: false,
    lastFullReadAt: ago(9),
    restoreTestDueAt: new Date(ago(3).getTime() + 30 * DAY_MS),
    // The earlier deadline: the full read's, 30 days' period and 2 days' grace after it.
    verificationOverdueAt: new Date(ago(9).getTime() + 32 * DAY_MS),
  });
  expect(byName.get('Failed')).toMatchObject({ verificationStatus: 'FAILED', restoreTestFailed: true });
  // The counts the triggers keep follow the backfilled statuses.
  const counts = await db
    .select()
    .from(taskVerificationCounts)
    .where(eq(taskVerificationCounts.customerId, tenants.customerA.customerId));
  expect(Object.fromEntries(counts.map((c) => [c.verificationStatus, c.n]))).toMatchObject({ VERIFIED: 1, FAILED: 1 });
});
