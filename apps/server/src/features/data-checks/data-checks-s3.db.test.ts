/**
 * Rotating data checks on an S3 storage location (issue 32 item 2), against the real Ceph RGW of the test run and the
 * real restic: the portal checks a machine's repository in its bucket with the location's own key, counts the bytes it
 * read from the bucket's listing, and finds a pack overwritten in the bucket.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ROUTES, type StorageAccountDetail, type StorageLocationRow } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupPackages } from '../../db/schema/index.js';
import { processEnvFor } from '../../storage/s3.js';
import { createTestApp, repositoryPasswordOf, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { resultOf, signedInAs } from '../../testing/envelope.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';
import { type Rgw, startedRgw } from '../../testing/rgw.js';
import { checkDataNow } from '../../testing/s3-app.js';
import { storageAccessFor } from '../../testing/storage-access.js';

let tmp = '';
let t: TestApp;
let rgw: Rgw;
let tenants: Tenants;
let packageId = 0;
const db = () => t.database.db;

beforeAll(async () => {
  rgw = await startedRgw();
  tmp = mkdtempSync(join(tmpdir(), 'portal-data-checks-s3-'));
  // The RGW of the tests listens on loopback, which a real deployment refuses; one slice: a check reads every pack.
  t = await createTestApp({ DATA_DIR: join(tmp, 'data'), ALLOW_PRIVATE_ENDPOINTS: 'true', DATA_CHECK_SLICES: '1' });
  tenants = await createTenants(db());
  const provider = await signedInAs(t.app, tenants.providerAdmin.email);
  const account = resultOf<StorageAccountDetail>(
    await provider.json('POST', ROUTES.storageAccounts.add.build(), rgw.accountForm('Ceph checks')),
  );
  const customerId = tenants.customerA.customerId;
  const location = resultOf<StorageLocationRow>(
    await provider.json('POST', ROUTES.storageLocations.create.build({ customerId }), { storageAccountId: account.id }),
  );
  packageId = await backupFixtures(db()).package(customerId);
  await db().update(backupPackages).set({ storageLocationId: location.id }).where(eq(backupPackages.id, packageId));
}, 300_000);

afterAll(async () => {
  await t?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('data checks on S3 (Ceph RGW)', () => {
  it("checks a repository in a bucket with the location's key, counts what it read and finds a damaged pack", async () => {
    const machineId = await backupFixtures(db()).machine(packageId, { name: 'bucket-machine' });
    const folder = await storageAccessFor(db(), t.config.dataDir, t.config.masterKey ?? '').machineRepositoryAccess(
      machineId,
    );
    if (!folder) throw new Error('no folder');
    expect(folder.access.resticRepository).toMatch(/^s3:/);
    const env = {
      ...processEnvFor(folder.access),
      RESTIC_REPOSITORY: folder.access.resticRepository,
      RESTIC_PASSWORD: (await repositoryPasswordOf(t, machineId)) ?? '',
    };
    const src = join(tmp, 'src');
    mkdirSync(src, { recursive: true });
    for (let i = 0; i < 6; i++)
      writeFileSync(join(src, `f${i}`), execFileSync('head', ['-c', '1048576', '/dev/urandom']));
    execFileSync('/usr/bin/restic', ['--no-cache', 'init'], { env });
    execFileSync('/usr/bin/restic', ['--no-cache', 'backup', src], { env });

    const s3 = new S3Client({
      endpoint: rgw.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: {
        accessKeyId: folder.access.env.AWS_ACCESS_KEY_ID ?? '',
        secretAccessKey: folder.access.env.AWS_SECRET_ACCESS_KEY ?? '',
      },
    });
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: folder.bucket, Prefix: `${folder.prefix}/data/` }));
    const packs = (listed.Contents ?? []).map((o) => ({ key: o.Key ?? '', size: o.Size ?? 0 }));
    expect(packs.length).toBeGreaterThan(0);

    const checkNow = () => checkDataNow(t, machineId);
    const [passed] = await checkNow();
    expect(passed).toMatchObject({ subset: '1/1', outcome: 'PASSED', errors: [] });
    expect(passed?.bytesRead).toBe(packs.reduce((sum, p) => sum + p.size, 0));

    // A pack overwritten in the bucket (the location's key may write): the next check finds it.
    const victim = packs[0]?.key ?? '';
    await s3.send(new PutObjectCommand({ Bucket: folder.bucket, Key: victim, Body: Buffer.alloc(2048, 7) }));
    const checks = await checkNow();
    expect(checks.map((c) => c.outcome)).toEqual(['PASSED', 'FAILED']);
    expect(checks[1]?.errors.join('\n')).toContain(victim.split('/').at(-1));
  }, 240_000);
});
