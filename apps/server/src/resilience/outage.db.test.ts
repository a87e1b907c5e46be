import { AGENT_CHANNEL, ROUTES, type ServerToAgent } from '@portal/domain';
import { eq, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, isDatabaseUnavailable, openDatabase } from '../db/client.js';
import { backupMachines } from '../db/schema/index.js';
import { eventually, type TestStomp } from '../features/live/testing.js';
import { openRedis } from '../redis.js';
import type { TestApp } from '../testing/app.js';
import { createTenants, type Tenants } from '../testing/fixtures.js';
import {
  type AppExtra,
  connectedAgent,
  type ListeningApps,
  listeningApps,
  machineWithCredential,
  signedInBrowser,
} from '../testing/listening-apps.js';
import { capturedDebugLog } from '../testing/log.js';
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

const stillOpen = async (client: TestStomp) =>
  (await Promise.race([client.closed.then(() => false), new Promise((r) => setTimeout(() => r(true), 200))])) === true;

/** How long an agent's event waits for the database here (production: 30 s). */
const EVENT_RETRY_MS = 6_000;

/** An agent's report of its used space, sent with a receipt: true once the portal acknowledged it. */
const reportUsage = (agent: TestStomp, usedSpaceBytes: number) =>
  agent.sendWithReceipt('SEND', AGENT_CHANNEL.events, JSON.stringify({ type: 'usage', usedSpaceBytes }));

