import {
  AGENT_CHANNEL,
  type AgentToServer,
  DASHBOARD_TOPICS,
  type DashboardChange,
  dashboardChangeSchema,
  ROUTES,
} from '@portal/domain';
import { halfwayProgress } from '@portal/domain/testing/agent-task';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFinished } from '../../testing/agent-events.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { browserStomp, useStartedStompClients } from '../../testing/stomp.js';
import { createBackupStateService } from '../backup-state/service.js';
import { createMachineCredentials, type MachineCredential } from '../machine-auth/credentials.js';
import { channelMachines, eventually, listenOnLoopback, stompClient, type TestStomp } from './testing.js';

/** The live dashboard (issue #5): who hears which machine's change, from the real app and channel. */

let t: TestApp;
let tenants: Tenants;
let base: string;
const started = useStartedStompClients();
const machines = { assigned: 0, unassigned: 0, other: 0 };
let credential: MachineCredential;
let taskId = 0;

async function watcher(email: string, side: 'customer' | 'provider') {
  const client = new TestClient(t.app);
  await client.signIn(email, FIXTURE_PASSWORD);
  const stomp = browserStomp(client, `${base}${ROUTES.live[side].build()}`);
  started.push(stomp);
  expect(await stomp.connected).toBe('connected');
  const { messages } = stomp.subscribe(DASHBOARD_TOPICS[side]);
  // Frames are handled in order: the receipt of a second subscription proves the first is in place.
  expect(await stomp.sendWithReceipt('SUBSCRIBE', DASHBOARD_TOPICS[side])).toBe(true);
  return {
    changes: () => messages.map((m): DashboardChange => dashboardChangeSchema.parse(JSON.parse(m.body))),
    machineIds: () => new Set(messages.flatMap((m) => dashboardChangeSchema.parse(JSON.parse(m.body)).machineIds)),
    clear: () => {
      messages.length = 0;
    },
  };
}

function agent(): TestStomp {
  const client = stompClient(`${base}${AGENT_CHANNEL.endpoint}`, {
    connectHeaders: { login: String(credential.machineId), passcode: credential.token },
  });
  started.push(client);
  return client;
}

const send = (client: TestStomp, event: AgentToServer) =>
  client.sendWithReceipt('SEND', AGENT_CHANNEL.events, JSON.stringify(event));

beforeAll(async () => {
  t = await createTestApp({}, { live: { options: { dashboardBatchMs: 20 } } });
  tenants = await createTenants(t.database.db);
  Object.assign(machines, await channelMachines(t.database.db, tenants));
  const backupState = createBackupStateService({ db: t.database.db });
  taskId = (await backupState.createTask(backupFixtures(t.database.db).task(machines.unassigned))) ?? 0;
  const issued = await createMachineCredentials(t.database.db).issue(machines.unassigned);
  if (!issued) throw new Error('no credential');
  credential = issued;
  base = await listenOnLoopback(t.app);
});

afterAll(async () => {
  await t?.close();
});

describe('the dashboard topic', () => {
  it('tells those who may see a machine that it came online and that its run started and finished, and no one else', async () => {
    const provider = await watcher(tenants.providerAdmin.email, 'provider');
    const admin = await watcher(tenants.customerA.admin.email, 'customer');
    const user = await watcher(tenants.customerA.user.email, 'customer');
    const otherTenant = await watcher(tenants.customerB.admin.email, 'customer');

    const machine = agent();
    expect(await machine.connected).toBe('connected');
    await eventually(
      () => provider.machineIds().has(machines.unassigned) && admin.machineIds().has(machines.unassigned),
    );
    provider.clear();
    admin.clear();

    const startedAt = t.clock.now.toISOString();
    expect(await send(machine, { type: 'runStarted', runKey: 'k1', taskId, startedAt, manual: true })).toBe(true);
    await eventually(
      () => provider.machineIds().has(machines.unassigned) && admin.machineIds().has(machines.unassigned),
    );
    provider.clear();
    admin.clear();

    const finished = runFinished('k1', { finishedAt: startedAt });
    expect(await send(machine, finished)).toBe(true);
    await eventually(
      () => provider.machineIds().has(machines.unassigned) && admin.machineIds().has(machines.unassigned),
    );
    expect(admin.changes().every((c) => c.type === 'dashboardChanged')).toBe(true);

    // Progress alone does not change a dashboard row: no message for it.
    provider.clear();
    expect(await send(machine, halfwayProgress('k1'))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(provider.machineIds().size).toBe(0);

    await machine.stop();
    await eventually(() => provider.machineIds().has(machines.unassigned));

    // A customer user sees only their assigned machines; another tenant sees nothing of customer A.
    expect(user.machineIds().size).toBe(0);
    expect(otherTenant.machineIds().size).toBe(0);
  });

  it('reaches a customer user for their own machine', async () => {
    const user = await watcher(tenants.customerA.user.email, 'customer');
    t.app.live.machinesChanged([machines.assigned, machines.other]);
    await eventually(() => user.machineIds().has(machines.assigned));
    expect(user.machineIds().has(machines.other)).toBe(false);
  });

  it('accepts only the topic of its own side', async () => {
    const client = new TestClient(t.app);
    await client.signIn(tenants.customerA.admin.email, FIXTURE_PASSWORD);
    const stomp = browserStomp(client, `${base}${ROUTES.live.customer.build()}`);
    started.push(stomp);
    expect(await stomp.connected).toBe('connected');
    expect(await stomp.sendWithReceipt('SUBSCRIBE', DASHBOARD_TOPICS.provider)).toBe(false);
  });
});
