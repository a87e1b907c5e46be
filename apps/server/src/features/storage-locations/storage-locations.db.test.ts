import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type Elements,
  MESSAGES,
  ROUTES,
  STORAGE_LOCATION_TEXTS,
  type StorageLocationDetail,
  type StorageLocationRow,
} from '@portal/domain';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { backupPackages, buckets, storageAccounts, storageLocations, storageUsers } from '../../db/schema/index.js';
import { createSecretBox } from '../../secrets.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import type { TestClient } from '../../testing/client.js';
import { messagesOf, resultOf, signedInAs } from '../../testing/envelope.js';
import { storageUsersWithKeys } from '../../testing/storage-users.js';
import { useTempDir, useTestAppWithTenants } from '../../testing/suite.js';
import { customerBucketName } from '../local-storage/paths.js';

const R = ROUTES.storageLocations;
const dataDir = useTempDir('storage-locations');
const ctx = useTestAppWithTenants({ DATA_DIR: dataDir });
let provider: TestClient;
let embeddedAccountId: number;
/** Customer B's locations, made through the API: the first (default) and a second one. */
let first: StorageLocationRow;
let second: StorageLocationRow;

const db = () => ctx.t.database.db;
const customerB = () => ctx.tenants.customerB.customerId;

async function locationRows(customerId: number) {
  return db()
    .select({ id: storageLocations.id, default: storageLocations.defaultForCustomer })
    .from(storageLocations)
    .where(eq(storageLocations.customerId, customerId))
    .orderBy(storageLocations.id);
}

const usersOf = (storageLocationId: number) => storageUsersWithKeys(db(), { storageLocationId });

const create = (client: TestClient, customerId: number, body: unknown) =>
  client.json('POST', R.create.build({ customerId }), body);

beforeAll(async () => {
  const [account] = await db()
    .insert(storageAccounts)
    .values({ name: 'Embedded storage', type: 'LOCAL', defaultStorageAccount: true })
    .returning({ id: storageAccounts.id });
  embeddedAccountId = account?.id ?? 0;
  provider = await signedInAs(ctx.t.app, ctx.tenants.providerAdmin.email);
}, 60_000);

describe('creating a storage location (001 §5, §7)', () => {
  it('makes a managed bucket at the embedded storage, the default location, its own user and key, and the policy', async () => {
    first = resultOf<StorageLocationRow>(await create(provider, customerB(), { storageAccountId: embeddedAccountId }));
    const bucketName = customerBucketName(customerB(), 'Beta Inc');
    expect(first).toEqual({
      id: expect.any(Number),
      customerId: customerB(),
      bucketId: expect.any(Number),
      bucketName,
      subfolder: null,
      defaultForCustomer: true,
      numberOfBackupPackages: 0,
      storageAccount: { id: embeddedAccountId, name: 'Embedded storage', type: 'LOCAL' },
      deleteable: false,
      defaultable: false,
      storageLocationUrl: `/boltadmin/customers/${customerB()}/storagelocations/${first.id}`,
    });
    // The bucket is a folder of the embedded storage.
    expect(existsSync(join(dataDir, 'storage', bucketName))).toBe(true);
    const [bucket] = await db().select().from(buckets).where(eq(buckets.id, first.bucketId));
    expect(bucket).toMatchObject({
      name: bucketName,
      managed: true,
      customerId: customerB(),
      storageAccountId: embeddedAccountId,
    });

    const users = await usersOf(first.id);
    expect(users).toEqual([
      {
        name: `portal-location-${first.id}`,
        managed: true,
        customerId: customerB(),
        locationId: first.id,
        machineId: null,
        keyId: expect.any(String),
        sealed: expect.any(String),
        keyManaged: true,
        keyLocation: first.id,
      },
    ]);
    // The secret is sealed with MASTER_KEY, and never in the answer.
    const secret = createSecretBox(ctx.t.config.masterKey ?? '').decrypt(users[0]?.sealed ?? '');
    expect(secret.length).toBeGreaterThan(20);
    const list = await provider.json('GET', R.list.build({ customerId: customerB() }));
    expect(list.body).not.toContain(secret);
    expect(list.body).not.toContain(users[0]?.sealed ?? '-');

    // The bucket's policy grants the location's user its whole folder.
    const policy = JSON.parse(bucket?.policy ?? '{}') as { Statement: Array<{ Principal: { AWS: string[] } }> };
    expect(policy.Statement.flatMap((s) => s.Principal.AWS)).toContain(
      `arn:aws:iam:::user/portal-location-${first.id}`,
    );
  });

  it('names a second bucket with a suffix, also when the name is taken at the service only', async () => {
    // A folder of the next name already exists at the service (not the portal's).
    await mkdir(join(dataDir, 'storage', customerBucketName(customerB(), 'Beta Inc', '-2')), { recursive: true });
    second = resultOf<StorageLocationRow>(await create(provider, customerB(), { storageAccountId: embeddedAccountId }));
    expect(second.bucketName).toBe(customerBucketName(customerB(), 'Beta Inc', '-3'));
    expect(second).toMatchObject({ defaultForCustomer: false, deleteable: true, defaultable: true });
    expect(await usersOf(second.id)).toHaveLength(1);
  });

  it('refuses no account chosen on its field, an unknown account, an unknown customer; nothing made', async () => {
    const before = await db().select().from(storageLocations);
    const none = await create(provider, customerB(), { storageAccountId: -1 });
    expect(none.statusCode).toBe(400);
    expect(messagesOf(none)).toEqual([
      { fieldName: 'storageAccountId', message: MESSAGES.storageLocation.chooseStorageAccount },
    ]);
    const unknown = await create(provider, customerB(), { storageAccountId: 999_999 });
    expect(messagesOf(unknown)).toEqual([
      { fieldName: 'storageAccountId', message: STORAGE_LOCATION_TEXTS.storageAccountNotFound },
    ]);
    expect((await create(provider, 999_999, { storageAccountId: embeddedAccountId })).statusCode).toBe(404);
    expect(await db().select().from(storageLocations)).toEqual(before);
  });
});

