import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_CHANNEL, ROUTES, SERVICE_RESTART_CLOSE } from '@portal/domain';
import { agentHello } from '@portal/domain/testing/agent-task';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { AgentChannel } from '../../../agent/src/channel.js';
import { type Database, openDatabase } from '../db/client.js';
import { auditEvents } from '../db/schema/index.js';
import { eventually } from '../features/live/testing.js';
import { createMachineCredentials, type MachineCredential } from '../features/machine-auth/credentials.js';
import { backupFixtures } from '../testing/backup-fixtures.js';
import { createTenants, type Tenants } from '../testing/fixtures.js';
import { type Instance, signIn, startInstance } from '../testing/instances.js';
import { missingServerBinaries, type OwnPostgres, startOwnPostgres } from '../testing/own-servers.js';

/**
 * Issue 18, graceful shutdown: the server process (apps/server/dist/main.js when built) gets SIGTERM while a request is in
 * flight and an agent is connected through a load balancer (a TCP proxy) that then sends new connections to a
 * second instance on the same database.
 */
const missing = missingServerBinaries();
if (missing) console.warn(`graceful shutdown test skipped: ${missing}`);

/** Agents reconnecting at an instance that shuts down (issue 33, the restart storm). */
const FLEET_AGENTS = 60;

/** A load balancer in front of the instances: each new connection goes to the current target. */
function startProxy(): Promise<{ server: Server; port: number; target: { port: number } }> {
  const target = { port: 0 };
  const server = createServer((incoming) => {
    const outgoing = createConnection({ host: '127.0.0.1', port: target.port });
    incoming.pipe(outgoing).pipe(incoming);
    incoming.on('error', () => outgoing.destroy());
    outgoing.on('error', () => incoming.destroy());
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0, target });
    }),
  );
}

/** Starts a form post whose body arrives only when `finish` is called: a request in flight. */
function slowRequest(port: number) {
  const body = 'username=nobody%40example.com&password=wrong';
  let status: Promise<number>;
  const req = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(body.length) },
  });
  status = new Promise<number>((resolve, reject) => {
    req.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 10));
  return {
    status: () => status,
    finish() {
      req.end(body.slice(10));
    },
  };
}

