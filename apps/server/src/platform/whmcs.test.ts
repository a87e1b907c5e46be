import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { billingRefused, MESSAGES, WHMCS_PAGES, whmcsPageUrl } from '@portal/domain';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startWhmcsSimulator } from '../billing/whmcs-simulator/server.js';
import { MAX_REDIRECTS } from '../net/guarded-http.js';
import { createOutboundGuard } from '../net/outbound-guard.js';
import { loopbackGuard } from '../testing/rgw.js';
import { startTestWhmcs, TEST_WHMCS_CREDENTIALS, type TestWhmcs } from '../testing/whmcs.js';
import { BillingError, createWhmcsClient, type WhmcsClient } from './whmcs.js';

let whmcs: TestWhmcs;
let client: WhmcsClient;

beforeAll(async () => {
  whmcs = await startTestWhmcs({
    products: [
      { name: 'Starter 50 GB', pricing: { USD: 5 } },
      { name: 'Business 500 GB', pricing: { USD: 25 } },
      { name: 'Trial 750 MB', pricing: { USD: 0 } },
    ],
    clients: [
      {
        id: 1001,
        firstname: 'Ada',
        lastname: 'Lovelace',
        email: 'ada@direct.test',
        companyname: 'Analytical',
      },
    ],
    // Two monthly bills of its Starter service are due.
    services: [{ id: 9001, clientId: 1001, product: 'Starter 50 GB', unpaidInvoices: 2 }],
  });
  client = createWhmcsClient(whmcs.connection, { guard: loopbackGuard(), timeoutMs: 500 });
});
afterAll(() => whmcs.close());
afterEach(() => whmcs.simulator.setFaults({}));

