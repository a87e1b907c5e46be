import { MESSAGES, machineQueue, ROUTES, type ServerToAgent, type TreeItem, WS_SEND_PREFIXES } from '@portal/domain';
import { treeItem } from '@portal/domain/testing/tree-items';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '../../db/schema/index.js';
import { SESSION_COOKIE } from '../../http/request-context.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { answeringAgent } from '../../testing/listening-apps.js';
import { listenOnLoopback, stompClient, type TestStomp } from '../live/testing.js';

/** POST /backupmachines/{id}/treeitems (002 §7.8): the agent answers over the live channel. */

let t: TestApp;
let tenants: Tenants;
let base: string;
const machines = { assigned: 0, unassigned: 0, offline: 0 };
const agents: TestStomp[] = [];
const requests: ServerToAgent[] = [];

/** A protocol-level agent that lists two folders under any path, fails for /denied and is silent for /silent. */
async function connectAgent(machineId: number) {
  await answeringAgent(t.database.db, base, machineId, agents, (message, send) => {
    requests.push(message);
    if (message.type !== 'treeItems' || message.path === '/silent') return;
    const denied = message.path === '/denied';
    send({
      type: 'reply',
      requestId: message.requestId,
      success: !denied,
      messages: denied ? ['Permission denied: /denied'] : [],
      payload: denied ? undefined : { treeItems: [treeItem(`${message.path}/a`), treeItem(`${message.path}/b`)] },
    });
  });
}

/** Sets customer A's 'Allow provider machine control' (its account page). */
async function allowProviderControl(allow: boolean) {
  await t.database.db
    .update(customers)
    .set({ allowProviderMachineControl: allow })
    .where(eq(customers.id, tenants.customerA.customerId));
}

async function signedIn(email: string) {
  const client = new TestClient(t.app);
  await client.signIn(email, FIXTURE_PASSWORD);
  return client;
}

beforeAll(async () => {
  t = await createTestApp({}, { live: { options: { askTimeoutMs: 500 } } });
  tenants = await createTenants(t.database.db);
  const fixtures = backupFixtures(t.database.db);
  const pkg = await fixtures.package(tenants.customerA.customerId);
  machines.assigned = await fixtures.machine(pkg, { assignedUserId: tenants.customerA.user.id });
  machines.unassigned = await fixtures.machine(pkg);
  machines.offline = await fixtures.machine(pkg);
  base = await listenOnLoopback(t.app);
  await connectAgent(machines.assigned);
  await connectAgent(machines.unassigned);
});

afterEach(() => {
  requests.length = 0;
});

afterAll(async () => {
  await Promise.all(agents.map((a) => a.stop()));
  await t?.close();
});