describe.skipIf(missing)('graceful shutdown (SIGTERM)', () => {
  let postgres: OwnPostgres;
  let database: Database;
  let credential: MachineCredential;
  let tenants: Tenants;
  let machineId: number;
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-shutdown-'));
  const instances: Instance[] = [];

  beforeAll(async () => {
    postgres = await startOwnPostgres();
    database = await openDatabase({ databaseUrl: postgres.url, dataDir: 'memory://' });
    await database.migrate();
    tenants = await createTenants(database.db);
    const fixtures = backupFixtures(database.db);
    machineId = await fixtures.machine(await fixtures.package(tenants.customerA.customerId), {
      assignedUserId: tenants.customerA.superAdmin.id,
    });
    const issued = await createMachineCredentials(database.db).issue(machineId);
    if (!issued) throw new Error('no credential');
    credential = issued;
  });

  afterAll(async () => {
    for (const instance of instances) instance.child.kill('SIGKILL');
    await database?.close();
    await postgres?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes the request in flight, sends the agent to the next instance with 1012, and exits 0 within 10 s', async () => {
    const first = await startInstance(postgres.url, join(dataDir, 'a'));
    const second = await startInstance(postgres.url, join(dataDir, 'b'));
    instances.push(first, second);
    const proxy = await startProxy();
    proxy.target.port = first.port;

    const disconnects: string[] = [];
    let connections = 0;
    const agent = new AgentChannel({
      server: `http://127.0.0.1:${proxy.port}`,
      machineId: credential.machineId,
      token: credential.token,
      onConnected: () => {
        connections += 1;
      },
      onDisconnected: (reason) => disconnects.push(reason),
      onMessage: () => {},
      // A failure backoff this long would outlast the test: only the restart hint can bring the agent back in time.
      reconnectDelay: () => 60_000,
    });
    agent.start();
    try {
      await eventually(() => connections === 1, 10_000);
      const inFlight = slowRequest(first.port);
      await new Promise((resolve) => setTimeout(resolve, 200));

      const signalledAt = Date.now();
      proxy.target.port = second.port;
      first.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      inFlight.finish();
      expect(await inFlight.status()).toBeLessThan(500);

      await eventually(() => connections === 2, 10_000);
      expect(disconnects[0]).toContain(String(SERVICE_RESTART_CLOSE.code));
      const exit = await first.exited;
      expect(exit.code).toBe(0);
      expect(exit.at - signalledAt).toBeLessThan(10_000);
      expect((await fetch(`http://127.0.0.1:${second.port}/health`)).status).toBe(200);
    } finally {
      await agent.stop();
      proxy.server.close();
    }
  });

  it('writes the audit record of a change answered just before SIGTERM before the process exits', async () => {
    const instance = await startInstance(postgres.url, join(dataDir, 'c'));
    instances.push(instance);
    const owner = tenants.customerA.superAdmin;
    const session = await signIn(`http://127.0.0.1:${instance.port}`, owner.email);
    const recordOf = () =>
      database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.type, 'machines.edit'), eq(auditEvents.subjectId, machineId)));

    // The test holds the audit table, so the record (written after the answer) is still being written while the
    // process shuts down: a slow database, made certain.
    let release = () => {};
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const lock = database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table audit_events in share mode`);
      locked();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    await isLocked;
    try {
      const answer = await fetch(`http://127.0.0.1:${instance.port}${ROUTES.machines.edit.build({ machineId })}`, {
        method: 'PUT',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          cookie: session.cookie,
          'x-csrf-token': session.csrf,
        },
        body: JSON.stringify({ name: 'Renamed before the restart', description: 'Office PC', userId: owner.id }),
      });
      expect(answer.status, await answer.clone().text()).toBe(200);
      instance.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await recordOf()).toEqual([]);
    } finally {
      release();
      await lock;
    }
    expect((await instance.exited).code).toBe(0);
    expect(await recordOf()).toMatchObject([{ outcome: 'succeeded', httpStatus: 200, userId: owner.id }]);
  });

  it('exits 0 within its deadline while a fleet of agents keeps reconnecting to it', async () => {
    const instance = await startInstance(postgres.url, join(dataDir, 'e'));
    instances.push(instance);
    const fixtures = backupFixtures(database.db);
    const packageId = await fixtures.package(tenants.customerB.customerId);
    const credentials = await Promise.all(
      Array.from({ length: FLEET_AGENTS }, async () => {
        const issued = await createMachineCredentials(database.db).issue(await fixtures.machine(packageId));
        if (!issued) throw new Error('no credential');
        return issued;
      }),
    );
    let hellos = 0;
    // Agents that come straight back after the restart close and after each refused or failed attempt: upgrades
    // keep arriving while the instance closes, as a large fleet's do.
    const fleet = credentials.map((fleetCredential) => {
      const agent: AgentChannel = new AgentChannel({
        server: `http://127.0.0.1:${instance.port}`,
        machineId: fleetCredential.machineId,
        token: fleetCredential.token,
        onConnected: async () => {
          await agent.send(agentHello(fleetCredential.machineId));
          hellos += 1;
        },
        onDisconnected: () => {},
        onMessage: () => {},
        restartDelay: () => Math.random() * 300,
        reconnectDelay: () => 20 + Math.random() * 80,
      });
      return agent;
    });
    let stalled: WebSocket | undefined;
    try {
      for (const agent of fleet) agent.start();
      await eventually(() => hellos >= FLEET_AGENTS, 30_000);
      // One agent on a stalled network answers nothing, not even the restart close: the instance waits for it a
      // while, and the fleet's attempts arrive meanwhile.
      stalled = new WebSocket(`ws://127.0.0.1:${instance.port}${AGENT_CHANNEL.endpoint}`, ['v12.stomp']);
      stalled.on('error', () => {});
      await new Promise((resolve) => stalled?.once('open', resolve));
      stalled.pause();
      const signalledAt = Date.now();
      instance.child.kill('SIGTERM');
      const exit = await instance.exited;
      expect(exit.code).toBe(0);
      expect(exit.at - signalledAt).toBeLessThan(10_000);
    } finally {
      stalled?.terminate();
      await Promise.all(fleet.map((agent) => agent.stop()));
    }
  });

  it('exits with code 1 at SHUTDOWN_TIMEOUT_MS when a request in flight never finishes', async () => {
    const deadlineMs = 1_500;
    const instance = await startInstance(postgres.url, join(dataDir, 'd'), { SHUTDOWN_TIMEOUT_MS: String(deadlineMs) });
    instances.push(instance);
    // A form post whose body never arrives: the server can neither answer it nor drop it without breaking it.
    const stuck = slowRequest(instance.port);
    stuck.status().catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 200));

    const signalledAt = Date.now();
    instance.child.kill('SIGTERM');
    const exit = await instance.exited;
    expect(exit.code).toBe(1);
    expect(exit.at - signalledAt).toBeGreaterThanOrEqual(deadlineMs - 50);
    // Well before the stuck request could end (never): the margin is for a busy machine's slow exit.
    expect(exit.at - signalledAt).toBeLessThan(deadlineMs + 4_000);
  });
});
