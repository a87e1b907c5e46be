import { AGENT_CHANNEL, machineQueue, ROUTES, type ServerToAgent } from '@portal/domain';
import { expect } from 'vitest';
import type { Database, Db } from '../db/client.js';
import { eventually, listenOnLoopback, stompClient, type TestStomp } from '../features/live/testing.js';
import { createMachineCredentials, type MachineCredential } from '../features/machine-auth/credentials.js';
import { createTestApp, type TestApp } from './app.js';
import { backupFixtures } from './backup-fixtures.js';
import { TestClient } from './client.js';
import { FIXTURE_PASSWORD, type Tenants } from './fixtures.js';
import { browserStomp } from './stomp.js';

/** A machine of customer A and the credential its agent connects with. */
export async function machineWithCredential(db: Db, tenants: Tenants): Promise<MachineCredential> {
  const fixtures = backupFixtures(db);
  const machineId = await fixtures.machine(await fixtures.package(tenants.customerA.customerId));
  const credential = await createMachineCredentials(db).issue(machineId);
  if (!credential) throw new Error('no credential');
  return credential;
}

/** An instance of the app listening on loopback, with its ws:// origin. */
export interface ListeningApp {
  t: TestApp;
  base: string;
}

/** What an instance of the app is built with besides the shared database. */
export type AppExtra = Omit<NonNullable<Parameters<typeof createTestApp>[1]>, 'database'>;

/**
 * Instances of the app on one database, each listening on loopback, one per entry of `extras` (the bus or Redis
 * connection it shares the live channel through). `clients` are the test's live clients, stopped before the apps
 * close.
 */
export async function listeningApps<E extends AppExtra[]>(database: Database, extras: [...E]) {
  const apps: ListeningApp[] = [];
  for (const extra of extras) {
    const t = await createTestApp({}, { ...extra, database });
    apps.push({ t, base: await listenOnLoopback(t.app) });
  }
  const clients: TestStomp[] = [];
  return {
    // One per entry of `extras`, in its order.
    apps: apps as { [K in keyof E]: ListeningApp },
    clients,
    async close() {
      await Promise.all(clients.map((c) => c.stop()));
      for (const { t } of apps) await t.close();
    },
  };
}

export type ListeningApps<E extends AppExtra[]> = Awaited<ReturnType<typeof listeningApps<E>>>;

/** A browser signed in on the app and connected to its live channel, subscribed to the machine's customer queue. */
export async function signedInBrowser({ t, base }: ListeningApp, email: string, machineId: number) {
  const session = new TestClient(t.app);
  await session.signIn(email, FIXTURE_PASSWORD);
  const browser = browserStomp(session, `${base}${ROUTES.live.customer.build()}`);
  expect(await browser.connected).toBe('connected');
  const queue = browser.subscribe(machineQueue('customer', machineId));
  await browser.sendWithReceipt('SUBSCRIBE', machineQueue('customer', machineId));
  return { session, browser, queue };
}

/**
 * An agent connected to the app's live channel with the machine's credential and subscribed to its commands;
 * `received` tells whether a command with the request id has reached it.
 */
export async function connectedAgent({ t, base }: ListeningApp, credential: MachineCredential) {
  const agent = stompClient(`${base}${AGENT_CHANNEL.endpoint}`, {
    connectHeaders: { login: String(credential.machineId), passcode: credential.token },
  });
  expect(await agent.connected).toBe('connected');
  const commands = agent.subscribe(AGENT_CHANNEL.commands);
  // A receipted frame after the subscription proves the server has made it.
  await agent.sendWithReceipt('SUBSCRIBE', AGENT_CHANNEL.commands);
  await eventually(() => t.app.live.hasLocalAgent(credential.machineId));
  return {
    agent,
    commands,
    received: (requestId: string) =>
      commands.messages.some((m) => (JSON.parse(m.body) as { requestId?: string }).requestId === requestId),
  };
}

/**
 * A protocol-level agent of the machine on the app listening at `base`: connected with a new credential, subscribed
 * to its commands and handing each to `answer` with a `send` for its events. It joins `started`, the test file's
 * live clients it stops after its tests.
 */
export async function answeringAgent(
  db: Db,
  base: string,
  machineId: number,
  started: TestStomp[],
  answer: (command: ServerToAgent, send: (event: unknown) => void) => void,
): Promise<void> {
  const credential = await createMachineCredentials(db).issue(machineId);
  if (!credential) throw new Error('no credential');
  const agent = stompClient(`${base}${AGENT_CHANNEL.endpoint}`, {
    connectHeaders: { login: String(credential.machineId), passcode: credential.token },
  });
  started.push(agent);
  expect(await agent.connected).toBe('connected');
  const send = (event: unknown) =>
    agent.client.publish({ destination: AGENT_CHANNEL.events, body: JSON.stringify(event) });
  agent.client.subscribe(AGENT_CHANNEL.commands, (frame) => answer(JSON.parse(frame.body) as ServerToAgent, send));
  // The subscription is in place once a receipted frame after it is answered.
  expect(await agent.sendWithReceipt('SUBSCRIBE', AGENT_CHANNEL.commands)).toBe(true);
}
