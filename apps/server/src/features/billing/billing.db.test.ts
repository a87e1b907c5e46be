import { Writable } from 'node:stream';
import {
  type BillingConnectionResult,
  type BillingInfo,
  type BillingServerRow,
  billingConnectionSucceeded,
  billingRefused,
  billingServerInUse,
  billingTarget,
  type CustomerDetail,
  type Envelope,
  fieldRequired,
  MESSAGES,
  ROUTES,
  WHMCS_PAGES,
  withQuery,
} from '@portal/domain';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBillingDirectory } from '../../billing/directory.js';
import { createBillingRepo } from '../../billing/repo.js';
import { billingServers, customers } from '../../db/schema/index.js';
import { serverLoggerOptions } from '../../logging.js';
import { createSecretBox } from '../../secrets.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { TestClient } from '../../testing/client.js';
import { fieldNamesOf, resultOf } from '../../testing/envelope.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { loopbackGuard } from '../../testing/rgw.js';
import { startTestWhmcs, TEST_WHMCS_CREDENTIALS, type TestWhmcs } from '../../testing/whmcs.js';
import { createBillingService } from './service.js';

const MASTER_KEY = 'b'.repeat(64);
const ACCESS_KEY = 'test-access-key-91c2';

let t: TestApp;
let tenants: Tenants;
let whmcs: TestWhmcs;
let logs = '';
/** The server the direct customer B is billed through (its client is 1001 with two unpaid invoices). */
let serverId: number;

const signedIn = async (email: string) => {
  const client = new TestClient(t.app);
  expect((await client.signIn(email, FIXTURE_PASSWORD)).headers.location).toBe('/');
  return client;
};

const firstMessage = (response: LightMyRequestResponse) => (response.json() as Envelope<unknown>).messages[0]?.message;

const serverForm = (overrides: Record<string, unknown> = {}) => ({
  description: 'Billing EU',
  region: 'eu',
  whmcsHost: '127.0.0.1',
  whmcsPort: whmcs.simulator.port,
  whmcsPath: '/',
  whmcsIdentifier: TEST_WHMCS_CREDENTIALS.identifier,
  whmcsSecret: TEST_WHMCS_CREDENTIALS.secret,
  whmcsApiAccessKey: ACCESS_KEY,
  ...overrides,
});

const customerRow = async (customerId: number) => {
  const [row] = await t.database.db.select().from(customers).where(eq(customers.id, customerId));
  if (!row) throw new Error('customer missing');
  return row;
};

beforeAll(async () => {
  whmcs = await startTestWhmcs({
    products: [{ name: 'Starter 50 GB', pricing: { USD: 5 } }],
    clients: [
      {
        id: 1001,
        firstname: 'Beta',
        lastname: 'Owner',
        email: 'owner@beta.test',
        companyname: 'Beta Inc',
      },
    ],
    // Two monthly bills of its Starter service are due.
    services: [{ id: 9001, clientId: 1001, product: 'Starter 50 GB', unpaidInvoices: 2 }],
  });
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs += String(chunk);
      done();
    },
  });
  t = await createTestApp(
    { MASTER_KEY, ALLOW_PRIVATE_ENDPOINTS: 'true' },
    { logger: pino(serverLoggerOptions('debug'), sink) },
  );
  tenants = await createTenants(t.database.db);
  const box = createSecretBox(MASTER_KEY);
  const [server] = await t.database.db
    .insert(billingServers)
    .values({
      description: 'Billing main',
      region: 'default',
      whmcsHost: '127.0.0.1',
      whmcsPort: whmcs.simulator.port,
      whmcsPath: '/',
      whmcsIdentifier: TEST_WHMCS_CREDENTIALS.identifier,
      whmcsSecretEncrypted: box.encrypt(TEST_WHMCS_CREDENTIALS.secret),
    })
    .returning({ id: billingServers.id });
  serverId = server?.id ?? 0;
  await t.database.db
    .update(customers)
    .set({ whmcsServerId: serverId, whmcsClientId: 1001, superAdminUserId: tenants.customerB.superAdmin.id })
    .where(eq(customers.id, tenants.customerB.customerId));
  await t.database.db
    .update(customers)
    .set({ superAdminUserId: tenants.customerA.superAdmin.id })
    .where(eq(customers.id, tenants.customerA.customerId));
});
afterAll(async () => {
  await t.close();
  await whmcs.close();
});
afterEach(() => whmcs.simulator.setFaults({}));

