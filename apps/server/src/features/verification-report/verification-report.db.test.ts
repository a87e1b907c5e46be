import { ROUTES, VERIFICATION_CSV_HEADER } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, repositoryDataChecks, restoreTests, taskActions } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import type { TestClient } from '../../testing/client.js';
import { signedInClients } from '../../testing/envelope.js';
import { createTenants, fixtureEmails, type Tenants } from '../../testing/fixtures.js';
import { FIXTURE_RESELLER_BRAND } from '../../testing/mail.js';
import { pdfFacts } from '../../testing/pdf.js';
import { createBackupStateService } from '../backup-state/service.js';
import { createVerificationReportRepo } from './repo.js';
import { createVerificationReportService } from './service.js';

/**
 * The verification report (issue 32 item 4) through app.inject on a seeded history: the CSV's rows and counts, the
 * PDF as a one-page document naming the customer, the reseller's and the provider's roll-ups, another tenant
 * refused (404), roles without the right refused (403), and the monthly mail once at the SMTP peer in the brand.
 */
let t: TestApp;
let tenants: Tenants;
let c: Record<keyof ReturnType<typeof fixtureEmails>, TestClient>;
const db = () => t.database.db;
const PERIOD = { from: '2026-11-01', to: '2026-11-30' };
const q = `?from=${PERIOD.from}&to=${PERIOD.to}`;
const at = (day: string) => new Date(`${day}T10:00:00Z`);

async function seedTask(customerId: number, machineName: string, taskName: string) {
  const fixtures = backupFixtures(db());
  const machineId = await fixtures.machine(await fixtures.package(customerId), { name: machineName });
  const taskId = (await createBackupStateService({ db: db() }).createTask(
    fixtures.task(machineId, { name: taskName }),
  )) as number;
  return { machineId, taskId };
}

async function run(task: { machineId: number; taskId: number }, day: string, status: 'FINISHED_SUCCESS' | 'FAILED') {
  await db()
    .insert(taskActions)
    .values({
      backupTaskId: task.taskId,
      backupMachineId: task.machineId,
      type: 'BACKUP_RUN',
      status,
      timeStarted: at(day),
      timeFinished: new Date(at(day).getTime() + 60_000),
    });
}

async function restoreTest(task: { machineId: number; taskId: number }, day: string, outcome: 'PASSED' | 'MISMATCH') {
  await db()
    .insert(restoreTests)
    .values({
      backupTaskId: task.taskId,
      backupMachineId: task.machineId,
      testKey: crypto.randomUUID(),
      manual: false,
      outcome,
      startedAt: at(day),
      finishedAt: at(day),
    });
}

async function dataCheck(machineId: number, day: string, outcome: 'PASSED' | 'FAILED') {
  await db()
    .insert(repositoryDataChecks)
    .values({ backupMachineId: machineId, startedAt: at(day), subset: '1/30', outcome, durationMs: 1000 });
}

/** The CSV's lines, each split into cells (the fixtures' names have no commas or quotes). */
const csvRows = (body: string) =>
  body
    .trimEnd()
    .split('\r\n')
    .map((line) => line.split(','));

let alphaLaptop: { machineId: number; taskId: number };

beforeAll(async () => {
  t = await createTestApp();
  tenants = await createTenants(db());
  c = await signedInClients(t.app, fixtureEmails(tenants));
  // Alpha (the reseller's customer): two tasks on one machine, a history inside and outside the period.
  alphaLaptop = await seedTask(tenants.customerA.customerId, 'alpha-laptop', 'Documents');
  const photos = {
    machineId: alphaLaptop.machineId,
    taskId: (await createBackupStateService({ db: db() }).createTask(
      backupFixtures(db()).task(alphaLaptop.machineId, { name: 'Photos' }),
    )) as number,
  };
  await run(alphaLaptop, '2026-10-20', 'FINISHED_SUCCESS'); // before the period: no count, still a last success
  await run(alphaLaptop, '2026-11-02', 'FINISHED_SUCCESS');
  await run(alphaLaptop, '2026-11-03', 'FINISHED_SUCCESS');
  await run(alphaLaptop, '2026-11-04', 'FAILED');
  await run(alphaLaptop, '2026-12-02', 'FINISHED_SUCCESS'); // after the period: neither
  await restoreTest(alphaLaptop, '2026-11-05', 'PASSED');
  await restoreTest(alphaLaptop, '2026-11-06', 'MISMATCH');
  await restoreTest(alphaLaptop, '2026-11-07', 'PASSED');
  await dataCheck(alphaLaptop.machineId, '2026-11-08', 'FAILED');
  await dataCheck(alphaLaptop.machineId, '2026-11-09', 'PASSED');
  await run(photos, '2026-11-10', 'FAILED');
  // Beta (a direct customer of the provider): one task, one run.
  const beta = await seedTask(tenants.customerB.customerId, 'beta-server', 'Database');
  await run(beta, '2026-11-11', 'FINISHED_SUCCESS');
});
afterAll(async () => {
  await t?.close();
});

