import { randomBytes } from 'node:crypto';
import {
  type BucketWithPolicyInfo,
  type Elements,
  MESSAGES,
  ROUTES,
  type StorageAccessKeyRow,
  type StorageAccountDetail,
  type StorageAccountUserRow,
} from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../secrets.js';
import { createStorageProviders } from '../../storage/registry.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import type { TestClient } from '../../testing/client.js';
import { messagesOf, resultOf, signedInAs } from '../../testing/envelope.js';
import { createTenants } from '../../testing/fixtures.js';
import { capturedDebugLog } from '../../testing/log.js';
import { loopbackGuard, type Rgw, startedRgw } from '../../testing/rgw.js';

const S = ROUTES.storageAccounts;
const unique = (what: string) => `${what}-${randomBytes(4).toString('hex')}`;

let t: TestApp;
let rgw: Rgw;
let provider: TestClient;
// Debug logging of the app, read for the keys these tests give the service (a wrong one and the right one).
const log = capturedDebugLog();

beforeAll(async () => {
  rgw = await startedRgw();
  // The RGW of the tests listens on loopback, which a real deployment refuses.
  t = await createTestApp({ ALLOW_PRIVATE_ENDPOINTS: 'true' }, { logger: log.logger });
  const tenants = await createTenants(t.database.db);
  provider = await signedInAs(t.app, tenants.providerAdmin.email);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('an S3 storage account on Ceph RGW (issue 16)', () => {
  it('is added once its connection works, lists what it finds at the service and removes a user there', async () => {
    const form = {
      name: unique('Ceph'),
      type: 'S3',
      endpoint: rgw.endpoint,
      forcePathStyle: true,
      userApi: 'RGW_ADMIN',
      accessKeyId: rgw.adminAccessKey,
      secretAccessKey: 'not-the-secret-5d1b',
    };
    const refused = await provider.json('POST', S.add.build(), form);
    expect(refused.statusCode).toBe(400);
    expect(messagesOf(refused)[0]?.fieldName).toMatch(/^(accessKeyId|secretAccessKey)$/);

    const account = resultOf<StorageAccountDetail>(
      await provider.json('POST', S.add.build(), { ...form, secretAccessKey: rgw.adminSecretKey }),
    );
    expect(account).toMatchObject({ type: 'S3', endpoint: rgw.endpoint, secretSet: true });
    const answered = JSON.stringify(account);
    expect(answered).not.toContain(rgw.adminSecretKey);
    expect(refused.body).not.toContain('not-the-secret-5d1b');
    // The refused key and the accepted one, at debug level: neither is logged.
    expect(log.leaked(['not-the-secret-5d1b', rgw.adminSecretKey])).toEqual([]);

    // Someone made a bucket and a user at the service, and let the user read the bucket.
    const service = createStorageProviders({
      db: t.database.db,
      secrets: createSecretBox(t.config.masterKey ?? ''),
      dataDir: t.config.dataDir,
      guard: loopbackGuard(),
    }).forConnection(rgw.connection());
    const bucket = unique('found');
    const user = unique('stranger');
    await service.createBucket(bucket);
    await service.createUser(user);
    await service.putBucketPolicy(
      bucket,
      JSON.stringify({
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Principal: { AWS: [`arn:aws:iam:::user/${user}`] },
            Action: ['s3:GetObject'],
            Resource: [`arn:aws:s3:::${bucket}/*`],
          },
        ],
      }),
    );

    const buckets = resultOf<Elements<BucketWithPolicyInfo>>(
      await provider.json('GET', S.buckets.build({ storageAccountId: account.id })),
    ).elements;
    const found = buckets.find((b) => b.bucket.name === bucket);
    // Not the portal's: recorded as unmanaged, and consistent while the portal expects nothing of it.
    expect(found).toMatchObject({
      bucket: { name: bucket, managed: false, customerId: null },
      policyContainsInconsistencies: false,
      bucketPolicyPrincipals: [{ name: user, managed: false, entityExists: false }],
    });
    expect(found?.bucketPolicy).toContain(user);

    const users = resultOf<Elements<StorageAccountUserRow>>(
      await provider.json('GET', S.users.build({ storageAccountId: account.id })),
    ).elements;
    expect(users.find((u) => u.name === user)).toMatchObject({ managed: false, deleteable: true });
    // Keys the provider made at the service show too, unmanaged: the stranger's and the account's own.
    const strangerKey = await service.createAccessKey(user);
    const keys = resultOf<Elements<StorageAccessKeyRow>>(
      await provider.json('GET', S.accessKeys.build({ storageAccountId: account.id })),
    ).elements;
    expect(keys).toEqual(
      expect.arrayContaining([
        {
          keyId: strangerKey.keyId,
          managed: false,
          storageCredentials: expect.objectContaining({ username: user }),
        },
        expect.objectContaining({ keyId: rgw.adminAccessKey, managed: false }),
      ]),
    );
    const again = resultOf<Elements<StorageAccountUserRow>>(
      await provider.json('GET', S.users.build({ storageAccountId: account.id })),
    ).elements;
    expect(again.find((u) => u.name === user)?.storageCredentials.keyId).toBe(strangerKey.keyId);

    resultOf(
      await provider.json('PUT', S.deletePrincipal.build({ storageAccountId: account.id }), {
        bucketName: bucket,
        principalName: user,
      }),
    );
    expect((await service.getBucketPolicy(bucket)) ?? '').not.toContain(user);
    // The user whose key the portal uses for the account stays.
    const atTheService = await service.listUsers();
    const keysOf = await Promise.all(atTheService.map((name) => service.listAccessKeys(name)));
    const owner = atTheService.find((_, i) => keysOf[i]?.includes(rgw.adminAccessKey)) ?? '';
    const refusedOwner = await provider.json('PUT', S.deleteUser.build({ storageAccountId: account.id }), {
      username: owner,
    });
    expect(refusedOwner.statusCode).toBe(409);
    expect(messagesOf(refusedOwner)).toEqual([{ fieldName: '', message: MESSAGES.storageAccountPages.accountOwnUser }]);
    resultOf(await provider.json('PUT', S.deleteUser.build({ storageAccountId: account.id }), { username: user }));
    expect(await service.listUsers()).not.toContain(user);
    await service.deleteBucket(bucket);
  }, 120_000);
});