describe('billing host servers (001 §2)', () => {
  const r = ROUTES.billing;

  it('lets the provider add, list, edit and delete a server; secrets never come back', async () => {
    const provider = await signedIn(tenants.providerAdmin.email);
    const added = resultOf<BillingServerRow>(await provider.json('POST', r.addServer.build(), serverForm()));
    expect(added).toMatchObject({
      description: 'Billing EU',
      region: 'eu',
      whmcsSecretConfigured: true,
      whmcsApiAccessKeyConfigured: true,
      numberOfCustomers: 0,
    });
    const list = await provider.json('GET', r.servers.build());
    expect(resultOf<BillingServerRow[]>(list).map((s) => s.description)).toEqual(['Billing EU', 'Billing main']);
    for (const text of [list.body, JSON.stringify(added)]) {
      expect(text).not.toContain(TEST_WHMCS_CREDENTIALS.secret);
      expect(text).not.toContain(ACCESS_KEY);
    }

    // Empty secrets keep the stored ones: the edited server still answers the connection test.
    const path = r.editServer.build({ whmcsServerId: added.id });
    const edited = resultOf<BillingServerRow>(
      await provider.json(
        'PUT',
        path,
        serverForm({ description: 'Billing EU 2', whmcsSecret: '', whmcsApiAccessKey: '' }),
      ),
    );
    expect(edited).toMatchObject({
      description: 'Billing EU 2',
      whmcsSecretConfigured: true,
      whmcsApiAccessKeyConfigured: true,
    });
    const tested = await provider.json('POST', r.testServer.build({ whmcsServerId: added.id }));
    expect(resultOf<BillingConnectionResult>(tested).version).toMatch(/^\d/);
    expect(billingConnectionSucceeded('8.13.1')).toContain('8.13.1');

    const [stored] = await t.database.db.select().from(billingServers).where(eq(billingServers.id, added.id));
    expect(stored?.whmcsSecretEncrypted).not.toContain(TEST_WHMCS_CREDENTIALS.secret);

    resultOf(await provider.json('DELETE', r.deleteServer.build({ whmcsServerId: added.id })));
    expect(resultOf<BillingServerRow[]>(await provider.json('GET', r.servers.build())).map((s) => s.id)).not.toContain(
      added.id,
    );
    expect(logs).not.toContain(TEST_WHMCS_CREDENTIALS.secret);
    expect(logs).not.toContain(ACCESS_KEY);
  });

  it('puts each bad field on its own message', async () => {
    const provider = await signedIn(tenants.providerAdmin.email);
    const response = await provider.json(
      'POST',
      r.addServer.build(),
      serverForm({ description: '', whmcsHost: 'not a host', whmcsPort: 70000, whmcsSecret: '' }),
    );
    expect(response.statusCode).toBe(400);
    expect(fieldNamesOf(response)).toEqual(['description', 'whmcsHost', 'whmcsPort', 'whmcsSecret']);
  });

  it('refuses to delete a server customers use, with a clear message', async () => {
    const provider = await signedIn(tenants.providerAdmin.email);
    const response = await provider.json('DELETE', r.deleteServer.build({ whmcsServerId: serverId }));
    expect(response.statusCode).toBe(409);
    expect(firstMessage(response)).toBe(billingServerInUse(1));
  });

  it('tests the form before saving, and says why it fails', async () => {
    const provider = await signedIn(tenants.providerAdmin.email);
    const good = await provider.json('POST', r.testForm.build(), serverForm());
    expect(resultOf<BillingConnectionResult>(good).version).toMatch(/^\d/);
    // Editing a saved server: an empty secret is the stored one.
    const kept = await provider.json(
      'POST',
      r.testForm.build(),
      serverForm({ id: serverId, whmcsSecret: '', whmcsApiAccessKey: '' }),
    );
    expect(kept.statusCode).toBe(200);
    const noSecret = await provider.json('POST', r.testForm.build(), serverForm({ whmcsSecret: '' }));
    expect(noSecret.statusCode).toBe(400);
    expect(firstMessage(noSecret)).toBe(fieldRequired('API secret'));
    const wrong = await provider.json('POST', r.testForm.build(), serverForm({ whmcsSecret: 'wrong-secret' }));
    expect(wrong.statusCode).toBe(502);
    expect(firstMessage(wrong)).toBe(billingRefused('Authentication Failed'));
    expect(wrong.body).not.toContain('wrong-secret');
    // A WHMCS that repeats the secret in its error: blanked in the answer, and nothing of it in the debug log.
    whmcs.simulator.setFaults({ errorMessage: `Bad login ${TEST_WHMCS_CREDENTIALS.secret}` });
    const echoed = await provider.json('POST', r.testServer.build({ whmcsServerId: serverId }));
    expect(echoed.statusCode).toBe(502);
    expect(echoed.body).not.toContain(TEST_WHMCS_CREDENTIALS.secret);
    whmcs.simulator.setFaults({ malformed: true });
    const malformed = await provider.json('POST', r.testServer.build({ whmcsServerId: serverId }));
    expect(firstMessage(malformed)).toBe(MESSAGES.billing.malformed);
    expect(logs).not.toContain('wrong-secret');
    expect(logs).not.toContain(TEST_WHMCS_CREDENTIALS.secret);
  });

  it('lets no one but provider admins near them', async () => {
    for (const email of [
      tenants.reseller.superAdmin.email,
      tenants.customerB.superAdmin.email,
      tenants.customerA.admin.email,
    ]) {
      const client = await signedIn(email);
      expect((await client.json('GET', r.servers.build())).statusCode).toBe(403);
      expect((await client.json('POST', r.addServer.build(), serverForm())).statusCode).toBe(403);
      expect((await client.json('POST', r.testServer.build({ whmcsServerId: serverId }))).statusCode).toBe(403);
      expect((await client.json('DELETE', r.deleteServer.build({ whmcsServerId: serverId }))).statusCode).toBe(403);
    }
    expect(
      resultOf<BillingServerRow[]>(await (await signedIn(tenants.providerAdmin.email)).json('GET', r.servers.build())),
    ).toHaveLength(1);
  });
});