describe('POST /backupmachines/{id}/treeitems', () => {
  it("answers with the agent's children of the path and the browser's request id", async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    const response = await admin.json('POST', ROUTES.treeItems.list.build({ machineId: machines.assigned }), {
      treeItemsRequestId: 'tree-1',
      type: 'DIRECTORY',
      local: true,
      path: '/home',
      selected: false,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe('OK');
    expect(body.result.responseSummaryCode).toBe('OK');
    expect(body.result.treeItemsRequestId).toBe('tree-1');
    expect(body.result.treeItems.map((i: TreeItem) => i.value)).toEqual(['/home/a', '/home/b']);
    expect(requests).toMatchObject([
      { type: 'treeItems', path: '/home', includeHidden: true, backupType: 'FILES_AND_FOLDERS' },
    ]);
  });

  it("asks the agent for a cPanel or DirectAdmin task's tree by the task's type (issue 14)", async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    for (const type of ['CPANEL', 'DIRECT_ADMIN'] as const) {
      const response = await admin.json('POST', ROUTES.treeItems.list.build({ machineId: machines.assigned }), {
        treeItemsRequestId: `tree-${type}`,
        type,
        path: '',
      });
      expect(response.statusCode).toBe(200);
    }
    expect(requests.map((r) => (r.type === 'treeItems' ? r.backupType : r.type))).toEqual(['CPANEL', 'DIRECT_ADMIN']);
  });

  it('keeps to who may see the machine: its user, the customer admin, the provider; no other tenant', async () => {
    const body = { treeItemsRequestId: 7, path: '' };
    const user = await signedIn(tenants.customerA.user.email);
    expect(
      (await user.json('POST', ROUTES.treeItems.list.build({ machineId: machines.assigned }), body)).statusCode,
    ).toBe(200);
    expect(
      (await user.json('POST', ROUTES.treeItems.list.build({ machineId: machines.unassigned }), body)).statusCode,
    ).toBe(404);
    await allowProviderControl(true);
    const provider = await signedIn(tenants.providerAdmin.email);
    expect(
      (await provider.json('POST', ROUTES.treeItems.list.build({ machineId: machines.unassigned }), body)).statusCode,
    ).toBe(200);
    const other = await signedIn(tenants.customerB.admin.email);
    const refused = await other.json('POST', ROUTES.treeItems.list.build({ machineId: machines.assigned }), body);
    expect(refused.statusCode).toBe(404);
    expect(JSON.stringify(refused.json())).not.toContain('/a');
    expect(requests).toHaveLength(2);
    // Without a session (nor a CSRF token): 401, before anything else (issue 29).
    const anonymous = new TestClient(t.app);
    expect(
      (await anonymous.json('POST', ROUTES.treeItems.list.build({ machineId: machines.assigned }), body)).statusCode,
    ).toBe(401);
    expect(requests).toHaveLength(2);
  });

  it("answers an offline machine at once, the agent's failure with its message, and a silent agent after the wait", async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    const offline = await admin.json('POST', ROUTES.treeItems.list.build({ machineId: machines.offline }), {
      treeItemsRequestId: 'x',
      path: '',
    });
    expect(offline.statusCode).toBe(409);
    expect(offline.json().messages[0].message).toBe('The backup machine is offline; try again when it is connected.');

    const denied = await admin.json('POST', ROUTES.treeItems.list.build({ machineId: machines.assigned }), {
      treeItemsRequestId: 'x',
      path: '/denied',
    });
    expect(denied.statusCode).toBe(502);
    expect(denied.json().messages[0].message).toBe('Permission denied: /denied');

    const silent = await admin.json('POST', ROUTES.treeItems.list.build({ machineId: machines.assigned }), {
      treeItemsRequestId: 'x',
      path: '/silent',
    });
    expect(silent.statusCode).toBe(504);
    expect(silent.json().messages[0].message).toBe('Error in retrieving tree items from backup machine.');
  });

  it('refuses a bad body or id with 400', async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    expect(
      (await admin.json('POST', ROUTES.treeItems.list.build({ machineId: machines.assigned }), { path: '/home' }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await admin.json('POST', ROUTES.treeItems.list.build({ machineId: machines.assigned }), {
          treeItemsRequestId: 'x',
          path: 'p'.repeat(5000),
        })
      ).statusCode,
    ).toBe(400);
    expect((await admin.json('POST', '/backupmachines/abc/treeitems', { treeItemsRequestId: 'x' })).statusCode).toBe(
      400,
    );
    expect(requests).toHaveLength(0);
  });

  it('lists nothing for a provider admin while the customer does not allow provider machine control, over HTTP or the channel', async () => {
    await allowProviderControl(false);
    const provider = await signedIn(tenants.providerAdmin.email);
    const refused = await provider.json('POST', ROUTES.treeItems.list.build({ machineId: machines.unassigned }), {
      treeItemsRequestId: 1,
      path: '',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().messages[0].message).toBe(MESSAGES.forbidden);

    const browser = stompClient(`${base}${ROUTES.live.provider.build()}`, {
      headers: {
        cookie: `${SESSION_COOKIE}=${provider.cookie(SESSION_COOKIE)}`,
        origin: base.replace('ws://', 'http://'),
      },
    });
    agents.push(browser);
    expect(await browser.connected).toBe('connected');
    const queue = browser.subscribe(machineQueue('provider', machines.unassigned));
    const ask = async (treeItemsRequestId: string) => {
      const reply = queue.next();
      const destination = `${WS_SEND_PREFIXES.provider}/backupmachines/${machines.unassigned}/localtreeitems`;
      expect(
        await browser.sendWithReceipt('SEND', destination, JSON.stringify({ treeItemsRequestId, path: '/home' })),
      ).toBe(true);
      const body = JSON.parse((await reply).body);
      return { requestId: body.treeItemsRequestId, ...JSON.parse(body.responsePayloadJson) };
    };
    expect(await ask('off')).toMatchObject({
      requestId: 'off',
      success: false,
      messages: [{ type: 'ERROR', message: MESSAGES.forbidden }],
      treeItems: [],
    });
    expect(requests).toHaveLength(0);

    // Allowed again, the same request goes through: the refusal above was the rule, not the test.
    await allowProviderControl(true);
    const listed = await ask('on');
    expect(listed).toMatchObject({ requestId: 'on', success: true });
    expect(listed.treeItems.map((i: TreeItem) => i.value)).toEqual(['/home/a', '/home/b']);
  });
});
