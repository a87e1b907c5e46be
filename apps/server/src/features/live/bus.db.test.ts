import type { AddressInfo } from 'node:net';
import { AGENT_CHANNEL, DASHBOARD_TOPICS, machineQueue, ROUTES } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { SESSION_COOKIE } from '../../http/request-context.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { openTestDatabase } from '../../testing/database.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { createMachineCredentials, type MachineCredential } from '../machine-auth/credentials.js';
import { createInProcessBus, type LiveBus } from './bus.js';
import { eventually, stompClient, type TestStomp } from './testing.js';

/**
 * Two server instances on one database. With REDIS_URL set they share the channel through Redis
 * (createTestApp opens it, buildApp picks the Redis bus); without it, through one in-process bus that
 * claims to be shared, which exercises the same cross-instance paths.
 */
const withRedis = Boolean(process.env.REDIS_URL);

let database: Database;
let a: TestApp;
let b: TestApp;
let tenants: Tenants;
let machineId: number;
let credential: MachineCredential;
const clients: TestStomp[] = [];

const urlOf = (t: TestApp) => `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;

beforeAll(async () => {
  database = await openTestDatabase();
  const sharedBus: LiveBus | undefined = withRedis ? undefined : { ...createInProcessBus(), shared: true };
  const live = sharedBus ? { bus: sharedBus } : {};
  a = await createTestApp({}, { database, live });
  b = await createTestApp({}, { database, live });
  tenants = await createTenants(database.db);
  const fixtures = backupFixtures(database.db);
  machineId = await fixtures.machine(await fixtures.package(tenants.customerA.customerId));
  const issued = await createMachineCredentials(database.db).issue(machineId);
  if (!issued) throw new Error('no credential');
  credential = issued;
  await a.app.listen({ port: 0, host: '127.0.0.1' });
  await b.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.stop()));
  await a?.close();
  await b?.close();
  await database?.close();
});

describe(`two instances sharing the channel (${withRedis ? 'Redis' : 'in-process'} bus)`, () => {
  it('reaches a browser on A from B, and an agent on B from A', async () => {
    const signIn = new TestClient(a.app);
    await signIn.signIn(tenants.customerA.admin.email, FIXTURE_PASSWORD);
    const browser = stompClient(`${urlOf(a)}${ROUTES.live.customer.build()}`, {
      headers: { cookie: `${SESSION_COOKIE}=${signIn.cookie(SESSION_COOKIE)}`, origin: 'http://portal.test' },
    });
    clients.push(browser);
    expect(await browser.connected).toBe('connected');
    const queue = browser.subscribe(machineQueue('customer', machineId));
    await browser.sendWithReceipt('SUBSCRIBE', machineQueue('customer', machineId));
    const message = queue.next();
    await b.app.live.publishToMachineQueue(machineId, 'customer', { from: 'B' });
    expect(JSON.parse((await message).body)).toEqual({ from: 'B' });

    const agentOnB = stompClient(`${urlOf(b)}${AGENT_CHANNEL.endpoint}`, {
      connectHeaders: { login: String(machineId), passcode: credential.token },
    });
    clients.push(agentOnB);
    expect(await agentOnB.connected).toBe('connected');
    const commands = agentOnB.subscribe(AGENT_CHANNEL.commands);
    // A receipted frame after the subscription proves the server has made it.
    await agentOnB.sendWithReceipt('SUBSCRIBE', AGENT_CHANNEL.commands);
    const command = commands.next();
    expect(a.app.live.hasLocalAgent(machineId)).toBe(false);
    await eventually(() => b.app.live.hasLocalAgent(machineId));
    expect(await a.app.live.sendToMachine(machineId, { type: 'refreshStorage', requestId: 'x' })).toBe(true);
    expect(JSON.parse((await command).body)).toEqual({ type: 'refreshStorage', requestId: 'x' });

    // A newer connection on A replaces the one on B; revocation through A closes it.
    const agentOnA = stompClient(`${urlOf(a)}${AGENT_CHANNEL.endpoint}`, {
      connectHeaders: { login: String(machineId), passcode: credential.token },
    });
    clients.push(agentOnA);
    expect(await agentOnA.connected).toBe('connected');
    await agentOnB.closed;
    expect(agentOnB.errors[0]?.headers.message).toBe('Replaced by a newer connection');
    await b.app.live.disconnectMachine(machineId);
    await agentOnA.closed;
    expect(agentOnA.errors[0]?.headers.message).toBe('Machine credential revoked');
    await eventually(
      async () => !(await b.app.live.sendToMachine(machineId, { type: 'refreshStorage', requestId: 'y' })),
    );
  });

  it("answers an HTTP tree request on A with the reply of the agent connected to B, and the dashboards on A hear of B's changes", async () => {
    const agentOnB = stompClient(`${urlOf(b)}${AGENT_CHANNEL.endpoint}`, {
      connectHeaders: { login: String(machineId), passcode: credential.token },
    });
    clients.push(agentOnB);
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
    await eventually(() => b.app.live.hasLocalAgent(machineId));

    const admin = new TestClient(a.app);
    await admin.signIn(tenants.customerA.admin.email, FIXTURE_PASSWORD);
    const tree = await admin.json('POST', ROUTES.treeItems.list.build({ machineId }), {
      treeItemsRequestId: 'cross',
      path: '/srv',
    });
    expect(tree.statusCode).toBe(200);
    expect(tree.json().result).toMatchObject({ treeItemsRequestId: 'cross', treeItems: [] });

    const browser = stompClient(`${urlOf(a)}${ROUTES.live.customer.build()}`, {
      headers: { cookie: `${SESSION_COOKIE}=${admin.cookie(SESSION_COOKIE)}`, origin: 'http://portal.test' },
    });
    clients.push(browser);
    expect(await browser.connected).toBe('connected');
    const dashboard = browser.subscribe(DASHBOARD_TOPICS.customer);
    await browser.sendWithReceipt('SUBSCRIBE', DASHBOARD_TOPICS.customer);
    const change = dashboard.next();
    b.app.live.machinesChanged([machineId]);
    expect(JSON.parse((await change).body)).toEqual({ type: 'dashboardChanged', machineIds: [machineId] });
  });
});
