import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type BucketWithPolicyInfo,
  bucketNotFound,
  type Elements,
  MESSAGES,
  type Paged,
  POLICY_DIFFERENCE_TEXTS,
  ROUTES,
  STORAGE_ACCOUNT_FORM_LABELS,
  type StorageAccessKeyRow,
  type StorageAccountDetail,
  type StorageAccountRow,
  type StorageAccountUserRow,
  secretForNewAddress,
  storageUserNotFound,
  withQuery,
} from '@portal/domain';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessKeys, buckets, storageAccounts, storageLocations, storageUsers } from '../../db/schema/index.js';
import { createSecretBox } from '../../secrets.js';
import { bucketPolicyFor } from '../../storage/policy.js';
import { grantsOfBucket } from '../../storage/repo.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import type { TestClient } from '../../testing/client.js';
import { messagesOf, resultOf, signedInAs } from '../../testing/envelope.js';
import { useTempDir, useTestAppWithTenants } from '../../testing/suite.js';

const S = ROUTES.storageAccounts;
const TEXT = MESSAGES.storageAccountPages;
const SECRET = 'S3-SECRET-never-shown-0123456789';

const dataDir = useTempDir('storage-accounts');
const ctx = useTestAppWithTenants({ DATA_DIR: dataDir });
let provider: TestClient;
let localId: number;
let s3Id: number;
let sealedSecret: string;

const db = () => ctx.t.database.db;
const s3Form = (overrides: Record<string, unknown> = {}) => ({
  name: 'Ceph cluster',
  type: 'S3',
  endpoint: 'http://127.0.0.1:9',
  region: '',
  forcePathStyle: true,
  userApi: 'RGW_ADMIN',
  accessKeyId: 'ADMINKEY',
  secretAccessKey: SECRET,
  requireObjectLock: false,
  ...overrides,
});
const accountRows = () => db().select().from(storageAccounts).orderBy(storageAccounts.id);
const defaults = async () => (await accountRows()).filter((a) => a.defaultStorageAccount).map((a) => a.id);

/**
 * A managed bucket of the LOCAL account (its folder, as the embedded service makes it, and its row) with a
 * location of the customer and its location's managed user.
 */
async function managedBucket(name: string, customerId: number, userName: string) {
  await mkdir(join(dataDir, 'storage', name), { recursive: true });
  const [bucket] = await db()
    .insert(buckets)
    .values({ storageAccountId: localId, name, managed: true, customerId })
    .returning({ id: buckets.id });
  if (!bucket) throw new Error('bucket');
  const [location] = await db()
    .insert(storageLocations)
    .values({ customerId, bucketId: bucket.id })
    .returning({ id: storageLocations.id });
  if (!location) throw new Error('location');
  const [user] = await db()
    .insert(storageUsers)
    .values({ storageAccountId: localId, name: userName, managed: true, customerId, storageLocationId: location.id })
    .returning({ id: storageUsers.id });
  if (!user) throw new Error('user');
  await db()
    .insert(accessKeys)
    .values({
      storageAccountId: localId,
      storageUserId: user.id,
      keyId: `KEY-${userName}`,
      managed: true,
      customerId,
      storageLocationId: location.id,
    });
  const policy = bucketPolicyFor(name, await grantsOfBucket(db(), bucket.id));
  await db().update(buckets).set({ policy }).where(eq(buckets.id, bucket.id));
  return { bucketId: bucket.id, locationId: location.id, userId: user.id, policy };
}

beforeAll(async () => {
  provider = await signedInAs(ctx.t.app, ctx.tenants.providerAdmin.email);
  sealedSecret = createSecretBox(ctx.t.config.masterKey ?? '').encrypt(SECRET);
}, 60_000);

