import { AGENT_CHANNEL } from '@portal/domain';
import { agentHello } from '@portal/domain/testing/agent-task';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { createTenants } from '../../testing/fixtures.js';
import { createMachineCredentials, type MachineCredential } from '../machine-auth/credentials.js';
import { defaultLiveHandlers } from './channel.js';
import { eventually, listenOnLoopback, rawSocket, stompClient } from './testing.js';

const LIMIT = 2;
const HELLO_MS = 150;

let t: TestApp;
let base: string;
const crowd: MachineCredential[] = [];
let hellosInFlight = 0;
let mostHellosAtOnce = 0;

/** The upgrade's status and Retry-After (101 and null when accepted; the socket is closed at once). */
function upgrade(): Promise<{ status: number; retryAfter: string | null }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${base}${AGENT_CHANNEL.endpoint}`, ['v12.stomp']);
    socket.on('open', () => {
      socket.terminate();
      resolve({ status: 101, retryAfter: null });
    });
    socket.on('unexpected-response', (_request, response) => {
      resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'] ?? null });
      socket.terminate();
    });
    socket.on('error', reject);
  });
}

/**
 * An agent as apps/agent behaves: CONNECT, then its hello with a receipt; a refused upgrade is tried again after a
 * full-jitter back-off (scaled down from AGENT_RECONNECT so the test is quick). Resolves with its refusals.
 */
async function agentComingBack(credential: MachineCredential): Promise<{ refusals: number; stop(): Promise<void> }> {
  let refusals = 0;
  for (let attempt = 1; ; attempt++) {
    const client = stompClient(`${base}${AGENT_CHANNEL.endpoint}`, {
      connectHeaders: { login: String(credential.machineId), passcode: credential.token },
    });
    if ((await client.connected) === 'connected') {
      const said = await client.sendWithReceipt(
        'SEND',
        AGENT_CHANNEL.events,
        JSON.stringify(agentHello(credential.machineId)),
      );
      if (!said) throw new Error(`machine ${credential.machineId}: hello not acknowledged`);
      return { refusals, stop: () => client.stop() };
    }
    await client.stop();
    refusals += 1;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(400, 25 * 2 ** attempt)));
  }
}

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      live: {
        options: { maxAgentHandshakes: LIMIT, agentRetryAfterSeconds: 3, connectTimeoutMs: 10_000 },
        handlers: {
          ...defaultLiveHandlers,
          // A hello that takes a while, as the task list and repository reads do under load.
          async onAgentEvent(_machine, event) {
            if (event.type !== 'hello') return;
            hellosInFlight += 1;
            mostHellosAtOnce = Math.max(mostHellosAtOnce, hellosInFlight);
            await new Promise((resolve) => setTimeout(resolve, HELLO_MS));
            hellosInFlight -= 1;
          },
        },
      },
    },
  );
  const tenants = await createTenants(t.database.db);
  const fixtures = backupFixtures(t.database.db);
  const pkg = await fixtures.package(tenants.customerA.customerId);
  const issuer = createMachineCredentials(t.database.db);
  for (let i = 0; i < 8; i++) {
    const credential = await issuer.issue(await fixtures.machine(pkg));
    if (!credential) throw new Error('no credential');
    crowd.push(credential);
  }
  base = await listenOnLoopback(t.app);
});

afterAll(async () => {
  await t?.close();
});

describe('agent admission (issue 33, restart storm)', () => {
  it('answers agents over the handshake limit 503 with Retry-After, and admits again when a place is free', async () => {
    // Two agents in the middle of their handshake (CONNECTED, no hello yet) hold both places.
    const holders = await Promise.all([
      rawSocket(`${base}${AGENT_CHANNEL.endpoint}`),
      rawSocket(`${base}${AGENT_CHANNEL.endpoint}`),
    ]);
    holders.forEach((holder, i) => {
      const { machineId, token } = crowd[i] as MachineCredential;
      holder.send(`CONNECT\naccept-version:1.2\nlogin:${machineId}\npasscode:${token}\n\n\0`);
    });
    await Promise.all(holders.map((h) => h.waitFor((f) => f.startsWith('CONNECTED'))));
    expect(await upgrade()).toEqual({ status: 503, retryAfter: '3' });

    // One says hello: its handshake is over and its place goes to the next agent.
    const [first, second] = holders;
    if (!first || !second) throw new Error('no holders');
    first.send(
      `SEND\ndestination:${AGENT_CHANNEL.events}\nreceipt:h\n\n${JSON.stringify(agentHello(crowd[0]?.machineId ?? 0))}\0`,
    );
    await first.waitFor((f) => f.startsWith('RECEIPT'));
    await eventually(async () => (await upgrade()).status === 101);
    // The other leaves mid-handshake: its place is given back too.
    second.socket.terminate();
    await second.closed;
    first.socket.terminate();
    await first.closed;
    const both = await Promise.all([
      rawSocket(`${base}${AGENT_CHANNEL.endpoint}`),
      rawSocket(`${base}${AGENT_CHANNEL.endpoint}`),
    ]);
    for (const socket of both) socket.socket.terminate();
  });

  it('brings a crowd reconnecting at once back, a few handshakes at a time, the refused ones after their back-off', async () => {
    mostHellosAtOnce = 0;
    const agents = await Promise.all(crowd.map((credential) => agentComingBack(credential)));
    try {
      expect(agents.reduce((n, a) => n + a.refusals, 0)).toBeGreaterThan(0);
      expect(mostHellosAtOnce).toBeLessThanOrEqual(LIMIT);
      for (const credential of crowd) expect(t.app.live.hasLocalAgent(credential.machineId)).toBe(true);
      // Every place was given back: a new agent is admitted at once.
      expect((await upgrade()).status).toBe(101);
    } finally {
      await Promise.all(agents.map((a) => a.stop()));
    }
  }, 30_000);
});
