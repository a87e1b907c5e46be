import {
  type BucketWithPolicyInfo,
  type Elements,
  POLICY_DIFFERENCE_TEXTS,
  ROUTES,
  type StorageAccountDetail,
  type StorageLocationRow,
} from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Provider } from '../../storage/s3.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import type { TestClient } from '../../testing/client.js';
import { resultOf, signedInAs } from '../../testing/envelope.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';
import { loopbackGuard, type Rgw, startedRgw } from '../../testing/rgw.js';

interface Statement {
  Effect: 'Allow' | 'Deny';
  Principal: { AWS: string[] };
  Action: string[];
  Resource: string[];
}

let t: TestApp;
let rgw: Rgw;
let tenants: Tenants;
let provider: TestClient;
let accountId = 0;
let location: StorageLocationRow;

const bucketsPath = () => ROUTES.storageAccounts.buckets.build({ storageAccountId: accountId });
const bucketOfLocation = async () =>
  resultOf<Elements<BucketWithPolicyInfo>>(await provider.json('GET', bucketsPath())).elements.find(
    (b) => b.bucket.name === location.bucketName,
  );

beforeAll(async () => {
  rgw = await startedRgw();
  // The RGW of the tests listens on loopback, which a real deployment refuses.
  t = await createTestApp({ ALLOW_PRIVATE_ENDPOINTS: 'true' });
  tenants = await createTenants(t.database.db);
  provider = await signedInAs(t.app, tenants.providerAdmin.email);
  accountId = resultOf<StorageAccountDetail>(
    await provider.json('POST', ROUTES.storageAccounts.add.build(), rgw.accountForm('Ceph')),
  ).id;
  const customerId = tenants.customerA.customerId;
  location = resultOf<StorageLocationRow>(
    await provider.json('POST', ROUTES.storageLocations.create.build({ customerId }), { storageAccountId: accountId }),
  );
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('bucket policy consistency on Ceph RGW', () => {
  it('reads consistent for a location the portal made on the account', async () => {
    const found = await bucketOfLocation();
    expect(found).toMatchObject({
      bucket: { name: location.bucketName, managed: true, customerId: tenants.customerA.customerId },
      policyContainsInconsistencies: false,
      policyDifferences: [],
    });
    // The location's own user is the policy's principal, known to the portal.
    expect(found?.bucketPolicyPrincipals).toEqual([expect.objectContaining({ managed: true, entityExists: true })]);
  });

  it('reads inconsistent once the policy is changed at the service, naming the difference', async () => {
    const service = createS3Provider(rgw.connection(), { guard: loopbackGuard() });
    const policy = JSON.parse((await service.getBucketPolicy(location.bucketName)) ?? '{}') as {
      Statement: Statement[];
    };
    const principal = policy.Statement[0]?.Principal.AWS[0] ?? '';
    const userName = principal.slice(principal.lastIndexOf('/') + 1);
    // Someone at the service lets the location's user delete the bucket itself.
    policy.Statement.push({
      Effect: 'Allow',
      Principal: { AWS: [principal] },
      Action: ['s3:DeleteBucket'],
      Resource: [`arn:aws:s3:::${location.bucketName}`],
    });
    await service.putBucketPolicy(location.bucketName, JSON.stringify(policy));

    const found = await bucketOfLocation();
    expect(found?.policyContainsInconsistencies).toBe(true);
    expect(found?.policyDifferences).toEqual([
      POLICY_DIFFERENCE_TEXTS.extraRight(userName, 'Allow', `s3:DeleteBucket on arn:aws:s3:::${location.bucketName}`),
    ]);
    expect(found?.bucketPolicy).toContain('s3:DeleteBucket');

    // A statement of the portal's removed at the service is named too.
    const withoutFirst = { ...policy, Statement: policy.Statement.slice(1, -1) };
    await service.putBucketPolicy(location.bucketName, JSON.stringify(withoutFirst));
    const after = await bucketOfLocation();
    expect(after?.policyContainsInconsistencies).toBe(true);
    expect(after?.policyDifferences.length).toBeGreaterThan(0);
    expect(after?.policyDifferences.every((text) => text.includes(userName))).toBe(true);
  });

  it('is the provider admin’s alone', async () => {
    for (const email of [tenants.customerA.superAdmin.email, tenants.customerB.admin.email]) {
      const other = await signedInAs(t.app, email);
      expect((await other.json('GET', bucketsPath())).statusCode).toBe(403);
    }
  });
});
