import {
  billingRefused,
  type Envelope,
  MESSAGES,
  type MyPackageRequestRow,
  type PackageRow,
  type Paged,
  type PurchaseResult,
  ROUTES,
  type SignUpOptions,
  type TemplatesOnOffer,
} from '@portal/domain';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBillingDirectory } from '../../billing/directory.js';
import { backupPackages, billingServers, customers, packageRequests, packageTemplates } from '../../db/schema/index.js';
import { passJob } from '../../jobs/passes.js';
import { createJobRunner } from '../../jobs/runner.js';
import { createSecretBox } from '../../secrets.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { resultOf } from '../../testing/envelope.js';
import { startRecordingListener } from '../../testing/listener.js';
import { loopbackGuard } from '../../testing/rgw.js';
import { startTestWhmcs, TEST_WHMCS_CREDENTIALS, type TestWhmcs } from '../../testing/whmcs.js';
import { addCustomer, signedIn, type TestCustomer } from '../customers/testing.js';
import { createPaidInvoiceCheck } from './paid-invoices.js';
import { createPurchaseRepo } from './repo.js';
import { createWhmcsPurchaseBilling } from './whmcs-billing.js';

const MASTER_KEY = 'b'.repeat(64);
const R = ROUTES.purchase;

let t: TestApp;
let whmcs: TestWhmcs;
/** A direct customer billed by the simulator (region EU), and one whose billing server is down. */
let billed: TestCustomer;
let stranded: TestCustomer;
let reseller: TestCustomer;
let basic: number;
let business: number;
let unsold: number;
let forResellers: number;

const messagesOf = (response: LightMyRequestResponse) =>
  (response.json() as Envelope<unknown>).messages.map((m) => m.message);

/** The public sign-up of a new company asking for a template not on offer: refused on the template's field. */
async function expectSignUpRefused(
  visitor: TestClient,
  seeker: { companyName: string; firstName: string; email: string; contactNumber: string },
  templateId: number,
) {
  await visitor.open(ROUTES.signUp.submit.build());
  const refused = await visitor.json('POST', ROUTES.signUp.submit.build(), {
    ...seeker,
    surname: 'Seeker',
    password: 'long enough',
    confirmPassword: 'long enough',
    templateId,
  });
  expect(refused.statusCode).toBe(400);
  expect((refused.json() as Envelope<unknown>).messages.map((m) => m.fieldName)).toEqual(['templateId']);
}

async function billingServer(region: string, port: number) {
  const secrets = createSecretBox(MASTER_KEY);
  const [row] = await t.database.db
    .insert(billingServers)
    .values({
      description: `WHMCS ${region}`,
      region,
      whmcsHost: '127.0.0.1',
      whmcsPort: port,
      whmcsPath: '/',
      whmcsIdentifier: TEST_WHMCS_CREDENTIALS.identifier,
      whmcsSecretEncrypted: secrets.encrypt(TEST_WHMCS_CREDENTIALS.secret),
    })
    .returning({ id: billingServers.id });
  if (!row) throw new Error('billing server not inserted');
  return row.id;
}

async function template(name: string, quotaGb: number) {
  const [row] = await t.database.db
    .insert(packageTemplates)
    .values({ name, storageQuota: quotaGb, storageQuotaUnit: 'GB', noOfMachinesLimit: 3 })
    .returning({ id: packageTemplates.id });
  if (!row) throw new Error('template not inserted');
  return row.id;
}

const rowsOf = async (customerId: number) => ({
  packages: await t.database.db.select().from(backupPackages).where(eq(backupPackages.customerId, customerId)),
  requests: await t.database.db.select().from(packageRequests).where(eq(packageRequests.customerId, customerId)),
});

/** The billing the app buys through, built as app.ts builds it. */
const billingOf = () =>
  createWhmcsPurchaseBilling({
    repo: createPurchaseRepo(t.database.db),
    directory: createBillingDirectory({
      db: t.database.db,
      secrets: createSecretBox(MASTER_KEY),
      client: { guard: loopbackGuard() },
    }),
  });

/** The paid-invoice check as app.ts builds it, with the test's approval in place of the requests feature's. */
const paidInvoiceCheck = (approvePaidRequest: (requestId: number) => Promise<void>) =>
  createPaidInvoiceCheck({
    db: t.database.db,
    repo: createPurchaseRepo(t.database.db),
    billing: billingOf(),
    approvePaidRequest,
    warn: () => undefined,
  });