describe('storage accounts (001 §2, §7)', () => {
  it('adds the embedded LOCAL account, the first one becoming the default; a second LOCAL one is refused', async () => {
    const added = resultOf<StorageAccountDetail>(
      await provider.json('POST', S.add.build(), { name: 'Embedded storage', type: 'LOCAL', endpoint: 'ignored' }),
    );
    expect(added).toMatchObject({ name: 'Embedded storage', type: 'LOCAL', defaultStorageAccount: true });
    // LOCAL needs no endpoint or keys: what the form held for them is dropped.
    expect(added).toMatchObject({ endpoint: null, accessKeyId: null, secretSet: false });
    localId = added.id;

    const again = await provider.json('POST', S.add.build(), { name: 'Another embedded', type: 'LOCAL' });
    expect(again.statusCode).toBe(409);
    expect(messagesOf(again)).toEqual([{ fieldName: 'type', message: TEXT.localExists }]);
    expect(await accountRows()).toHaveLength(1);
  });

  it('refuses bad input on its fields and saves nothing', async () => {
    const missing = await provider.json('POST', S.add.build(), {
      name: '',
      type: 'S3',
      userApi: '',
      accessKeyId: '',
      secretAccessKey: '',
    });
    expect(missing.statusCode).toBe(400);
    expect(messagesOf(missing)).toEqual(
      expect.arrayContaining([
        { fieldName: 'name', message: 'Name is required' },
        { fieldName: 'endpoint', message: 'Endpoint is required' },
        { fieldName: 'userApi', message: 'User API is required' },
        { fieldName: 'accessKeyId', message: 'Access key ID is required' },
        { fieldName: 'secretAccessKey', message: 'Secret access key is required' },
      ]),
    );
    const badUrl = await provider.json('POST', S.add.build(), s3Form({ endpoint: 'ftp://storage.example.com' }));
    expect(messagesOf(badUrl)).toEqual([{ fieldName: 'endpoint', message: 'Endpoint is not valid' }]);
    const badType = await provider.json('POST', S.add.build(), s3Form({ type: 'FTP' }));
    expect(messagesOf(badType)).toEqual([{ fieldName: 'type', message: 'Type is not valid' }]);
    const longName = await provider.json('POST', S.add.build(), s3Form({ name: 'x'.repeat(101) }));
    expect(messagesOf(longName)).toEqual([{ fieldName: 'name', message: 'Name must be at most 100 characters' }]);
    const taken = await provider.json('POST', S.add.build(), s3Form({ name: 'EMBEDDED STORAGE' }));
    expect(taken.statusCode).toBe(409);
    expect(messagesOf(taken)).toEqual([{ fieldName: 'name', message: TEXT.nameTaken }]);
    expect(await accountRows()).toHaveLength(1);
  });

  it('tests the connection of an S3 account before saving it: a service that does not answer is an endpoint error', async () => {
    const refused = await provider.json('POST', S.add.build(), s3Form());
    expect(refused.statusCode).toBe(400);
    const messages = messagesOf(refused);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.fieldName).toBe('endpoint');
    expect(refused.body).not.toContain(SECRET);
    expect(await accountRows()).toHaveLength(1);

    const tested = await provider.json('POST', S.testConnection.build(), s3Form());
    expect(tested.statusCode).toBe(400);
    expect(messagesOf(tested)[0]?.fieldName).toBe('endpoint');
    // The embedded service is always there.
    resultOf(await provider.json('POST', S.testConnection.build(), { name: 'x', type: 'LOCAL' }));
  });

  it('never answers a secret: the detail and the list only say it is set', async () => {
    const [row] = await db()
      .insert(storageAccounts)
      .values({
        name: 'Wasabi',
        type: 'S3',
        endpoint: 'https://s3.wasabisys.com',
        userApi: 'IAM',
        accessKeyId: 'WASABIKEY',
        secretAccessKeyEncrypted: sealedSecret,
      })
      .returning({ id: storageAccounts.id });
    s3Id = row?.id ?? 0;
    const detail = await provider.json('GET', S.detail.build({ storageAccountId: s3Id }));
    expect(resultOf<StorageAccountDetail>(detail)).toMatchObject({
      name: 'Wasabi',
      type: 'S3',
      secretSet: true,
      accessKeyId: 'WASABIKEY',
      defaultStorageAccount: false,
    });
    const list = await provider.json('GET', withQuery(S.list.build(), { page: 0, size: 5 }));
    const page = resultOf<Paged<StorageAccountRow>>(list);
    expect(page.elements.map((a) => a.name)).toEqual(['Embedded storage', 'Wasabi']);
    expect(page.elements[0]).toEqual({
      id: localId,
      name: 'Embedded storage',
      defaultStorageAccount: true,
      type: 'LOCAL',
    });
    for (const answer of [detail, list]) {
      expect(answer.body).not.toContain(SECRET);
      expect(answer.body).not.toContain(sealedSecret);
    }
  });

  it('edits an account; an S3 edit whose service does not answer changes nothing, nor does a type change', async () => {
    const edited = resultOf<StorageAccountDetail>(
      await provider.json('PUT', S.edit.build({ storageAccountId: localId }), { name: 'Embedded', type: 'LOCAL' }),
    );
    expect(edited).toMatchObject({ name: 'Embedded', type: 'LOCAL', defaultStorageAccount: true });

    // The stored secret is Wasabi's: another endpoint gets it only typed again (DESIGN §8a).
    const edit = { name: 'Wasabi EU', userApi: 'IAM', accessKeyId: 'WASABIKEY' };
    const untyped = await provider.json(
      'PUT',
      S.edit.build({ storageAccountId: s3Id }),
      s3Form({ ...edit, secretAccessKey: '' }),
    );
    expect(messagesOf(untyped)).toEqual([
      { fieldName: 'secretAccessKey', message: secretForNewAddress(STORAGE_ACCOUNT_FORM_LABELS.secretAccessKey) },
    ]);
    const s3 = await provider.json('PUT', S.edit.build({ storageAccountId: s3Id }), s3Form(edit));
    expect(s3.statusCode).toBe(400);
    expect(messagesOf(s3)[0]?.fieldName).toBe('endpoint');
    const typeChange = await provider.json('PUT', S.edit.build({ storageAccountId: s3Id }), {
      name: 'Wasabi',
      type: 'LOCAL',
    });
    expect(messagesOf(typeChange)).toEqual([{ fieldName: 'type', message: TEXT.typeUnchangeable }]);
    const [stored] = await db().select().from(storageAccounts).where(eq(storageAccounts.id, s3Id));
    // A refused edit leaves the stored secret as it was.
    expect(stored).toMatchObject({ name: 'Wasabi', type: 'S3', secretAccessKeyEncrypted: sealedSecret });
  });

  it('sets the default: exactly one account is the default, the new one', async () => {
    const row = resultOf<StorageAccountRow>(
      await provider.json('GET', withQuery(S.setDefault.build(), { storageAccountId: s3Id })),
    );
    expect(row).toMatchObject({ id: s3Id, defaultStorageAccount: true });
    expect(await defaults()).toEqual([s3Id]);
    resultOf(await provider.json('GET', withQuery(S.setDefault.build(), { storageAccountId: localId })));
    expect(await defaults()).toEqual([localId]);
    const unknown = await provider.json('GET', withQuery(S.setDefault.build(), { storageAccountId: 9999 }));
    expect(unknown.statusCode).toBe(404);
    expect(await defaults()).toEqual([localId]);
    // A GET that changes state needs the CSRF token like a PUT: a link on another site cannot set the default.
    const forged = await ctx.t.app.inject({
      method: 'GET',
      url: withQuery(S.setDefault.build(), { storageAccountId: s3Id }),
      headers: { accept: 'application/json', cookie: `portal_session=${provider.cookie('portal_session')}` },
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().responseSummaryCode).toBe('CSRF_REJECTED');
    expect(await defaults()).toEqual([localId]);
  });

  it('answers 404 for an account that does not exist', async () => {
    for (const path of [
      S.detail.build({ storageAccountId: 9999 }),
      S.buckets.build({ storageAccountId: 9999 }),
      S.users.build({ storageAccountId: 9999 }),
      S.accessKeys.build({ storageAccountId: 9999 }),
    ]) {
      expect((await provider.json('GET', path)).statusCode, path).toBe(404);
    }
  });
});

