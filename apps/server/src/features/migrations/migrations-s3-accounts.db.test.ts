/**
 * Migrations between two S3 storage accounts on Ceph RGW through the HTTP routes (issue 16), with locations the
 * real location service makes (bucket, location user, key and policy at the service): a package migration
 * rolled back leaves the source in use and readable and the destination's copy gone; then the storage account
 * migration makes its destination location on the other account and finalises on its own, and restic restores
 * from the destination.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type BucketWithPolicyInfo,
  type Elements,
  type PackageMigrationDetail,
  type PackageMigrationRow,
  ROUTES,
  type StorageAccountDetail,
  type StorageLocationRow,
} from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupPackages, packageMigrations, storageUsers } from '../../db/schema/index.js';
import type { FolderAt } from '../../storage/access.js';
import { processEnvFor } from '../../storage/s3.js';
import type { TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import type { TestClient } from '../../testing/client.js';
import { resultOf, signedInAs } from '../../testing/envelope.js';
import type { Tenants } from '../../testing/fixtures.js';
import type { Rgw } from '../../testing/rgw.js';
import { startS3TestApp } from '../../testing/s3-app.js';
import { storageAccessFor } from '../../testing/storage-access.js';
import { useTempDir } from '../../testing/suite.js';

const PASSWORD = 'migrations between S3 accounts';
const r = ROUTES.migrations;
const tmp = useTempDir('migrations-s3-accounts');
let t: TestApp;
let rgw: Rgw;
let tenants: Tenants;
let provider: TestClient;
let customerId = 0;
let packageId = 0;
let machineId = 0;
let firstAccount = 0;
let secondAccount = 0;
let source: StorageLocationRow;
let data = '';
/** The second account's location the rolled-back migration went to. */
let earlierDestination = 0;

const access = () => storageAccessFor(t.database.db, t.config.dataDir, t.config.masterKey ?? '');
const ref = () => ({ customerId, packageId });

