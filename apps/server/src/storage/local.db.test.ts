import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STORAGE_SERVICE_TEXTS } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { accessKeys, buckets, storageAccounts, storageLocations, storageUsers } from '../db/schema/index.js';
import { createOutboundGuard } from '../net/outbound-guard.js';
import { createSecretBox } from '../secrets.js';
import { backupFixtures } from '../testing/backup-fixtures.js';
import { openTestDatabase } from '../testing/database.js';
import { createTenants, type Tenants } from '../testing/fixtures.js';
import { bucketPolicyFor, policyDifferences } from './policy.js';
import { StorageError, type StorageProvider, type StorageProviders } from './provider.js';
import { createStorageProviders } from './registry.js';
import { grantsOfBucket } from './repo.js';

/**
 * The embedded `local` provider on a real database and real folders (its users, keys and policies are the
 * portal's records), the registry that builds providers from storage account rows, and the grants a
 * bucket's policy is made from.
 */

let database: Database;
let tenants: Tenants;
let providers: StorageProviders;
let local: StorageProvider;
let accountId = 0;
const secrets = createSecretBox('b'.repeat(64));
const dataDir = mkdtempSync(join(tmpdir(), 'portal-local-storage-'));

beforeAll(async () => {
  database = await openTestDatabase();
  tenants = await createTenants(database.db);
  providers = createStorageProviders({
    db: database.db,
    secrets,
    dataDir,
    guard: createOutboundGuard({ allowPrivate: false }),
  });
  const [account] = await database.db
    .insert(storageAccounts)
    .values({ name: 'Embedded', type: 'LOCAL' })
    .returning({ id: storageAccounts.id });
  accountId = account?.id ?? 0;
  local = await providers.forAccount(accountId);
});
afterAll(async () => {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const addBucketRow = async (name: string, customerId: number | null = null) => {
  const [row] = await database.db
    .insert(buckets)
    .values({ storageAccountId: accountId, name, managed: true, customerId })
    .returning({ id: buckets.id });
  return row?.id ?? 0;
};

describe('the local provider', () => {
  it('keeps buckets as folders under DATA_DIR/storage', async () => {
    expect(local.type).toBe('LOCAL');
    await local.testConnection();
    await local.createBucket('c1-acme');
    await local.createBucket('c1-acme');
    expect(existsSync(join(dataDir, 'storage', 'c1-acme'))).toBe(true);
    // The folder of machines without a location is not a bucket.
    mkdirSync(join(dataDir, 'storage', 'default'), { recursive: true });
    expect(await local.listBuckets()).toEqual(['c1-acme']);
    await local.deleteBucket('c1-acme');
    expect(await local.listBuckets()).toEqual([]);
  });

  it('refuses names that are not plain folder names', async () => {
    for (const attempt of [
      () => local.createBucket('../escape'),
      () => local.createBucket('default'),
      () => local.usage('c2-acme', '../../etc'),
      () => local.deletePrefix('c2-acme', 'a/../..'),
    ]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageError);
      expect(error).toMatchObject({ kind: 'malformed', message: STORAGE_SERVICE_TEXTS.notEmbeddedName });
    }
  });

  it("keeps a bucket's policy in the bucket's row", async () => {
    await addBucketRow('c3-policy');
    expect(await local.getBucketPolicy('c3-policy')).toBeNull();
    const policy = bucketPolicyFor('c3-policy', [{ userName: 'u1', role: 'location', prefix: '' }]);
    await local.putBucketPolicy('c3-policy', policy);
    expect(policyDifferences(await local.getBucketPolicy('c3-policy'), policy)).toEqual([]);
    await expect(local.getBucketPolicy('c3-nothing')).rejects.toMatchObject({ kind: 'notFound' });
    await expect(local.putBucketPolicy('c3-nothing', policy)).rejects.toMatchObject({ kind: 'notFound' });
  });

  it('keeps users and keys as records of the account, the secret sealed', async () => {
    await local.createUser('portal-machine-1');
    await local.createUser('portal-machine-1');
    expect(await local.listUsers()).toEqual(['portal-machine-1']);
    const key = await local.createAccessKey('portal-machine-1');
    expect(await local.listAccessKeys('portal-machine-1')).toEqual([key.keyId]);
    const [row] = await database.db.select().from(accessKeys).where(eq(accessKeys.keyId, key.keyId));
    expect(row?.secretEncrypted).not.toContain(key.secret);
    expect(secrets.decrypt(row?.secretEncrypted ?? '')).toBe(key.secret);
    expect(row?.managed).toBe(true);

    await local.deleteAccessKey('portal-machine-1', key.keyId);
    await local.deleteAccessKey('portal-machine-1', key.keyId);
    expect(await local.listAccessKeys('portal-machine-1')).toEqual([]);
    const second = await local.createAccessKey('portal-machine-1');
    await local.deleteUser('portal-machine-1');
    await local.deleteUser('portal-machine-1');
    expect(await local.listUsers()).toEqual([]);
    expect(await database.db.select().from(accessKeys).where(eq(accessKeys.keyId, second.keyId))).toEqual([]);
    await expect(local.createAccessKey('portal-machine-1')).rejects.toMatchObject({ kind: 'notFound' });
  });

  it('sums the files under a folder, and removes a folder or the whole content of a bucket', async () => {
    await local.createBucket('c4-usage');
    const write = (path: string, size: number) => {
      const full = join(dataDir, 'storage', 'c4-usage', path);
      mkdirSync(join(full, '..'), { recursive: true });
      writeFileSync(full, Buffer.alloc(size));
    };
    write('sub/1/config', 10);
    write('sub/1/data/ab/abc', 100);
    write('sub/10/config', 5);
    expect(await local.usage('c4-usage', 'sub/1')).toEqual({ bytes: 110, objects: 2 });
    expect(await local.usage('c4-usage', '')).toEqual({ bytes: 115, objects: 3 });
    expect(await local.usage('c4-usage', 'nothing/here')).toEqual({ bytes: 0, objects: 0 });
    await local.deletePrefix('c4-usage', 'sub/1');
    expect(await local.usage('c4-usage', 'sub')).toEqual({ bytes: 5, objects: 1 });
    await local.deletePrefix('c4-usage', '');
    expect(await local.usage('c4-usage', '')).toEqual({ bytes: 0, objects: 0 });
    expect(await local.listBuckets()).toContain('c4-usage');
  });

  it('hands restic and rclone the folder itself: a real restic init and backup there', async () => {
    await local.createBucket('c5-restic');
    const access = local.folderAccess('c5-restic', 'customer/7');
    expect(access).toEqual({
      resticRepository: join(dataDir, 'storage', 'c5-restic', 'customer', '7'),
      rclonePath: `:local:${join(dataDir, 'storage', 'c5-restic', 'customer', '7')}`,
      env: {},
    });
    const env = { ...process.env, ...access.env, RESTIC_PASSWORD: 'pw' };
    execFileSync('restic', ['--no-cache', '-r', access.resticRepository, 'init'], { env, stdio: 'pipe' });
    execFileSync('restic', ['--no-cache', '-r', access.resticRepository, 'backup', dataDir, '--exclude', 'storage'], {
      env,
      stdio: 'pipe',
    });
    expect((await local.usage('c5-restic', 'customer/7')).objects).toBeGreaterThan(3);
    const copy = local.folderAccess('c5-restic', 'customer/copy');
    execFileSync('rclone', ['copy', access.rclonePath, copy.rclonePath], { stdio: 'pipe' });
    const snapshots = execFileSync('restic', ['--no-cache', '-r', copy.resticRepository, 'snapshots', '--json'], {
      env,
      encoding: 'utf8',
    });
    expect(JSON.parse(snapshots)).toHaveLength(1);
  });
});

describe('the registry', () => {
  it('builds an S3 provider from a row, its secret opened, and keeps it until forgotten', async () => {
    const [row] = await database.db
      .insert(storageAccounts)
      .values({
        name: 'Ceph',
        type: 'S3',
        endpoint: 'http://127.0.0.1:1',
        accessKeyId: 'AKID',
        secretAccessKeyEncrypted: secrets.encrypt('the-secret'),
        userApi: 'RGW_ADMIN',
      })
      .returning({ id: storageAccounts.id });
    const id = row?.id ?? 0;
    const s3 = await providers.forAccount(id);
    expect(s3.type).toBe('S3');
    expect(await providers.forAccount(id)).toBe(s3);
    expect(s3.folderAccess('b1', 'f/1').env).toMatchObject({
      AWS_ACCESS_KEY_ID: 'AKID',
      AWS_SECRET_ACCESS_KEY: 'the-secret',
    });
    // The guard (private endpoints not allowed here) refuses the loopback endpoint before connecting.
    await expect(s3.listBuckets()).rejects.toMatchObject({ kind: 'refusedAddress', fieldName: 'endpoint' });
    providers.forget(id);
    expect(await providers.forAccount(id)).not.toBe(s3);
    await expect(providers.forAccount(999_999)).rejects.toMatchObject({ kind: 'notFound' });
  });

  it('builds a provider for an unsaved connection', () => {
    const provider = providers.forConnection({
      id: 0,
      type: 'S3',
      endpoint: 'https://s3.example.com',
      iamEndpoint: null,
      region: 'eu-1',
      forcePathStyle: true,
      accessKeyId: 'K',
      secretAccessKey: 'S',
      userApi: 'RGW_ADMIN',
      requireObjectLock: false,
    });
    expect(provider.folderAccess('b', 'x/2')).toMatchObject({
      resticRepository: 's3:https://s3.example.com/b/x/2',
      rclonePath: ':s3:b/x/2',
    });
  });
});

describe('grantsOfBucket', () => {
  it("gives a location's user its folder and a machine's user its repository in its package's location", async () => {
    const fixtures = backupFixtures(database.db);
    const customerId = tenants.customerA.customerId;
    const bucketId = await addBucketRow('c6-grants', customerId);
    const otherBucketId = await addBucketRow('c6-other', customerId);
    const [location] = await database.db
      .insert(storageLocations)
      .values({ customerId, bucketId, subfolder: '/team/' })
      .returning({ id: storageLocations.id });
    const [elsewhere] = await database.db
      .insert(storageLocations)
      .values({ customerId, bucketId: otherBucketId })
      .returning({ id: storageLocations.id });
    const packageId = await fixtures.package(customerId, { storageLocationId: location?.id });
    const machineId = await fixtures.machine(packageId);
    const otherPackageId = await fixtures.package(customerId, { storageLocationId: elsewhere?.id });
    const otherMachineId = await fixtures.machine(otherPackageId);
    await database.db.insert(storageUsers).values([
      { storageAccountId: accountId, name: 'portal-location-a', storageLocationId: location?.id, customerId },
      {
        storageAccountId: accountId,
        name: 'portal-machine-a',
        storageLocationId: location?.id,
        backupMachineId: machineId,
      },
      { storageAccountId: accountId, name: 'portal-location-b', storageLocationId: elsewhere?.id },
      { storageAccountId: accountId, name: 'portal-machine-b', backupMachineId: otherMachineId },
      { storageAccountId: accountId, name: 'portal-unlinked' },
    ]);

    expect(await grantsOfBucket(database.db, bucketId)).toEqual([
      { userName: 'portal-location-a', role: 'location', prefix: 'team' },
      { userName: 'portal-machine-a', role: 'machine', prefix: `team/${machineId}` },
    ]);
    expect(await grantsOfBucket(database.db, otherBucketId)).toEqual([
      { userName: 'portal-location-b', role: 'location', prefix: '' },
      { userName: 'portal-machine-b', role: 'machine', prefix: String(otherMachineId) },
    ]);
  });
});
