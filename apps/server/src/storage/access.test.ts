import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { backupPackages, buckets, storageLocations } from '../db/schema/index.js';
import { createRepositoryRemoval } from '../features/local-storage/removal.js';
import { createRepository } from '../features/local-storage/store.js';
import { backupFixtures } from '../testing/backup-fixtures.js';
import { openTestDatabase } from '../testing/database.js';
import { createTenants, type Tenants } from '../testing/fixtures.js';
import { storageAccessFor } from '../testing/storage-access.js';
import { resticEnvOf } from './access.js';

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
    const pkg = await fixtures.package(tenants.customerB.customerId);
    await db.update(backupPackages).set({ storageLocationId: locationId }).where(eq(backupPackages.id, pkg));
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

// An S3 location's removal calls the provider's deletePrefix with the location's key (issue 16). It needs a real
// S3 with users and policies: the provider helper's testing/rgw.ts (Ceph RGW) and S3 registry. Until they are
// merged this part is skipped; the coordinator enables it by giving it rgw.ts's start/stop.
const rgwHelper = fileURLToPath(new URL('../testing/rgw.ts', import.meta.url));
describe.skipIf(!existsSync(rgwHelper))('an S3 location (Ceph RGW)', () => {
  it.todo(
    'removes a machine’s repository with provider.deletePrefix and leaves its neighbours (coordinator: wire rgw.ts)',
  );
});