describe('GET /billing/info (002 §7.2)', () => {
  const info = (goToUrl: string) => withQuery(ROUTES.billing.info.build(), { goToUrl });

  it('gives the direct customer’s super admin a single sign-on link to the page asked for', async () => {
    const superAdmin = await signedIn(tenants.customerB.superAdmin.email);
    const { whmcsRedirectUrl } = resultOf<BillingInfo>(await superAdmin.json('GET', info(WHMCS_PAGES.massPay)));
    const landing = await fetch(whmcsRedirectUrl, { redirect: 'manual' });
    expect(landing.status).toBe(303);
    expect(landing.headers.get('location')).toBe(`/${WHMCS_PAGES.massPay}`);
  });

  it('gives other users support (a=0) but not the super admin’s billing (a=1)', async () => {
    const user = await signedIn(tenants.customerB.user.email);
    expect((await user.json('GET', info(billingTarget('support', false)))).statusCode).toBe(200);
    expect((await user.json('GET', info(billingTarget('billing', true)))).statusCode).toBe(403);
  });

  it('refuses any other address', async () => {
    const superAdmin = await signedIn(tenants.customerB.superAdmin.email);
    for (const goToUrl of [
      'https://evil.test/',
      '//evil.test/x',
      'clientarea.php?action=invoices&a=1&x=https://evil',
    ]) {
      expect((await superAdmin.json('GET', info(goToUrl))).statusCode).toBe(400);
    }
  });

  it('tells a reseller’s customer and the provider that there is no billing', async () => {
    const resellersCustomer = await signedIn(tenants.customerA.superAdmin.email);
    const response = await resellersCustomer.json('GET', info(billingTarget('billing', true)));
    expect(response.statusCode).toBe(404);
    expect(firstMessage(response)).toBe(MESSAGES.billing.noBilling);
    expect(
      (await (await signedIn(tenants.providerAdmin.email)).json('GET', info(WHMCS_PAGES.massPay))).statusCode,
    ).toBe(403);
  });

  it('makes the customer’s WHMCS client when it has none, once', async () => {
    await t.database.db
      .update(customers)
      .set({ whmcsClientId: null })
      .where(eq(customers.id, tenants.customerB.customerId));
    whmcs.simulator.setFaults({ delayMs: 6000 });
    const superAdmin = await signedIn(tenants.customerB.superAdmin.email);
    const slow = await superAdmin.json('GET', info(WHMCS_PAGES.massPay));
    expect(slow.statusCode).toBe(502);
    expect(firstMessage(slow)).toBe(MESSAGES.billing.timeout);
    expect((await customerRow(tenants.customerB.customerId)).whmcsClientId).toBeNull();

    whmcs.simulator.setFaults({});
    const clientsBefore = whmcs.simulator.state().clients.length;
    resultOf<BillingInfo>(await superAdmin.json('GET', info(WHMCS_PAGES.massPay)));
    resultOf<BillingInfo>(await superAdmin.json('GET', info(WHMCS_PAGES.massPay)));
    const made = whmcs.simulator.state().clients.slice(clientsBefore);
    expect(made.map((c) => c.email)).toEqual([tenants.customerB.superAdmin.email]);
    expect((await customerRow(tenants.customerB.customerId)).whmcsClientId).toBe(made[0]?.id);
    await t.database.db
      .update(customers)
      .set({ whmcsClientId: 1001 })
      .where(eq(customers.id, tenants.customerB.customerId));
  }, 15_000);

  it('answers an unreachable billing system with its message and changes nothing', async () => {
    const before = await customerRow(tenants.customerB.customerId);
    await t.database.db.update(billingServers).set({ whmcsPort: 1 }).where(eq(billingServers.id, serverId));
    try {
      const superAdmin = await signedIn(tenants.customerB.superAdmin.email);
      const response = await superAdmin.json('GET', info(WHMCS_PAGES.massPay));
      expect(response.statusCode).toBe(502);
      expect(firstMessage(response)).toBe(MESSAGES.billing.unreachable);
      expect(await customerRow(tenants.customerB.customerId)).toEqual(before);
    } finally {
      await t.database.db
        .update(billingServers)
        .set({ whmcsPort: whmcs.simulator.port })
        .where(eq(billingServers.id, serverId));
    }
  });
});