function restic(folder: FolderAt, args: string[]): string {
  return execFileSync('/usr/bin/restic', ['--no-cache', ...args], {
    env: {
      ...processEnvFor(folder.access),
      RESTIC_REPOSITORY: folder.access.resticRepository,
      RESTIC_PASSWORD: PASSWORD,
    },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The machine's repository restored from wherever the portal now reaches it; answers the file's text. */
async function restoredText(target: string): Promise<{ text: string; bucket: string }> {
  const folder = await access().machineRepositoryAccess(machineId);
  if (!folder) throw new Error('no repository access');
  restic(folder, ['check']);
  restic(folder, ['restore', 'latest', '--target', join(tmp, target)]);
  return { text: readFileSync(join(tmp, target, data, 'a.txt'), 'utf8'), bucket: folder.bucket };
}

async function addAccount(name: string): Promise<number> {
  return resultOf<StorageAccountDetail>(
    await provider.json('POST', ROUTES.storageAccounts.add.build(), rgw.accountForm(name)),
  ).id;
}

const newLocation = async (storageAccountId: number) =>
  resultOf<StorageLocationRow>(
    await provider.json('POST', ROUTES.storageLocations.create.build({ customerId }), { storageAccountId }),
  );

beforeAll(async () => {
  ({ rgw, t, tenants } = await startS3TestApp(join(tmp, 'data'), { MIGRATION_JOB_INTERVAL_MS: '3600000' }));
  provider = await signedInAs(t.app, tenants.providerAdmin.email);
  customerId = tenants.customerA.customerId;
  firstAccount = await addAccount('Ceph one');
  secondAccount = await addAccount('Ceph two');
  source = await newLocation(firstAccount);
  const fixtures = backupFixtures(t.database.db);
  packageId = await fixtures.package(customerId, { storageLocationId: source.id });
  machineId = await fixtures.machine(packageId);

  // The machine's repository in the first account's bucket, made with the location's key.
  data = join(tmp, 'src');
  mkdirSync(data, { recursive: true });
  writeFileSync(join(data, 'a.txt'), 'alpha between accounts\n');
  const folder = await access().machineRepositoryAccess(machineId);
  if (!folder) throw new Error('no repository access');
  restic(folder, ['init']);
  restic(folder, ['backup', data]);
}, 120_000);

afterAll(() => t?.close());

describe('migrations between two S3 storage accounts (Ceph RGW)', () => {
  it('rolled back: the destination’s copy goes, the source stays in use and restores', async () => {
    const destination = await newLocation(secondAccount);
    earlierDestination = destination.id;
    const created = resultOf<PackageMigrationDetail>(
      await provider.json('POST', r.create.build(ref()), { destinationStorageLocationId: destination.id }),
    );
    const one = { ...ref(), migrationId: created.id };
    resultOf(await provider.json('PUT', r.submit.build(one), { requestId: 'rollback-sync', type: 'SYNC' }));
    await t.app.migrations.settled();
    const synced = resultOf<PackageMigrationDetail>(await provider.json('GET', r.detail.build(one)));
    expect(synced.status, synced.commandSequences.at(-1)?.commandOutput.join('\n')).toBe(
      'INITIAL_SYNC_FINISHED_SUCCESS',
    );
    const copy = await access().locationAccess(destination.id);
    const copied = await copy.provider.usage(copy.bucket, `${copy.prefix}${copy.prefix ? '/' : ''}${machineId}`);
    expect(copied.objects).toBeGreaterThan(0);

    const rolledBack = resultOf<PackageMigrationDetail>(await provider.json('PUT', r.rollback.build(one)));
    expect(rolledBack).toMatchObject({ status: 'ROLLED_BACK', inUse: 'source', finalized: false });
    await t.app.migrations.settled();
    expect(await copy.provider.usage(copy.bucket, copy.prefix)).toMatchObject({ objects: 0 });
    const [row] = await t.database.db.select().from(backupPackages).where(eq(backupPackages.id, packageId));
    expect(row?.storageLocationId).toBe(source.id);
    expect(await restoredText('after-rollback')).toEqual({
      text: 'alpha between accounts\n',
      bucket: source.bucketName,
    });
    // A customer admin reaches no migration route.
    const customer = await signedInAs(t.app, tenants.customerA.superAdmin.email);
    expect((await customer.json('GET', r.detail.build(one))).statusCode).toBe(403);
  }, 120_000);

  it('the storage account migration makes its location on the other account at the service and finalises', async () => {
    const started = resultOf<Elements<PackageMigrationRow>>(
      await provider.json('POST', r.storageAccount.build({ storageAccountId: firstAccount }), {
        destinationStorageAccountId: secondAccount,
      }),
    ).elements;
    expect(started).toHaveLength(1);
    const migrationId = started[0]?.id ?? 0;
    for (let step = 0; step < 6; step += 1) {
      await t.app.migrations.drive();
      await t.app.migrations.settled();
    }
    const [done] = await t.database.db.select().from(packageMigrations).where(eq(packageMigrations.id, migrationId));
    expect(done).toMatchObject({ finalized: true, status: 'FINAL_SYNC_FINISHED_SUCCESS', automatic: true });
    const destinationId = done?.destinationStorageLocationId ?? 0;
    // A location of its own, made for the migration.
    expect([source.id, earlierDestination]).not.toContain(destinationId);
    const [moved] = await t.database.db.select().from(backupPackages).where(eq(backupPackages.id, packageId));
    expect(moved?.storageLocationId).toBe(destinationId);

    // Its location is the location service's: a managed bucket on the second account whose policy is consistent,
    // its storage user and key at the service.
    const destination = await access().locationAccess(destinationId);
    const buckets = resultOf<Elements<BucketWithPolicyInfo>>(
      await provider.json('GET', ROUTES.storageAccounts.buckets.build({ storageAccountId: secondAccount })),
    ).elements;
    expect(buckets.find((b) => b.bucket.name === destination.bucket)).toMatchObject({
      bucket: { managed: true, customerId },
      policyContainsInconsistencies: false,
    });
    const [user] = await t.database.db
      .select({ name: storageUsers.name, accountId: storageUsers.storageAccountId })
      .from(storageUsers)
      .where(eq(storageUsers.storageLocationId, destinationId));
    expect(user?.accountId).toBe(secondAccount);
    expect(await destination.provider.listUsers()).toContain(user?.name);
    expect(destination.access.env.AWS_ACCESS_KEY_ID).not.toBe(rgw.adminAccessKey);

    // restic reads the repository from the destination with the location's key; the source copy is removed.
    expect(await restoredText('after-account-migration')).toEqual({
      text: 'alpha between accounts\n',
      bucket: destination.bucket,
    });
    await t.app.migrations.settled();
    const old = await access().locationAccess(source.id);
    expect(await old.provider.usage(old.bucket, old.prefix)).toMatchObject({ objects: 0 });
  }, 180_000);
});
