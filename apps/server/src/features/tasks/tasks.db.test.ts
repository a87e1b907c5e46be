import {
  type Envelope,
  MESSAGES,
  type Paged,
  ROUTES,
  runsQueue,
  type StorageDetails,
  type TaskActionRow,
  type TaskDetail,
  type TaskRow,
  type TaskSnapshotRow,
  withPaging,
  withQuery,
} from '@portal/domain';
import { EVERY_TASK_ABILITY, SAMPLE_RUN_SUMMARY } from '@portal/domain/testing/task-action';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupMachines, backupSnapshots, backupTasks, customers, taskActions } from '../../db/schema/index.js';
import { SESSION_COOKIE } from '../../http/request-context.js';
import { runFinished } from '../../testing/agent-events.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { createBackupStateService } from '../backup-state/service.js';
import { connectTestAgent, eventually, listenOnLoopback, stompClient } from '../live/testing.js';
import { createMachineCredentials } from '../machine-auth/credentials.js';

type Caller = 'provider' | 'reseller' | 'superA' | 'userA' | 'adminB';

let t: TestApp;
let tenants: Tenants;
const as = {} as Record<Caller, TestClient>;
/** Customer A's machine (assigned to A's user) with the task Documents and its runs; customer B's machine. */
const ids = { packageA: 0, machineA: 0, taskA: 0, packageB: 0, machineB: 0, taskB: 0 };
const runs = { finished: 0, busy: 0, restore: 0, failed: 0 };
let snapshotA = 0;
let base = '';

const customerTask = () => ({ machineId: ids.machineA, taskId: ids.taskA });
const adminTask = () => ({ customerId: tenants.customerA.customerId, packageId: ids.packageA, ...customerTask() });
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

/** A GET's status and envelope; the result is typed as present (a failed call's tests read only its status). */
async function get<T>(caller: Caller, url: string) {
  const response = await as[caller].json('GET', url);
  return { status: response.statusCode, body: response.json() as Envelope<T> & { result: T } };
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  tenants = await createTenants(db);
  const fixtures = backupFixtures(db);
  const state = createBackupStateService({ db });
  await fixtures.setSuperAdmin(tenants.customerA.customerId, tenants.customerA.superAdmin.id);
  ids.packageA = await fixtures.package(tenants.customerA.customerId, { name: 'Office' });
  ids.machineA = await fixtures.machine(ids.packageA, {
    name: 'alpha',
    osFamily: 'WINDOWS',
    assignedUserId: tenants.customerA.user.id,
  });
  ids.taskA = (await state.createTask(fixtures.task(ids.machineA, { name: 'Documents' }))) as number;
  await state.createTask(fixtures.task(ids.machineA, { name: 'Archive', status: 'PAUSED' }));
  await db
    .update(backupTasks)
    .set({ numberOfSnapshotsToKeep: -1, uploadBandwidthLimit: 2, uploadBandwidthLimitUnit: 'MEGA_BYTES_PER_SECOND' })
    .where(eq(backupTasks.id, ids.taskA));

  const insertRun = async (values: Partial<typeof taskActions.$inferInsert>) => {
    const [row] = await db
      .insert(taskActions)
      .values({ backupTaskId: ids.taskA, backupMachineId: ids.machineA, type: 'BACKUP_RUN', ...values })
      .returning({ id: taskActions.id });
    return row?.id as number;
  };
  runs.failed = await insertRun({
    status: 'FAILED',
    timeStarted: minutesAgo(60),
    timeFinished: minutesAgo(59),
    failureMessage: 'Fatal error',
  });
  runs.finished = await insertRun({
    status: 'FINISHED_SUCCESS',
    timeStarted: minutesAgo(30),
    timeFinished: minutesAgo(29),
    transferProgressPercentage: 100,
    resticSnapshotId: 'abc123',
    bytesTotal: 5000,
    snapshotsAvailable: true,
  });
  runs.restore = await insertRun({
    type: 'BACKUP_RESTORE',
    status: 'FINISHED_SUCCESS',
    timeStarted: minutesAgo(20),
    timeFinished: minutesAgo(19),
  });
  runs.busy = await insertRun({
    status: 'IN_PROGRESS',
    timeStarted: minutesAgo(1),
    transferProgressPercentage: 42,
    currentTransfer: 2,
    totalTransfers: 5,
    phase: 'TRANSFERRING_FILES',
  });
  await state.runStarted(ids.taskA, 'IN_PROGRESS');
  const [snapshot] = await db
    .insert(backupSnapshots)
    .values({
      backupTaskId: ids.taskA,
      taskActionId: runs.finished,
      resticSnapshotId: 'abc123',
      status: 'FINISHED_SUCCESS',
      sizeBytes: 4000,
    })
    .returning({ id: backupSnapshots.id });
  snapshotA = snapshot?.id as number;

  ids.packageB = await fixtures.package(tenants.customerB.customerId);
  ids.machineB = await fixtures.machine(ids.packageB, { name: 'beta' });
  ids.taskB = (await state.createTask(fixtures.task(ids.machineB, { name: 'Other' }))) as number;

  const users: Record<Caller, string> = {
    provider: tenants.providerAdmin.email,
    reseller: tenants.reseller.superAdmin.email,
    superA: tenants.customerA.superAdmin.email,
    userA: tenants.customerA.user.email,
    adminB: tenants.customerB.admin.email,
  };
  for (const [caller, email] of Object.entries(users) as [Caller, string][]) {
    as[caller] = new TestClient(t.app);
    await as[caller].signIn(email, FIXTURE_PASSWORD);
  }
  base = await listenOnLoopback(t.app);
});

