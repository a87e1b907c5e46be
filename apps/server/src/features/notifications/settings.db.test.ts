import { defaultNotificationChoices, NOTIFICATION_TEXTS, ROUTES, withQuery } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { fieldNamesOf } from '../../testing/envelope.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';

const R = ROUTES.notificationSettings;
let t: TestApp;
let tenants: Tenants;
let machineA: number;
let machineB: number;
const clients: Record<string, TestClient> = {};

/** A signed-in client by name (set up in beforeAll). */
const as = (name: string): TestClient => {
  const client = clients[name];
  if (!client) throw new Error(`no client ${name}`);
  return client;
};

const signedIn = async (email: string) => {
  const client = new TestClient(t.app);
  await client.signIn(email, FIXTURE_PASSWORD);
  return client;
};

const choices = (overrides: Record<string, unknown> = {}) => ({
  ...defaultNotificationChoices('ROLE_CUSTOMER_USER'),
  runFailed: true,
  machineIds: [],
  ...overrides,
});

beforeAll(async () => {
  t = await createTestApp();
  tenants = await createTenants(t.database.db);
  const fixtures = backupFixtures(t.database.db);
  machineA = await fixtures.machine(await fixtures.package(tenants.customerA.customerId), { name: 'alpha-laptop' });
  machineB = await fixtures.machine(await fixtures.package(tenants.customerB.customerId), { name: 'beta-server' });
  clients.superA = await signedIn(tenants.customerA.superAdmin.email);
  clients.adminA = await signedIn(tenants.customerA.admin.email);
  clients.userA = await signedIn(tenants.customerA.user.email);
  clients.superB = await signedIn(tenants.customerB.superAdmin.email);
  clients.provider = await signedIn(tenants.providerAdmin.email);
  clients.reseller = await signedIn(tenants.reseller.superAdmin.email);
});
afterAll(() => t?.close());