describe('Invoices due (002 §2.2)', () => {
  const initialUnpaid = async (client: TestClient) => {
    const page = await client.open('/');
    const json = /<script type="application\/json" id="initial-data">(.*?)<\/script>/s.exec(page.body)?.[1] ?? 'null';
    return (JSON.parse(json) as { user: { unpaidInvoices: number } }).user.unpaidInvoices;
  };

  it('reads the count from billing when a page is served, and again after a visit to billing', async () => {
    const superAdmin = await signedIn(tenants.customerB.superAdmin.email);
    expect(await initialUnpaid(superAdmin)).toBe(2);
    expect((await customerRow(tenants.customerB.customerId)).unpaidInvoices).toBe(2);

    // Paid in the billing system: the stored count stays for 30 s, unless the customer went through /billing/info.
    const { whmcsRedirectUrl } = resultOf<BillingInfo>(
      await superAdmin.json('GET', withQuery(ROUTES.billing.info.build(), { goToUrl: WHMCS_PAGES.massPay })),
    );
    const landing = await fetch(whmcsRedirectUrl, { redirect: 'manual' });
    const cookie = landing.headers.get('set-cookie')?.split(';')[0] ?? '';
    await fetch(new URL(WHMCS_PAGES.massPay, whmcs.simulator.baseUrl), {
      method: 'POST',
      headers: { cookie },
      redirect: 'manual',
    });
    expect(await initialUnpaid(superAdmin)).toBe(0);
    expect((await customerRow(tenants.customerB.customerId)).unpaidInvoices).toBe(0);
  });
});

