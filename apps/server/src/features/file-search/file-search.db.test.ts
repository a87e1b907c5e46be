import {
  FILE_SEARCH_TEXTS,
  type FileSearchUpdate,
  machineQueue,
  ROUTES,
  readFileSearchUpdate,
  resticTaskTag,
  type ServerToAgent,
} from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '../../db/schema/index.js';
import { SESSION_COOKIE } from '../../http/request-context.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures, createdTasks } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { answeringAgent } from '../../testing/listening-apps.js';
import { eventually, listenOnLoopback, stompClient, type TestStomp } from '../live/testing.js';

/** Finding files (issue 31): the search reaches the agent, its matches only the browsers of who asked. */

let t: TestApp;
let tenants: Tenants;
let base: string;
let machineId = 0;
let taskId = 0;
let otherTaskId = 0;
let runId = 0;
const SNAPSHOT = 'a'.repeat(64);
const UNKNOWN_SNAPSHOT = 'b'.repeat(64);
const clients: TestStomp[] = [];
const requests: ServerToAgent[] = [];

/** A protocol-level agent: takes a search, sends two matches (one of a snapshot no run made), then its finish. */
async function connectAgent() {
  await answeringAgent(t.database.db, base, machineId, clients, (message, send) => {
    if (message.type === 'stopFileSearch') {
      requests.push(message);
      send({ type: 'reply', requestId: message.requestId, success: false, messages: ['not running'] });
    }
    if (message.type !== 'fileSearch') return;
    requests.push(message);
    send({ type: 'reply', requestId: message.requestId, success: true, messages: [] });
    const match = { taskId: message.taskIds[0], type: 'FILE', size: 5, modifiedAt: '2026-01-02T03:04:05.000Z' };
    send({
      type: 'fileSearchMatches',
      searchKey: message.searchKey,
      matches: [
        { ...match, snapshotId: SNAPSHOT, snapshotTime: '2026-01-03T00:00:00.000Z', path: '/docs/report.txt' },
        { ...match, snapshotId: UNKNOWN_SNAPSHOT, snapshotTime: '2026-01-01T00:00:00.000Z', path: '/docs/report.txt' },
      ],
    });
    send({ type: 'fileSearchFinished', searchKey: message.searchKey, outcome: 'COMPLETE', message: null });
  });
}

async function signedIn(email: string) {
  const client = new TestClient(t.app);
  await client.signIn(email, FIXTURE_PASSWORD);
  return client;
}

/** A browser of the signed-in user on the machine's queue: the search updates it hears. */
async function browserOf(client: TestClient, side: 'customer' | 'provider') {
  const browser = stompClient(`${base}${ROUTES.live[side].build()}`, {
    headers: { cookie: `${SESSION_COOKIE}=${client.cookie(SESSION_COOKIE)}`, origin: base.replace('ws://', 'http://') },
  });
  clients.push(browser);
  expect(await browser.connected).toBe('connected');
  const queue = browser.subscribe(machineQueue(side, machineId));
  return {
    subscribed: await browser.sendWithReceipt('SUBSCRIBE', machineQueue(side, machineId)),
    updates: () =>
      queue.messages.flatMap((m) => {
        const update = readFileSearchUpdate(m.body);
        return update ? [update] : [];
      }),
  };
}

beforeAll(async () => {
  t = await createTestApp({}, { live: { options: { askTimeoutMs: 2000 } } });
  tenants = await createTenants(t.database.db);
  const fixtures = backupFixtures(t.database.db);
  const pkg = await fixtures.package(tenants.customerA.customerId);
  machineId = await fixtures.machine(pkg);
  [taskId = 0, otherTaskId = 0] = await createdTasks(t.database.db, machineId, 'Documents', 'Pictures');
  runId = await fixtures.backupRun({ taskId, machineId }, SNAPSHOT);
  base = await listenOnLoopback(t.app);
  await connectAgent();
});

afterEach(() => {
  requests.length = 0;
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.stop()));
  await t?.close();
});

const finishedOf = (updates: FileSearchUpdate[], id: string) =>
  updates.some((u) => u.fileSearchId === id && u.kind === 'finished');