async function failure(promise: Promise<unknown>): Promise<BillingError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BillingError);
  return error as BillingError;
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('WHMCS client against the WHMCS-compatible server over HTTP', () => {
  it('pings with WhmcsDetails', async () => {
    expect(await client.ping()).toMatch(/^\d+\.\d+/);
  });

  it('lists products with their monthly price and currency', async () => {
    expect(await client.getProducts()).toEqual([
      { pid: 1, name: 'Starter 50 GB', price: 5, currency: 'USD' },
      { pid: 2, name: 'Business 500 GB', price: 25, currency: 'USD' },
      { pid: 3, name: 'Trial 750 MB', price: 0, currency: 'USD' },
    ]);
  });

  it('adds a client, orders a product, reads and counts its invoice, pays it, and upgrades the service', async () => {
    const clientId = await client.addClient({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@direct.test',
      companyName: 'Cobol Ltd',
    });
    expect(whmcs.simulator.state().clients.find((c) => c.id === clientId)?.email).toBe('grace@direct.test');
    expect(await client.unpaidInvoiceCount(clientId)).toBe(0);

    const order = await client.addOrder({ clientId, productId: 1, paymentMethod: 'stripe' });
    expect(order.invoiceId).not.toBeNull();
    expect(order.serviceIds).toHaveLength(1);
    expect(await client.getInvoice(order.invoiceId ?? 0)).toEqual({
      invoiceId: order.invoiceId,
      userId: clientId,
      status: 'Unpaid',
    });
    expect(await client.unpaidInvoiceCount(clientId)).toBe(1);

    // Paying happens on the invoice page, as a person does it.
    const page = whmcsPageUrl(whmcs.connection.address, WHMCS_PAGES.invoice, { id: order.invoiceId ?? 0 });
    expect(await (await fetch(page)).text()).toContain('Pay');
    await fetch(page, { method: 'POST', redirect: 'manual' });
    expect((await client.getInvoice(order.invoiceId ?? 0)).status).toBe('Paid');
    expect(await client.unpaidInvoiceCount(clientId)).toBe(0);
    const serviceId = order.serviceIds[0] ?? 0;
    expect(whmcs.simulator.state().services.find((s) => s.id === serviceId)?.status).toBe('Active');

    const upgrade = await client.upgradeProduct({ serviceId, newProductId: 2, paymentMethod: 'stripe' });
    expect(upgrade.invoiceId).not.toBeNull();
    expect(await client.unpaidInvoiceCount(clientId)).toBe(1);
  });

  it('answers a free order without an invoice', async () => {
    const order = await client.addOrder({ clientId: 1001, productId: 3, paymentMethod: 'banktransfer' });
    expect(order.invoiceId).toBeNull();
  });

  it('counts a seeded client’s unpaid invoices', async () => {
    expect(await client.unpaidInvoiceCount(1001)).toBe(2);
  });

  it('creates a single-use SSO link that signs the client in and lands on the destination', async () => {
    const url = await client.createSsoToken(1001, WHMCS_PAGES.massPay);
    const landing = await fetch(url, { redirect: 'manual' });
    expect(landing.status).toBe(303);
    const cookie = landing.headers.get('set-cookie')?.split(';')[0] ?? '';
    const location = new URL(landing.headers.get('location') ?? '', whmcs.simulator.baseUrl);
    expect(`${location.pathname.slice(1)}${location.search}`).toBe(WHMCS_PAGES.massPay);
    const massPay = await fetch(location, { headers: { cookie } });
    expect(massPay.status).toBe(200);
    expect(await massPay.text()).toContain('Pay all');
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(403);
  });

  it('refuses what WHMCS refuses, with its message', async () => {
    const error = await failure(client.addOrder({ clientId: 999_999, productId: 1, paymentMethod: 'stripe' }));
    expect(error.kind).toBe('refused');
    expect(error.message).toBe(billingRefused('Client ID Not Found'));
    const method = await failure(client.addOrder({ clientId: 1001, productId: 1, paymentMethod: 'cheque' }));
    expect(method.kind).toBe('refused');
  });

  it('refuses wrong credentials without repeating the secret', async () => {
    const wrong = createWhmcsClient({ ...whmcs.connection, secret: 'not-the-secret' }, { guard: loopbackGuard() });
    const error = await failure(wrong.ping());
    expect(error.kind).toBe('refused');
    expect(error.message).toBe(billingRefused('Authentication Failed'));
    expect(error.message).not.toContain('not-the-secret');
  });

  it('blanks a secret the billing system echoes back', async () => {
    whmcs.simulator.setFaults({ errorMessage: `bad secret ${TEST_WHMCS_CREDENTIALS.secret}` });
    const error = await failure(client.ping());
    expect(error.message).toBe(billingRefused('bad secret ***'));
  });

  it('gives up on a slow answer', async () => {
    whmcs.simulator.setFaults({ delayMs: 1500 });
    const error = await failure(client.unpaidInvoiceCount(1001));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe(MESSAGES.billing.timeout);
  });

  it('does not take a page of HTML for an answer', async () => {
    whmcs.simulator.setFaults({ malformed: true });
    const error = await failure(client.getProducts());
    expect(error.kind).toBe('malformed');
    expect(error.message).toBe(MESSAGES.billing.malformed);
  });

  it('reports a closed port as unreachable', async () => {
    const down = createWhmcsClient(
      { ...whmcs.connection, address: { whmcsHost: '127.0.0.1', whmcsPort: await closedPort(), whmcsPath: '/' } },
      { guard: loopbackGuard() },
    );
    const error = await failure(down.ping());
    expect(error.kind).toBe('unreachable');
    expect(error.message).toBe(MESSAGES.billing.unreachable);
  });
});

