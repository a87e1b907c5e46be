import {
  MESSAGES,
  RESTORE_TEST,
  RESTORE_TEST_TEXTS,
  type RestoreTestSummary,
  ROUTES,
  type ServerToAgent,
} from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backupTasks, customers, restoreTests } from '../../db/schema/index.js';
import { restoreTestFinished } from '../../testing/agent-events.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures, createdTasks } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { answeringAgent } from '../../testing/listening-apps.js';
import { eventually, listenOnLoopback, type TestStomp } from '../live/testing.js';
import { createRestoreTestsRepo } from './repo.js';
import { createRestoreTestService } from './service.js';

/** Restore tests (issue 32 item 1): started now or by the schedule, reported by the agent, kept per task. */

let t: TestApp;
let tenants: Tenants;
let base: string;
let machineId = 0;
let taskId = 0;
let noSnapshotTaskId = 0;
const SNAPSHOT = 'c'.repeat(64);
const clients: TestStomp[] = [];
const requests: Array<Extract<ServerToAgent, { type: 'restoreTest' }>> = [];
/** How the protocol-level agent answers the next test: a result, held (no result yet), or refused. */
let agentDoes: 'pass' | 'mismatch' | 'hold' | 'refuse' = 'pass';

async function connectAgent() {
  await answeringAgent(t.database.db, base, machineId, clients, (message, send) => {
    if (message.type !== 'restoreTest') return;
    requests.push(message);
    if (agentDoes === 'refuse') {
      send({ type: 'reply', requestId: message.requestId, success: false, messages: ['No repository yet.'] });
      return;
    }
    send({ type: 'reply', requestId: message.requestId, success: true, messages: [] });
    if (agentDoes === 'hold') return;
    send(restoreTestFinished(message.testKey, agentDoes === 'mismatch' ? 'MISMATCH' : 'PASSED', SNAPSHOT));
  });
}

async function signedIn(email: string) {
  const client = new TestClient(t.app);
  await client.signIn(email, FIXTURE_PASSWORD);
  return client;
}

const summaryOf = async (client: TestClient, task = taskId) => {
  const response = await client.json('GET', ROUTES.restoreTests.summary.build({ machineId, taskId: task }));
  expect(response.statusCode).toBe(200);
  return response.json().result as RestoreTestSummary;
};

beforeAll(async () => {
  t = await createTestApp({}, { live: { options: { askTimeoutMs: 2000 } } });
  tenants = await createTenants(t.database.db);
  const fixtures = backupFixtures(t.database.db);
  const pkg = await fixtures.package(tenants.customerA.customerId);
  machineId = await fixtures.machine(pkg);
  [taskId = 0, noSnapshotTaskId = 0] = await createdTasks(t.database.db, machineId, 'Documents', 'Empty');
  await fixtures.backupRun({ taskId, machineId }, SNAPSHOT);
  base = await listenOnLoopback(t.app);
  await connectAgent();
});

afterEach(async () => {
  requests.length = 0;
  agentDoes = 'pass';
  await t.database.db.delete(restoreTests);
  // The history is gone, so every task is due for the schedule again (its kept due mark, issue 32 item 3).
  await t.database.db.update(backupTasks).set({ restoreTestDueAt: t.clock.now });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.stop()));
  await t?.close();
});

