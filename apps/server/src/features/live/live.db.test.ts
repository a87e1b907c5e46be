import type { AddressInfo } from 'node:net';
import { AGENT_CHANNEL, type AgentToServer, MESSAGES, machineQueue, ROUTES } from '@portal/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, backupMachines } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { browserStomp, sessionCookieOf, useStartedStompClients } from '../../testing/stomp.js';
import { createMachineCredentials, type MachineCredential } from '../machine-auth/credentials.js';
import { defaultLiveHandlers } from './channel.js';
import { channelMachines, eventually, rawSocket, stompClient, type TestStomp, upgradeStatus } from './testing.js';

const ORIGIN = 'http://portal.test';
const HEART_BEAT_MS = 200;

let t: TestApp;
let tenants: Tenants;
let base: string;
const events: Array<{ machineId: number; event: AgentToServer }> = [];
const started = useStartedStompClients();
const raws: Array<{ socket: { terminate(): void } }> = [];
const cookies = new Map<string, string>();
const machines = { assigned: 0, unassigned: 0, other: 0 };
const credentials: Record<string, MachineCredential> = {};

async function sessionCookie(email: string): Promise<string> {
  const known = cookies.get(email);
  if (known) return known;
  const client = new TestClient(t.app);
  await client.signIn(email, FIXTURE_PASSWORD);
  const cookie = sessionCookieOf(client);
  cookies.set(email, cookie);
  return cookie;
}

async function browser(email: string, endpoint: string = ROUTES.live.customer.build()): Promise<TestStomp> {
  const client = stompClient(`${base}${endpoint}`, { headers: { cookie: await sessionCookie(email), origin: ORIGIN } });
  started.push(client);
  return client;
}

function agent(credential: MachineCredential, heartbeatOutgoing = 0): TestStomp {
  const client = stompClient(`${base}${AGENT_CHANNEL.endpoint}`, {
    connectHeaders: { login: String(credential.machineId), passcode: credential.token },
    heartbeatOutgoing,
  });
  started.push(client);
  return client;
}

async function raw(path: string, headers: Record<string, string> = {}) {
  const socket = await rawSocket(`${base}${path}`, headers);
  raws.push(socket);
  return socket;
}

/** A raw socket of the assigned machine's agent, past its CONNECT (with `headers`, each ending in a newline). */
async function connectedAgentSocket(headers = '') {
  const { machineId, token } = credentials.assigned as MachineCredential;
  const socket = await raw(AGENT_CHANNEL.endpoint);
  socket.send(`CONNECT\naccept-version:1.2\n${headers}login:${machineId}\npasscode:${token}\n\n\0`);
  await socket.waitFor((f) => f.startsWith('CONNECTED'));
  return socket;
}

/** The audit record of a user's live command, once written (after the command is handled). */
async function commandRecord(userId: number) {
  const find = () =>
    t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.userId, userId), eq(auditEvents.type, 'live.starttask')));
  await eventually(async () => (await find()).length > 0);
  return (await find())[0];
}

const online = async (machineId: number) => {
  const [row] = await t.database.db
    .select({ online: backupMachines.online, lastSeenAt: backupMachines.lastSeenAt })
    .from(backupMachines)
    .where(eq(backupMachines.id, machineId));
  return row;
};

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      live: {
        // The crowd test's agents connect without a hello, so each holds its handshake place: no admission limit
        // here (admission.db.test.ts tests it).
        options: { heartBeatMs: HEART_BEAT_MS, maxAgentHandshakes: 10_000 },
        handlers: {
          ...defaultLiveHandlers,
          async onBrowserCommand(user, machineId, command, body, context) {
            // The pool with no connection to lend, as node-postgres says it (the fleet's overload).
            if ((body as { requestId?: string }).requestId === 'pool-exhausted') {
              throw new Error('timeout exceeded when trying to connect');
            }
            return defaultLiveHandlers.onBrowserCommand(user, machineId, command, body, context);
          },
          async onAgentEvent(machine, event) {
            events.push({ machineId: machine.id, event });
          },
        },
      },
    },
  );
  tenants = await createTenants(t.database.db);
  Object.assign(machines, await channelMachines(t.database.db, tenants));
  const issuer = createMachineCredentials(t.database.db);
  for (const [name, id] of Object.entries(machines)) {
    const credential = await issuer.issue(id);
    if (!credential) throw new Error('no credential');
    credentials[name] = credential;
  }
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