afterAll(async () => {
  await t?.close();
});

describe('002 §7.7: task lists per audience', () => {
  it("lists a machine's tasks for its customer's users, by name, with the display record", async () => {
    const { status, body } = await get<Paged<TaskRow>>('userA', ROUTES.tasks.customer.list.build(customerTask()));
    expect(status).toBe(200);
    expect(body.result.elements.map((row) => row.name)).toEqual(['Archive', 'Documents']);
    const documents = body.result.elements[1] as TaskRow;
    expect(documents).toMatchObject({
      id: ids.taskA,
      type: 'FILES_AND_FOLDERS',
      backupMachineName: 'alpha',
      backupPackageName: 'Office',
      numberOfSnapshotsToKeep: -1,
      numberOfBackupRuns: 3,
      actionInProgress: true,
      inProgressActionType: 'BACKUP_RUN',
      inProgressActionProgress: 42,
      uploadLimitInKiloBytesPerSecond: 2048,
      backupTaskUrl: `/backupmachines/${ids.machineA}/backuptasks/${ids.taskA}`,
    });
    expect(documents.badges).toContain('RUN_IN_PROGRESS');
  });

  it('pages the list with zero-based page and size', async () => {
    const url = withPaging(ROUTES.tasks.customer.list.build(customerTask()), { page: 1, size: 1 });
    const { body } = await get<Paged<TaskRow>>('superA', url);
    expect(body.result).toMatchObject({ totalElements: 2, totalPages: 2 });
    expect(body.result.elements.map((row) => row.name)).toEqual(['Documents']);
  });

  it('lists for the reseller and the provider on their paths, with their task links', async () => {
    const reseller = await get<Paged<TaskRow>>('reseller', ROUTES.tasks.reseller.list.build(adminTask()));
    expect(reseller.status).toBe(200);
    expect(reseller.body.result.elements[1]?.backupTaskUrl).toBe(
      `/admin/mycustomers/${tenants.customerA.customerId}/backuppackages/${ids.packageA}/backupmachines/${ids.machineA}/backuptasks/${ids.taskA}`,
    );
    const provider = await get<Paged<TaskRow>>('provider', ROUTES.tasks.provider.list.build(adminTask()));
    expect(provider.body.result.totalElements).toBe(2);
  });

  it('answers another tenant, a plain user without the machine and wrong path ids with not found', async () => {
    expect((await get('adminB', ROUTES.tasks.customer.list.build(customerTask()))).status).toBe(404);
    await t.database.db
      .update(customers)
      .set({ allowProviderMachineControl: false })
      .where(eq(customers.id, tenants.customerA.customerId));
    expect((await get('userA', ROUTES.tasks.customer.list.build({ machineId: ids.machineB }))).status).toBe(404);
    const wrongPackage = ROUTES.tasks.provider.list.build({ ...adminTask(), packageId: ids.packageB });
    expect((await get('provider', wrongPackage)).status).toBe(404);
    const otherCustomer = ROUTES.tasks.reseller.list.build({
      customerId: tenants.customerB.customerId,
      packageId: ids.packageB,
      machineId: ids.machineB,
    });
    expect((await get('reseller', otherCustomer)).status).toBe(404);
    // Each audience's path is its own: a customer cannot use the admin paths.
    expect((await get('superA', ROUTES.tasks.provider.list.build(adminTask()))).status).toBe(403);
  });
});