describe('WHMCS-compatible server', () => {
  it('keeps its records across a restart and seeds only a fresh installation', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-whmcs-restart-'));
    const start = () =>
      startWhmcsSimulator({
        dataDir,
        ...TEST_WHMCS_CREDENTIALS,
        seed: { products: [{ name: 'Only', pricing: { EUR: 3 } }] },
      });
    try {
      const first = await start();
      const clientId = await createWhmcsClient(
        { ...whmcs.connection, address: first.address },
        { guard: loopbackGuard() },
      ).addClient({
        firstName: 'Kept',
        lastName: 'Across',
        email: 'kept@restart.test',
        companyName: '',
      });
      await first.close();
      const second = await start();
      const again = createWhmcsClient({ ...whmcs.connection, address: second.address }, { guard: loopbackGuard() });
      expect(await again.unpaidInvoiceCount(clientId)).toBe(0);
      expect(second.state().clients.map((c) => c.email)).toEqual(['kept@restart.test']);
      expect(await again.getProducts()).toEqual([{ pid: 1, name: 'Only', price: 3, currency: 'EUR' }]);
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('WHMCS client through the outbound guard', () => {
  it('refuses a billing server on a loopback address unless private endpoints are allowed, sending nothing', async () => {
    const before = whmcs.simulator.state().clients.length;
    const refused = createWhmcsClient(whmcs.connection, { guard: createOutboundGuard({ allowPrivate: false }) });
    const error = await failure(
      refused.addClient({ firstName: 'No', lastName: 'Body', email: 'nobody@guard.test', companyName: '' }),
    );
    expect(error.kind).toBe('refusedAddress');
    expect(error.message).toBe(MESSAGES.billing.refusedAddress);
    expect(whmcs.simulator.state().clients).toHaveLength(before);
    const allowed = createWhmcsClient(whmcs.connection, { guard: createOutboundGuard({ allowPrivate: true }) });
    expect(await allowed.ping()).toMatch(/^\d+\.\d+/);
  });

  describe('redirects', () => {
    // A WHMCS stand-in that answers the API at /includes/api.php and redirects from the other paths.
    let server: Server;
    let port = 0;
    const seen: string[] = [];
    beforeAll(async () => {
      server = createHttpServer((req, res) => {
        let body = '';
        req.on('data', (chunk) => {
          body += chunk;
        });
        req.on('end', () => {
          seen.push(`${req.method} ${req.url} ${body.includes(TEST_WHMCS_CREDENTIALS.secret) ? 'secret' : ''}`);
          const redirect = (status: number, location: string) => res.writeHead(status, { location }).end();
          if (req.url === '/moved/includes/api.php') return redirect(307, '/includes/api.php');
          if (req.url === '/found/includes/api.php') return redirect(302, '/includes/api.php');
          if (req.url === '/metadata/includes/api.php') return redirect(307, 'http://169.254.169.254/latest/');
          if (req.url === '/octal/includes/api.php') return redirect(302, 'http://0251.0376.0251.0376/latest/');
          if (req.url === '/loop/includes/api.php') return redirect(307, '/loop/includes/api.php');
          if (req.url === '/away/includes/api.php') return redirect(307, `http://localhost:${port}/includes/api.php`);
          const signedIn = body.includes(TEST_WHMCS_CREDENTIALS.secret);
          res.setHeader('content-type', 'application/json');
          res.end(
            JSON.stringify(
              signedIn
                ? { result: 'success', whmcs: { version: '8.13.1' } }
                : { result: 'error', message: 'Authentication Failed' },
            ),
          );
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const via = (path: string) =>
      createWhmcsClient(
        { ...whmcs.connection, address: { whmcsHost: '127.0.0.1', whmcsPort: port, whmcsPath: path } },
        { guard: loopbackGuard(), timeoutMs: 2000 },
      );

    it('follows a redirect on the same origin with the request as it was', async () => {
      expect(await via('/moved').ping()).toBe('8.13.1');
      expect(seen.at(-1)).toBe('POST /includes/api.php secret');
    });

    it('turns a 302 into a GET without the credentials, as browsers do', async () => {
      const error = await failure(via('/found').ping());
      expect(error.kind).toBe('refused');
      expect(seen.at(-1)).toBe('GET /includes/api.php ');
    });

    it('checks every hop: a redirect to a metadata address is refused, written in any form', async () => {
      for (const path of ['/metadata', '/octal']) {
        const error = await failure(via(path).ping());
        expect(error.kind, path).toBe('refusedAddress');
        expect(error.message).toBe(MESSAGES.billing.refusedAddress);
      }
    });

    it('does not carry the credentials to another origin, and stops after a few hops', async () => {
      seen.length = 0;
      expect((await failure(via('/away').ping())).kind).toBe('redirected');
      expect(seen).toEqual(['POST /away/includes/api.php secret']);
      seen.length = 0;
      const loop = await failure(via('/loop').ping());
      expect(loop.kind).toBe('redirected');
      expect(loop.message).toBe(MESSAGES.billing.redirected);
      expect(seen).toHaveLength(MAX_REDIRECTS + 1);
    });
  });
});
