import type { AddressInfo } from 'node:net';
import { AGENT_CHANNEL, type AgentToServer, type ServerToAgent } from '@portal/domain';
import { Client, type IFrame, type IMessage } from '@stomp/stompjs';
import type { FastifyInstance } from 'fastify';
import { WebSocket } from 'ws';
import type { Db } from '../../db/client.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import type { Tenants } from '../../testing/fixtures.js';

/** Test helpers: real WebSocket clients against a listening app. */

export interface TestStomp {
  client: Client;
  /** CONNECTED, or the ERROR frame / close that ended the attempt. */
  connected: Promise<'connected' | 'error' | 'closed'>;
  errors: IFrame[];
  closed: Promise<void>;
  subscribe(destination: string): { messages: IMessage[]; next(): Promise<IMessage> };
  /** Sends with a receipt header; resolves true on RECEIPT, false on ERROR or close. */
  sendWithReceipt(command: 'SUBSCRIBE' | 'SEND', destination: string, body?: string): Promise<boolean>;
  stop(): Promise<void>;
}

let receiptSequence = 0;

export function stompClient(
  url: string,
  options: {
    headers?: Record<string, string>;
    connectHeaders?: Record<string, string>;
    heartbeatOutgoing?: number;
    heartbeatIncoming?: number;
  } = {},
): TestStomp {
  const errors: IFrame[] = [];
  let settle: (value: 'connected' | 'error' | 'closed') => void = () => {};
  let onClosed: () => void = () => {};
  const connected = new Promise<'connected' | 'error' | 'closed'>((resolve) => {
    settle = resolve;
  });
  const closed = new Promise<void>((resolve) => {
    onClosed = resolve;
  });
  const waiters = new Set<() => void>();
  const client = new Client({
    webSocketFactory: () => new WebSocket(url, ['v12.stomp'], { headers: options.headers ?? {} }),
    connectHeaders: options.connectHeaders ?? {},
    reconnectDelay: 0,
    heartbeatIncoming: options.heartbeatIncoming ?? 0,
    heartbeatOutgoing: options.heartbeatOutgoing ?? 0,
    debug: () => {},
  });
  client.onConnect = () => settle('connected');
  client.onStompError = (f) => {
    errors.push(f);
    settle('error');
    for (const wake of waiters) wake();
  };
  client.onWebSocketClose = () => {
    settle('closed');
    onClosed();
    for (const wake of waiters) wake();
  };
  client.activate();

  return {
    client,
    connected,
    errors,
    closed,
    subscribe(destination) {
      const messages: IMessage[] = [];
      const pending: Array<(m: IMessage) => void> = [];
      client.subscribe(destination, (m) => {
        messages.push(m);
        pending.shift()?.(m);
      });
      return {
        messages,
        next: () =>
          new Promise<IMessage>((resolve, reject) => {
            pending.push(resolve);
            setTimeout(() => reject(new Error(`no message on ${destination}`)), 5_000).unref();
          }),
      };
    },
    sendWithReceipt(command, destination, body = '') {
      receiptSequence += 1;
      const receipt = `r-${receiptSequence}`;
      return new Promise<boolean>((resolve) => {
        const wake = () => {
          waiters.delete(wake);
          resolve(false);
        };
        waiters.add(wake);
        client.watchForReceipt(receipt, () => {
          waiters.delete(wake);
          resolve(true);
        });
        if (command === 'SUBSCRIBE') client.subscribe(destination, () => {}, { receipt });
        else client.publish({ destination, body, headers: { receipt } });
      });
    },
    async stop() {
      await client.deactivate({ force: true });
    },
  };
}

/** The HTTP status of a WebSocket upgrade: 101 when accepted, else the refusal's status. */
export function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, ['v12.stomp'], { headers });
    socket.on('open', () => {
      socket.terminate();
      resolve(101);
    });
    socket.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('error', (error) => reject(error));
  });
}

/** A raw socket for frames stompjs would never send; collects what the server says. */
export async function rawSocket(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, ['v12.stomp'], { headers });
  const received: string[] = [];
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  socket.on('message', (data: Buffer) => received.push(data.toString('utf8')));
  socket.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    socket.on('open', () => resolve());
    socket.on('unexpected-response', () => reject(new Error('refused')));
  });
  return {
    socket,
    received,
    closed,
    send: (text: string | Buffer) => socket.send(text),
    async waitFor(predicate: (frame: string) => boolean, timeoutMs = 5_000): Promise<string> {
      const started = Date.now();
      for (;;) {
        const found = received.find(predicate);
        if (found) return found;
        if (Date.now() - started > timeoutMs) throw new Error(`timed out; received ${JSON.stringify(received)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Three machines for channel tests: one of customer A assigned to A's customer user, one of A assigned to
 * no one, one of customer B.
 */
export async function channelMachines(db: Db, tenants: Tenants) {
  const fixtures = backupFixtures(db);
  const packageA = await fixtures.package(tenants.customerA.customerId);
  const packageB = await fixtures.package(tenants.customerB.customerId);
  return {
    assigned: await fixtures.machine(packageA, { assignedUserId: tenants.customerA.user.id }),
    unassigned: await fixtures.machine(packageA),
    other: await fixtures.machine(packageB),
  };
}

/** Starts the app on a free loopback port; resolves with its ws:// origin. */
export async function listenOnLoopback(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/**
 * A protocol-level agent on the live channel of a listening app (`base` is its ws:// origin): connected with
 * the machine's credential and subscribed to its commands, which it collects. Stop its `client` after use.
 */
export async function connectTestAgent(
  app: FastifyInstance,
  base: string,
  credential: { machineId: number; token: string },
) {
  const client = stompClient(`${base}${AGENT_CHANNEL.endpoint}`, {
    connectHeaders: { login: String(credential.machineId), passcode: credential.token },
  });
  if ((await client.connected) !== 'connected') {
    await client.stop();
    throw new Error('the test agent could not connect');
  }
  const queue = client.subscribe(AGENT_CHANNEL.commands);
  // A receipt on a later frame proves the SUBSCRIBE before it was handled.
  const sync = { type: 'reply', requestId: 'sync', success: true, messages: [] } satisfies AgentToServer;
  if (!(await client.sendWithReceipt('SEND', AGENT_CHANNEL.events, JSON.stringify(sync)))) {
    await client.stop();
    throw new Error('the test agent was not acknowledged');
  }
  await eventually(() => app.live.hasLocalAgent(credential.machineId));
  return {
    client,
    commands: () => queue.messages.map((m) => JSON.parse(m.body) as ServerToAgent),
    send: (event: AgentToServer) => client.sendWithReceipt('SEND', AGENT_CHANNEL.events, JSON.stringify(event)),
  };
}