describe('notification settings (issue 17, 002 §2.1)', () => {
  it("shows the super admin the customer's users with the defaults: the super admin hears of failed and missed runs", async () => {
    const response = await as('superA').json('GET', R.users.build());
    expect(response.statusCode).toBe(200);
    const { elements, totalElements } = response.json().result;
    expect(totalElements).toBe(3);
    const byEmail = new Map(elements.map((row: { email: string }) => [row.email, row]));
    expect(byEmail.get(tenants.customerA.superAdmin.email)).toMatchObject({
      runFailed: true,
      runMissed: true,
      runWarnings: false,
      summary: 'NONE',
      allMachines: true,
    });
    expect(byEmail.get(tenants.customerA.user.email)).toMatchObject({ runFailed: false, runMissed: false });
    expect(byEmail.has(tenants.customerB.superAdmin.email)).toBe(false);
  });

  it('saves a user’s alerts for chosen machines and answers them back, and the list keeps them', async () => {
    const url = R.saveUser.build({ userId: tenants.customerA.admin.id });
    const saved = await as('superA').json('PUT', url, choices({ allMachines: false, machineIds: [machineA] }));
    expect(saved.statusCode).toBe(200);
    expect(saved.json().result).toMatchObject({
      userId: tenants.customerA.admin.id,
      runFailed: true,
      allMachines: false,
      machines: [{ id: machineA, name: 'alpha-laptop' }],
    });
    const list = await as('superA').json('GET', withQuery(R.users.build(), { search: 'admin@alpha' }));
    expect(list.json().result.elements).toEqual([saved.json().result]);
  });

  it('refuses bad input on its field and changes nothing', async () => {
    const url = R.saveUser.build({ userId: tenants.customerA.user.id });
    const none = await as('superA').json('PUT', url, choices({ allMachines: false, machineIds: [] }));
    expect(none.statusCode).toBe(400);
    expect(none.json().messages).toEqual([
      expect.objectContaining({ fieldName: 'machineIds', message: NOTIFICATION_TEXTS.chooseMachine }),
    ]);
    // Another tenant's machine is not one of the caller's.
    const foreign = await as('superA').json('PUT', url, choices({ allMachines: false, machineIds: [machineB] }));
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().messages[0]).toMatchObject({
      fieldName: 'machineIds',
      message: NOTIFICATION_TEXTS.machineNotFound,
    });
    const badSummary = await as('superA').json('PUT', url, choices({ summary: 'HOURLY' }));
    expect(badSummary.statusCode).toBe(400);
    expect(badSummary.json().messages[0].fieldName).toBe('summary');

    const thresholds = await as('superA').json('PUT', R.saveThresholds.build(), {
      offlineHours: 0,
      quotaNearPercent: 100,
    });
    expect(thresholds.statusCode).toBe(400);
    expect(fieldNamesOf(thresholds)).toEqual(['offlineHours', 'quotaNearPercent']);
    const list = await as('superA').json('GET', withQuery(R.users.build(), { search: 'user@alpha' }));
    expect(list.json().result.elements[0]).toMatchObject({ runFailed: false, allMachines: true });
    expect((await as('superA').json('GET', R.thresholds.build())).json().result).toEqual({
      offlineHours: 24,
      quotaNearPercent: 90,
    });
  });

  it('saves the thresholds', async () => {
    const saved = await as('superA').json('PUT', R.saveThresholds.build(), {
      offlineHours: 6,
      quotaNearPercent: 80,
    });
    expect(saved.statusCode).toBe(200);
    expect((await as('superA').json('GET', R.thresholds.build())).json().result).toEqual({
      offlineHours: 6,
      quotaNearPercent: 80,
    });
  });

  it('gives a customer admin, a customer user and the provider nothing, and changes nothing', async () => {
    const url = R.saveUser.build({ userId: tenants.customerA.user.id });
    for (const name of ['adminA', 'userA', 'provider']) {
      const client = as(name);
      for (const path of [R.users.build(), R.thresholds.build(), R.machines.build(), ROUTES.mail.failures.build()]) {
        expect((await client.json('GET', path)).statusCode, `${name} GET ${path}`).toBe(403);
      }
      expect((await client.json('PUT', url, choices({ runMissed: true }))).statusCode, name).toBe(403);
      expect(
        (await client.json('PUT', R.saveThresholds.build(), { offlineHours: 2, quotaNearPercent: 60 })).statusCode,
      ).toBe(403);
    }
    const list = await as('superA').json('GET', withQuery(R.users.build(), { search: 'user@alpha' }));
    expect(list.json().result.elements[0]).toMatchObject({ runMissed: false });
  });

  it("lets the reseller's super admin see its own account's settings only, not its customer's", async () => {
    const own = await as('reseller').json('GET', R.users.build());
    expect(own.json().result.elements.map((row: { email: string }) => row.email)).toEqual([
      tenants.reseller.superAdmin.email,
    ]);
    const url = R.saveUser.build({ userId: tenants.customerA.user.id });
    expect((await as('reseller').json('PUT', url, choices())).statusCode).toBe(404);
  });

  it("lets another tenant's super admin reach none of this customer's users or machines", async () => {
    const url = R.saveUser.build({ userId: tenants.customerA.user.id });
    expect((await as('superB').json('PUT', url, choices())).statusCode).toBe(404);
    const machines = await as('superB').json('GET', R.machines.build());
    expect(machines.json().result.elements).toEqual([expect.objectContaining({ id: machineB, name: 'beta-server' })]);
    expect((await as('superB').json('GET', R.thresholds.build())).json().result.offlineHours).toBe(24);
  });

  it('pages and searches the machine chooser', async () => {
    const found = await as('superA').json('GET', withQuery(R.machines.build(), { search: 'LAPTOP', size: 5 }));
    expect(found.json().result).toMatchObject({
      totalElements: 1,
      elements: [{ id: machineA, name: 'alpha-laptop' }],
    });
    const missing = await as('superA').json('GET', withQuery(R.machines.build(), { search: 'nothing' }));
    expect(missing.json().result.totalElements).toBe(0);
  });

  it("shows the super admin the customer's failed and retried mails, not delivered ones nor another tenant's", async () => {
    await t.database.db.insert(mailOutbox).values([
      {
        eventKey: 'test:failed',
        customerId: tenants.customerA.customerId,
        kind: 'RUN_FAILED',
        recipient: 'super@alpha.test',
        message: { subject: 's', lines: [] },
        status: 'FAILED',
        attempts: 5,
        lastError: '550 mailbox unavailable',
      },
      {
        eventKey: 'test:retrying',
        customerId: tenants.customerA.customerId,
        kind: 'RUN_MISSED',
        recipient: 'admin@alpha.test',
        message: { subject: 's', lines: [] },
        status: 'QUEUED',
        attempts: 1,
        lastError: 'connection refused',
      },
      {
        eventKey: 'test:sent',
        customerId: tenants.customerA.customerId,
        kind: 'RUN_FAILED',
        recipient: 'super@alpha.test',
        message: { subject: 's', lines: [] },
        status: 'SENT',
        attempts: 1,
      },
      {
        eventKey: 'test:other',
        customerId: tenants.customerB.customerId,
        kind: 'RUN_FAILED',
        recipient: 'super@beta.test',
        message: { subject: 's', lines: [] },
        status: 'FAILED',
        attempts: 5,
        lastError: 'nope',
      },
    ]);
    const response = await as('superA').json('GET', ROUTES.mail.failures.build());
    const rows = response.json().result.elements;
    expect(rows).toHaveLength(2);
    expect(rows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kindName: 'Run failed',
          recipient: 'super@alpha.test',
          status: 'FAILED',
          attempts: 5,
          lastError: '550 mailbox unavailable',
          nextAttemptAt: null,
        }),
        expect.objectContaining({
          kindName: 'Scheduled run missed',
          status: 'QUEUED',
          lastError: 'connection refused',
        }),
      ]),
    );
  });
});
