/**
 * Restore to the machine (issue 14) through the app on the real database, with a protocol-level agent on the real
 * live channel: who may ask, what the agent is sent, and how its BACKUP_RESTORE run is recorded.
 */
import {
  type AgentToServer,
  MESSAGES,
  type Paged,
  RESTORE_CONFLICT_CHOICES,
  ROUTES,
  type ServerToAgent,
  type TaskActionRow,
  type TaskDetail,
  withQuery,
} from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupTasks, runAccountSnapshots, taskActions, users } from '../../db/schema/index.js';
import { runFailed, runFinished } from '../../testing/agent-events.js';
import { createTestApp, type TestApp } from '../../testing/app.js';

import { backupFixtures, createdTasks } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { createBackupStateService } from '../backup-state/service.js';
import { eventually, listenOnLoopback, stompClient, type TestStomp } from '../live/testing.js';
import { createMachineCredentials } from '../machine-auth/credentials.js';

const TEXT = MESSAGES.restore;
const SNAPSHOT = 'a'.repeat(64);
let t: TestApp;
let tenants: Tenants;
let agent: TestStomp;
const sent: ServerToAgent[] = [];
let run: { machineId: number; taskId: number; runId: number };
let offlineRun: typeof run;
let otherTaskRunId = 0;
let noSnapshotRunId = 0;
let owner: TestClient;

async function signedIn(email: string) {
  const client = new TestClient(t.app);
  await client.signIn(email, FIXTURE_PASSWORD);
  return client;
}

const restore = (client: TestClient, body: Record<string, unknown>, at = run) =>
  client.json('POST', ROUTES.restore.restoreToMachine.build(at), {
    requestId: `r-${Math.random()}`,
    restoreAllItems: false,
    backedUpItemsToRestore: [{ path: '/home/ann/Documents', name: 'Documents', type: 'DIRECTORY' }],
    target: 'FOLDER',
    targetFolder: '/srv/restored',
    ...body,
  });

const restores = () => sent.filter((m) => m.type === 'restoreRun');

/** The agent: takes every restore except one to /refused, which it refuses as a real agent would. */
async function connectAgent(machineId: number, base: string) {
  const credential = await createMachineCredentials(t.database.db).issue(machineId);
  if (!credential) throw new Error('no credential');
  agent = stompClient(`${base}/ws/agent/connect`, {
    connectHeaders: { login: String(credential.machineId), passcode: credential.token },
  });
  expect(await agent.connected).toBe('connected');
  agent.client.subscribe('/agent/queue/commands', (frame) => {
    const message = JSON.parse(frame.body) as ServerToAgent;
    sent.push(message);
    if (message.type === 'cancelRun') {
      // As an agent restarted since: it no longer runs the restore.
      agent.client.publish({
        destination: '/agent/inbound',
        body: JSON.stringify({
          type: 'reply',
          requestId: message.requestId,
          success: false,
          messages: ['not running'],
        }),
      });
    }
    if (message.type !== 'restoreRun') return;
    const refused = message.target === '/refused';
    agent.client.publish({
      destination: '/agent/inbound',
      body: JSON.stringify({
        type: 'reply',
        requestId: message.requestId,
        success: !refused,
        messages: refused ? ['Task 1 is already running.'] : [],
        ...(refused ? {} : { payload: { runKey: 'restore-1' } }),
      }),
    });
  });
  expect(await agent.sendWithReceipt('SUBSCRIBE', '/agent/queue/commands')).toBe(true);
}

const agentSays = (event: AgentToServer) => agent.sendWithReceipt('SEND', '/agent/inbound', JSON.stringify(event));

async function taskRow(taskId: number) {
  const [row] = await t.database.db
    .select({ statusOfLastRun: backupTasks.statusOfLastRun, displayStatus: backupTasks.displayStatus })
    .from(backupTasks)
    .where(eq(backupTasks.id, taskId));
  return row;
}