describe('billing sync job', () => {
  it('sets every billed customer’s count from WHMCS, and leaves it when WHMCS fails', async () => {
    const service = createBillingService({
      directory: createBillingDirectory({
        db: t.database.db,
        secrets: createSecretBox(MASTER_KEY),
        client: { guard: loopbackGuard() },
      }),
      repo: createBillingRepo(t.database.db),
      logger: pino({ level: 'silent' }),
    });
    await t.database.db
      .update(customers)
      .set({ unpaidInvoices: 7 })
      .where(eq(customers.id, tenants.customerB.customerId));
    whmcs.simulator.setFaults({ errorMessage: 'Maintenance' });
    expect(await service.syncAll()).toBe(0);
    expect((await customerRow(tenants.customerB.customerId)).unpaidInvoices).toBe(7);
    whmcs.simulator.setFaults({});
    expect(await service.syncAll()).toBe(1);
    const expected = whmcs.simulator.state().invoices.filter((i) => i.userId === 1001 && i.status === 'Unpaid').length;
    expect((await customerRow(tenants.customerB.customerId)).unpaidInvoices).toBe(expected);
  });
});

describe('billing server change (002 §7.3)', () => {
  it('moves a direct customer to another server, clearing its client id; refuses the same server', async () => {
    const provider = await signedIn(tenants.providerAdmin.email);
    const other = resultOf<BillingServerRow>(
      await provider.json('POST', ROUTES.billing.addServer.build(), serverForm({ description: 'Billing US' })),
    );
    const path = (whmcsServerId: number, paymentMethod = 'stripe') =>
      withQuery(ROUTES.customers.provider.changeStatus.build({ customerId: tenants.customerB.customerId }), {
        whmcsServerId,
        paymentMethod,
      });
    const same = await provider.json('PUT', path(serverId));
    expect(same.statusCode).toBe(400);
    expect(firstMessage(same)).toBe(MESSAGES.customer.sameWhmcsServer);
    expect((await provider.json('PUT', path(other.id, 'cheque'))).statusCode).toBe(400);

    const moved = resultOf<CustomerDetail>(await provider.json('PUT', path(other.id)));
    expect(moved.whmcsServerId).toBe(other.id);
    const row = await customerRow(tenants.customerB.customerId);
    expect(row).toMatchObject({ whmcsServerId: other.id, whmcsClientId: null, paymentMethod: 'stripe' });

    // A reseller admin cannot, not even on its own customer's path; a reseller's customer has no billing server.
    const reseller = await signedIn(tenants.reseller.superAdmin.email);
    const resellerPath = withQuery(
      ROUTES.customers.reseller.changeStatus.build({ customerId: tenants.customerA.customerId }),
      {
        whmcsServerId: other.id,
        paymentMethod: 'stripe',
      },
    );
    expect((await reseller.json('PUT', resellerPath)).statusCode).toBe(400);
    const toResellersCustomer = withQuery(
      ROUTES.customers.provider.changeStatus.build({ customerId: tenants.customerA.customerId }),
      { whmcsServerId: other.id, paymentMethod: 'stripe' },
    );
    expect((await provider.json('PUT', toResellersCustomer)).statusCode).toBe(404);
    expect((await customerRow(tenants.customerA.customerId)).whmcsServerId).toBeNull();

    await t.database.db
      .update(customers)
      .set({ whmcsServerId: serverId, whmcsClientId: 1001 })
      .where(eq(customers.id, tenants.customerB.customerId));
  });
});