describe('POST /backupmachines/{m}/filesearches', () => {
  it("asks the agent to search the task's snapshots and streams the matches, each with its run, to who asked", async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    const browser = await browserOf(admin, 'customer');
    expect(browser.subscribed).toBe(true);
    const response = await admin.json('POST', ROUTES.fileSearch.start.build({ machineId }), {
      searchId: 'search-0001',
      pattern: '*.txt',
      taskId,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().result).toEqual({ searchId: 'search-0001' });
    expect(requests).toMatchObject([
      { type: 'fileSearch', taskIds: [taskId], pattern: '*.txt', ignoreCase: true, limit: 1000 },
    ]);
    await eventually(() => finishedOf(browser.updates(), 'search-0001'));
    expect(browser.updates()).toEqual([
      {
        fileSearchId: 'search-0001',
        kind: 'matches',
        hits: [
          expect.objectContaining({
            snapshotId: SNAPSHOT,
            runId,
            taskId,
            taskName: 'Documents',
            path: '/docs/report.txt',
            size: 5,
          }),
          expect.objectContaining({ snapshotId: UNKNOWN_SNAPSHOT, runId: null }),
        ],
      },
      { fileSearchId: 'search-0001', kind: 'finished', outcome: 'COMPLETE', message: null },
    ]);
  });

  it('searches every task of the machine without a task, and a history by the exact path, wildcards escaped', async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    const all = await admin.json('POST', ROUTES.fileSearch.start.build({ machineId }), {
      searchId: 'search-0002',
      pattern: 'report',
      ignoreCase: false,
    });
    expect(all.statusCode).toBe(200);
    const history = await admin.json('POST', ROUTES.fileSearch.history.build({ machineId, taskId }), {
      searchId: 'search-0003',
      path: '/docs/a*b.txt',
    });
    expect(history.statusCode).toBe(200);
    expect(requests).toMatchObject([
      { type: 'fileSearch', taskIds: [taskId, otherTaskId].sort((a, b) => a - b), ignoreCase: false },
      { type: 'fileSearch', taskIds: [taskId], pattern: '/docs/a\\*b.txt', ignoreCase: false },
    ]);
    expect(resticTaskTag(taskId)).toBe(`task-${taskId}`);
  });

  it('refuses a pattern the allow-list refuses with 400 on its field, before the agent hears of it', async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    const refused = await admin.json('POST', ROUTES.fileSearch.start.build({ machineId }), {
      searchId: 'search-0004',
      pattern: '--password-command=sh',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().messages[0]).toMatchObject({ fieldName: 'pattern', message: FILE_SEARCH_TEXTS.patternDash });
    expect(requests).toHaveLength(0);
  });

  it('gives another tenant nothing: not the machine, not its task, not a stop, and no match on its queue', async () => {
    const other = await signedIn(tenants.customerB.admin.email);
    // Its browser may not even listen on the machine's queue.
    expect((await browserOf(other, 'customer')).subscribed).toBe(false);
    for (const response of [
      await other.json('POST', ROUTES.fileSearch.start.build({ machineId }), { searchId: 'search-0005', pattern: '*' }),
      await other.json('POST', ROUTES.fileSearch.history.build({ machineId, taskId }), {
        searchId: 'search-0006',
        path: '/docs/report.txt',
      }),
      await other.json('POST', ROUTES.fileSearch.stop.build({ machineId }), { searchId: 'search-0001' }),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(JSON.stringify(response.json())).not.toContain('report');
    }
    expect(requests).toHaveLength(0);
    // The provider reaches the data only with the customer's 'Allow provider machine control'.
    const provider = await signedIn(tenants.providerAdmin.email);
    await t.database.db
      .update(customers)
      .set({ allowProviderMachineControl: false })
      .where(eq(customers.id, tenants.customerA.customerId));
    const body = { searchId: 'search-0007', pattern: '*' };
    expect((await provider.json('POST', ROUTES.fileSearch.start.build({ machineId }), body)).statusCode).toBe(403);
    expect(requests).toHaveLength(0);
    // A user of the customer without the machine assigned does not see it either.
    const user = await signedIn(tenants.customerA.user.email);
    expect((await user.json('POST', ROUTES.fileSearch.start.build({ machineId }), body)).statusCode).toBe(404);
    // A task of another machine is not found on this one.
    const admin = await signedIn(tenants.customerA.admin.email);
    const wrongTask = await admin.json('POST', ROUTES.fileSearch.start.build({ machineId }), {
      ...body,
      taskId: taskId + 1000,
    });
    expect(wrongTask.statusCode).toBe(404);
  });

  it("stops the caller's own search on the agent; one not running answers 400", async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    const response = await admin.json('POST', ROUTES.fileSearch.stop.build({ machineId }), { searchId: 'search-0001' });
    expect(response.statusCode).toBe(400);
    expect(response.json().messages[0].message).toBe(FILE_SEARCH_TEXTS.notRunning);
    expect(requests).toMatchObject([
      { type: 'stopFileSearch', searchKey: `search:${tenants.customerA.admin.id}:customer:search-0001` },
    ]);
  });
});