/** The customer's super admin buys the template, and its invoice is paid in the billing system. */
async function paidPurchase(customer: TestCustomer, packageTemplateId: number) {
  const client = await signedIn(t.app, customer.superAdmin.email);
  const { whmcsInvoiceId } = resultOf<PurchaseResult>(
    await client.json('POST', R.purchase.build(), { packageTemplateId }),
  );
  await fetch(`${whmcs.simulator.baseUrl}viewinvoice.php?id=${whmcsInvoiceId}`, { method: 'POST', redirect: 'manual' });
  return client;
}

beforeAll(async () => {
  whmcs = await startTestWhmcs({
    products: [
      { name: 'Basic', pricing: { USD: 9.5 } },
      { name: 'Business', pricing: { USD: 49 } },
      { name: 'Reseller 20 TB', pricing: { USD: 299.99 } },
    ],
  });
  t = await createTestApp({ MASTER_KEY, ALLOW_PRIVATE_ENDPOINTS: 'true' });
  const eu = await billingServer('EU', whmcs.simulator.port);
  // A port nothing listens on: a billing system that is down.
  const down = await startTestWhmcs();
  const downPort = down.simulator.port;
  await down.close();
  const us = await billingServer('US', downPort);
  // A second region the same billing system answers for: a customer billed in EU is priced in EU only.
  await billingServer('APAC', whmcs.simulator.port);
  billed = await addCustomer(t.database.db, { companyName: 'Billed Ltd' });
  stranded = await addCustomer(t.database.db, { companyName: 'Stranded Ltd' });
  await t.database.db.update(customers).set({ whmcsServerId: eu }).where(eq(customers.id, billed.customerId));
  await t.database.db.update(customers).set({ whmcsServerId: us }).where(eq(customers.id, stranded.customerId));
  reseller = await addCustomer(t.database.db, { companyName: 'Reseller Ltd', reseller: { enabled: true } });
  // The reseller's own template: for its customers, never for the provider's.
  await t.database.db
    .insert(packageTemplates)
    .values({ name: 'Reseller only', storageQuota: 20, storageQuotaUnit: 'GB', ownerCustomerId: reseller.customerId });
  basic = await template('Basic', 100);
  business = await template('Business', 1000);
  unsold = await template('Unsold', 5);
  forResellers = await template('Reseller 20 TB', 20_000);
  await t.database.db
    .update(packageTemplates)
    .set({ resellersOnly: true })
    .where(eq(packageTemplates.id, forResellers));
  await t.database.db.update(customers).set({ whmcsServerId: eu }).where(eq(customers.id, reseller.customerId));
});

// A test that fails halfway leaves no fault behind for the next.
afterEach(() => whmcs.simulator.setFaults({}));

afterAll(async () => {
  await t.close();
  await whmcs.close();
});

describe('templates on offer to a direct customer (001 §2, §3)', () => {
  it("carry the price of the customer's own billing region, not of the others", async () => {
    const client = await signedIn(t.app, billed.admin.email);
    const offer = resultOf<TemplatesOnOffer>(await client.json('GET', R.templates.build()));
    const pricing = Object.fromEntries(offer.elements.map((e) => [e.name, e.whmcsPackagePricingDtos]));
    expect(pricing.Basic).toEqual([{ region: 'EU', matchedInWhmcs: true, priceInWhmcs: '9.50 USD' }]);
  });
});

describe('only what may be bought is offered (issue 29 item 12)', () => {
  it("offers a direct customer neither a template the billing system does not sell nor a reseller's own", async () => {
    const client = await signedIn(t.app, billed.admin.email);
    const offer = resultOf<TemplatesOnOffer>(await client.json('GET', R.templates.build()));
    expect(offer.elements.map((e) => e.name)).toEqual(['Basic', 'Business']);
    expect(offer.elements.flatMap((e) => e.whmcsPackagePricingDtos).every((p) => p.matchedInWhmcs)).toBe(true);
  });

  it('offers the public sign-up the same, and refuses a template not on offer on its field', async () => {
    const visitor = new TestClient(t.app);
    const options = resultOf<SignUpOptions>(await visitor.json('GET', ROUTES.signUp.options.build()));
    expect(options.templates.map((o) => o.name)).toEqual(['Basic', 'Business']);
    await expectSignUpRefused(
      visitor,
      { companyName: 'Unsold Seeker', firstName: 'Uma', email: 'uma@unsold.test', contactNumber: '021 555 0101' },
      unsold,
    );
  });

  it("offers a reseller's customer its reseller's own templates, without billing", async () => {
    const child = await addCustomer(t.database.db, {
      companyName: 'Reseller Child Ltd',
      parentResellerCustomerId: reseller.customerId,
    });
    const client = await signedIn(t.app, child.admin.email);
    const offer = resultOf<TemplatesOnOffer>(await client.json('GET', R.templates.build()));
    expect(offer.elements.map((e) => [e.name, e.whmcsPackagePricingDtos])).toEqual([['Reseller only', []]]);
    expect(offer.boltCustomer).toBe(false);
  });
});

