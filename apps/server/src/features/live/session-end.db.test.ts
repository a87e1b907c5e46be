import { DASHBOARD_TOPICS, MFA_TEXTS, machineQueue, ROUTES } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { browserStomp, useStartedStompClients } from '../../testing/stomp.js';
import { eventually, listenOnLoopback } from './testing.js';

/**
 * A browser that only listens sends no frames, yet a session that ends (signed out, user deleted, customer
 * suspended, idle too long) must close its sockets within the re-check time, here made short.
 */

const RECHECK_MS = 100;

let t: TestApp;
let tenants: Tenants;
let base: string;
let machineA: number;
const started = useStartedStompClients();

beforeAll(async () => {
  t = await createTestApp({}, { live: { options: { sessionRecheckMs: RECHECK_MS } } });
  tenants = await createTenants(t.database.db);
  const fixtures = backupFixtures(t.database.db);
  machineA = await fixtures.machine(await fixtures.package(tenants.customerA.customerId));
  base = await listenOnLoopback(t.app);
});
afterAll(async () => {
  await t?.close();
});

async function signedIn(email: string) {
  const client = new TestClient(t.app);
  await client.signIn(email, FIXTURE_PASSWORD);
  return client;
}

/** A browser of this session that subscribes (receipted, so the subscription is in place) and then only listens. */
async function listener(http: TestClient, destination: string) {
  const client = browserStomp(http, `${base}${ROUTES.live.customer.build()}`);
  started.push(client);
  expect(await client.connected).toBe('connected');
  const queue = client.subscribe(destination);
  expect(await client.sendWithReceipt('SUBSCRIBE', DASHBOARD_TOPICS.customer)).toBe(true);
  let closed = false;
  void client.closed.then(() => {
    closed = true;
  });
  return { client, queue, isClosed: () => closed };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a listening browser whose session ends', () => {
  it('is cut off within seconds when its user signs out; a listener still signed in keeps receiving', async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    const leaving = await listener(admin, machineQueue('customer', machineA));
    const staying = await listener(
      await signedIn(tenants.customerA.superAdmin.email),
      machineQueue('customer', machineA),
    );

    await admin.request({
      method: 'POST',
      url: '/logout',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${admin.csrf}`,
    });
    await eventually(leaving.isClosed, 3_000);
    expect(leaving.client.errors[0]?.headers.message).toBe('Session expired');

    await pause(RECHECK_MS * 3);
    expect(staying.isClosed()).toBe(false);
    const next = staying.queue.next();
    await t.app.live.publishToMachineQueue(machineA, 'customer', { still: 'here' });
    expect(JSON.parse((await next).body)).toEqual({ still: 'here' });
    expect(leaving.queue.messages).toHaveLength(0);
  });

  it('is cut off within seconds when its user is deleted', async () => {
    const user = await listener(await signedIn(tenants.customerA.user.email), DASHBOARD_TOPICS.customer);
    const superAdmin = await signedIn(tenants.customerA.superAdmin.email);
    const deleted = await superAdmin.json('DELETE', `/admin/account/users/${tenants.customerA.user.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    await eventually(user.isClosed, 3_000);
    expect(user.client.errors[0]?.headers.message).toBe('Session expired');
  });

  it('is cut off within seconds when its customer is suspended', async () => {
    const admin = await listener(await signedIn(tenants.customerB.admin.email), DASHBOARD_TOPICS.customer);
    const provider = await signedIn(tenants.providerAdmin.email);
    const suspended = await provider.json(
      'PUT',
      `/boltadmin/customers/${tenants.customerB.customerId}?status=SUSPENDED`,
    );
    expect(suspended.statusCode, suspended.body).toBe(200);
    await eventually(admin.isClosed, 3_000);
    expect(admin.client.errors[0]?.headers.message).toBe('Session expired');
  });

  it('is cut off within seconds when its account begins to require two-factor sign-in it has not set up', async () => {
    const admin = await listener(await signedIn(tenants.customerA.admin.email), DASHBOARD_TOPICS.customer);
    const requireMfa = (value: boolean) =>
      t.database.db.update(customers).set({ requireMfa: value }).where(eq(customers.id, tenants.customerA.customerId));
    await requireMfa(true);
    try {
      await eventually(admin.isClosed, 3_000);
      expect(admin.client.errors[0]?.headers.message).toBe(MFA_TEXTS.enrolmentRequired);
    } finally {
      await requireMfa(false);
    }
  });

  it('is not kept alive by listening: the session still ends after the idle time without requests', async () => {
    const reseller = await listener(await signedIn(tenants.reseller.superAdmin.email), DASHBOARD_TOPICS.customer);
    const idleMinutes = t.config.sessionIdleMinutes;
    // Most of the idle time passes while the socket is checked several times…
    t.clock.advanceMinutes(idleMinutes - 5);
    await pause(RECHECK_MS * 5);
    expect(reseller.isClosed()).toBe(false);
    // …and those checks did not count as activity: ten more minutes end the session.
    t.clock.advanceMinutes(10);
    await eventually(reseller.isClosed, 3_000);
    expect(reseller.client.errors[0]?.headers.message).toBe('Session expired');
  });
});