describe('Test restore now', () => {
  it('sends the agent the sample, keeps its result and shows it as the last test and in the history', async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    expect(await summaryOf(admin)).toEqual({
      latest: null,
      startReason: null,
      intervalDays: RESTORE_TEST.defaultIntervalDays,
    });
    const started = await admin.json('POST', ROUTES.restoreTests.start.build({ machineId, taskId }));
    expect(started.statusCode).toBe(200);
    expect(started.json().messages[0].message).toBe(RESTORE_TEST_TEXTS.started);
    expect(started.json().result).toMatchObject({ outcome: 'RUNNING', manual: true });
    expect(requests).toMatchObject([
      {
        type: 'restoreTest',
        taskId,
        maxFiles: RESTORE_TEST.defaultSampleFiles,
        maxBytes: RESTORE_TEST.defaultSampleBytes,
      },
    ]);
    await eventually(async () => (await summaryOf(admin)).latest?.outcome === 'PASSED');
    const { latest } = await summaryOf(admin);
    expect(latest).toMatchObject({
      manual: true,
      snapshotId: SNAPSHOT,
      filesTested: 12,
      bytesTested: 4096,
      changedFilesTested: 3,
      durationMs: 1500,
      mismatchCount: 0,
      mismatches: [],
    });
    expect(latest?.finishedAt).not.toBeNull();
    const history = await admin.json('GET', `${ROUTES.restoreTests.history.build({ machineId, taskId })}?size=5`);
    expect(history.json().result).toMatchObject({ totalElements: 1, elements: [{ id: latest?.id }] });
  });

  it('keeps a mismatch with the files that differ, and a result reported twice once', async () => {
    agentDoes = 'mismatch';
    const admin = await signedIn(tenants.customerA.admin.email);
    expect((await admin.json('POST', ROUTES.restoreTests.start.build({ machineId, taskId }))).statusCode).toBe(200);
    await eventually(async () => (await summaryOf(admin)).latest?.outcome === 'MISMATCH');
    const { latest } = await summaryOf(admin);
    expect(latest).toMatchObject({ mismatchCount: 1, mismatches: [{ path: '/docs/a.txt', kind: 'CONTENT' }] });
    // The same key again (a replayed outbox) changes nothing: the test is no longer running.
    const service = createRestoreTestService({
      repo: createRestoreTestsRepo(t.database.db),
      askAgent: async () => 'offline',
      defaults: t.config.restoreTests,
      now: () => new Date(),
    });
    const key = (await t.database.db.select().from(restoreTests))[0]?.testKey ?? '';
    const again = await service.onAgentEvent(machineId, {
      type: 'restoreTestFinished',
      testKey: key,
      outcome: 'PASSED',
      snapshotId: null,
      filesTested: 0,
      bytesTested: 0,
      changedFilesTested: 0,
      durationMs: 0,
      mismatchCount: 0,
      mismatches: [],
      message: null,
    });
    expect(again).toBeNull();
    expect((await summaryOf(admin)).latest?.outcome).toBe('MISMATCH');
  });

  it('refuses a second test while one runs, a task without a snapshot, and reports the agent refusing', async () => {
    agentDoes = 'hold';
    const admin = await signedIn(tenants.customerA.admin.email);
    expect((await admin.json('POST', ROUTES.restoreTests.start.build({ machineId, taskId }))).statusCode).toBe(200);
    expect(await summaryOf(admin)).toMatchObject({
      latest: { outcome: 'RUNNING' },
      startReason: RESTORE_TEST_TEXTS.busy,
    });
    const second = await admin.json('POST', ROUTES.restoreTests.start.build({ machineId, taskId }));
    expect(second.statusCode).toBe(409);
    expect(second.json().messages[0].message).toBe(RESTORE_TEST_TEXTS.busy);
    expect(requests).toHaveLength(1);

    const empty = await admin.json('POST', ROUTES.restoreTests.start.build({ machineId, taskId: noSnapshotTaskId }));
    expect(empty.statusCode).toBe(409);
    expect(empty.json().messages[0].message).toBe(RESTORE_TEST_TEXTS.noSnapshot);

    await t.database.db.delete(restoreTests);
    agentDoes = 'refuse';
    const refused = await admin.json('POST', ROUTES.restoreTests.start.build({ machineId, taskId }));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().messages[0].message).toBe('No repository yet.');
    expect((await summaryOf(admin)).latest).toMatchObject({ outcome: 'FAILED', message: 'No repository yet.' });
  });

  it('gives another tenant nothing, and lets only those who may run the task start one', async () => {
    const other = await signedIn(tenants.customerB.admin.email);
    for (const response of [
      await other.json('GET', ROUTES.restoreTests.summary.build({ machineId, taskId })),
      await other.json('GET', ROUTES.restoreTests.history.build({ machineId, taskId })),
      await other.json('POST', ROUTES.restoreTests.start.build({ machineId, taskId })),
    ]) {
      expect(response.statusCode).toBe(404);
    }
    // A user of the customer without the machine assigned does not see it either.
    const user = await signedIn(tenants.customerA.user.email);
    expect((await user.json('POST', ROUTES.restoreTests.start.build({ machineId, taskId }))).statusCode).toBe(404);
    // The provider sees the result but starts a test only with the customer's 'Allow provider machine control'.
    await t.database.db
      .update(customers)
      .set({ allowProviderMachineControl: false })
      .where(eq(customers.id, tenants.customerA.customerId));
    const provider = await signedIn(tenants.providerAdmin.email);
    expect((await summaryOf(provider)).startReason).toBe(MESSAGES.remoteManagement.providerControlOff);
    expect((await provider.json('POST', ROUTES.restoreTests.start.build({ machineId, taskId }))).statusCode).toBe(403);
    // A task of another machine is not found on this one.
    const admin = await signedIn(tenants.customerA.admin.email);
    const wrong = await admin.json('GET', ROUTES.restoreTests.summary.build({ machineId, taskId: taskId + 1000 }));
    expect(wrong.statusCode).toBe(404);
    expect(requests).toHaveLength(0);
  });
});

/**
 * Passes of the schedule until one starts a test: a pass skips a task whose row another statement holds at that moment
 * (the app's own sweeps run beside the test; `for update skip locked`) and the next pass takes it. Exactly one starts.
 */