describe('listing and the location page', () => {
  it("lists every location of the customer with its account and abilities, and one location's packages", async () => {
    const { elements } = resultOf<Elements<StorageLocationRow>>(
      await provider.json('GET', R.list.build({ customerId: customerB() })),
    );
    expect(elements.map((e) => [e.id, e.defaultForCustomer, e.deleteable])).toEqual([
      [first.id, true, false],
      [second.id, false, true],
    ]);
    const packageId = await backupFixtures(db()).package(customerB(), { name: 'Kept here' });
    await db().update(backupPackages).set({ storageLocationId: first.id }).where(eq(backupPackages.id, packageId));
    const detail = resultOf<StorageLocationDetail>(
      await provider.json('GET', R.detail.build({ customerId: customerB(), storageLocationId: first.id })),
    );
    expect(detail).toMatchObject({ id: first.id, customerName: 'Beta Inc', numberOfBackupPackages: 1 });
    expect(detail.packages).toEqual([
      {
        id: packageId,
        name: 'Kept here',
        status: 'ACTIVE',
        backupPackageUrl: `/boltadmin/customers/${customerB()}/backuppackages/${packageId}`,
      },
    ]);
    // A location of another customer is not found under this one.
    const foreign = await provider.json(
      'GET',
      R.detail.build({ customerId: ctx.tenants.customerA.customerId, storageLocationId: first.id }),
    );
    expect(foreign.statusCode).toBe(404);
  });
});