/** The agent reports it started a restore of the run's task as `runKey`; answers a reader of its action. */
async function agentStartsRestore(runKey: string) {
  await agentSays({
    type: 'runStarted',
    runKey,
    taskId: run.taskId,
    startedAt: new Date().toISOString(),
    manual: true,
    actionType: 'BACKUP_RESTORE',
  });
  return async () => (await t.database.db.select().from(taskActions).where(eq(taskActions.runKey, runKey)))[0];
}

beforeAll(async () => {
  t = await createTestApp({}, { live: { options: { askTimeoutMs: 2000 } } });
  tenants = await createTenants(t.database.db);
  const fixtures = backupFixtures(t.database.db);
  const backupState = createBackupStateService({ db: t.database.db });
  const packageId = await fixtures.package(tenants.customerA.customerId);
  const machineId = await fixtures.machine(packageId, { assignedUserId: tenants.customerA.user.id });
  const [taskId = 0, otherTaskId = 0] = await createdTasks(t.database.db, machineId, 'Documents', 'Photos');
  run = { machineId, taskId, runId: await fixtures.backupRun({ taskId, machineId }, SNAPSHOT) };
  otherTaskRunId = await fixtures.backupRun({ taskId: otherTaskId, machineId }, SNAPSHOT);
  noSnapshotRunId = await fixtures.backupRun({ taskId, machineId }, SNAPSHOT, false);
  const offlineMachine = await fixtures.machine(packageId);
  const offlineTask = (await backupState.createTask(fixtures.task(offlineMachine, { name: 'Offline' }))) ?? 0;
  const offline = { machineId: offlineMachine, taskId: offlineTask };
  offlineRun = { ...offline, runId: await fixtures.backupRun(offline, SNAPSHOT) };
  await connectAgent(machineId, await listenOnLoopback(t.app));
  owner = await signedIn(tenants.customerA.superAdmin.email);
}, 60_000);

afterAll(async () => {
  await agent?.stop();
  await t?.close();
});

