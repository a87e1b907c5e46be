import { type BillingConnectionResult, type BillingServerRow, ROUTES, secretForNewAddress } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingServers } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { messagesOf, resultOf, signedInAs } from '../../testing/envelope.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';
import { type RecordingListener, startRecordingListener } from '../../testing/listener.js';
import { startTestWhmcs, TEST_WHMCS_CREDENTIALS, type TestWhmcs } from '../../testing/whmcs.js';

/**
 * Issue 29 item 3 (DESIGN §8a): a billing server's stored secret and API access key go only to the address they
 * were saved for. A form naming a saved server but another host, port or path must carry them again.
 */
const r = ROUTES.billing;
const ACCESS_KEY = 'stored-access-key-5d1e';

let t: TestApp;
let tenants: Tenants;
let home: TestWhmcs;
let moved: TestWhmcs;
let stranger: RecordingListener;
let serverId: number;

const form = (overrides: Record<string, unknown> = {}) => ({
  description: 'Billing EU',
  region: 'eu',
  whmcsHost: '127.0.0.1',
  whmcsPort: home.simulator.port,
  whmcsPath: '/',
  whmcsIdentifier: TEST_WHMCS_CREDENTIALS.identifier,
  whmcsSecret: '',
  whmcsApiAccessKey: '',
  ...overrides,
});
const stored = async () => {
  const [row] = await t.database.db.select().from(billingServers).where(eq(billingServers.id, serverId));
  return row;
};

beforeAll(async () => {
  [home, moved, stranger] = await Promise.all([
    startTestWhmcs(),
    startTestWhmcs(),
    startRecordingListener('HTTP/1.1 500 Oops\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'),
  ]);
  t = await createTestApp({ MASTER_KEY: 'c'.repeat(64), ALLOW_PRIVATE_ENDPOINTS: 'true' });
  tenants = await createTenants(t.database.db);
  const provider = await signedInAs(t.app, tenants.providerAdmin.email);
  const added = await provider.json(
    'POST',
    r.addServer.build(),
    form({ whmcsSecret: TEST_WHMCS_CREDENTIALS.secret, whmcsApiAccessKey: ACCESS_KEY }),
  );
  serverId = resultOf<BillingServerRow>(added).id;
});
afterAll(async () => {
  await t.close();
  await Promise.all([home.close(), moved.close(), stranger.close()]);
});

describe('a stored WHMCS secret is sent only to the address it was saved for', () => {
  it('refuses a test or an edit towards another port, host or path without the secret, and sends nothing', async () => {
    const provider = await signedInAs(t.app, tenants.providerAdmin.email);
    const before = await stored();
    for (const elsewhere of [
      { whmcsPort: stranger.port },
      { whmcsHost: 'localhost', whmcsPort: stranger.port },
      { whmcsHost: 'http://127.0.0.1', whmcsPort: stranger.port, whmcsPath: '/whmcs/' },
    ]) {
      const tested = await provider.json('POST', r.testForm.build(), form({ id: serverId, ...elsewhere }));
      expect(tested.statusCode, tested.body).toBe(400);
      expect(messagesOf(tested)).toEqual([
        { fieldName: 'whmcsSecret', message: secretForNewAddress('API secret') },
        { fieldName: 'whmcsApiAccessKey', message: secretForNewAddress('API access key') },
      ]);
      const edited = await provider.json('PUT', r.editServer.build({ whmcsServerId: serverId }), form(elsewhere));
      expect(edited.statusCode, edited.body).toBe(400);
      expect(messagesOf(edited).map((m) => m.fieldName)).toEqual(['whmcsSecret', 'whmcsApiAccessKey']);
    }
    // The secret alone is not enough while the stored access key would still travel.
    const keyLeft = await provider.json(
      'POST',
      r.testForm.build(),
      form({ id: serverId, whmcsPort: stranger.port, whmcsSecret: 'typed-secret' }),
    );
    expect(messagesOf(keyLeft)).toEqual([
      { fieldName: 'whmcsApiAccessKey', message: secretForNewAddress('API access key') },
    ]);
    expect(stranger.connections).toBe(0);
    expect(await stored()).toEqual(before);
  });

  it('keeps using the stored secret at the same address, however it is spelt', async () => {
    const provider = await signedInAs(t.app, tenants.providerAdmin.email);
    const same = await provider.json('POST', r.testForm.build(), form({ id: serverId }));
    expect(resultOf<BillingConnectionResult>(same).version).toMatch(/^\d/);
    const respelt = await provider.json(
      'POST',
      r.testForm.build(),
      form({ id: serverId, whmcsHost: 'HTTP://127.0.0.1', whmcsPath: '' }),
    );
    expect(resultOf<BillingConnectionResult>(respelt).version).toMatch(/^\d/);
    const edited = await provider.json(
      'PUT',
      r.editServer.build({ whmcsServerId: serverId }),
      form({ description: 'Billing EU renamed' }),
    );
    expect(resultOf<BillingServerRow>(edited)).toMatchObject({
      description: 'Billing EU renamed',
      whmcsSecretConfigured: true,
      whmcsApiAccessKeyConfigured: true,
    });
    expect(
      resultOf<BillingConnectionResult>(await provider.json('POST', r.testServer.build({ whmcsServerId: serverId })))
        .version,
    ).toMatch(/^\d/);
  });

  it('moves to a new address when the form carries the secrets again', async () => {
    const provider = await signedInAs(t.app, tenants.providerAdmin.email);
    const secrets = { whmcsSecret: TEST_WHMCS_CREDENTIALS.secret, whmcsApiAccessKey: 'new-access-key' };
    const elsewhere = { whmcsPort: moved.simulator.port, ...secrets };
    const tested = await provider.json('POST', r.testForm.build(), form({ id: serverId, ...elsewhere }));
    expect(resultOf<BillingConnectionResult>(tested).version).toMatch(/^\d/);
    resultOf(await provider.json('PUT', r.editServer.build({ whmcsServerId: serverId }), form(elsewhere)));
    expect((await stored())?.whmcsPort).toBe(moved.simulator.port);
    // Now saved for the new address: an empty secret there is the stored one again.
    const again = await provider.json(
      'POST',
      r.testForm.build(),
      form({ id: serverId, whmcsPort: moved.simulator.port }),
    );
    expect(resultOf<BillingConnectionResult>(again).version).toMatch(/^\d/);
  });

  it('lets no reseller or customer admin test or edit a saved server', async () => {
    for (const email of [tenants.reseller.superAdmin.email, tenants.customerA.admin.email]) {
      const other = await signedInAs(t.app, email);
      const tested = await other.json('POST', r.testForm.build(), form({ id: serverId, whmcsPort: stranger.port }));
      expect(tested.statusCode).toBe(403);
      const edited = await other.json('PUT', r.editServer.build({ whmcsServerId: serverId }), form());
      expect(edited.statusCode).toBe(403);
    }
    expect(stranger.connections).toBe(0);
  });
});