afterEach(() => {
  for (const r of raws.splice(0)) r.socket.terminate();
});

afterAll(async () => {
  await t?.close();
});

describe('browser endpoints', () => {
  it('cuts off a browser whose user signed out, within seconds, whether it sends frames or not', async () => {
    const http = new TestClient(t.app);
    await http.signIn(tenants.customerA.admin.email, FIXTURE_PASSWORD);
    const client = browserStomp(http, `${base}${ROUTES.live.customer.build()}`);
    started.push(client);
    expect(await client.connected).toBe('connected');
    expect(await client.sendWithReceipt('SUBSCRIBE', machineQueue('customer', machines.unassigned))).toBe(true);
    await http.request({
      method: 'POST',
      url: '/logout',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${http.csrf}`,
    });
    // The session is trusted for up to 5 s (sessionRecheckMs), then checked again on a timer.
    await client.closed;
    expect(client.errors[0]?.headers.message).toBe('Session expired');
  }, 15_000);

  it('refuses an upgrade without a session cookie, with a foreign Origin, or from the wrong audience', async () => {
    const url = `${base}${ROUTES.live.customer.build()}`;
    const admin = await sessionCookie(tenants.customerA.admin.email);
    expect(await upgradeStatus(url, { origin: ORIGIN })).toBe(401);
    expect(await upgradeStatus(url, { origin: 'http://evil.test', cookie: admin })).toBe(403);
    expect(await upgradeStatus(url, { cookie: admin })).toBe(403);
    expect(await upgradeStatus(url, { origin: ORIGIN, cookie: admin })).toBe(101);
    const provider = `${base}${ROUTES.live.provider.build()}`;
    expect(await upgradeStatus(provider, { origin: ORIGIN, cookie: admin })).toBe(403);
    const user = await sessionCookie(tenants.customerA.user.email);
    expect(await upgradeStatus(provider, { origin: ORIGIN, cookie: user })).toBe(403);
    const providerAdmin = await sessionCookie(tenants.providerAdmin.email);
    expect(await upgradeStatus(provider, { origin: ORIGIN, cookie: providerAdmin })).toBe(101);
    expect(await upgradeStatus(url, { origin: ORIGIN, cookie: providerAdmin })).toBe(403);
  });

  it('accepts the Host of the request as the origin too', async () => {
    const admin = await sessionCookie(tenants.customerA.admin.email);
    const host = base.replace('ws://', 'http://');
    expect(await upgradeStatus(`${base}${ROUTES.live.customer.build()}`, { origin: host, cookie: admin })).toBe(101);
  });

  it('lets a customer admin subscribe to its machines and refuses another tenant with ERROR', async () => {
    const client = await browser(tenants.customerA.admin.email);
    expect(await client.connected).toBe('connected');
    expect(await client.sendWithReceipt('SUBSCRIBE', machineQueue('customer', machines.unassigned))).toBe(true);
    expect(await client.sendWithReceipt('SUBSCRIBE', machineQueue('customer', machines.other))).toBe(false);
    expect(client.errors[0]?.headers.message).toBe('Not authorised for this destination');
    await client.closed;
  });

  it('lets a customer user subscribe only to the machines assigned to them', async () => {
    const client = await browser(tenants.customerA.user.email);
    expect(await client.connected).toBe('connected');
    expect(await client.sendWithReceipt('SUBSCRIBE', machineQueue('customer', machines.assigned))).toBe(true);
    expect(await client.sendWithReceipt('SUBSCRIBE', machineQueue('customer', machines.unassigned))).toBe(false);
  });

  it('lets a reseller admin see its child customers’ machines, not the provider queues', async () => {
    const client = await browser(tenants.reseller.superAdmin.email);
    expect(await client.connected).toBe('connected');
    expect(await client.sendWithReceipt('SUBSCRIBE', machineQueue('customer', machines.assigned))).toBe(true);
    expect(await client.sendWithReceipt('SUBSCRIBE', machineQueue('provider', machines.assigned))).toBe(false);
  });

  it('lets a provider admin subscribe to provider machine and migration queues', async () => {
    const client = await browser(tenants.providerAdmin.email, ROUTES.live.provider.build());
    expect(await client.connected).toBe('connected');
    expect(await client.sendWithReceipt('SUBSCRIBE', machineQueue('provider', machines.other))).toBe(true);
    expect(await client.sendWithReceipt('SUBSCRIBE', '/ws/queue/boltadmin/migrations/7')).toBe(true);
    expect(await client.sendWithReceipt('SUBSCRIBE', machineQueue('customer', machines.other))).toBe(false);
  });

  it('delivers what is published to a machine queue to its subscribers', async () => {
    const client = await browser(tenants.customerA.admin.email);
    await client.connected;
    const queue = client.subscribe(machineQueue('customer', machines.assigned));
    expect(await client.sendWithReceipt('SEND', '/ws/inbound/backupmachines/999999/nothing')).toBe(false);
    const again = await browser(tenants.customerA.admin.email);
    await again.connected;
    const q2 = again.subscribe(machineQueue('customer', machines.assigned));
    // A receipt on a later frame proves the SUBSCRIBE before it was handled.
    await again.sendWithReceipt('SUBSCRIBE', machineQueue('customer', machines.unassigned));
    const next = q2.next();
    await t.app.live.publishToMachineQueue(machines.assigned, 'customer', { hello: 'world' });
    expect(JSON.parse((await next).body)).toEqual({ hello: 'world' });
    expect(queue.messages).toHaveLength(0); // the first client was closed by its bad SEND
  });

  it('answers an authorised command at once with a failure reply to the sender only', async () => {
    const sender = await browser(tenants.customerA.admin.email);
    const other = await browser(tenants.customerA.superAdmin.email);
    await Promise.all([sender.connected, other.connected]);
    const mine = sender.subscribe(machineQueue('customer', machines.assigned));
    const theirs = other.subscribe(machineQueue('customer', machines.assigned));
    await other.sendWithReceipt('SUBSCRIBE', machineQueue('customer', machines.unassigned));
    const reply = mine.next();
    expect(
      await sender.sendWithReceipt(
        'SEND',
        `/ws/inbound/backupmachines/${machines.assigned}/starttask`,
        JSON.stringify({ requestId: 'abc', backupTaskId: 1 }),
      ),
    ).toBe(true);
    const body = JSON.parse((await reply).body);
    expect(body.requestId).toBe('abc');
    expect(JSON.parse(body.responsePayloadJson).success).toBe(false);
    expect(theirs.messages).toHaveLength(0);
    // The audit trail (issue 18) records the accepted command with its machine and tenant.
    const record = await commandRecord(tenants.customerA.admin.id);
    expect(record).toMatchObject({
      type: 'live.starttask',
      outcome: 'succeeded',
      customerId: tenants.customerA.customerId,
      subjectType: 'machine',
      subjectId: machines.assigned,
    });
  });

  it('fails a command that finds the database out of reach with its reply, keeping the connection', async () => {
    const sender = await browser(tenants.customerA.admin.email);
    await sender.connected;
    const replies = sender.subscribe(machineQueue('customer', machines.assigned));
    const send = (requestId: string) =>
      sender.sendWithReceipt(
        'SEND',
        `/ws/inbound/backupmachines/${machines.assigned}/starttask`,
        JSON.stringify({ requestId, backupTaskId: 1 }),
      );
    const failed = replies.next();
    expect(await send('pool-exhausted')).toBe(true);
    const body = JSON.parse((await failed).body);
    expect(body.requestId).toBe('pool-exhausted');
    expect(JSON.parse(body.responsePayloadJson)).toMatchObject({
      success: false,
      messages: [expect.objectContaining({ message: MESSAGES.serviceUnavailable })],
    });
    // The same connection carries the next command.
    const next = replies.next();
    expect(await send('after')).toBe(true);
    expect(JSON.parse((await next).body).requestId).toBe('after');
    expect(sender.errors).toEqual([]);
  });

  it('refuses a command to a machine the user may not see', async () => {
    const client = await browser(tenants.customerA.user.email);
    await client.connected;
    const sent = await client.sendWithReceipt(
      'SEND',
      `/ws/inbound/backupmachines/${machines.unassigned}/starttask`,
      JSON.stringify({ requestId: 'x' }),
    );
    expect(sent).toBe(false);
    expect(client.errors[0]?.headers.message).toBe('Not authorised for this destination');
    expect(await commandRecord(tenants.customerA.user.id)).toMatchObject({
      type: 'live.starttask',
      outcome: 'refused',
      subjectId: machines.unassigned,
    });
  });
});

describe('agent endpoint', () => {
  it('connects with a good credential, marks the machine online and offline again', async () => {
    const a = agent(credentials.other as MachineCredential);
    expect(await a.connected).toBe('connected');
    await eventually(async () => (await online(machines.other))?.online === true);
    const commands = a.subscribe(AGENT_CHANNEL.commands);
    await a.sendWithReceipt('SEND', AGENT_CHANNEL.events, JSON.stringify({ type: 'usage', usedSpaceBytes: 5 }));
    expect(events.at(-1)).toEqual({ machineId: machines.other, event: { type: 'usage', usedSpaceBytes: 5 } });
    const next = commands.next();
    expect(await t.app.live.sendToMachine(machines.other, { type: 'refreshStorage', requestId: 'r1' })).toBe(true);
    expect(JSON.parse((await next).body)).toEqual({ type: 'refreshStorage', requestId: 'r1' });
    await a.stop();
    await eventually(async () => (await online(machines.other))?.online === false);
    expect(await t.app.live.sendToMachine(machines.other, { type: 'refreshStorage', requestId: 'r2' })).toBe(false);
  });

  it('marks a crowd of machines online and offline again when they all come and leave at once', async () => {
    const fixtures = backupFixtures(t.database.db);
    const pkg = await fixtures.package(tenants.customerB.customerId);
    const issuer = createMachineCredentials(t.database.db);
    const crowd: MachineCredential[] = [];
    for (let i = 0; i < 150; i++) {
      const credential = await issuer.issue(await fixtures.machine(pkg));
      if (!credential) throw new Error('no credential');
      crowd.push(credential);
    }
    const ids = crowd.map((c) => c.machineId);
    const onlineCount = async () =>
      (
        await t.database.db
          .select({ id: backupMachines.id })
          .from(backupMachines)
          .where(and(inArray(backupMachines.id, ids), eq(backupMachines.online, true)))
      ).length;
    const agents = crowd.map((credential) => agent(credential));
    expect(await Promise.all(agents.map((a) => a.connected))).toEqual(crowd.map(() => 'connected'));
    await eventually(async () => (await onlineCount()) === crowd.length, 15_000);
    await Promise.all(agents.map((a) => a.stop()));
    await eventually(async () => (await onlineCount()) === 0, 15_000);
  });

  it('refuses a wrong credential and a revoked one', async () => {
    const wrong = agent({ machineId: machines.assigned, token: 'not-the-token' });
    expect(await wrong.connected).toBe('error');
    expect(wrong.errors[0]?.headers.message).toBe('Bad credentials');
    await createMachineCredentials(t.database.db).revoke(machines.unassigned, new Date());
    const revoked = agent(credentials.unassigned as MachineCredential);
    expect(await revoked.connected).toBe('error');
  });

  it('refuses destinations other than its own and invalid events', async () => {
    const a = agent(credentials.assigned as MachineCredential);
    expect(await a.connected).toBe('connected');
    expect(await a.sendWithReceipt('SUBSCRIBE', machineQueue('customer', machines.assigned))).toBe(false);
    const b = agent(credentials.assigned as MachineCredential);
    expect(await b.connected).toBe('connected');
    const before = events.length;
    expect(await b.sendWithReceipt('SEND', AGENT_CHANNEL.events, JSON.stringify({ type: 'usage' }))).toBe(false);
    expect(b.errors[0]?.headers.message).toBe('Invalid event');
    expect(events.length).toBe(before);
  });

  it('replaces an older connection with a newer one, keeping the machine online', async () => {
    const first = agent(credentials.assigned as MachineCredential);
    expect(await first.connected).toBe('connected');
    const second = agent(credentials.assigned as MachineCredential);
    expect(await second.connected).toBe('connected');
    await first.closed;
    expect(first.errors[0]?.headers.message).toBe('Replaced by a newer connection');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await online(machines.assigned))?.online).toBe(true);
    expect(t.app.live.hasLocalAgent(machines.assigned)).toBe(true);
    await t.app.live.disconnectMachine(machines.assigned);
    await second.closed;
    expect(second.errors[0]?.headers.message).toBe('Machine credential revoked');
    await eventually(async () => (await online(machines.assigned))?.online === false);
  });

  it('closes a connection whose peer stops sending heart-beats, and keeps one that sends them', async () => {
    const silent = await connectedAgentSocket('heart-beat:50,0\n');
    expect(await silent.closed).toBeGreaterThan(0);
    const beating = agent(credentials.assigned as MachineCredential, 50);
    expect(await beating.connected).toBe('connected');
    await new Promise((resolve) => setTimeout(resolve, HEART_BEAT_MS * 4));
    expect(beating.client.connected).toBe(true);
  });
});

describe('hostile frames', () => {
  it('answers a malformed frame with ERROR and closes, leaving other connections alone', async () => {
    const bystander = await browser(tenants.customerA.admin.email);
    await bystander.connected;
    const queue = bystander.subscribe(machineQueue('customer', machines.assigned));
    await bystander.sendWithReceipt('SUBSCRIBE', machineQueue('customer', machines.unassigned));

    const bad = await raw(AGENT_CHANNEL.endpoint);
    bad.send('CONNECT\naccept-version:1.2\n\n\0SEND\nbroken header\n\n\0');
    // Refused at CONNECT (no credential) or at the broken frame: either way ERROR, then close.
    await bad.waitFor((f) => f.startsWith('ERROR'));
    await bad.closed;

    const garbage = await raw(AGENT_CHANNEL.endpoint);
    garbage.send(Buffer.from([0xff, 0xfe, 0x00, 0x0a]));
    await garbage.waitFor((f) => f.startsWith('ERROR'));
    await garbage.closed;

    const next = queue.next();
    await t.app.live.publishToMachineQueue(machines.assigned, 'customer', { still: 'here' });
    expect(JSON.parse((await next).body)).toEqual({ still: 'here' });
  });

  it('refuses a malformed frame after CONNECT with ERROR', async () => {
    const socket = await connectedAgentSocket();
    socket.send('SEND\ndestination:/agent/inbound\nbad:\\q\n\n{}\0');
    expect(await socket.waitFor((f) => f.startsWith('ERROR'))).toContain('bad header escape');
    await socket.closed;
  });

  it('refuses an oversize frame with ERROR and closes', async () => {
    const socket = await connectedAgentSocket();
    socket.send(`SEND\ndestination:/agent/inbound\n\n${'x'.repeat(AGENT_CHANNEL.maxFrameBytes + 10)}\0`);
    expect(await socket.waitFor((f) => f.startsWith('ERROR'))).toContain('Frame larger than');
    await socket.closed;
  });

  it('refuses frames before CONNECT and unsupported versions', async () => {
    const early = await raw(AGENT_CHANNEL.endpoint);
    early.send('SUBSCRIBE\nid:1\ndestination:/agent/queue/commands\n\n\0');
    expect(await early.waitFor((f) => f.startsWith('ERROR'))).toContain('Expected a CONNECT frame');
    const old = await raw(AGENT_CHANNEL.endpoint);
    old.send('CONNECT\naccept-version:1.0\n\n\0');
    expect(await old.waitFor((f) => f.startsWith('ERROR'))).toContain('Supported protocol versions are 1.2');
  });

  it('answers DISCONNECT with its receipt', async () => {
    const socket = await connectedAgentSocket();
    socket.send('DISCONNECT\nreceipt:bye\n\n\0');
    expect(await socket.waitFor((f) => f.startsWith('RECEIPT'))).toContain('receipt-id:bye');
    await socket.closed;
  });
});
