import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { backupPackages, buckets, storageLocations } from '../db/schema/index.js';
import { createRepositoryRemoval } from '../features/local-storage/removal.js';
import { createRepository } from '../features/local-storage/store.js';
import { createOutboundGuard } from '../net/outbound-guard.js';
import { backupFixtures } from '../testing/backup-fixtures.js';
import { openTestDatabase } from '../testing/database.js';
import { createTenants, type Tenants } from '../testing/fixtures.js';
import { startedRgw } from '../testing/rgw.js';
import { insertS3Account } from '../testing/s3-account.js';
import { storageAccessFor } from '../testing/storage-access.js';
import { repositoryPresent, resticEnvOf } from './access.js';
import { processEnvFor } from './s3.js';

const masterKey = randomBytes(32).toString('hex');
let database: Database;
let tenants: Tenants;
let dataDir = '';

beforeAll(async () => {
  database = await openTestDatabase();
  tenants = await createTenants(database.db);
  dataDir = mkdtempSync(join(tmpdir(), 'portal-storage-access-'));
});
afterAll(async () => {
  await database?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the portal’s own access to backup data', () => {
  it('reaches a machine without a location in the embedded default folder, with no key', async () => {
    const fixtures = backupFixtures(database.db);
    const machineId = await fixtures.machine(await fixtures.package(tenants.customerA.customerId));
    const access = storageAccessFor(database.db, dataDir, masterKey);
    const at = await access.machineRepositoryAccess(machineId);
    const dir = join(dataDir, 'storage', 'default', String(machineId));
    expect(at).toMatchObject({ bucket: 'default', prefix: String(machineId) });
    expect(at?.access).toEqual({ resticRepository: dir, rclonePath: `:local:${dir}`, env: {} });
    expect(resticEnvOf(at?.access ?? { resticRepository: '', rclonePath: '', env: {} }, 'pw')).toEqual({
      RESTIC_REPOSITORY: dir,
      RESTIC_PASSWORD: 'pw',
    });
    expect(await access.machineRepositoryAccess(987_654)).toBeNull();
  });

  it('reaches a LOCAL location’s folder and its machines’ repositories under it, and removes them', async () => {
    const db = database.db;
    const fixtures = backupFixtures(db);
    const locationId = await fixtures.storageLocation(tenants.customerB.customerId);
    await db.update(storageLocations).set({ subfolder: 'team/a' }).where(eq(storageLocations.id, locationId));
    const [place] = await db
      .select({ bucket: buckets.name })
      .from(storageLocations)
      .innerJoin(buckets, eq(buckets.id, storageLocations.bucketId))
      .where(eq(storageLocations.id, locationId));
    const pkg = await fixtures.package(tenants.customerB.customerId, { storageLocationId: locationId });
    const machineId = await fixtures.machine(pkg);
    const access = storageAccessFor(db, dataDir, masterKey);

    const folder = join(dataDir, 'storage', place?.bucket ?? '', 'team', 'a');
    const location = await access.locationAccess(locationId);
    expect(location).toMatchObject({ bucket: place?.bucket, prefix: 'team/a' });
    expect(location.access.resticRepository).toBe(folder);
    const machine = await access.machineRepositoryAccess(machineId);
    expect(machine).toMatchObject({ bucket: place?.bucket, prefix: `team/a/${machineId}` });
    expect(machine?.access.resticRepository).toBe(join(folder, String(machineId)));

    await createRepository(join(folder, String(machineId)));
    const removal = createRepositoryRemoval({
      storage: access,
      disconnectMachine: async () => undefined,
      removeMachineStorageUser: async () => undefined,
    });
    await removal.removeWith([{ machineId, location: null }], async () => 'deleted');
    expect(existsSync(join(folder, String(machineId)))).toBe(false);
    expect(existsSync(folder)).toBe(true);
  });
});

// An S3 location's removal calls the provider's deletePrefix with the location's key (issue 16), against the real
// Ceph RGW of the test run.
describe('an S3 location (Ceph RGW)', () => {
  it('removes a machine’s repository with provider.deletePrefix and leaves its neighbours', async () => {
    const rgw = await startedRgw();
    const db = database.db;
    const customerId = tenants.customerA.customerId;
    const accountId = await insertS3Account(db, masterKey, rgw);
    const bucketName = `access-${randomBytes(4).toString('hex')}`;
    const [bucket] = await db
      .insert(buckets)
      .values({ storageAccountId: accountId, name: bucketName, managed: true, customerId })
      .returning({ id: buckets.id });
    const [location] = await db
      .insert(storageLocations)
      .values({ customerId, bucketId: bucket?.id ?? 0, subfolder: 'team' })
      .returning({ id: storageLocations.id });
    const fixtures = backupFixtures(db);
    const pkg = await fixtures.package(customerId);
    await db
      .update(backupPackages)
      .set({ storageLocationId: location?.id ?? 0 })
      .where(eq(backupPackages.id, pkg));
    const doomed = await fixtures.machine(pkg);
    const neighbour = await fixtures.machine(pkg);
    const access = storageAccessFor(db, dataDir, masterKey);
    const place = await access.locationAccess(location?.id ?? 0);
    await place.provider.createBucket(bucketName);
    // restic and rclone get the endpoint only after the guard checked it: loopback is refused without the setting.
    const guarded = storageAccessFor(db, dataDir, masterKey, createOutboundGuard({ allowPrivate: false }));
    await expect(guarded.locationAccess(location?.id ?? 0)).rejects.toMatchObject({ kind: 'refusedAddress' });
    await expect(guarded.machineRepositoryAccess(doomed)).rejects.toMatchObject({ kind: 'refusedAddress' });

    // Both machines' repositories in the bucket, made with restic as the portal reaches them.
    const folders = [];
    for (const machineId of [doomed, neighbour]) {
      const at = await access.machineRepositoryAccess(machineId);
      if (!at) throw new Error('no repository access');
      expect(at.prefix).toBe(`team/${machineId}`);
      const init = spawnSync('/usr/bin/restic', ['--no-cache', 'init'], {
        env: { ...processEnvFor(at.access), ...resticEnvOf(at.access, 'pw') },
        encoding: 'utf8',
      });
      expect(init.status, init.stderr).toBe(0);
      expect(await repositoryPresent(at.access, 'pw')).toBe(true);
      folders.push(at);
    }

    // No storage users were made for these repositories: only the folders are removed here.
    const removal = createRepositoryRemoval({
      storage: access,
      disconnectMachine: async () => undefined,
      removeMachineStorageUser: async () => undefined,
    });
    await removal.removeWith([{ machineId: doomed, location: null }], async () => 'deleted');
    const [gone, kept] = folders;
    if (!gone || !kept) throw new Error('no folders');
    expect(await gone.provider.usage(bucketName, gone.prefix)).toEqual({ bytes: 0, objects: 0 });
    expect((await kept.provider.usage(bucketName, kept.prefix)).objects).toBeGreaterThan(0);
    expect(await repositoryPresent(kept.access, 'pw')).toBe(true);
  }, 120_000);
});
