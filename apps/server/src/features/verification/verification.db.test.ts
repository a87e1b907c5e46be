import {
  type AttentionList,
  DAY_MS,
  type DashboardTaskRow,
  type Paged,
  ROUTES,
  type ServerToAgent,
  type TaskDetail,
  VERIFICATION,
  type VerificationCountsView,
  type VerificationTaskRow,
} from '@portal/domain';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupTasks, mailOutbox, repositoryCheckStates, repositoryDataChecks } from '../../db/schema/index.js';
import { restoreTestFinished } from '../../testing/agent-events.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { giveResellerSmtp, mailParts } from '../../testing/mail.js';
import { startTestSmtpServer, type TestSmtpServer, testSmtpCertificate } from '../../testing/smtp.js';
import { createBackupStateService } from '../backup-state/service.js';
import { connectTestAgent, eventually, listenOnLoopback } from '../live/testing.js';
import { createMachineCredentials } from '../machine-auth/credentials.js';
import { createNotificationEvents } from '../notifications/service.js';
import { createVerificationService } from './service.js';

/**
 * 'Last verified' (issue 32 item 3) through the running app: a restore test's result and the data checks are kept on
 * the task, shown on its rows and page, counted and filtered on the dashboard, turned overdue by the clock, listed in
 * 'Needs attention' and mailed once per occurrence through the outbox to a real SMTP server; other tenants see none.
 */
const LOGIN = { user: 'verify@reseller.test', password: 'verify smtp secret' };
const SNAPSHOT = 'd'.repeat(64);
let t: TestApp;
let tenants: Tenants;
let smtp: TestSmtpServer;
let agent: Awaited<ReturnType<typeof connectTestAgent>>;
let machineId = 0;
let taskId = 0;
const db = () => t.database.db;

async function signedIn(email: string) {
  const client = new TestClient(t.app);
  await client.signIn(email, FIXTURE_PASSWORD);
  return client;
}

/** 'Test restore now' as the customer's admin; the test agent takes it and reports `outcome`. */
async function restoreTest(outcome: 'PASSED' | 'MISMATCH') {
  const admin = await signedIn(tenants.customerA.admin.email);
  const seen = agent.commands().length;
  const started = admin.json('POST', ROUTES.restoreTests.start.build({ machineId, taskId }));
  let command: Extract<ServerToAgent, { type: 'restoreTest' }> | undefined;
  await eventually(() => {
    const found = agent
      .commands()
      .slice(seen)
      .find((c) => c.type === 'restoreTest');
    command = found?.type === 'restoreTest' ? found : undefined;
    return command !== undefined;
  });
  if (!command) throw new Error('no restore test sent');
  await agent.send({ type: 'reply', requestId: command.requestId, success: true, messages: [] });
  expect((await started).statusCode).toBe(200);
  await agent.send(restoreTestFinished(command.testKey, outcome, SNAPSHOT));
}

const taskDetail = async (client: TestClient) => {
  const response = await client.json('GET', ROUTES.tasks.customer.detail.build({ machineId, taskId }));
  expect(response.statusCode).toBe(200);
  return response.json().result as TaskDetail;
};
const counts = async (client: TestClient) =>
  (await client.json('GET', ROUTES.dashboard.verificationCounts.build())).json().result as VerificationCountsView;
const listed = async (client: TestClient, status?: string) =>
  (await client.json('GET', `${ROUTES.dashboard.verificationTasks.build()}${status ? `?status=${status}` : ''}`)).json()
    .result as Paged<VerificationTaskRow>;
const attention = async (client: TestClient) =>
  (await client.json('GET', ROUTES.dashboard.attention.build())).json().result as AttentionList;

async function deliverAll() {
  await t.app.mailDelivery.runOnce();
  await t.app.mailDelivery.runOnce();
}

beforeAll(async () => {
  smtp = await startTestSmtpServer({ users: { [LOGIN.user]: LOGIN.password } });
  t = await createTestApp({ SMTP_CA_FILE: testSmtpCertificate().file, ALLOW_PRIVATE_ENDPOINTS: 'true' });
  tenants = await createTenants(db());
  const base = await listenOnLoopback(t.app);
  await giveResellerSmtp(t, tenants.reseller.customerId, smtp, {
    login: LOGIN,
    brandName: 'Verify Reseller Backup',
    from: 'verify@reseller.test',
  });
  const fixtures = backupFixtures(db());
  machineId = await fixtures.machine(await fixtures.package(tenants.customerA.customerId), { name: 'verify-laptop' });
  taskId = (await createBackupStateService({ db: db() }).createTask(
    fixtures.task(machineId, { name: 'Verified documents' }),
  )) as number;
  await fixtures.backupRun({ taskId, machineId }, SNAPSHOT);
  const issued = await createMachineCredentials(db()).issue(machineId);
  if (!issued) throw new Error('no credential');
  agent = await connectTestAgent(t.app, base, issued);
});

