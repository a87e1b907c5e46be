import { S3Client } from '@aws-sdk/client-s3';
import { ROUTES, type StorageAccountDetail, type StorageLocationRow } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { auditEvents, backupPackages, repositoryCheckStates, repositoryDataChecks } from '../db/schema/index.js';
import { createMachineStorageKeys } from '../features/storage-locations/machine-keys.js';
import { createSecretBox } from '../secrets.js';
import type { FolderAccess } from '../storage/provider.js';
import { createStorageProviders } from '../storage/registry.js';
import { createTestApp, type TestApp } from './app.js';
import { backupFixtures } from './backup-fixtures.js';
import type { TestClient } from './client.js';
import { resultOf, signedInAs } from './envelope.js';
import { createTenants, type Tenants } from './fixtures.js';
import { loopbackGuard, type Rgw, startedRgw } from './rgw.js';

/**
 * The start of the test files against the run's Ceph RGW: the RGW, and the app with its fixture tenants, its data
 * under `dataDir`, allowed to reach the RGW on loopback (which a real deployment refuses).
 */
export async function startS3TestApp(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<{ rgw: Rgw; t: TestApp; tenants: Tenants }> {
  const rgw = await startedRgw();
  const t = await createTestApp({ DATA_DIR: dataDir, ALLOW_PRIVATE_ENDPOINTS: 'true', ...env });
  return { rgw, t, tenants: await createTenants(t.database.db) };
}

/**
 * A machine of customer A whose package keeps its data on a new RGW account that requires Object Lock (issue 32), added
 * through the provider's own calls: the provider's client, the location (its bucket) and the machine's id.
 */
export async function lockedS3Machine(
  t: TestApp,
  rgw: Rgw,
  tenants: Tenants,
  names: { account: string; machine: string },
): Promise<{ provider: TestClient; location: StorageLocationRow; machineId: number }> {
  const provider = await signedInAs(t.app, tenants.providerAdmin.email);
  const account = resultOf<StorageAccountDetail>(
    await provider.json('POST', ROUTES.storageAccounts.add.build(), {
      ...rgw.accountForm(names.account),
      requireObjectLock: true,
    }),
  );
  const customerId = tenants.customerA.customerId;
  const location = resultOf<StorageLocationRow>(
    await provider.json('POST', ROUTES.storageLocations.create.build({ customerId }), { storageAccountId: account.id }),
  );
  const db = t.database.db;
  const packageId = await backupFixtures(db).package(customerId);
  await db.update(backupPackages).set({ storageLocationId: location.id }).where(eq(backupPackages.id, packageId));
  const machineId = await backupFixtures(db).machine(packageId, { name: names.machine });
  return { provider, location, machineId };
}

/** The machine's repository as its agent reaches it: its own S3 key, made for it by the portal. */
export async function machineS3Access(t: TestApp, machineId: number): Promise<FolderAccess> {
  const db = t.database.db;
  const secrets = createSecretBox(t.config.masterKey ?? '');
  const keys = createMachineStorageKeys({
    db,
    providers: createStorageProviders({ db, secrets, dataDir: t.config.dataDir, guard: loopbackGuard() }),
    secrets,
    repositoryChanged: async () => {},
    warn: () => {},
  });
  const folder = await keys.repositoryAccess(machineId);
  if (!folder) throw new Error('no S3 repository for the machine');
  return folder;
}

/** An S3 client of the RGW with the credentials of a machine's environment (what its restic is given). */
export const s3ClientWith = (rgw: Rgw, env: Record<string, string>) =>
  new S3Client({
    endpoint: rgw.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID ?? '', secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? '' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 1,
  });

/**
 * A data check of the machine's repository now: the job runs (starting the rotation), the machine's check is made
 * due and the job runs again. Answers the machine's checks, oldest first.
 */
export async function checkDataNow(t: TestApp, machineId: number) {
  const db = t.database.db;
  await t.app.dataChecks.runOnce();
  await db
    .update(repositoryCheckStates)
    .set({ dueAt: new Date(t.clock.now.getTime() - 1000) })
    .where(eq(repositoryCheckStates.backupMachineId, machineId));
  await t.app.dataChecks.runOnce();
  return db
    .select()
    .from(repositoryDataChecks)
    .where(eq(repositoryDataChecks.backupMachineId, machineId))
    .orderBy(repositoryDataChecks.id);
}

/**
 * What an S3 object a machine replaced leaves, whoever put it back: one audit record of customer A's machine and
 * one mail to the provider. Answers the mails for the caller's own look at them.
 */
export async function expectOneReplacementAlert(t: TestApp, tenants: Tenants, machineId: number) {
  const rows = await t.database.db.select().from(auditEvents).where(eq(auditEvents.type, 'STORAGE_TAMPERING_REFUSED'));
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    customerId: tenants.customerA.customerId,
    subjectId: machineId,
    detail: expect.objectContaining({ action: 'overwrite', storage: 'S3', attemptsInBurst: 1 }),
  });
  await t.app.mailDelivery.runOnce();
  const mails = t.mails.list().filter((m) => m.subject.startsWith('Backups attacked'));
  expect(mails).toHaveLength(1);
  expect(mails[0]?.to).toContain(tenants.providerAdmin.email);
  return mails;
}
