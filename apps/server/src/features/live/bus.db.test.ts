import { AGENT_CHANNEL, DASHBOARD_TOPICS, ROUTES } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { TestClient } from '../../testing/client.js';
import { openTestDatabase } from '../../testing/database.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import {
  type AppExtra,
  connectedAgent,
  type ListeningApp,
  type ListeningApps,
  listeningApps,
  machineWithCredential,
  signedInBrowser,
} from '../../testing/listening-apps.js';
import { browserStomp } from '../../testing/stomp.js';
import type { MachineCredential } from '../machine-auth/credentials.js';
import { createInProcessBus, type LiveBus } from './bus.js';
import { eventually, stompClient } from './testing.js';

/**
 * Two server instances on one database. With REDIS_URL set they share the channel through Redis
 * (createTestApp opens it, buildApp picks the Redis bus); without it, through one in-process bus that
 * claims to be shared, which exercises the same cross-instance paths.
 */
const withRedis = Boolean(process.env.REDIS_URL);

let database: Database;
let instances: ListeningApps<[AppExtra, AppExtra]>;
let a: ListeningApp;
let b: ListeningApp;
let tenants: Tenants;
let machineId: number;
let credential: MachineCredential;

beforeAll(async () => {
  database = await openTestDatabase();
  const sharedBus: LiveBus | undefined = withRedis ? undefined : { ...createInProcessBus(), shared: true };
  const live = sharedBus ? { bus: sharedBus } : {};
  instances = await listeningApps(database, [{ live }, { live }]);
  [a, b] = instances.apps;
  tenants = await createTenants(database.db);
  credential = await machineWithCredential(database.db, tenants);
  machineId = credential.machineId;
});

afterAll(async () => {
  await instances?.close();
  await database?.close();
});

describe(`two instances sharing the channel (${withRedis ? 'Redis' : 'in-process'} bus)`, () => {
  it('reaches a browser on A from B, and an agent on B from A', async () => {
    const { browser, queue } = await signedInBrowser(a, tenants.customerA.admin.email, machineId);
    instances.clients.push(browser);
    const message = queue.next();
    await b.t.app.live.publishToMachineQueue(machineId, 'customer', { from: 'B' });
    expect(JSON.parse((await message).body)).toEqual({ from: 'B' });

    const { agent: agentOnB, commands } = await connectedAgent(b, credential);
    instances.clients.push(agentOnB);
    const command = commands.next();
    expect(a.t.app.live.hasLocalAgent(machineId)).toBe(false);
    expect(await a.t.app.live.sendToMachine(machineId, { type: 'refreshStorage', requestId: 'x' })).toBe(true);
    expect(JSON.parse((await command).body)).toEqual({ type: 'refreshStorage', requestId: 'x' });

    // A newer connection on A replaces the one on B; revocation through A closes it.
    const agentOnA = stompClient(`${a.base}${AGENT_CHANNEL.endpoint}`, {
      connectHeaders: { login: String(machineId), passcode: credential.token },
    });
    instances.clients.push(agentOnA);
    expect(await agentOnA.connected).toBe('connected');
    await agentOnB.closed;
    expect(agentOnB.errors[0]?.headers.message).toBe('Replaced by a newer connection');
    await b.t.app.live.disconnectMachine(machineId);
    await agentOnA.closed;
    expect(agentOnA.errors[0]?.headers.message).toBe('Machine credential revoked');
    await eventually(
      async () => !(await b.t.app.live.sendToMachine(machineId, { type: 'refreshStorage', requestId: 'y' })),
    );
  });

  it("answers an HTTP tree request on A with the reply of the agent connected to B, and the dashboards on A hear of B's changes", async () => {
    const agentOnB = stompClient(`${b.base}${AGENT_CHANNEL.endpoint}`, {
      connectHeaders: { login: String(machineId), passcode: credential.token },
    });
    instances.clients.push(agentOnB);
    expect(await agentOnB.connected).toBe('connected');
    agentOnB.client.subscribe(AGENT_CHANNEL.commands, (frame) => {
      const request = JSON.parse(frame.body) as { type: string; requestId: string; path: string };
      if (request.type !== 'treeItems') return;
      agentOnB.client.publish({
        destination: AGENT_CHANNEL.events,
        body: JSON.stringify({
          type: 'reply',
          requestId: request.requestId,
          success: true,
          messages: [],
          payload: { treeItems: [] },
        }),
      });
    });
    await agentOnB.sendWithReceipt('SUBSCRIBE', AGENT_CHANNEL.commands);
    await eventually(() => b.t.app.live.hasLocalAgent(machineId));

    const admin = new TestClient(a.t.app);
    await admin.signIn(tenants.customerA.admin.email, FIXTURE_PASSWORD);
    const tree = await admin.json('POST', ROUTES.treeItems.list.build({ machineId }), {
      treeItemsRequestId: 'cross',
      path: '/srv',
    });
    expect(tree.statusCode).toBe(200);
    expect(tree.json().result).toMatchObject({ treeItemsRequestId: 'cross', treeItems: [] });

    const browser = browserStomp(admin, `${a.base}${ROUTES.live.customer.build()}`);
    instances.clients.push(browser);
    expect(await browser.connected).toBe('connected');
    const dashboard = browser.subscribe(DASHBOARD_TOPICS.customer);
    await browser.sendWithReceipt('SUBSCRIBE', DASHBOARD_TOPICS.customer);
    const change = dashboard.next();
    b.t.app.live.machinesChanged([machineId]);
    expect(JSON.parse((await change).body)).toEqual({ type: 'dashboardChanged', machineIds: [machineId] });
  });
});