describe('the task page', () => {
  it("answers the task with the machine's OS family and the caller's abilities", async () => {
    // Offline, no task command can be sent: each control says so before anyone fills a form (issue 29).
    const offline = await get<TaskDetail>('userA', ROUTES.tasks.customer.detail.build(customerTask()));
    const offlineReason = MESSAGES.liveChannel.machineOffline;
    expect(offline.body.result).toMatchObject({
      runNow: false,
      togglePause: false,
      edit: false,
      deleteable: false,
      reasons: { runNow: offlineReason, togglePause: offlineReason, edit: offlineReason, delete: offlineReason },
    });
    // Online only for this request: with Redis, a later command to an 'online' machine waits for its agent.
    await t.database.db.update(backupMachines).set({ online: true }).where(eq(backupMachines.id, ids.machineA));
    const { status, body } = await get<TaskDetail>('userA', ROUTES.tasks.customer.detail.build(customerTask()));
    await t.database.db.update(backupMachines).set({ online: false }).where(eq(backupMachines.id, ids.machineA));
    expect(status).toBe(200);
    expect(body.result).toMatchObject({
      name: 'Documents',
      osFamily: 'WINDOWS',
      customerId: tenants.customerA.customerId,
      backupPackageId: ids.packageA,
      ...EVERY_TASK_ABILITY,
      downloadDisabled: true,
    });
  });

  it('lets the reseller cancel only when the customer allows provider machine control; the provider never commands without it', async () => {
    const reseller = await get<TaskDetail>('reseller', ROUTES.tasks.reseller.detail.build(adminTask()));
    expect(reseller.body.result.cancelActions).toBe(false);
    const provider = await get<TaskDetail>('provider', ROUTES.tasks.provider.detail.build(adminTask()));
    expect(provider.body.result).toMatchObject({
      cancelActions: true,
      runNow: false,
      edit: false,
      reasons: { runNow: MESSAGES.remoteManagement.providerControlOff },
    });
    await t.database.db
      .update(customers)
      .set({ allowProviderMachineControl: true })
      .where(eq(customers.id, tenants.customerA.customerId));
    const allowed = await get<TaskDetail>('reseller', ROUTES.tasks.reseller.detail.build(adminTask()));
    expect(allowed.body.result.cancelActions).toBe(true);
  });

  it('finds no task of another machine or tenant', async () => {
    expect((await get('adminB', ROUTES.tasks.customer.detail.build(customerTask()))).status).toBe(404);
    const foreignTask = ROUTES.tasks.customer.detail.build({ machineId: ids.machineA, taskId: ids.taskB });
    expect((await get('userA', foreignTask)).status).toBe(404);
  });

  it('serves the page itself to a browser navigation on the same path', async () => {
    const response = await as.userA.request({
      method: 'GET',
      url: ROUTES.tasks.customer.detail.build(customerTask()),
      headers: { accept: 'text/html' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
  });
});

describe('002 §7.5: runs, actions, snapshots and storage', () => {
  it('pages the backup runs newest first, without other action types', async () => {
    const url = withPaging(ROUTES.tasks.customer.runs.build(customerTask()), { page: 0, size: 2 });
    const { body } = await get<Paged<TaskActionRow>>('userA', url);
    expect(body.result).toMatchObject({ totalElements: 3, totalPages: 2 });
    expect(body.result.elements.map((run) => run.id)).toEqual([runs.busy, runs.finished]);
    expect(body.result.elements[0]).toMatchObject({
      status: 'IN_PROGRESS',
      timeFinished: null,
      transferProgressPercentage: 42,
      currentTransfer: 2,
      totalTransfers: 5,
      phase: 'TRANSFERRING_FILES',
      cancellable: true,
    });
    expect(body.result.elements[1]).toMatchObject({ snapshotsAvailable: true, cancellable: false });
  });

  it('filters actions by type on every audience, and refuses an unknown type on its field', async () => {
    const customer = withQuery(ROUTES.tasks.customer.actions.build(customerTask()), { type: 'BACKUP_RESTORE' });
    expect((await get<Paged<TaskActionRow>>('userA', customer)).body.result.elements.map((a) => a.id)).toEqual([
      runs.restore,
    ]);
    const provider = withQuery(ROUTES.tasks.provider.actions.build(adminTask()), { type: 'BACKUP_RUN' });
    expect((await get<Paged<TaskActionRow>>('provider', provider)).body.result.totalElements).toBe(3);
    const bad = await get('userA', withQuery(ROUTES.tasks.customer.actions.build(customerTask()), { type: 'NOPE' }));
    expect(bad.status).toBe(400);
    expect(bad.body.messages[0]?.fieldName).toBe('type');
    const foreign = withQuery(ROUTES.tasks.customer.actions.build(customerTask()), { type: 'BACKUP_RUN' });
    expect((await get('adminB', foreign)).status).toBe(404);
  });

  it('lists snapshots with what their rows show', async () => {
    const { body } = await get<Paged<TaskSnapshotRow>>('userA', ROUTES.tasks.customer.snapshots.build(customerTask()));
    expect(body.result.elements).toEqual([
      expect.objectContaining({
        id: snapshotA,
        actionId: runs.finished,
        status: 'FINISHED_SUCCESS',
        storageStatus: 'AVAILABLE',
        downloadable: true,
        archiveDeletable: true,
      }),
    ]);
    expect((await get('adminB', ROUTES.tasks.customer.snapshots.build(customerTask()))).status).toBe(404);
  });

  it("answers the task's and a snapshot's storage, and not another tenant's", async () => {
    await t.database.db.update(backupMachines).set({ usedSpaceBytes: 9000 }).where(eq(backupMachines.id, ids.machineA));
    const task = await get<StorageDetails>('userA', ROUTES.tasks.customer.storage.build(customerTask()));
    expect(task.body.result).toEqual({
      id: ids.taskA,
      maxBackupSizePerMachineInBytes: 10 * 1024 ** 3,
      usedSpaceInBytes: 9000,
      usedSpaceInBytesForCurrentContent: 5000,
      usedSpaceInBytesForSnapshotsContent: 4000,
    });
    const snapshotUrl = ROUTES.tasks.customer.snapshotStorage.build({ ...customerTask(), snapshotId: snapshotA });
    expect((await get<StorageDetails>('userA', snapshotUrl)).body.result.usedSpaceInBytesForSnapshotsContent).toBe(
      4000,
    );
    expect((await get('adminB', snapshotUrl)).status).toBe(404);
    expect((await get('adminB', ROUTES.tasks.customer.storage.build(customerTask()))).status).toBe(404);
  });
});

describe('002 §7.5: cancel', () => {
  const cancelUrl = (runId: number, audience: 'customer' | 'reseller' = 'customer') =>
    withQuery(
      audience === 'customer'
        ? ROUTES.tasks.customer.cancel.build({ ...customerTask(), actionId: runId })
        : ROUTES.tasks.reseller.cancel.build({ ...adminTask(), actionId: runId }),
      { type: 'BACKUP_RUN' },
    );

  it('refuses a finished action and another tenant', async () => {
    const finished = await as.userA.json('PUT', cancelUrl(runs.finished));
    expect(finished.statusCode).toBe(409);
    expect((await as.adminB.json('PUT', cancelUrl(runs.busy))).statusCode).toBe(404);
  });

  it('answers at once when the machine is offline, and changes nothing', async () => {
    const response = await as.userA.json('PUT', cancelUrl(runs.busy));
    expect(response.statusCode).toBe(409);
    expect((response.json() as Envelope<null>).messages[0]?.message).toContain('offline');
  });

  it('asks the agent to stop the run; a run the agent does not run is finished here as cancelled', async () => {
    const issued = await createMachineCredentials(t.database.db).issue(ids.machineA);
    if (!issued) throw new Error('no credential');
    const agent = await connectTestAgent(t.app, base, issued);
    try {
      const answering = (async () => {
        await eventually(() => agent.commands().some((c) => c.type === 'cancelRun'));
        const command = agent.commands().find((c) => c.type === 'cancelRun');
        if (command?.type !== 'cancelRun') throw new Error('no cancel');
        expect(command).toMatchObject({ taskId: ids.taskA, runId: runs.busy });
        await agent.send({ type: 'reply', requestId: command.requestId, success: false, messages: ['not running'] });
      })();
      const response = await as.reseller.json('PUT', cancelUrl(runs.busy, 'reseller'));
      await answering;
      expect(response.statusCode).toBe(200);
      const [run] = await t.database.db.select().from(taskActions).where(eq(taskActions.id, runs.busy));
      expect(run).toMatchObject({ status: 'FAILED', failureMessage: 'Transfer cancelled' });
      // Retrying changes nothing and says why.
      expect((await as.userA.json('PUT', cancelUrl(runs.busy))).statusCode).toBe(409);
    } finally {
      await agent.client.stop();
    }
  });
});

describe("live progress: the machine's runs queue", () => {
  it("tells the task page's browsers of each run change, and no other tenant may listen", async () => {
    const [busy] = await t.database.db
      .insert(taskActions)
      .values({
        backupTaskId: ids.taskA,
        backupMachineId: ids.machineA,
        type: 'BACKUP_RUN',
        runKey: 'live-run',
        status: 'IN_PROGRESS',
      })
      .returning({ id: taskActions.id });
    const browserOf = (caller: Caller) =>
      stompClient(`${base}${ROUTES.live.customer.build()}`, {
        headers: { cookie: `${SESSION_COOKIE}=${as[caller].cookie(SESSION_COOKIE)}`, origin: 'http://portal.test' },
      });
    const issued = await createMachineCredentials(t.database.db).issue(ids.machineA);
    if (!issued) throw new Error('no credential');
    const agent = await connectTestAgent(t.app, base, issued);
    const watcher = browserOf('userA');
    const stranger = browserOf('adminB');
    try {
      expect(await watcher.connected).toBe('connected');
      expect(await watcher.sendWithReceipt('SUBSCRIBE', runsQueue('customer', ids.machineA))).toBe(true);
      const queue = watcher.subscribe(runsQueue('customer', ids.machineA));
      expect(await stranger.connected).toBe('connected');
      expect(await stranger.sendWithReceipt('SUBSCRIBE', runsQueue('customer', ids.machineA))).toBe(false);
      await agent.send({
        type: 'runProgress',
        runKey: 'live-run',
        phase: 'TRANSFERRING_FILES',
        percentage: 64,
        currentItem: 3,
        totalItems: 9,
        bytesDone: 10,
        bytesTotal: 20,
      });
      await eventually(() => queue.messages.length > 0);
      expect(JSON.parse(queue.messages[0]?.body ?? '{}')).toEqual({
        type: 'taskRunChanged',
        taskId: ids.taskA,
        runId: busy?.id,
      });
      const url = withQuery(ROUTES.tasks.customer.actions.build(customerTask()), { type: 'BACKUP_RUN' });
      const runsNow = await get<Paged<TaskActionRow>>('userA', url);
      expect(runsNow.body.result.elements.find((run) => run.id === busy?.id)).toMatchObject({
        transferProgressPercentage: 64,
        currentTransfer: 3,
        totalTransfers: 9,
      });
    } finally {
      await Promise.all([watcher.stop(), stranger.stop(), agent.client.stop()]);
    }
  });
});

describe('the run report (issue 31)', () => {
  it("answers a run's live figures and then restic's summary in the run API, and nothing to another tenant", async () => {
    const issued = await createMachineCredentials(t.database.db).issue(ids.machineA);
    if (!issued) throw new Error('no credential');
    const agent = await connectTestAgent(t.app, base, issued);
    const runsUrl = withPaging(ROUTES.tasks.customer.runs.build(customerTask()), { page: 0, size: 30 });
    const reportOf = async () => {
      const { body } = await get<Paged<TaskActionRow>>('userA', runsUrl);
      return body.result.elements.find((run) => run.timeStarted === '2026-12-07T01:00:00.000Z');
    };
    try {
      await agent.send({
        type: 'runStarted',
        runKey: 'report-run',
        taskId: ids.taskA,
        startedAt: '2026-12-07T01:00:00.000Z',
        manual: true,
      });
      await agent.send({
        type: 'runProgress',
        runKey: 'report-run',
        phase: 'TRANSFERRING_FILES',
        percentage: 40,
        currentItem: 3,
        totalItems: 9,
        bytesDone: 4_000_000,
        bytesTotal: 10_000_000,
        filesDone: 3,
        bytesPerSecond: 2_000_000,
        secondsRemaining: 3,
      });
      await eventually(async () => (await reportOf())?.report.progress?.bytesDone === 4_000_000);
      expect((await reportOf())?.report).toEqual({
        snapshotId: null,
        bytesAdded: null,
        bytesProcessed: null,
        summary: null,
        progress: { bytesDone: 4_000_000, filesDone: 3, bytesPerSecond: 2_000_000, secondsRemaining: 3 },
      });
      const summary = SAMPLE_RUN_SUMMARY;
      await agent.send(
        runFinished('report-run', {
          finishedAt: '2026-12-07T01:00:05.000Z',
          snapshotId: 'f'.repeat(64),
          bytesAdded: 6_000_000,
          bytesTotal: 10_000_000,
          summary,
        }),
      );
      await eventually(async () => (await reportOf())?.status === 'FINISHED_SUCCESS');
      // Once finished the live figures are gone; the summary, bytes and snapshot stay.
      expect((await reportOf())?.report).toEqual({
        snapshotId: 'f'.repeat(64),
        bytesAdded: 6_000_000,
        bytesProcessed: 10_000_000,
        summary,
        progress: null,
      });
      const adminUrl = withQuery(ROUTES.tasks.provider.actions.build(adminTask()), { type: 'BACKUP_RUN', size: 30 });
      const asProvider = await get<Paged<TaskActionRow>>('provider', adminUrl);
      expect(asProvider.body.result.elements.find((run) => run.report.summary !== null)?.report.summary).toEqual(
        summary,
      );
      // Another tenant learns nothing of the run, on either call.
      const foreign = await get('adminB', runsUrl);
      expect(foreign.status).toBe(404);
      expect(JSON.stringify(foreign.body)).not.toContain('filesNew');
      const foreignActions = withQuery(ROUTES.tasks.customer.actions.build(customerTask()), { type: 'BACKUP_RUN' });
      expect((await get('adminB', foreignActions)).status).toBe(404);
    } finally {
      await agent.client.stop();
    }
  });
});