describe('restore to the machine', () => {
  it('sends the agent the snapshot, the chosen items and the target once per request id', async () => {
    const requestId = 'restore-once';
    const first = await restore(owner, { requestId });
    expect(first.statusCode).toBe(200);
    expect(first.json().messages[0].message).toBe(TEXT.restoreStarted);
    expect(restores().at(-1)).toMatchObject({
      taskId: run.taskId,
      runId: run.runId,
      snapshots: [{ snapshotId: SNAPSHOT, includes: ['/home/ann/Documents'] }],
      target: '/srv/restored',
    });
    const count = restores().length;
    const again = await restore(owner, { requestId });
    expect(again.statusCode).toBe(200);
    expect(restores()).toHaveLength(count);
  });

  it('tells the agent the choice for existing files, OVERWRITE when the caller leaves it out', async () => {
    expect((await restore(owner, {})).statusCode).toBe(200);
    expect(restores().at(-1)).toMatchObject({ existingFiles: 'OVERWRITE' });
    for (const existingFiles of RESTORE_CONFLICT_CHOICES) {
      expect((await restore(owner, { existingFiles })).statusCode).toBe(200);
      expect(restores().at(-1)).toMatchObject({ existingFiles });
    }
    const count = restores().length;
    const unknown = await restore(owner, { existingFiles: 'MERGE' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().messages[0]).toMatchObject({
      fieldName: 'existingFiles',
      message: 'Files that already exist is not valid',
    });
    expect(restores()).toHaveLength(count);
  });

  it('restores everything to the original place: no includes, no target', async () => {
    const response = await restore(owner, { restoreAllItems: true, target: 'ORIGINAL' });
    expect(response.statusCode).toBe(200);
    expect(restores().at(-1)).toMatchObject({ snapshots: [{ snapshotId: SNAPSHOT, includes: [] }], target: null });
  });

  it("restores a panel run's chosen accounts' items, each from its account's snapshot", async () => {
    const backupState = createBackupStateService({ db: t.database.db });
    const fixtures = backupFixtures(t.database.db);
    const hosting = { machineId: run.machineId, taskId: 0 };
    hosting.taskId = (await backupState.createTask({ ...fixtures.task(run.machineId), type: 'CPANEL' })) ?? 0;
    const [ana, bob] = ['b'.repeat(64), 'c'.repeat(64)];
    const panelRun = { ...hosting, runId: await fixtures.backupRun(hosting, ana) };
    const row = (account: string, resticSnapshotId: string) => ({
      backupTaskId: hosting.taskId,
      runSnapshotId: ana,
      account,
      resticSnapshotId,
    });
    await t.database.db.insert(runAccountSnapshots).values([row('ana', ana), row('bob', bob)]);
    const items = [
      { path: '/ana/home/ana/public_html', name: 'public_html', type: 'DIRECTORY' },
      { path: '/ana/home/ana/.profile', name: '.profile', type: 'FILE' },
      { path: '/bob', name: 'bob', type: 'DIRECTORY' },
    ];
    expect((await restore(owner, { backedUpItemsToRestore: items }, panelRun)).statusCode).toBe(200);
    expect(restores().at(-1)).toMatchObject({
      runId: panelRun.runId,
      snapshots: [
        { snapshotId: ana, includes: ['/home/ana/public_html', '/home/ana/.profile'] },
        { snapshotId: bob, includes: [] },
      ],
    });
    expect((await restore(owner, { restoreAllItems: true }, panelRun)).statusCode).toBe(200);
    expect(restores().at(-1)).toMatchObject({
      snapshots: [
        { snapshotId: ana, includes: [] },
        { snapshotId: bob, includes: [] },
      ],
    });
    const count = restores().length;
    const other = [{ path: '/carl/home', name: 'home', type: 'DIRECTORY' }];
    const refused = await restore(owner, { backedUpItemsToRestore: other }, panelRun);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().messages[0].fieldName).toBe('backedUpItemsToRestore');
    expect(restores()).toHaveLength(count);
  });

  it('records the agent’s restore as a BACKUP_RESTORE action that leaves the task’s statuses alone', async () => {
    const before = await taskRow(run.taskId);
    const action = await agentStartsRestore('restore-1');
    await agentSays({
      type: 'runProgress',
      runKey: 'restore-1',
      phase: 'TRANSFERRING_FILES',
      percentage: 40,
      currentItem: 2,
      totalItems: 5,
      bytesDone: 400,
      bytesTotal: 1000,
    });
    await eventually(async () => (await action())?.transferProgressPercentage === 40);
    expect(await action()).toMatchObject({ type: 'BACKUP_RESTORE', status: 'IN_PROGRESS' });
    expect(await taskRow(run.taskId)).toEqual(before);
    // While it runs, no other restore (or download) of the task starts.
    const busy = await restore(owner, {});
    expect(busy.statusCode).toBe(409);
    expect(busy.json().messages[0].message).toBe(TEXT.busy);
    const detail = await owner.json(
      'GET',
      ROUTES.tasks.customer.detail.build({ machineId: run.machineId, taskId: run.taskId }),
    );
    const busyTask = detail.json().result as TaskDetail;
    expect(busyTask.restore).toBe(true);
    // The task page shows the restore as the task's busy action, so its Download and Restore wait for it.
    expect(busyTask).toMatchObject({
      actionInProgress: true,
      inProgressActionType: 'BACKUP_RESTORE',
      inProgressActionProgress: 40,
      downloadDisabled: true,
    });

    await agentSays(runFailed('restore-1', { failureMessage: 'restic exited with code 1' }));
    await eventually(async () => (await action())?.status === 'FAILED');
    expect(await taskRow(run.taskId)).toEqual(before);
  });

  it('keeps the summary the agent finishes a restore with and answers it with the run, to its tenant only', async () => {
    const action = await agentStartsRestore('restore-summary');
    await eventually(async () => (await action()) !== undefined);
    const summary = { filesRestored: 3, bytesRestored: 4096, filesRenamed: 1, filesSkipped: 2, errors: 0 };
    await agentSays(runFinished('restore-summary', { bytesAdded: null, bytesTotal: 4096, restoreSummary: summary }));
    await eventually(async () => (await action())?.status === 'FINISHED_SUCCESS');
    const actionsOf = ROUTES.tasks.customer.actions.build({ machineId: run.machineId, taskId: run.taskId });
    const actions = withQuery(actionsOf, { type: 'BACKUP_RESTORE' });
    const restoreId = (await action())?.id;
    const answer = await owner.json('GET', actions);
    expect(answer.statusCode).toBe(200);
    const rows = (answer.json().result as Paged<TaskActionRow>).elements;
    expect(rows.find((row) => row.id === restoreId)).toMatchObject({
      status: 'FINISHED_SUCCESS',
      restoreSummary: summary,
    });
    // Backup runs carry none.
    const backups = await owner.json('GET', withQuery(actionsOf, { type: 'BACKUP_RUN' }));
    const backupRows = (backups.json().result as Paged<TaskActionRow>).elements;
    expect(backupRows.length).toBeGreaterThan(0);
    expect(backupRows.every((row) => row.restoreSummary === null)).toBe(true);
    const other = await signedIn(tenants.customerB.admin.email);
    const foreign = await other.json('GET', actions);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().result ?? null).toBeNull();
  });

  it('cancels a restore its agent no longer runs without touching the task’s statuses', async () => {
    const before = await taskRow(run.taskId);
    const action = await agentStartsRestore('restore-2');
    await eventually(async () => (await action()) !== undefined);
    const cancel = withQuery(
      ROUTES.tasks.customer.cancel.build({
        machineId: run.machineId,
        taskId: run.taskId,
        actionId: (await action())?.id ?? 0,
      }),
      { type: 'BACKUP_RESTORE' },
    );
    expect((await owner.json('PUT', cancel)).statusCode).toBe(200);
    expect(await action()).toMatchObject({ status: 'FAILED', exitCodeResult: 'CANCELLATION_REQUESTED' });
    expect(await taskRow(run.taskId)).toEqual(before);
  });

  it('answers the agent’s refusal as a conflict with its message', async () => {
    const response = await restore(owner, { targetFolder: '/refused' });
    expect(response.statusCode).toBe(409);
    expect(response.json().messages[0].message).toBe('Task 1 is already running.');
  });

  it('answers an offline machine at once, and the same request may be sent again later', async () => {
    const started = Date.now();
    const response = await restore(owner, { requestId: 'offline-1' }, offlineRun);
    expect(response.statusCode).toBe(409);
    expect(response.json().messages[0].message).toBe(MESSAGES.liveChannel.machineOffline);
    expect(Date.now() - started).toBeLessThan(1500);
    expect((await restore(owner, { requestId: 'offline-1' }, offlineRun)).statusCode).toBe(409);
  });

  it('refuses a run of another task, a run without its snapshot, and a folder not absolute on the machine', async () => {
    const foreign = await restore(owner, {}, { ...run, runId: otherTaskRunId });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().messages[0].message).toBe(TEXT.runNotFound);
    const gone = await restore(owner, {}, { ...run, runId: noSnapshotRunId });
    expect(gone.statusCode).toBe(409);
    expect(gone.json().messages[0].message).toBe(TEXT.noSnapshotToRestore);
    const windowsPath = await restore(owner, { targetFolder: 'D:\\Restored' });
    expect(windowsPath.statusCode).toBe(400);
    expect(windowsPath.json().messages[0]).toMatchObject({
      fieldName: 'targetFolder',
      message: TEXT.targetFolderNotAbsolute,
    });
    const relative = await restore(owner, { targetFolder: 'restored' });
    expect(relative.statusCode).toBe(400);
    expect(relative.json().messages[0].fieldName).toBe('targetFolder');
  });

  it('is not found for another tenant’s user and forbidden to a read-only user', async () => {
    const count = restores().length;
    const other = await signedIn(tenants.customerB.admin.email);
    expect((await restore(other, {})).statusCode).toBe(404);
    await t.database.db.update(users).set({ readOnly: true }).where(eq(users.id, tenants.customerA.user.id));
    const readOnly = await signedIn(tenants.customerA.user.email);
    expect((await restore(readOnly, {})).statusCode).toBe(403);
    const detail = await readOnly.json(
      'GET',
      ROUTES.tasks.customer.detail.build({ machineId: run.machineId, taskId: run.taskId }),
    );
    expect((detail.json().result as TaskDetail).restore).toBe(false);
    expect(restores()).toHaveLength(count);
  });
});