describe("a provider's template for resellers only (issue 29 item 12)", () => {
  it('is offered to a reseller, priced, but neither to a direct customer nor to the public sign-up', async () => {
    const direct = await signedIn(t.app, billed.admin.email);
    const directOffer = resultOf<TemplatesOnOffer>(await direct.json('GET', R.templates.build()));
    expect(directOffer.elements.map((e) => e.name)).not.toContain('Reseller 20 TB');

    const visitor = new TestClient(t.app);
    const options = resultOf<SignUpOptions>(await visitor.json('GET', ROUTES.signUp.options.build()));
    expect(options.templates.map((o) => o.name)).not.toContain('Reseller 20 TB');

    const asReseller = await signedIn(t.app, reseller.admin.email);
    const resellerOffer = resultOf<TemplatesOnOffer>(await asReseller.json('GET', R.templates.build()));
    expect(resellerOffer.elements.map((e) => [e.name, e.whmcsPackagePricingDtos])).toEqual([
      ['Basic', [{ region: 'EU', matchedInWhmcs: true, priceInWhmcs: '9.50 USD' }]],
      ['Business', [{ region: 'EU', matchedInWhmcs: true, priceInWhmcs: '49.00 USD' }]],
      ['Reseller 20 TB', [{ region: 'EU', matchedInWhmcs: true, priceInWhmcs: '299.99 USD' }]],
    ]);
  });

  it("refuses a direct customer's purchase of it as not on offer, on its field, and writes nothing", async () => {
    const client = await signedIn(t.app, billed.superAdmin.email);
    const before = await rowsOf(billed.customerId);
    const orders = whmcs.simulator.state().orders.length;
    const response = await client.json('POST', R.purchase.build(), { packageTemplateId: forResellers });
    expect(response.statusCode).toBe(400);
    expect((response.json() as Envelope<unknown>).messages).toEqual([
      expect.objectContaining({ message: MESSAGES.purchase.notOnOffer, fieldName: 'packageTemplateId' }),
    ]);
    expect(await rowsOf(billed.customerId)).toEqual(before);
    expect(whmcs.simulator.state().orders).toHaveLength(orders);
  });

  it('refuses it to the public sign-up on its field', async () => {
    await expectSignUpRefused(
      new TestClient(t.app),
      { companyName: 'Wholesale Seeker', firstName: 'Wes', email: 'wes@wholesale.test', contactNumber: '021 555 0102' },
      forResellers,
    );
  });
});

