/**
 * Package migrations onto and between S3 buckets (issue 16): Ceph RGW on loopback (testing/rgw.ts), the real
 * rclone and restic. A machine's restic repository moves LOCAL → S3, then S3 → S3 into another bucket, and
 * restic reads it from each bucket afterwards.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type PackageMigrationDetail, ROUTES } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buckets, storageAccounts, storageLocations, storageUsers } from '../../db/schema/index.js';
import { createSecretBox } from '../../secrets.js';
import { createStorageProviders } from '../../storage/registry.js';
import { processEnvFor } from '../../storage/s3.js';
import type { TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import type { TestClient } from '../../testing/client.js';
import { signedInAs } from '../../testing/envelope.js';
import type { Tenants } from '../../testing/fixtures.js';
import { loopbackGuard, type Rgw, rgwAccountValues } from '../../testing/rgw.js';
import { startS3TestApp } from '../../testing/s3-app.js';
import { storageAccessFor } from '../../testing/storage-access.js';
import { useTempDir } from '../../testing/suite.js';
import { repositoryDir } from '../local-storage/paths.js';
import { createRepositorySettings } from '../local-storage/repository-settings.js';
import { createMachineStorageKeys } from '../storage-locations/machine-keys.js';

const PASSWORD = 'migration s3 test repository';
const tmp = useTempDir('migrations-s3');
let t: TestApp;
let tenants: Tenants;
let rgw: Rgw;
let provider: TestClient;

beforeAll(async () => {
  ({ rgw, t, tenants } = await startS3TestApp(join(tmp, 'data'), { MIGRATION_JOB_INTERVAL_MS: '3600000' }));
  provider = await signedInAs(t.app, tenants.providerAdmin.email);
}, 120_000);
afterAll(() => t?.close());

describe('package migrations with S3 (Ceph RGW)', () => {
  it('moves a restic repository LOCAL → S3 → another S3 bucket, each verified, finalised and readable', async () => {
    const db = t.database.db;
    const masterKey = t.config.masterKey ?? '';
    const fixtures = backupFixtures(db);
    const customerId = tenants.customerA.customerId;
    const local = await fixtures.storageLocation(customerId);
    const packageId = await fixtures.package(customerId, { storageLocationId: local });
    const machineId = await fixtures.machine(packageId);

    // The machine's repository on the LOCAL location.
    const [localBucket] = await db
      .select({ name: buckets.name })
      .from(storageLocations)
      .innerJoin(buckets, eq(buckets.id, storageLocations.bucketId))
      .where(eq(storageLocations.id, local));
    const repo = repositoryDir(t.config.dataDir, { bucket: localBucket?.name ?? '', subfolder: null }, machineId);
    mkdirSync(join(repo, '..'), { recursive: true });
    const data = join(tmp, 'src');
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'a.txt'), 'alpha on S3\n');
    const restic = (repository: string, env: NodeJS.ProcessEnv, args: string[]) =>
      execFileSync('restic', ['-r', repository, ...args], {
        env: { ...env, RESTIC_PASSWORD: PASSWORD },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    restic(repo, process.env, ['init']);
    restic(repo, process.env, ['backup', data]);

    // An S3 account on the RGW with two buckets, each a location of the customer.
    const secrets = createSecretBox(masterKey);
    const [account] = await db
      .insert(storageAccounts)
      .values(rgwAccountValues(rgw, secrets))
      .returning({ id: storageAccounts.id });
    const s3Location = async (name: string) => {
      const [bucket] = await db
        .insert(buckets)
        .values({ storageAccountId: account?.id ?? 0, name, managed: true, customerId })
        .returning({ id: buckets.id });
      const [location] = await db
        .insert(storageLocations)
        .values({ customerId, bucketId: bucket?.id ?? 0, subfolder: 'backups' })
        .returning({ id: storageLocations.id });
      return location?.id ?? 0;
    };
    const stamp = Date.now().toString(36);
    const first = await s3Location(`mig-a-${stamp}`);
    const second = await s3Location(`mig-b-${stamp}`);
    const access = storageAccessFor(db, t.config.dataDir, masterKey);
    // The machine's own settings, as its agent is sent them (its own storage user and key on S3).
    const machineSettings = createRepositorySettings({
      db,
      secrets,
      publicBase: 'http://portal.test',
      s3Access: (id) =>
        createMachineStorageKeys({
          db,
          providers: createStorageProviders({ db, secrets, dataDir: t.config.dataDir, guard: loopbackGuard() }),
          secrets,
          repositoryChanged: async () => {},
          warn: () => {},
        }).repositoryAccess(id),
    });
    for (const location of [first, second]) {
      const { provider: s3, bucket } = await access.locationAccess(location);
      await s3.createBucket(bucket);
    }

    const ref = { customerId, packageId };
    const migrate = async (destinationStorageLocationId: number) => {
      const created = await provider.json('POST', ROUTES.migrations.create.build(ref), {
        destinationStorageLocationId,
      });
      expect(created.statusCode, created.body).toBe(200);
      const one = { ...ref, migrationId: created.json().result.id as number };
      for (const type of ['SYNC', 'FINAL_SYNC']) {
        const answer = await provider.json('PUT', ROUTES.migrations.submit.build(one), {
          requestId: `s3-${destinationStorageLocationId}-${type}`,
          type,
        });
        expect(answer.statusCode, answer.body).toBe(200);
        await t.app.migrations.settled();
      }
      const state = (await provider.json('GET', ROUTES.migrations.detail.build(one))).json()
        .result as PackageMigrationDetail;
      expect(state.status, state.commandSequences.at(-1)?.commandOutput.join('\n')).toBe('FINAL_SYNC_FINISHED_SUCCESS');
      expect(state.verifiedAt).not.toBeNull();
      const finalized = await provider.json('PUT', ROUTES.migrations.finalize.build(one));
      expect(finalized.statusCode, finalized.body).toBe(200);
      await t.app.migrations.settled();
      // restic reads the repository from the bucket, with the location's access.
      const at = await access.machineRepositoryAccess(machineId);
      if (!at) throw new Error('no repository access');
      const env = processEnvFor(at.access);
      restic(at.access.resticRepository, env, ['check']);
      const target = join(tmp, `restored-${destinationStorageLocationId}`);
      restic(at.access.resticRepository, env, ['restore', 'latest', '--target', target]);
      expect(readFileSync(join(target, data, 'a.txt'), 'utf8')).toBe('alpha on S3\n');
      // The machine's agent reaches it too, with the key of its own storage user its settings carry.
      const settings = await machineSettings.repositorySettingsFor(machineId);
      if (!settings?.env) throw new Error('no machine settings on S3');
      expect(settings.repository).toBe(at.access.resticRepository);
      const own = processEnvFor({ resticRepository: settings.repository, rclonePath: '', env: settings.env });
      expect(restic(settings.repository, own, ['snapshots', '--no-lock', '--json'])).toContain('"id"');
      return state;
    };

    await migrate(first);
    await migrate(second);
    // The first bucket's copy was the source of the second migration: removed after it.
    const { provider: s3, bucket, prefix } = await access.locationAccess(first);
    expect(await s3.usage(bucket, prefix)).toMatchObject({ objects: 0 });
    // The machine's storage user of the first bucket went with the move: one user, granted the second only.
    expect((await s3.getBucketPolicy(bucket)) ?? '').not.toContain(`user/portal-machine-${machineId}`);
    const { bucket: secondBucket } = await access.locationAccess(second);
    expect(await s3.getBucketPolicy(secondBucket)).toContain(`user/portal-machine-${machineId}`);
    const users = await db.select().from(storageUsers).where(eq(storageUsers.backupMachineId, machineId));
    expect(users.map((u) => u.storageLocationId)).toEqual([second]);
  }, 180_000);
});