describe('make default and delete (001 §4-§6)', () => {
  it('refuses to delete the default location, and one with packages; nothing changes', async () => {
    const refusedDefault = await provider.json(
      'DELETE',
      R.remove.build({ customerId: customerB(), storageLocationId: first.id }),
    );
    expect(refusedDefault.statusCode).toBe(400);
    expect(messagesOf(refusedDefault)).toEqual([
      { fieldName: '', message: STORAGE_LOCATION_TEXTS.defaultNotDeletable },
    ]);

    const packageId = await backupFixtures(db()).package(customerB(), { name: 'Second home' });
    await db().update(backupPackages).set({ storageLocationId: second.id }).where(eq(backupPackages.id, packageId));
    const refusedPackages = await provider.json(
      'DELETE',
      R.remove.build({ customerId: customerB(), storageLocationId: second.id }),
    );
    expect(messagesOf(refusedPackages)).toEqual([
      { fieldName: '', message: STORAGE_LOCATION_TEXTS.withPackagesNotDeletable },
    ]);
    await db().delete(backupPackages).where(eq(backupPackages.id, packageId));
    expect((await locationRows(customerB())).map((l) => l.id)).toEqual([first.id, second.id]);
    expect(existsSync(join(dataDir, 'storage', second.bucketName))).toBe(true);
  });

  it('makes another location the default: one default, swapped in one step', async () => {
    const made = resultOf<StorageLocationRow>(
      await provider.json('PUT', R.makeDefault.build({ customerId: customerB(), storageLocationId: second.id })),
    );
    expect(made).toMatchObject({ id: second.id, defaultForCustomer: true, deleteable: false, defaultable: false });
    expect(await locationRows(customerB())).toEqual([
      { id: first.id, default: false },
      { id: second.id, default: true },
    ]);
    // Again: still one default.
    resultOf(
      await provider.json('PUT', R.makeDefault.build({ customerId: customerB(), storageLocationId: second.id })),
    );
    expect((await locationRows(customerB())).filter((l) => l.default)).toHaveLength(1);
  });

  it('deletes a location that is not the default and holds no package: bucket, user, key and rows go', async () => {
    await db()
      .update(backupPackages)
      .set({ storageLocationId: null })
      .where(eq(backupPackages.storageLocationId, first.id));
    const deleted = await provider.json(
      'DELETE',
      R.remove.build({ customerId: customerB(), storageLocationId: first.id }),
    );
    expect(resultOf(deleted)).toBeNull();
    expect(messagesOf(deleted)).toEqual([]);
    expect((await locationRows(customerB())).map((l) => l.id)).toEqual([second.id]);
    expect(existsSync(join(dataDir, 'storage', first.bucketName))).toBe(false);
    expect(await db().select().from(buckets).where(eq(buckets.id, first.bucketId))).toEqual([]);
    expect(
      await db()
        .select()
        .from(storageUsers)
        .where(
          and(
            eq(storageUsers.storageAccountId, embeddedAccountId),
            eq(storageUsers.name, `portal-location-${first.id}`),
          ),
        ),
    ).toEqual([]);
    expect(await usersOf(first.id)).toEqual([]);
    const again = await provider.json(
      'DELETE',
      R.remove.build({ customerId: customerB(), storageLocationId: first.id }),
    );
    expect(again.statusCode).toBe(404);
  });
});

describe('who may (001 §6: /boltadmin is the provider admins)', () => {
  it('answers nothing to customer and reseller admins, and changes nothing', async () => {
    const before = await db().select().from(storageLocations).orderBy(storageLocations.id);
    const customerA = ctx.tenants.customerA.customerId;
    for (const email of [
      ctx.tenants.customerB.superAdmin.email,
      ctx.tenants.customerB.admin.email,
      ctx.tenants.customerA.superAdmin.email,
      ctx.tenants.reseller.superAdmin.email,
    ]) {
      const client = await signedInAs(ctx.t.app, email);
      for (const customerId of [customerB(), customerA]) {
        const calls = [
          await client.json('GET', R.list.build({ customerId })),
          await client.json('GET', R.detail.build({ customerId, storageLocationId: second.id })),
          await client.json('POST', R.create.build({ customerId }), { storageAccountId: embeddedAccountId }),
          await client.json('DELETE', R.remove.build({ customerId, storageLocationId: second.id })),
          await client.json('PUT', R.makeDefault.build({ customerId, storageLocationId: second.id })),
          await client.json('PUT', R.rotateMachineKey.build({ customerId, packageId: 1, machineId: 1 })),
        ];
        for (const answer of calls) {
          expect(answer.statusCode, `${email} ${answer.body}`).toBe(403);
          expect(answer.body).not.toContain(second.bucketName);
        }
      }
    }
    expect(await db().select().from(storageLocations).orderBy(storageLocations.id)).toEqual(before);
  });

  it("reaches no other customer's location through a customer's path, even as provider admin", async () => {
    const customerA = ctx.tenants.customerA.customerId;
    const before = await db().select().from(storageLocations).orderBy(storageLocations.id);
    for (const answer of [
      await provider.json('DELETE', R.remove.build({ customerId: customerA, storageLocationId: second.id })),
      await provider.json('PUT', R.makeDefault.build({ customerId: customerA, storageLocationId: second.id })),
    ]) {
      expect(answer.statusCode).toBe(404);
    }
    expect(await db().select().from(storageLocations).orderBy(storageLocations.id)).toEqual(before);
  });
});