describe('purchase by a billed customer (000 §7)', () => {
  it('places the order in the billing system first and answers its invoice, stored on the request', async () => {
    const client = await signedIn(t.app, billed.superAdmin.email);
    const result = resultOf<PurchaseResult>(
      await client.json('POST', R.purchase.build(), { packageTemplateId: basic }),
    );
    expect(result.whmcsInvoiceId).toEqual(expect.any(Number));

    const state = whmcs.simulator.state();
    const invoice = state.invoices.find((i) => i.id === result.whmcsInvoiceId);
    expect(invoice?.status).toBe('Unpaid');
    const order = state.orders.find((o) => o.invoiceId === result.whmcsInvoiceId);
    const clientOf = state.clients.find((c) => c.id === order?.clientId);
    expect(clientOf?.email).toBe(billed.superAdmin.email);

    const { packages, requests } = await rowsOf(billed.customerId);
    expect(packages).toEqual([
      expect.objectContaining({ name: 'Basic', status: 'REQUESTED', whmcsServiceId: order?.serviceIds[0] }),
    ]);
    expect(requests).toEqual([
      expect.objectContaining({
        requestType: 'ADDITIONAL_PACKAGE',
        status: 'PENDING',
        backupPackageId: packages[0]?.id,
        whmcsOrderId: order?.id,
        whmcsInvoiceId: result.whmcsInvoiceId,
      }),
    ]);
    const [customer] = await t.database.db.select().from(customers).where(eq(customers.id, billed.customerId));
    expect(customer?.whmcsClientId).toBe(clientOf?.id);
  });

  it('refuses a template the billing system sells no product for, and writes nothing', async () => {
    const client = await signedIn(t.app, billed.superAdmin.email);
    const before = await rowsOf(billed.customerId);
    const response = await client.json('POST', R.purchase.build(), { packageTemplateId: unsold });
    expect(response.statusCode).toBe(400);
    expect(messagesOf(response)).toEqual([MESSAGES.purchase.notOnOffer]);
    expect(await rowsOf(billed.customerId)).toEqual(before);
  });

  it('answers a slow, wrong, refusing or down billing system with a clear message, and writes nothing', {
    timeout: 20_000,
  }, async () => {
    const client = await signedIn(t.app, billed.superAdmin.email);
    const before = await rowsOf(billed.customerId);
    const cases = [
      // Past the client's 5 s timeout.
      { faults: { delayMs: 5_500 }, message: MESSAGES.billing.timeout },
      { faults: { malformed: true }, message: MESSAGES.billing.malformed },
      { faults: { errorMessage: 'Invalid Payment Method' }, message: billingRefused('Invalid Payment Method') },
    ];
    for (const { faults, message } of cases) {
      whmcs.simulator.setFaults(faults);
      const response = await client.json('POST', R.purchase.build(), { packageTemplateId: business });
      expect(response.statusCode, JSON.stringify(faults)).toBe(502);
      expect(messagesOf(response)).toEqual([message]);
    }
    whmcs.simulator.setFaults({});
    // The timed-out order still completes in the billing system; later tests count its invoices.
    await whmcs.simulator.settled();
    expect(await rowsOf(billed.customerId)).toEqual(before);

    const strandedClient = await signedIn(t.app, stranded.superAdmin.email);
    const down = await strandedClient.json('POST', R.purchase.build(), { packageTemplateId: basic });
    expect(down.statusCode).toBe(502);
    expect(messagesOf(down)).toEqual([MESSAGES.billing.unreachable]);
    expect(await rowsOf(stranded.customerId)).toEqual({ packages: [], requests: [] });
  });
});

describe('up/downgrade of a billed package (000 §4, §7)', () => {
  it('changes the billed service first and answers its invoice, stored on the change request', async () => {
    const client = await signedIn(t.app, billed.superAdmin.email);
    const pkg = (await rowsOf(billed.customerId)).packages.find((p) => p.templateId === basic);
    if (!pkg) throw new Error('no package');
    await t.database.db.update(backupPackages).set({ status: 'ACTIVE' }).where(eq(backupPackages.id, pkg.id));
    await t.database.db
      .update(packageRequests)
      .set({ status: 'APPROVED' })
      .where(eq(packageRequests.backupPackageId, pkg.id));

    // A template for resellers only is not on offer to a direct customer's upgrade either (issue 29 item 12).
    const invoices = whmcs.simulator.state().invoices.length;
    const refused = await client.json('PUT', R.upgrade.build({ packageId: pkg.id }), {
      newPackageTemplateId: forResellers,
    });
    expect(refused.statusCode).toBe(400);
    expect((refused.json() as Envelope<unknown>).messages).toEqual([
      expect.objectContaining({ message: MESSAGES.purchase.notOnOffer, fieldName: 'newPackageTemplateId' }),
    ]);
    expect(whmcs.simulator.state().invoices).toHaveLength(invoices);

    const result = resultOf<PurchaseResult>(
      await client.json('PUT', R.upgrade.build({ packageId: pkg.id }), { newPackageTemplateId: business }),
    );
    const invoice = whmcs.simulator.state().invoices.find((i) => i.id === result.whmcsInvoiceId);
    expect(invoice?.effect).toMatchObject({ kind: 'upgrade', serviceId: pkg.whmcsServiceId });
    const change = (await rowsOf(billed.customerId)).requests.find((r) => r.requestType === 'CHANGE_PACKAGE');
    expect(change).toMatchObject({
      status: 'PENDING',
      whmcsInvoiceId: result.whmcsInvoiceId,
      requestedTemplateId: business,
    });
  });
});

