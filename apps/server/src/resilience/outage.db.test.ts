import type { AddressInfo } from 'node:net';
import { AGENT_CHANNEL, machineQueue, ROUTES, type ServerToAgent } from '@portal/domain';
import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, isDatabaseUnavailable, openDatabase } from '../db/client.js';
import { eventually, stompClient, type TestStomp } from '../features/live/testing.js';
import { createMachineCredentials, type MachineCredential } from '../features/machine-auth/credentials.js';
import { SESSION_COOKIE } from '../http/request-context.js';
import { openRedis } from '../redis.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { backupFixtures } from '../testing/backup-fixtures.js';
import { TestClient } from '../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../testing/fixtures.js';
import {
  missingServerBinaries,
  type OwnPostgres,
  type OwnRedis,
  startOwnPostgres,
  startOwnRedis,
} from '../testing/own-servers.js';

/**
 * Issue 18, resilience: the real app on a PostgreSQL cluster and a Redis server of this test's own, each stopped
 * and started again while a browser's live connection and an agent's are open.
 */
const missing = missingServerBinaries();
if (missing) console.warn(`resilience tests skipped: ${missing}`);

const urlOf = (t: TestApp) => `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
const stillOpen = async (client: TestStomp) =>
  (await Promise.race([client.closed.then(() => false), new Promise((r) => setTimeout(() => r(true), 200))])) === true;

async function signedInBrowser(t: TestApp, email: string, machineId: number) {
  const session = new TestClient(t.app);
  await session.signIn(email, FIXTURE_PASSWORD);
  const browser = stompClient(`${urlOf(t)}${ROUTES.live.customer.build()}`, {
    headers: { cookie: `${SESSION_COOKIE}=${session.cookie(SESSION_COOKIE)}`, origin: 'http://portal.test' },
  });
  expect(await browser.connected).toBe('connected');
  const queue = browser.subscribe(machineQueue('customer', machineId));
  await browser.sendWithReceipt('SUBSCRIBE', machineQueue('customer', machineId));
  return { session, browser, queue };
}

async function connectedAgent(t: TestApp, credential: MachineCredential) {
  const agent = stompClient(`${urlOf(t)}${AGENT_CHANNEL.endpoint}`, {
    connectHeaders: { login: String(credential.machineId), passcode: credential.token },
  });
  expect(await agent.connected).toBe('connected');
  const commands = agent.subscribe(AGENT_CHANNEL.commands);
  await agent.sendWithReceipt('SUBSCRIBE', AGENT_CHANNEL.commands);
  await eventually(() => t.app.live.hasLocalAgent(credential.machineId));
  return {
    agent,
    received: (requestId: string) =>
      commands.messages.some((m) => (JSON.parse(m.body) as { requestId?: string }).requestId === requestId),
  };
}

async function machineWithCredential(database: Database, tenants: Tenants) {
  const fixtures = backupFixtures(database.db);
  const machineId = await fixtures.machine(await fixtures.package(tenants.customerA.customerId));
  const credential = await createMachineCredentials(database.db).issue(machineId);
  if (!credential) throw new Error('no credential');
  return credential;
}

describe.skipIf(missing)('PostgreSQL stopped and started again', () => {
  let postgres: OwnPostgres;
  let database: Database;
  let t: TestApp;
  const clients: TestStomp[] = [];

  beforeAll(async () => {
    postgres = await startOwnPostgres();
    database = await openDatabase({
      databaseUrl: postgres.url,
      dataDir: 'memory://',
      timeouts: { connectTimeoutMs: 2_000, queryTimeoutMs: 10_000 },
    });
    await database.migrate();
    t = await createTestApp({}, { database });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.stop()));
    await t?.close();
    await database?.close();
    await postgres?.remove();
  });

  it('answers 503 envelopes within 5 s, reports the database down, keeps live sockets open and recovers', async () => {
    const tenants = await createTenants(database.db);
    const credential = await machineWithCredential(database, tenants);
    const { session, browser } = await signedInBrowser(t, tenants.customerA.admin.email, credential.machineId);
    const { agent } = await connectedAgent(t, credential);
    clients.push(browser, agent);
    expect((await session.json('GET', ROUTES.profile.get.build())).statusCode).toBe(200);

    // A write in flight when the server stops is rolled back whole.
    await database.db.execute(sql`create table resilience_probe (step int not null)`);
    const interrupted = database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into resilience_probe values (1)`);
        await tx.execute(sql`select pg_sleep(5)`);
        await tx.execute(sql`insert into resilience_probe values (2)`);
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    await new Promise((resolve) => setTimeout(resolve, 300));
    await postgres.stop();
    expect(isDatabaseUnavailable(await interrupted)).toBe(true);

    const started = Date.now();
    const profile = await session.json('GET', ROUTES.profile.get.build());
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(profile.statusCode).toBe(503);
    expect(profile.json()).toMatchObject({
      status: 'ERROR',
      responseSummaryCode: 'SERVICE_UNAVAILABLE',
      messages: [{ type: 'ERROR', message: 'The service is temporarily unavailable. Please try again in a moment.' }],
    });
    const healthStarted = Date.now();
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    expect(Date.now() - healthStarted).toBeLessThan(5_000);
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({
      responseSummaryCode: 'SERVICE_UNAVAILABLE',
      result: { status: 'down', database: 'down', databaseKind: 'postgres' },
    });
    expect(await stillOpen(browser)).toBe(true);
    expect(await stillOpen(agent)).toBe(true);

    await postgres.start();
    await eventually(async () => (await t.app.inject({ method: 'GET', url: '/health' })).statusCode === 200, 15_000);
    expect((await session.json('GET', ROUTES.profile.get.build())).statusCode).toBe(200);
    const rows = await database.db.execute(sql`select count(*)::int as n from resilience_probe`);
    expect((rows as unknown as { rows: Array<{ n: number }> }).rows[0]?.n).toBe(0);
    expect(await stillOpen(browser)).toBe(true);
    expect(await stillOpen(agent)).toBe(true);
  });
});