afterAll(async () => {
  await agent?.client.stop();
  await t?.close();
  await smtp?.close();
});

describe('Last verified', () => {
  it('is never before any proof, for every view of the task', async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    expect((await taskDetail(admin)).verification).toEqual({
      status: 'NEVER',
      lastRestoreTestAt: null,
      lastRestoreTestFiles: null,
      lastFullReadAt: null,
    });
    expect(await counts(admin)).toMatchObject({ NEVER: 1, VERIFIED: 0, attention: 0 });
  });

  it('is verified after a passing restore test: the task page, the machine page, the badge and the filter', async () => {
    await restoreTest('PASSED');
    const admin = await signedIn(tenants.customerA.admin.email);
    await eventually(async () => (await taskDetail(admin)).verification.status === 'VERIFIED');
    const { verification } = await taskDetail(admin);
    expect(verification).toMatchObject({ lastRestoreTestFiles: 12, lastFullReadAt: null });
    expect(Date.parse(verification.lastRestoreTestAt ?? '')).toBe(t.clock.now.getTime());
    // The machine page's tasks table carries it too.
    const rows = (await admin.json('GET', ROUTES.dashboard.machineTasks.build({ machineId }))).json().result
      .elements as DashboardTaskRow[];
    expect(rows.find((row) => row.id === taskId)?.verification.status).toBe('VERIFIED');
    expect(await counts(admin)).toMatchObject({ VERIFIED: 1, NEVER: 0 });
    expect((await listed(admin, 'VERIFIED')).elements).toMatchObject([
      { taskId, taskName: 'Verified documents', machineName: 'verify-laptop', verification: { status: 'VERIFIED' } },
    ]);
    expect((await listed(admin, 'FAILED')).totalElements).toBe(0);
    // The provider and the reseller see it with their own links; another tenant sees nothing.
    const provider = await signedIn(tenants.providerAdmin.email);
    const [row] = (await listed(provider, 'VERIFIED')).elements;
    expect(row?.backupTaskUrl).toContain('/boltadmin/');
    const reseller = await signedIn(tenants.reseller.superAdmin.email);
    expect((await listed(reseller, 'VERIFIED')).elements[0]?.backupTaskUrl).toContain('/admin/mycustomers/');
    const other = await signedIn(tenants.customerB.admin.email);
    expect(await counts(other)).toMatchObject({ VERIFIED: 0, NEVER: 0, FAILED: 0, OVERDUE: 0 });
    expect((await listed(other)).elements).toEqual([]);
    expect((await other.json('GET', ROUTES.tasks.customer.detail.build({ machineId, taskId }))).statusCode).toBe(404);
    // A customer user sees only the tasks of machines assigned to them.
    expect(await counts(await signedIn(tenants.customerA.user.email))).toMatchObject({ VERIFIED: 0 });
  });

  it('turns overdue by the clock, appears in Needs attention and is mailed once', async () => {
    const interval = t.config.restoreTests.intervalDays + VERIFICATION.graceDays;
    t.clock.advanceMinutes(interval * 24 * 60 - 1);
    expect(await t.app.verification.runOnce()).toBe(0);
    t.clock.advanceMinutes(2);
    expect(await t.app.verification.runOnce()).toBe(1);
    expect(await t.app.verification.runOnce()).toBe(0);
    const admin = await signedIn(tenants.customerA.admin.email);
    expect((await taskDetail(admin)).verification.status).toBe('OVERDUE');
    expect(await counts(admin)).toMatchObject({ OVERDUE: 1, attention: 1 });
    const list = await attention(admin);
    expect(list.counts.VERIFICATION_OVERDUE).toBe(1);
    expect(list.items).toContainEqual(
      expect.objectContaining({ kind: 'VERIFICATION_OVERDUE', taskName: 'Verified documents' }),
    );
    expect((await attention(await signedIn(tenants.customerB.admin.email))).counts.VERIFICATION_OVERDUE).toBe(0);

    await deliverAll();
    const received = await smtp.waitFor((m) => m.to.includes(tenants.customerA.superAdmin.email));
    const { parsed, html } = await mailParts(received.raw);
    expect(parsed.subject).toBe('Backup verification overdue: Verified documents on verify-laptop');
    expect(html).toContain('Verify Reseller Backup');
    expect(smtp.mails()).toHaveLength(1);
    // Only the super admin has the alert by default; the admin has not.
    expect(smtp.mails().some((m) => m.to.includes(tenants.customerA.admin.email))).toBe(false);
  });

  it('fails after a mismatching restore test, and a passing one later verifies it again', async () => {
    smtp.clear();
    await restoreTest('MISMATCH');
    const admin = await signedIn(tenants.customerA.admin.email);
    await eventually(async () => (await taskDetail(admin)).verification.status === 'FAILED');
    expect((await attention(admin)).counts).toMatchObject({ VERIFICATION_FAILED: 1, VERIFICATION_OVERDUE: 0 });
    await deliverAll();
    const received = await smtp.waitFor((m) => m.to.includes(tenants.customerA.superAdmin.email));
    expect((await mailParts(received.raw)).parsed.subject).toBe(
      'Backup verification failed: Verified documents on verify-laptop',
    );
    const keys = await db().select().from(mailOutbox).where(like(mailOutbox.eventKey, 'verification-failed:%'));
    expect(keys).toHaveLength(1);

    await restoreTest('PASSED');
    await eventually(async () => (await taskDetail(admin)).verification.status === 'VERIFIED');
    expect((await attention(admin)).counts.VERIFICATION_FAILED).toBe(0);
  });

  it('counts a full read once every part of the rotation passed; damage fails the task', async () => {
    const verification = createVerificationService({
      db: db(),
      alert: createNotificationEvents({ db: db() }).verificationAlert,
      defaults: { restoreTestIntervalDays: 30, dataCheckPeriodDays: 30 },
      now: () => t.clock.now,
    });
    const at = (daysAgo: number) => new Date(t.clock.now.getTime() - daysAgo * DAY_MS);
    await db()
      .insert(repositoryCheckStates)
      .values({ backupMachineId: machineId, nextSlice: 1, slices: 2, dueAt: t.clock.now });
    const check = (subset: string, outcome: 'PASSED' | 'FAILED' | 'ERROR', daysAgo: number) =>
      db()
        .insert(repositoryDataChecks)
        .values({ backupMachineId: machineId, startedAt: at(daysAgo), subset, outcome, durationMs: 1 });
    await check('1/2', 'PASSED', 20);
    await verification.dataCheckEnded(machineId);
    const admin = await signedIn(tenants.customerA.admin.email);
    expect((await taskDetail(admin)).verification.lastFullReadAt).toBeNull();
    // The other part could not run once, then passed: every pack stored 20 days ago has been read since.
    await check('2/2', 'ERROR', 12);
    await check('2/2', 'PASSED', 10);
    await verification.dataCheckEnded(machineId);
    expect((await taskDetail(admin)).verification.lastFullReadAt).toBe(at(20).toISOString());

    await check('1/2', 'FAILED', 1);
    await verification.dataCheckEnded(machineId);
    expect((await taskDetail(admin)).verification.status).toBe('FAILED');
    const [row] = await db()
      .select({ damaged: backupTasks.dataCheckDamaged })
      .from(backupTasks)
      .where(eq(backupTasks.id, taskId));
    expect(row?.damaged).toBe(true);
  });

  it('is an alert only the super admin sets, per user', async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    const userId = tenants.customerA.admin.id;
    const body = {
      runFailed: false,
      runWarnings: false,
      runMissed: false,
      machineOffline: false,
      quota: false,
      verification: true,
      summary: 'NONE',
      allMachines: true,
      machineIds: [],
    };
    const path = ROUTES.notificationSettings.saveUser.build({ userId });
    expect((await admin.json('PUT', path, body)).statusCode).toBe(403);
    const superAdmin = await signedIn(tenants.customerA.superAdmin.email);
    const saved = await superAdmin.json('PUT', path, body);
    expect(saved.statusCode).toBe(200);
    expect(saved.json().result).toMatchObject({ verification: true, runFailed: false });
  });
});