describe('the verification report (issue 32 item 4)', () => {
  it("gives a customer's super admin every task with its last results and the period's counts, as CSV", async () => {
    const response = await c.superA.request({ method: 'GET', url: `${ROUTES.verificationReport.ownCsv.path}${q}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toContain(
      'filename="verification-report-alpha-ltd-2026-11-01-to-2026-11-30.csv"',
    );
    const [header, ...rows] = csvRows(response.body);
    expect(header).toEqual([...VERIFICATION_CSV_HEADER]);
    expect(rows).toEqual([
      [
        'Alpha Ltd',
        'alpha-laptop',
        'Documents',
        '2026-11-03T10:01:00.000Z',
        '2026-11-07T10:00:00.000Z',
        'PASSED',
        '2026-11-09T10:00:00.000Z',
        'PASSED',
        '2',
        '1',
        '2',
        '1',
        '1',
        '1',
      ],
      [
        'Alpha Ltd',
        'alpha-laptop',
        'Photos',
        '',
        '',
        '',
        '2026-11-09T10:00:00.000Z',
        'PASSED',
        '0',
        '1',
        '0',
        '0',
        '1',
        '1',
      ],
    ]);
  });

  it('defaults to the last 30 days and refuses a period that ends before it starts', async () => {
    const defaulted = await c.superA.request({ method: 'GET', url: ROUTES.verificationReport.ownCsv.path });
    expect(defaulted.statusCode).toBe(200);
    const today = t.clock.now.toISOString().slice(0, 10);
    expect(defaulted.headers['content-disposition']).toContain(`-to-${today}.csv`);
    const backwards = await c.superA.request({
      method: 'GET',
      url: `${ROUTES.verificationReport.ownCsv.path}?from=2026-11-30&to=2026-11-01`,
      headers: { accept: 'application/json' },
    });
    expect(backwards.statusCode).toBe(400);
  });

  it('makes a one-page PDF that names the customer and lists its tasks', async () => {
    const response = await c.superA.request({ method: 'GET', url: `${ROUTES.verificationReport.ownPdf.path}${q}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toContain('.pdf"');
    const bytes = response.rawPayload;
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const { pages, text } = pdfFacts(bytes);
    expect(pages).toBe(1);
    expect(text).toContain('Alpha Ltd');
    expect(text).toContain('Documents');
    expect(text).toContain('Period: 2026-11-01 to 2026-11-30');
  });

  it('keeps a customer with many tasks to one page and says the CSV has the rest', async () => {
    const many = await seedTask(tenants.customerB.customerId, 'beta-many', 'Task 00');
    const backupState = createBackupStateService({ db: db() });
    for (let i = 1; i < 40; i++) {
      await backupState.createTask(
        backupFixtures(db()).task(many.machineId, { name: `Task ${String(i).padStart(2, '0')}` }),
      );
    }
    const response = await c.superB.request({ method: 'GET', url: `${ROUTES.verificationReport.ownPdf.path}${q}` });
    const { pages, text } = pdfFacts(response.rawPayload);
    expect(pages).toBe(1);
    expect(text).toContain('of 41 tasks are listed; the CSV of the same period lists every task.');
    const csv = await c.superB.request({ method: 'GET', url: `${ROUTES.verificationReport.ownCsv.path}${q}` });
    expect(csvRows(csv.body)).toHaveLength(42);
  });

  it('gives the reseller a roll-up over its customers only, and the provider one over all', async () => {
    const reseller = await c.reseller.request({
      method: 'GET',
      url: `${ROUTES.verificationReport.rollupCsv.path}${q}`,
    });
    expect(reseller.statusCode).toBe(200);
    const resellerRows = csvRows(reseller.body).slice(1);
    expect(new Set(resellerRows.map((r) => r[0]))).toEqual(new Set(['Alpha Ltd']));
    expect(resellerRows).toHaveLength(2);

    const provider = await c.provider.request({
      method: 'GET',
      url: `${ROUTES.verificationReport.rollupCsv.path}${q}`,
    });
    const providerRows = csvRows(provider.body).slice(1);
    expect(new Set(providerRows.map((r) => r[0]))).toEqual(new Set(['Alpha Ltd', 'Beta Inc']));
    expect(providerRows).toHaveLength(2 + 1 + 40);

    const pdf = await c.provider.request({ method: 'GET', url: `${ROUTES.verificationReport.rollupPdf.path}${q}` });
    const { pages, text } = pdfFacts(pdf.rawPayload);
    expect(pages).toBe(1);
    expect(text).toContain('Alpha Ltd');
    expect(text).toContain('Beta Inc');

    const rows = await createVerificationReportRepo(db()).customerRows(
      { managed: { kind: 'all' } },
      { ...PERIOD, start: new Date('2026-11-01T00:00:00Z'), end: new Date('2026-12-01T00:00:00Z') },
    );
    expect(rows.find((r) => r.customerName === 'Alpha Ltd')).toMatchObject({
      tasks: 2,
      tasksVerified: 1,
      runsSucceeded: 2,
      runsFailed: 2,
      restoreTestsPassed: 2,
      restoreTestsFailed: 1,
      dataChecksPassed: 1,
      dataChecksFailed: 1,
    });
  });

  it("lets the provider and the reseller download a customer's report, and nobody another tenant's (404)", async () => {
    const alpha = ROUTES.verificationReport.customerCsv.build({ customerId: tenants.customerA.customerId });
    const beta = ROUTES.verificationReport.customerPdf.build({ customerId: tenants.customerB.customerId });
    expect((await c.provider.request({ method: 'GET', url: `${alpha}${q}` })).statusCode).toBe(200);
    const byReseller = await c.reseller.request({ method: 'GET', url: `${alpha}${q}` });
    expect(byReseller.statusCode).toBe(200);
    expect(csvRows(byReseller.body)).toHaveLength(3);
    // Beta is not the reseller's customer: as if it did not exist.
    const refused = await c.reseller.request({
      method: 'GET',
      url: `${beta}${q}`,
      headers: { accept: 'application/json' },
    });
    expect(refused.statusCode).toBe(404);
  });

  it('refuses roles without the right (403)', async () => {
    const json = { accept: 'application/json' };
    const own = `${ROUTES.verificationReport.ownCsv.path}${q}`;
    const rollup = `${ROUTES.verificationReport.rollupPdf.path}${q}`;
    const customer = ROUTES.verificationReport.customerCsv.build({ customerId: tenants.customerA.customerId });
    for (const client of [c.adminA, c.userA]) {
      expect((await client.request({ method: 'GET', url: own, headers: json })).statusCode).toBe(403);
    }
    expect((await c.provider.request({ method: 'GET', url: own, headers: json })).statusCode).toBe(403);
    for (const client of [c.superA, c.superB, c.userA]) {
      expect((await client.request({ method: 'GET', url: rollup, headers: json })).statusCode).toBe(403);
      expect((await client.request({ method: 'GET', url: customer, headers: json })).statusCode).toBe(403);
    }
    const save = await c.adminA.json('PUT', ROUTES.verificationReport.saveSettings.path, { monthlyMail: true });
    expect(save.statusCode).toBe(403);
  });

  it("mails an opted-in customer's super admins once a month, in the customer's brand", async () => {
    const saved = await c.superA.json('PUT', ROUTES.verificationReport.saveSettings.path, { monthlyMail: true });
    expect(saved.statusCode).toBe(200);
    const read = await c.superA.json('GET', ROUTES.verificationReport.settings.path);
    expect(JSON.parse(read.body).result).toEqual({ monthlyMail: true });

    const clock = { now: new Date('2026-12-01T06:00:00Z') };
    const service = () =>
      createVerificationReportService({ db: db(), repo: createVerificationReportRepo(db()), now: () => clock.now });
    const after = t.lastMailId();
    // Two instances' passes at once, and one more later in the month: one mail.
    const passes = await Promise.all([service().monthlyPass(), service().monthlyPass()]);
    expect(passes.reduce((a, b) => a + b, 0)).toBe(1);
    clock.now = new Date('2026-12-20T06:00:00Z');
    expect(await service().monthlyPass()).toBe(0);
    await t.app.mailDelivery.runOnce();
    await t.app.mailDelivery.runOnce();

    const mail = await t.waitForMail(tenants.customerA.superAdmin.email, after);
    expect(mail.subject).toBe('Verification report for 2026-11');
    expect(mail.text).toContain('Backup runs: 2 succeeded, 2 failed.');
    expect(mail.text).toContain(FIXTURE_RESELLER_BRAND.name);
    expect(mail.text).toContain('/admin/account/verificationreport?from=2026-11-01&to=2026-11-30');
    const toAlpha = t.mails.list().filter((m) => m.to.includes(tenants.customerA.superAdmin.email) && m.id > after);
    expect(toAlpha).toHaveLength(1);
    // Beta did not opt in.
    const queued = await db().select().from(mailOutbox).where(eq(mailOutbox.kind, 'VERIFICATION_REPORT'));
    expect(queued.map((m) => m.recipient)).toEqual([tenants.customerA.superAdmin.email]);
    // Next month: one more.
    clock.now = new Date('2027-01-01T06:00:00Z');
    expect(await service().monthlyPass()).toBe(1);
  });
});