describe.skipIf(missing)('PostgreSQL stopped and started again', () => {
  let postgres: OwnPostgres;
  let database: Database;
  let instance: ListeningApps<[AppExtra]>;
  let t: TestApp;
  let tenants: Tenants;

  beforeAll(async () => {
    postgres = await startOwnPostgres();
    database = await openDatabase({
      databaseUrl: postgres.url,
      dataDir: 'memory://',
      timeouts: { connectTimeoutMs: 2_000, queryTimeoutMs: 10_000 },
    });
    await database.migrate();
    instance = await listeningApps(database, [{ live: { options: { eventRetryMs: EVENT_RETRY_MS } } }]);
    t = instance.apps[0].t;
    tenants = await createTenants(database.db);
  });

  afterAll(async () => {
    await instance?.close();
    await database?.close();
    await postgres?.remove();
  });

  it('answers 503 envelopes within 5 s, reports the database down, keeps live sockets open and recovers', async () => {
    const credential = await machineWithCredential(database.db, tenants);
    const [app] = instance.apps;
    const { session, browser } = await signedInBrowser(app, tenants.customerA.admin.email, credential.machineId);
    const { agent } = await connectedAgent(app, credential);
    instance.clients.push(browser, agent);
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
    expect(profile.headers['retry-after']).toBe('5');
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

    // An event the agent sends meanwhile waits for the database: no receipt (the agent keeps it) until it is stored.
    let receipted = false;
    const stored = reportUsage(agent, 4_242).then((ok) => {
      receipted = ok;
      return ok;
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receipted).toBe(false);

    await postgres.start();
    await eventually(async () => (await t.app.inject({ method: 'GET', url: '/health' })).statusCode === 200, 15_000);
    expect((await session.json('GET', ROUTES.profile.get.build())).statusCode).toBe(200);
    expect(await stored).toBe(true);
    const usedSpace = async () =>
      (
        await database.db
          .select({ used: backupMachines.usedSpaceBytes })
          .from(backupMachines)
          .where(eq(backupMachines.id, credential.machineId))
      )[0]?.used;
    expect(await usedSpace()).toBe(4_242);
    const rows = await database.db.execute(sql`select count(*)::int as n from resilience_probe`);
    expect((rows as unknown as { rows: Array<{ n: number }> }).rows[0]?.n).toBe(0);
    expect(await stillOpen(browser)).toBe(true);
    expect(await stillOpen(agent)).toBe(true);

    // Away for longer than an event may wait: the agent's connection ends with an ERROR and no receipt, so the
    // agent sends the event again once it has reconnected; nothing was stored meanwhile.
    await postgres.stop();
    const waited = Date.now();
    expect(await reportUsage(agent, 5_353)).toBe(false);
    expect(Date.now() - waited).toBeGreaterThanOrEqual(EVENT_RETRY_MS);
    expect(agent.errors.map((f) => f.headers.message)).toEqual(['The event could not be stored now; send it again']);
    await agent.closed;
    await postgres.start();
    await eventually(async () => (await t.app.inject({ method: 'GET', url: '/health' })).statusCode === 200, 15_000);
    expect(await usedSpace()).toBe(4_242);
  });

  it('stops retrying an event the database cannot take once the instance closes (a restart under overload)', async () => {
    // An instance whose events would wait half a minute for the database, as in production.
    const log = capturedDebugLog();
    const patient = await listeningApps(database, [
      { live: { options: { eventRetryMs: 30_000 } }, logger: log.logger },
    ]);
    const credential = await machineWithCredential(database.db, tenants);
    const { agent } = await connectedAgent(patient.apps[0], credential);
    patient.clients.push(agent);
    const givenUp = () => log.text().includes('live channel agent event not stored');
    await postgres.stop();
    try {
      const receipt = reportUsage(agent, 6_464);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(givenUp()).toBe(false);
      await patient.apps[0].t.close();
      expect(await receipt).toBe(false);
      // Given up with the close, not 30 s later: its agent sends it to the next instance, and nothing of the closed
      // instance keeps asking the database.
      await eventually(givenUp, 4_000);
    } finally {
      await postgres.start();
      await Promise.all(patient.clients.map((c) => c.stop()));
    }
  });
});

describe.skipIf(missing)('Redis stopped and started again', () => {
  let redisServer: OwnRedis;
  let database: Database;
  const redis: Redis[] = [];
  let instances: ListeningApps<[AppExtra, AppExtra]>;

  beforeAll(async () => {
    redisServer = await startOwnRedis();
    database = await openDatabase({ dataDir: 'memory://' });
    await database.migrate();
    redis.push(await openRedis(redisServer.url), await openRedis(redisServer.url));
    instances = await listeningApps(database, [{ redis: redis[0] }, { redis: redis[1] }]);
  });

  afterAll(async () => {
    await instances?.close();
    for (const connection of redis) connection.disconnect();
    await database?.close();
    await redisServer?.stop();
  });

  it('keeps each instance serving its own connections, reports the degradation and shares again once back', async () => {
    const tenants = await createTenants(database.db);
    const onA = await machineWithCredential(database.db, tenants);
    const onB = await machineWithCredential(database.db, tenants);
    const [a, b] = instances.apps;
    const { browser, queue } = await signedInBrowser(a, tenants.customerA.admin.email, onA.machineId);
    const agentA = await connectedAgent(a, onA);
    const agentB = await connectedAgent(b, onB);
    const { clients } = instances;
    clients.push(browser, agentA.agent, agentB.agent);
    const command = (requestId: string): ServerToAgent => ({ type: 'refreshStorage', requestId });

    expect(await a.t.app.live.sendToMachine(onB.machineId, command('before'))).toBe(true);
    await eventually(() => agentB.received('before'));

    await redisServer.stop();
    await eventually(() => redis[0]?.status !== 'ready' && redis[1]?.status !== 'ready');
    const health = await a.t.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json().result).toMatchObject({ status: 'degraded', database: 'up', redis: 'down' });
    // A's own agent and browser are still served by A.
    await a.t.app.live.sendToMachine(onA.machineId, command('while-down'));
    await eventually(() => agentA.received('while-down'));
    const message = queue.next();
    await a.t.app.live.publishToMachineQueue(onA.machineId, 'customer', { during: 'outage' });
    expect(JSON.parse((await message).body)).toEqual({ during: 'outage' });
    for (const client of clients) expect(await stillOpen(client)).toBe(true);

    await redisServer.start();
    await eventually(
      async () => (await a.t.app.inject({ method: 'GET', url: '/health' })).json().result.redis === 'up',
      15_000,
    );
    // Cross-instance delivery resumes once both subscribers are back (ioredis reconnects on its own).
    let attempt = 0;
    await eventually(async () => {
      attempt += 1;
      await a.t.app.live.sendToMachine(onB.machineId, command(`after-${attempt}`));
      await new Promise((resolve) => setTimeout(resolve, 100));
      return agentB.received(`after-${attempt}`);
    }, 15_000);
    for (const client of clients) expect(await stillOpen(client)).toBe(true);
  });
});
