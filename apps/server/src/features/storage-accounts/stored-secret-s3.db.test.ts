import { randomBytes } from 'node:crypto';
import { ROUTES, type StorageAccountDetail, secretForNewAddress } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageAccounts } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { messagesOf, resultOf, signedInAs } from '../../testing/envelope.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';
import { type RecordingListener, startRecordingListener } from '../../testing/listener.js';
import { type Rgw, startedRgw } from '../../testing/rgw.js';

/**
 * Issue 29 item 3 (DESIGN §8a): an S3 account's stored secret access key signs requests only for the endpoint and
 * IAM endpoint it was saved for. A form naming the saved account but another endpoint must carry the secret again.
 */
const S = ROUTES.storageAccounts;
const secretRefused = [{ fieldName: 'secretAccessKey', message: secretForNewAddress('Secret access key') }];

let t: TestApp;
let tenants: Tenants;
let rgw: Rgw;
let stranger: RecordingListener;
let accountId: number;

const form = (overrides: Record<string, unknown> = {}) => ({
  name: 'Ceph home',
  type: 'S3',
  endpoint: rgw.endpoint,
  iamEndpoint: '',
  region: '',
  forcePathStyle: true,
  userApi: 'RGW_ADMIN',
  accessKeyId: rgw.adminAccessKey,
  secretAccessKey: '',
  requireObjectLock: false,
  ...overrides,
});
const strangerUrl = () => `http://127.0.0.1:${stranger.port}`;
const stored = async () => {
  const [row] = await t.database.db.select().from(storageAccounts).where(eq(storageAccounts.id, accountId));
  return row;
};

beforeAll(async () => {
  rgw = await startedRgw();
  stranger = await startRecordingListener('HTTP/1.1 500 Oops\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  t = await createTestApp({ ALLOW_PRIVATE_ENDPOINTS: 'true' });
  tenants = await createTenants(t.database.db);
  const provider = await signedInAs(t.app, tenants.providerAdmin.email);
  const added = await provider.json(
    'POST',
    S.add.build(),
    form({ name: `Ceph home ${randomBytes(3).toString('hex')}`, secretAccessKey: rgw.adminSecretKey }),
  );
  accountId = resultOf<StorageAccountDetail>(added).id;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await stranger?.close();
});

describe('a stored S3 secret access key signs only for the endpoints it was saved for', () => {
  it('refuses a test or an edit towards another endpoint or IAM endpoint without the secret; nothing is sent', async () => {
    const provider = await signedInAs(t.app, tenants.providerAdmin.email);
    const before = await stored();
    const name = before?.name;
    for (const elsewhere of [{ endpoint: strangerUrl() }, { iamEndpoint: strangerUrl() }]) {
      const tested = await provider.json('POST', S.testConnection.build(), form({ id: accountId, name, ...elsewhere }));
      expect(tested.statusCode, tested.body).toBe(400);
      expect(messagesOf(tested)).toEqual(secretRefused);
      const edited = await provider.json(
        'PUT',
        S.edit.build({ storageAccountId: accountId }),
        form({ name, ...elsewhere }),
      );
      expect(edited.statusCode, edited.body).toBe(400);
      expect(messagesOf(edited)).toEqual(secretRefused);
    }
    expect(stranger.connections).toBe(0);
    expect(await stored()).toEqual(before);
  });

  it('keeps signing with the stored secret at the same endpoint, however it is spelt', async () => {
    const provider = await signedInAs(t.app, tenants.providerAdmin.email);
    const name = (await stored())?.name;
    const respelt = rgw.endpoint.replace('http://', 'HTTP://').replace(/\/?$/, '/');
    resultOf(await provider.json('POST', S.testConnection.build(), form({ id: accountId, name, endpoint: respelt })));
    const edited = await provider.json(
      'PUT',
      S.edit.build({ storageAccountId: accountId }),
      form({ name, region: 'default' }),
    );
    expect(resultOf<StorageAccountDetail>(edited)).toMatchObject({ region: 'default', secretSet: true });
  });

  it('sends the secret the form carries to a new endpoint', async () => {
    const provider = await signedInAs(t.app, tenants.providerAdmin.email);
    const name = (await stored())?.name;
    const typed = form({ id: accountId, name, endpoint: strangerUrl(), secretAccessKey: 'typed-secret-for-new-host' });
    const tested = await provider.json('POST', S.testConnection.build(), typed);
    // The listener is no S3 service: the test fails on the endpoint, after a request signed with the typed key.
    expect(tested.statusCode).not.toBe(200);
    expect(messagesOf(tested)[0]?.fieldName).not.toBe('secretAccessKey');
    expect(stranger.connections).toBeGreaterThan(0);
    expect(stranger.received.join('')).toContain(`Credential=${rgw.adminAccessKey}/`);
  });

  it('lets no reseller or customer admin test or edit a saved account', async () => {
    const seen = stranger.connections;
    for (const email of [tenants.reseller.superAdmin.email, tenants.customerA.admin.email]) {
      const other = await signedInAs(t.app, email);
      const tested = await other.json(
        'POST',
        S.testConnection.build(),
        form({ id: accountId, endpoint: strangerUrl() }),
      );
      expect(tested.statusCode).toBe(403);
      const edited = await other.json('PUT', S.edit.build({ storageAccountId: accountId }), form());
      expect(edited.statusCode).toBe(403);
    }
    expect(stranger.connections).toBe(seen);
  });
});