describe('buckets with policy info, users and keys of the embedded account (001 §3)', () => {
  let consistent: Awaited<ReturnType<typeof managedBucket>>;
  let changed: Awaited<ReturnType<typeof managedBucket>>;
  let machineId: number;

  beforeAll(async () => {
    const a = ctx.tenants.customerA.customerId;
    const b = ctx.tenants.customerB.customerId;
    consistent = await managedBucket('c1-alpha', a, 'portal-customer-a');
    changed = await managedBucket('c2-beta', b, 'portal-customer-b');
    // Someone changed the second bucket's policy: a stranger may read it.
    const policy = JSON.parse(changed.policy) as { Statement: unknown[] };
    policy.Statement.push({
      Effect: 'Allow',
      Principal: { AWS: ['arn:aws:iam:::user/stranger', 'arn:aws:iam:::user/machine-user'] },
      Action: ['s3:GetObject'],
      Resource: ['arn:aws:s3:::c2-beta/*'],
    });
    await db()
      .update(buckets)
      .set({ policy: JSON.stringify(policy) })
      .where(eq(buckets.id, changed.bucketId));
    // A machine's user, and an unmanaged user with a key.
    const fixtures = backupFixtures(db());
    machineId = await fixtures.machine(await fixtures.package(b));
    await db().insert(storageUsers).values({
      storageAccountId: localId,
      name: 'machine-user',
      managed: true,
      customerId: b,
      backupMachineId: machineId,
    });
    const [loose] = await db()
      .insert(storageUsers)
      .values({ storageAccountId: localId, name: 'leftover', managed: false })
      .returning({ id: storageUsers.id });
    await db()
      .insert(accessKeys)
      .values({ storageAccountId: localId, storageUserId: loose?.id ?? 0, keyId: 'KEY-leftover', managed: false });
    // A folder of the embedded storage the portal has no row of: a bucket found at the service.
    await mkdir(join(dataDir, 'storage', 'found-at-service'), { recursive: true });
  });

  const bucketsNow = async () =>
    resultOf<Elements<BucketWithPolicyInfo>>(await provider.json('GET', S.buckets.build({ storageAccountId: localId })))
      .elements;

  it('joins the buckets at the service with the portal rows and compares each policy with the expected one', async () => {
    const elements = await bucketsNow();
    expect(elements.map((e) => e.bucket.name)).toEqual(['c1-alpha', 'c2-beta', 'found-at-service']);
    const [alpha, beta, found] = elements as [BucketWithPolicyInfo, BucketWithPolicyInfo, BucketWithPolicyInfo];

    expect(alpha).toMatchObject({
      bucket: { name: 'c1-alpha', managed: true, customerId: ctx.tenants.customerA.customerId },
      bucketPolicy: consistent.policy,
      policyContainsInconsistencies: false,
      policyDifferences: [],
    });
    expect(alpha.bucketPolicyPrincipals).toEqual([
      {
        name: 'portal-customer-a',
        managed: true,
        storageCredentials: { type: 'STORAGE_LOCATION' },
        entityExists: true,
        entityType: 'CUSTOMER',
        linkedEntityId: ctx.tenants.customerA.customerId,
        backupTaskActionType: null,
        backupTaskActionStatus: null,
      },
    ]);

    expect(beta.policyContainsInconsistencies).toBe(true);
    expect(beta.policyDifferences).toEqual([
      POLICY_DIFFERENCE_TEXTS.unexpectedUser('stranger'),
      POLICY_DIFFERENCE_TEXTS.unexpectedUser('machine-user'),
    ]);
    const byName = new Map(beta.bucketPolicyPrincipals.map((p) => [p.name, p]));
    expect(byName.get('stranger')).toMatchObject({ managed: false, entityExists: false, entityType: null });
    expect(byName.get('machine-user')).toMatchObject({
      managed: true,
      storageCredentials: { type: 'BACKUP_MACHINE' },
      entityExists: true,
      entityType: 'BACKUP_MACHINE',
      linkedEntityId: machineId,
    });

    // Found at the service: recorded as unmanaged, of no customer; consistent, as the portal expects nothing of it.
    expect(found).toMatchObject({
      bucket: { name: 'found-at-service', managed: false, customerId: null },
      bucketPolicy: null,
      policyContainsInconsistencies: false,
    });
    const [row] = await db().select().from(buckets).where(eq(buckets.name, 'found-at-service'));
    expect(row).toMatchObject({ storageAccountId: localId, managed: false, customerId: null });
  });

  it('removes a principal from a bucket policy, idempotently', async () => {
    const path = S.deletePrincipal.build({ storageAccountId: localId });
    resultOf(await provider.json('PUT', path, { bucketName: 'c2-beta', principalName: 'stranger' }));
    resultOf(await provider.json('PUT', path, { bucketName: 'c2-beta', principalName: 'stranger' }));
    const [row] = await db().select().from(buckets).where(eq(buckets.id, changed.bucketId));
    expect(row?.policy).not.toContain('stranger');
    expect(row?.policy).toContain('machine-user');
    resultOf(await provider.json('PUT', path, { bucketName: 'c2-beta', principalName: 'machine-user' }));
    const beta = (await bucketsNow()).find((b) => b.bucket.name === 'c2-beta');
    expect(beta).toMatchObject({ policyContainsInconsistencies: false, policyDifferences: [] });
    const unknown = await provider.json('PUT', path, { bucketName: 'no-such-bucket', principalName: 'stranger' });
    expect(unknown.statusCode).toBe(404);
    expect(messagesOf(unknown)).toEqual([{ fieldName: '', message: bucketNotFound('no-such-bucket') }]);
  });

  it('lists users and keys with their credentials', async () => {
    const users = resultOf<Elements<StorageAccountUserRow>>(
      await provider.json('GET', S.users.build({ storageAccountId: localId })),
    ).elements;
    expect(users.map((u) => u.name)).toEqual(['leftover', 'machine-user', 'portal-customer-a', 'portal-customer-b']);
    expect(users.find((u) => u.name === 'portal-customer-a')).toEqual({
      name: 'portal-customer-a',
      managed: true,
      storageCredentials: {
        keyId: 'KEY-portal-customer-a',
        type: 'STORAGE_LOCATION',
        storageLocation: { id: consistent.locationId, customerId: ctx.tenants.customerA.customerId, name: 'c1-alpha' },
      },
      deleteable: false,
    });
    expect(users.find((u) => u.name === 'leftover')).toMatchObject({ managed: false, deleteable: true });

    const keys = resultOf<Elements<StorageAccessKeyRow>>(
      await provider.json('GET', S.accessKeys.build({ storageAccountId: localId })),
    ).elements;
    expect(keys.map((k) => k.keyId)).toEqual(['KEY-leftover', 'KEY-portal-customer-a', 'KEY-portal-customer-b']);
    expect(keys[1]).toEqual({
      keyId: 'KEY-portal-customer-a',
      managed: true,
      storageCredentials: {
        username: 'portal-customer-a',
        type: 'STORAGE_LOCATION',
        storageLocation: { id: consistent.locationId, customerId: ctx.tenants.customerA.customerId, name: 'c1-alpha' },
      },
    });
  });

  it('deletes a user and its keys, but not a managed user still serving a location', async () => {
    const path = S.deleteUser.build({ storageAccountId: localId });
    const inUse = await provider.json('PUT', path, { username: 'portal-customer-a' });
    expect(inUse.statusCode).toBe(409);
    expect(messagesOf(inUse)).toEqual([{ fieldName: '', message: TEXT.userInUse }]);
    expect(await db().select().from(storageUsers).where(eq(storageUsers.id, consistent.userId))).toHaveLength(1);

    resultOf(await provider.json('PUT', path, { username: 'leftover' }));
    expect(await db().select().from(storageUsers).where(eq(storageUsers.name, 'leftover'))).toHaveLength(0);
    expect(await db().select().from(accessKeys).where(eq(accessKeys.keyId, 'KEY-leftover'))).toHaveLength(0);
    const gone = await provider.json('PUT', path, { username: 'leftover' });
    expect(gone.statusCode).toBe(404);
    expect(messagesOf(gone)).toEqual([{ fieldName: '', message: storageUserNotFound('leftover') }]);
  });

  it('lets no one but provider admins in, and they change nothing', async () => {
    const before = {
      accounts: await accountRows(),
      users: await db().select().from(storageUsers).orderBy(storageUsers.id),
      buckets: await db().select().from(buckets).orderBy(buckets.id),
    };
    const others = [
      ctx.tenants.customerA.superAdmin.email,
      ctx.tenants.customerA.admin.email,
      ctx.tenants.reseller.superAdmin.email,
      ctx.tenants.customerB.admin.email,
    ];
    for (const email of others) {
      const client = await signedInAs(ctx.t.app, email);
      const answers = [
        await client.json('GET', withQuery(S.list.build(), { page: 0, size: 5 })),
        await client.json('GET', withQuery(S.setDefault.build(), { storageAccountId: s3Id })),
        await client.json('GET', S.detail.build({ storageAccountId: localId })),
        await client.json('GET', S.buckets.build({ storageAccountId: localId })),
        await client.json('GET', S.users.build({ storageAccountId: localId })),
        await client.json('GET', S.accessKeys.build({ storageAccountId: localId })),
        await client.json('POST', S.add.build(), s3Form({ name: 'Intruder' })),
        await client.json('PUT', S.edit.build({ storageAccountId: localId }), { name: 'Mine', type: 'LOCAL' }),
        await client.json('DELETE', S.remove.build({ storageAccountId: s3Id })),
        await client.json('PUT', S.deleteUser.build({ storageAccountId: localId }), { username: 'machine-user' }),
        await client.json('PUT', S.deletePrincipal.build({ storageAccountId: localId }), {
          bucketName: 'c1-alpha',
          principalName: 'portal-customer-a',
        }),
      ];
      for (const answer of answers) {
        expect(answer.statusCode, `${email}: ${answer.body}`).toBe(403);
        expect(answer.body).not.toContain('portal-customer');
      }
    }
    expect(await accountRows()).toEqual(before.accounts);
    expect(await db().select().from(storageUsers).orderBy(storageUsers.id)).toEqual(before.users);
    expect(await db().select().from(buckets).orderBy(buckets.id)).toEqual(before.buckets);
  });

  it('deletes an account that is not the default and holds no managed bucket or location', async () => {
    const insertAccount = async (name: string) => {
      const [row] = await db()
        .insert(storageAccounts)
        .values({ name, type: 'S3' })
        .returning({ id: storageAccounts.id });
      return row?.id ?? 0;
    };
    const inUse = await insertAccount('Holds a managed bucket');
    await db().insert(buckets).values({ storageAccountId: inUse, name: 'managed-one', managed: true });
    const foundOnly = await insertAccount('Found buckets only');
    await db().insert(buckets).values({ storageAccountId: foundOnly, name: 'found-one', managed: false });

    const refusals = [
      [localId, TEXT.defaultNotRemovable],
      [inUse, TEXT.inUseNotRemovable],
    ] as const;
    for (const [storageAccountId, message] of refusals) {
      const answer = await provider.json('DELETE', S.remove.build({ storageAccountId }));
      expect(answer.statusCode).toBe(409);
      expect(messagesOf(answer)).toEqual([{ fieldName: '', message }]);
    }
    for (const storageAccountId of [foundOnly, s3Id]) {
      resultOf(await provider.json('DELETE', S.remove.build({ storageAccountId })));
      expect(await db().select().from(storageAccounts).where(eq(storageAccounts.id, storageAccountId))).toEqual([]);
    }
    expect(await db().select().from(buckets).where(eq(buckets.name, 'found-one'))).toEqual([]);
    expect((await provider.json('DELETE', S.remove.build({ storageAccountId: s3Id }))).statusCode).toBe(404);
    expect(await db().select().from(storageAccounts).where(eq(storageAccounts.id, inUse))).toHaveLength(1);
  });
});