async function startsOne(scheduled: { runScheduled(): Promise<number> }) {
  let started = 0;
  await eventually(async () => {
    started += await scheduled.runScheduled();
    return started > 0;
  });
  expect(started).toBe(1);
}

describe('the schedule', () => {
  const service = () =>
    createRestoreTestService({
      repo: createRestoreTestsRepo(t.database.db),
      askAgent: (m, command) => t.app.live.ask(m, command),
      defaults: t.config.restoreTests,
      now: () => t.clock.now,
    });

  it("tests a task once per its customer's interval (the provider's default unless overridden)", async () => {
    const scheduled = service();
    // Only the task with a snapshot is due; a second pass finds nothing due.
    await startsOne(scheduled);
    expect(requests).toMatchObject([{ taskId }]);
    const admin = await signedIn(tenants.customerA.admin.email);
    await eventually(async () => (await summaryOf(admin)).latest?.outcome === 'PASSED');
    expect((await summaryOf(admin)).latest?.manual).toBe(false);
    expect(await scheduled.runScheduled()).toBe(0);

    // The customer's super admin shortens the interval to 7 days: due again after 7 days, not after 6.
    const superAdmin = await signedIn(tenants.customerA.superAdmin.email);
    const saved = await superAdmin.json('PUT', ROUTES.restoreTests.saveSettings.build(), { intervalDays: 7 });
    expect(saved.json().result).toEqual({ intervalDays: 7, providerDefaultDays: RESTORE_TEST.defaultIntervalDays });
    t.clock.advanceMinutes(6 * 24 * 60);
    expect(await scheduled.runScheduled()).toBe(0);
    t.clock.advanceMinutes(24 * 60 + 1);
    await startsOne(scheduled);
    expect(requests).toHaveLength(2);
    // Its result moves the task's due mark on: taken in before the next test starts from a clean history.
    await eventually(async () => {
      const rows = await t.database.db.select().from(restoreTests);
      return rows.length === 2 && rows.every((r) => r.outcome === 'PASSED');
    });
  });

  it('fails a test whose agent never reported, after the timeout', async () => {
    agentDoes = 'hold';
    const scheduled = service();
    // Due since the last test's cleanup.
    t.clock.advanceMinutes(1);
    await startsOne(scheduled);
    t.clock.advanceMinutes(RESTORE_TEST.timeoutMs / 60_000 + 1);
    agentDoes = 'pass';
    // The pass fails the silent one first, then finds the task due again only after its interval.
    await scheduled.runScheduled();
    const rows = await createRestoreTestsRepo(t.database.db).latestForTasks([taskId], { finishedOnly: true });
    expect(rows.get(taskId)).toMatchObject({ outcome: 'FAILED', message: RESTORE_TEST_TEXTS.interrupted });
  });

  it("is the customer super admin's setting: checked, and refused to others", async () => {
    const superAdmin = await signedIn(tenants.customerA.superAdmin.email);
    const tooLong = await superAdmin.json('PUT', ROUTES.restoreTests.saveSettings.build(), { intervalDays: 400 });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().messages[0].fieldName).toBe('intervalDays');
    const back = await superAdmin.json('PUT', ROUTES.restoreTests.saveSettings.build(), { intervalDays: null });
    expect(back.json().result.intervalDays).toBeNull();
    const admin = await signedIn(tenants.customerA.admin.email);
    expect((await admin.json('GET', ROUTES.restoreTests.settings.build())).statusCode).toBe(403);
    // Another tenant's super admin reads its own setting, not this one's.
    await superAdmin.json('PUT', ROUTES.restoreTests.saveSettings.build(), { intervalDays: 3 });
    const otherSuper = await signedIn(tenants.customerB.superAdmin.email);
    expect((await otherSuper.json('GET', ROUTES.restoreTests.settings.build())).json().result.intervalDays).toBeNull();
  });
});

describe('latestForTasks', () => {
  it('answers the newest test of each task, the running one left out when asked', async () => {
    const repo = createRestoreTestsRepo(t.database.db);
    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes));
    const key = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
    const first = await repo.insertRunning({
      taskId,
      machineId,
      testKey: key(1),
      manual: false,
      userId: null,
      startedAt: at(0),
      intervalDays: 30,
    });
    await repo.fail(key(1), 'x', at(1));
    await repo.insertRunning({
      taskId,
      machineId,
      testKey: key(2),
      manual: false,
      userId: null,
      startedAt: at(2),
      intervalDays: 30,
    });
    const all = await repo.latestForTasks([taskId, noSnapshotTaskId]);
    expect([...all.keys()]).toEqual([taskId]);
    expect(all.get(taskId)?.testKey).toBe(key(2));
    expect((await repo.latestForTasks([taskId], { finishedOnly: true })).get(taskId)?.id).toBe(first?.id);
  });
});
