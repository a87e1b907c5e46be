import type { AddressInfo } from 'node:net';
import { AGENT_CHANNEL, type AgentToServer } from '@portal/domain';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { backupTasks, taskActions } from '../db/schema/index.js';
import { stompClient, type TestStomp } from '../features/live/testing.js';
import { createMachineCredentials, type MachineCredential } from '../features/machine-auth/credentials.js';
import { runFinished } from '../testing/agent-events.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { backupFixtures } from '../testing/backup-fixtures.js';
import { openTestDatabase } from '../testing/database.js';
import { createTenants } from '../testing/fixtures.js';

/**
 * Issue 18, restart drill: a fleet of agent-protocol clients with runs in flight while the portal instance closes
 * and a new one starts on the same database. Agents reconnect, report their starts again (a duplicated delivery)
 * and their outcomes twice: every run is recorded once, finished once. (One real agent with restic through a
 * portal restart: apps/agent/src/e2e.test.ts, 'portal restart'.)
 */
const FLEET = 50;

let database: Database;
let first: TestApp | undefined;
let second: TestApp | undefined;
const fleet: Array<{ credential: MachineCredential; taskId: number; runKey: string }> = [];
const clients: TestStomp[] = [];

beforeAll(async () => {
  database = await openTestDatabase();
  const tenants = await createTenants(database.db);
  const fixtures = backupFixtures(database.db);
  const packageId = await fixtures.package(tenants.customerA.customerId);
  const credentials = createMachineCredentials(database.db);
  for (let i = 0; i < FLEET; i++) {
    const machineId = await fixtures.machine(packageId);
    const credential = await credentials.issue(machineId);
    const [task] = await database.db
      .insert(backupTasks)
      .values({ ...fixtures.task(machineId), customerId: tenants.customerA.customerId, backupPackageId: packageId })
      .returning({ id: backupTasks.id });
    if (!credential || !task) throw new Error('fixture missing');
    fleet.push({ credential, taskId: task.id, runKey: `drill-${i}` });
  }
  // 50 machines with their credentials and tasks, one after another: more than the default hook time on a busy machine.
}, 180_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.stop()));
  await first?.close();
  await second?.close();
  await database?.close();
});

async function listening(): Promise<{ t: TestApp; url: string }> {
  // The drill's agents connect all at once and do not retry (admission control is features/live/admission.db.test.ts).
  const t = await createTestApp({ AGENT_HANDSHAKES_MAX: String(FLEET) }, { database });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, url: `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${AGENT_CHANNEL.endpoint}` };
}

async function connect(url: string, member: (typeof fleet)[number], runningRunKeys: string[]) {
  const client = stompClient(url, {
    connectHeaders: { login: String(member.credential.machineId), passcode: member.credential.token },
  });
  clients.push(client);
  expect(await client.connected).toBe('connected');
  const send = async (event: AgentToServer) =>
    expect(await client.sendWithReceipt('SEND', AGENT_CHANNEL.events, JSON.stringify(event))).toBe(true);
  await send({
    type: 'hello',
    name: `drill-${member.credential.machineId}`,
    osFamily: 'LINUX',
    operatingSystem: 'Linux',
    clientVersion: 'drill',
    timeZone: 'UTC',
    taskVersions: {},
    runningRunKeys,
  });
  return { client, send };
}

const started = (member: (typeof fleet)[number]): AgentToServer => ({
  type: 'runStarted',
  runKey: member.runKey,
  taskId: member.taskId,
  startedAt: '2026-11-27T10:00:00Z',
  manual: true,
});

describe('restart drill', () => {
  it(`records each of ${FLEET} runs in flight across an instance restart once, however often it is reported`, async () => {
    const a = await listening();
    first = a.t;
    const before = await Promise.all(fleet.map((member) => connect(a.url, member, [])));
    await Promise.all(before.map(({ send }, i) => send(started(fleet[i] as (typeof fleet)[number]))));

    // The instance goes away mid-run; every connection is closed (with the restart hint) and nothing is lost.
    await first.close();
    first = undefined;
    await Promise.all(before.map(({ client }) => client.closed));

    const b = await listening();
    second = b.t;
    const after = await Promise.all(fleet.map((member) => connect(b.url, member, [member.runKey])));
    await Promise.all(
      after.map(async ({ send }, i) => {
        const member = fleet[i] as (typeof fleet)[number];
        const finished = runFinished(member.runKey, {
          finishedAt: '2026-11-27T10:05:00Z',
          snapshotId: 'c'.repeat(64),
          bytesTotal: 100,
        });
        // The start delivered twice (the agent never saw its receipt), the outcome twice (its outbox resent it).
        await send(started(member));
        await send(finished);
        await send(finished);
      }),
    );

    const runs = await database.db
      .select({ taskId: taskActions.backupTaskId, status: taskActions.status, runKey: taskActions.runKey })
      .from(taskActions)
      .where(
        inArray(
          taskActions.backupTaskId,
          fleet.map((m) => m.taskId),
        ),
      );
    expect(runs).toHaveLength(FLEET);
    expect(new Set(runs.map((r) => r.taskId)).size).toBe(FLEET);
    expect(runs.every((r) => r.status === 'FINISHED_SUCCESS')).toBe(true);
  });
});