describe('paid invoices approve their requests', () => {
  it('asks for the approval once the invoice is paid, once only, and sets the first payment done', async () => {
    const client = await signedIn(t.app, billed.superAdmin.email);
    const { whmcsInvoiceId } = resultOf<PurchaseResult>(
      await client.json('POST', R.purchase.build(), { packageTemplateId: basic }),
    );
    const request = (await rowsOf(billed.customerId)).requests.find((r) => r.whmcsInvoiceId === whmcsInvoiceId);
    const approved: number[] = [];
    const check = paidInvoiceCheck(async (requestId) => {
      approved.push(requestId);
    });

    await check.checkAll();
    expect(approved).toEqual([]);
    const paid = await fetch(`${whmcs.simulator.baseUrl}viewinvoice.php?id=${whmcsInvoiceId}`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);

    const runner = createJobRunner({ logger: pino({ level: 'silent' }) });
    runner.add({ ...passJob('paid-invoices', () => check.checkAll()), everyMs: 50 });
    runner.start();
    try {
      await vi.waitFor(() => expect(approved).toEqual([request?.id]));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(approved).toEqual([request?.id]);
    } finally {
      await runner.stop();
    }
    const [customer] = await t.database.db.select().from(customers).where(eq(customers.id, billed.customerId));
    expect(customer?.firstPaymentRequired).toBe(false);
  });

  it('tries again after an approval that failed', async () => {
    await paidPurchase(billed, business);
    let attempts = 0;
    const check = paidInvoiceCheck(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('approval failed');
    });
    expect(await check.checkCustomer(billed.customerId)).toBe(0);
    expect(attempts).toBe(1);
    // The customer's own check waits a few seconds; the job's does not.
    expect(await check.checkCustomer(billed.customerId)).toBe(0);
    expect(attempts).toBe(1);
    expect(await check.checkAll()).toBe(1);
    expect(attempts).toBe(2);
  });

  it('with several instances checking at once, asks for each approval once', async () => {
    await paidPurchase(billed, basic);
    const approved: number[] = [];
    const instances = [0, 1, 2].map(() =>
      paidInvoiceCheck(async (requestId) => {
        approved.push(requestId);
      }),
    );
    const counts = await Promise.all(instances.map((check) => check.checkAll()));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect(approved).toHaveLength(1);
  });

  it("shows a paid purchase approved in both of the packages page's tables, read at once", async () => {
    const [billedRow] = await t.database.db.select().from(customers).where(eq(customers.id, billed.customerId));
    const payer = await addCustomer(t.database.db, { companyName: 'Payer Ltd' });
    await t.database.db
      .update(customers)
      .set({ whmcsServerId: billedRow?.whmcsServerId ?? null })
      .where(eq(customers.id, payer.customerId));
    await backupFixtures(t.database.db).storageLocation(payer.customerId);
    const client = await paidPurchase(payer, basic);
    // The page reads its packages and the customer's requests together: one checks the invoices, the other waits.
    const [packages, requests] = await Promise.all([
      client.json('GET', `${ROUTES.packages.list.build()}?size=5`),
      client.json('GET', `${ROUTES.packageRequests.mine.build()}?size=5`),
    ]);
    expect(resultOf<Paged<PackageRow>>(packages).elements.map((p) => p.status)).toEqual(['APPROVED']);
    expect(resultOf<Paged<MyPackageRequestRow>>(requests).elements.map((r) => r.status)).toEqual(['APPROVED']);
  });
});

describe('prices', () => {
  it('of a billing server that failed are not asked for again for a short while (a visitor does not wait it out)', async () => {
    const failing = await startRecordingListener(
      'HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
    );
    const serverId = await billingServer('Failing', failing.port);
    let clock = 1_000_000;
    const billing = createWhmcsPurchaseBilling({
      repo: createPurchaseRepo(t.database.db),
      directory: createBillingDirectory({
        db: t.database.db,
        secrets: createSecretBox(MASTER_KEY),
        client: { guard: loopbackGuard() },
      }),
      now: () => clock,
    });
    const pricesOfFailing = async () =>
      (await billing.catalogue()).find((region) => region.serverId === serverId)?.prices;
    try {
      expect(await pricesOfFailing()).toBeNull();
      expect(failing.connections).toBe(1);
      clock += 10_000;
      expect(await pricesOfFailing()).toBeNull();
      expect(failing.connections).toBe(1);
      clock += 10_000;
      expect(await pricesOfFailing()).toBeNull();
      expect(failing.connections).toBe(2);
    } finally {
      await t.database.db.delete(billingServers).where(eq(billingServers.id, serverId));
      await failing.close();
    }
  });

  it('are read from the billing system once a minute at most', async () => {
    const client = await signedIn(t.app, billed.admin.email);
    const before = resultOf<TemplatesOnOffer>(await client.json('GET', R.templates.build()));
    whmcs.simulator.setFaults({ malformed: true });
    try {
      const during = resultOf<TemplatesOnOffer>(await client.json('GET', R.templates.build()));
      expect(during.elements).toEqual(before.elements);
    } finally {
      whmcs.simulator.setFaults({});
    }
  });
});