describe.skipIf(missing)('Redis stopped and started again', () => {
  let redisServer: OwnRedis;
  let database: Database;
  const redis: Redis[] = [];
  let a: TestApp;
  let b: TestApp;
  const clients: TestStomp[] = [];

  beforeAll(async () => {
    redisServer = await startOwnRedis();
    database = await openDatabase({ dataDir: 'memory://' });
    await database.migrate();
    redis.push(await openRedis(redisServer.url), await openRedis(redisServer.url));
    a = await createTestApp({}, { database, redis: redis[0] });
    b = await createTestApp({}, { database, redis: redis[1] });
    await a.app.listen({ port: 0, host: '127.0.0.1' });
    await b.app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.stop()));
    await a?.close();
    await b?.close();
    for (const connection of redis) connection.disconnect();
    await database?.close();
    await redisServer?.stop();
  });

  it('keeps each instance serving its own connections, reports the degradation and shares again once back', async () => {
    const tenants = await createTenants(database.db);
    const onA = await machineWithCredential(database, tenants);
    const onB = await machineWithCredential(database, tenants);
    const { browser, queue } = await signedInBrowser(a, tenants.customerA.admin.email, onA.machineId);
    const agentA = await connectedAgent(a, onA);
    const agentB = await connectedAgent(b, onB);
    clients.push(browser, agentA.agent, agentB.agent);
    const command = (requestId: string): ServerToAgent => ({ type: 'refreshStorage', requestId });

    expect(await a.app.live.sendToMachine(onB.machineId, command('before'))).toBe(true);
    await eventually(() => agentB.received('before'));

    await redisServer.stop();
    await eventually(() => redis[0]?.status !== 'ready' && redis[1]?.status !== 'ready');
    const health = await a.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json().result).toMatchObject({ status: 'degraded', database: 'up', redis: 'down' });
    // A's own agent and browser are still served by A.
    await a.app.live.sendToMachine(onA.machineId, command('while-down'));
    await eventually(() => agentA.received('while-down'));
    const message = queue.next();
    await a.app.live.publishToMachineQueue(onA.machineId, 'customer', { during: 'outage' });
    expect(JSON.parse((await message).body)).toEqual({ during: 'outage' });
    for (const client of clients) expect(await stillOpen(client)).toBe(true);

    await redisServer.start();
    await eventually(
      async () => (await a.app.inject({ method: 'GET', url: '/health' })).json().result.redis === 'up',
      15_000,
    );
    // Cross-instance delivery resumes once both subscribers are back (ioredis reconnects on its own).
    let attempt = 0;
    await eventually(async () => {
      attempt += 1;
      await a.app.live.sendToMachine(onB.machineId, command(`after-${attempt}`));
      await new Promise((resolve) => setTimeout(resolve, 100));
      return agentB.received(`after-${attempt}`);
    }, 15_000);
    for (const client of clients) expect(await stillOpen(client)).toBe(true);
  });
});
