import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DeleteBucketPolicyCommand,
  DeleteObjectCommand,
  GetObjectLockConfigurationCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  PutBucketPolicyCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  PutObjectLockConfigurationCommand,
} from '@aws-sdk/client-s3';
import { type AuditRow, type Envelope, type Paged, ROUTES, type StorageLocationRow, withQuery } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FolderAccess } from '../../storage/provider.js';
import { processEnvFor } from '../../storage/s3.js';
import type { TestApp } from '../../testing/app.js';
import type { TestClient } from '../../testing/client.js';
import { signedInAs } from '../../testing/envelope.js';
import type { Tenants } from '../../testing/fixtures.js';
import type { Rgw } from '../../testing/rgw.js';
import {
  expectOneReplacementAlert,
  lockedS3Machine,
  machineS3Access,
  s3ClientWith,
  startS3TestApp,
} from '../../testing/s3-app.js';
import { storageAccessFor } from '../../testing/storage-access.js';
import { createS3ReplacementScan, createTamperingService } from './service.js';

/**
 * Issue 32 item 6 on S3 (the run's Ceph RGW): a test acting as ransomware with a machine's own key, in a bucket of an
 * account that requires Object Lock. RGW refuses its deletes and every change to the bucket's rules itself; it lets
 * the machine replace objects (the key may write), but Object Lock keeps what was there: the portal's scan puts the
 * originals back, `restic check` passes, the audit trail records it and the provider's admins get one mail.
 */
let tmp = '';
let t: TestApp;
let rgw: Rgw;
let tenants: Tenants;
let provider: TestClient;
let location: StorageLocationRow;
let machineId = 0;
let machine: FolderAccess;
const PASSWORD = 'tampering-s3-repository-password';

const db = () => t.database.db;
const access = () => storageAccessFor(db(), t.config.dataDir, t.config.masterKey ?? '');
const scan = () =>
  createS3ReplacementScan({
    db: db(),
    storage: access(),
    tampering: createTamperingService({ db: db(), now: () => t.clock.now }),
    onError: (error) => {
      throw error;
    },
  });

const clientOf = (env: Record<string, string>) => s3ClientWith(rgw, env);
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'succeeded',
    (e: Error) => e.name,
  );

function restic(folder: FolderAccess, args: string[]) {
  return spawnSync('/usr/bin/restic', ['--no-cache', '-r', folder.resticRepository, ...args], {
    env: { ...processEnvFor(folder), RESTIC_PASSWORD: PASSWORD },
    encoding: 'utf8',
    timeout: 120_000,
  });
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'portal-tampering-s3-'));
  ({ rgw, t, tenants } = await startS3TestApp(join(tmp, 'data')));
  ({ provider, location, machineId } = await lockedS3Machine(t, rgw, tenants, {
    account: 'Locked Ceph',
    machine: 'hostile-server',
  }));
  machine = await machineS3Access(t, machineId);
  const source = join(tmp, 'source');
  mkdirSync(source, { recursive: true });
  writeFileSync(join(source, 'ledger.txt'), 'the books\n');
  for (const args of [['init'], ['backup', source]]) {
    const run = restic(machine, args);
    expect(run.status, run.stderr).toBe(0);
  }
}, 180_000);

afterAll(async () => {
  await t?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('a machine acting as ransomware on S3 with Object Lock (issue 32)', () => {
  const Bucket = () => location.bucketName;
  const own = async () => {
    const listed = await clientOf(machine.env).send(
      new ListObjectsV2Command({ Bucket: Bucket(), Prefix: `${machineId}/` }),
    );
    const keys = (listed.Contents ?? []).map((o) => o.Key ?? '');
    const first = (type: string) => keys.find((k) => k.startsWith(`${machineId}/${type}/`)) ?? '';
    return { data: first('data'), index: first('index'), snapshot: first('snapshots'), key: first('keys') };
  };

  it('refuses its deletes and every change of the bucket’s rules at RGW', async () => {
    const s3 = clientOf(machine.env);
    const objects = await own();
    for (const Key of [...Object.values(objects), `${machineId}/config`]) {
      expect(Key).not.toBe('');
      expect(await failureOf(s3.send(new DeleteObjectCommand({ Bucket: Bucket(), Key }))), Key).toBe('AccessDenied');
    }
    // Nor may it see the versions Object Lock keeps.
    expect(await failureOf(s3.send(new ListObjectVersionsCommand({ Bucket: Bucket(), Prefix: `${machineId}/` })))).toBe(
      'AccessDenied',
    );
    const policy = JSON.stringify({
      Version: '2012-10-17',
      Statement: [
        { Effect: 'Allow', Principal: { AWS: ['*'] }, Action: ['s3:*'], Resource: [`arn:aws:s3:::${Bucket()}/*`] },
      ],
    });
    const attempts = {
      putPolicy: () => s3.send(new PutBucketPolicyCommand({ Bucket: Bucket(), Policy: policy })),
      deletePolicy: () => s3.send(new DeleteBucketPolicyCommand({ Bucket: Bucket() })),
      suspendVersioning: () =>
        s3.send(new PutBucketVersioningCommand({ Bucket: Bucket(), VersioningConfiguration: { Status: 'Suspended' } })),
      unlock: () =>
        s3.send(
          new PutObjectLockConfigurationCommand({
            Bucket: Bucket(),
            ObjectLockConfiguration: {
              ObjectLockEnabled: 'Enabled',
              Rule: { DefaultRetention: { Mode: 'GOVERNANCE', Days: 1 } },
            },
          }),
        ),
    };
    for (const [what, attempt] of Object.entries(attempts))
      expect(await failureOf(attempt()), what).toBe('AccessDenied');
  });

  it('keeps every written object under GOVERNANCE retention, which not even the location’s key can lift', async () => {
    const place = await access().machineRepositoryAccess(machineId);
    if (!place) throw new Error('no place');
    const { data } = await own();
    // The account's key set the bucket's default retention when it made the bucket.
    const admin = clientOf({ AWS_ACCESS_KEY_ID: rgw.adminAccessKey, AWS_SECRET_ACCESS_KEY: rgw.adminSecretKey });
    const lock = await admin.send(new GetObjectLockConfigurationCommand({ Bucket: Bucket() }));
    expect(lock.ObjectLockConfiguration?.Rule?.DefaultRetention).toEqual({ Mode: 'GOVERNANCE', Days: 30 });
    // The location's key may delete versions by the bucket policy (it prunes), yet not one still retained.
    const locationKey = clientOf(place.access.env);
    const versions = await locationKey.send(new ListObjectVersionsCommand({ Bucket: Bucket(), Prefix: data }));
    const VersionId = versions.Versions?.[0]?.VersionId;
    expect(VersionId).toBeTruthy();
    expect(await failureOf(locationKey.send(new DeleteObjectCommand({ Bucket: Bucket(), Key: data, VersionId })))).toBe(
      'AccessDenied',
    );
  });

  it('puts back what the machine replaced: restic check passes, audited, the provider mailed once', async () => {
    const s3 = clientOf(machine.env);
    const objects = await own();
    const replaced = [...Object.values(objects), `${machineId}/config`];
    for (const Key of replaced)
      await s3.send(new PutObjectCommand({ Bucket: Bucket(), Key, Body: 'encrypted by ransomware' }));
    // RGW let the writes through: the repository as the machine sees it is broken.
    expect(restic(machine, ['check']).status).not.toBe(0);

    // The pass and a data check's repair at once: each object put back, and counted, once.
    const scanner = scan();
    const [passed, repaired] = await Promise.all([scanner.pass(), scanner.repair(machineId)]);
    expect(passed + repaired).toBe(replaced.length);
    const check = restic(machine, ['check', '--read-data']);
    expect(check.status, check.stderr).toBe(0);
    // A second pass finds nothing to put back.
    expect(await scan().pass()).toBe(0);

    const mails = await expectOneReplacementAlert(t, tenants, machineId);
    expect(mails[0]?.text).toContain('put its original content back');
  }, 180_000);

  it('shows the record to the provider and nothing to another tenant', async () => {
    const rows = async (client: TestClient, path: string) => {
      const response = await client.json('GET', withQuery(path, { size: 100 }));
      expect(response.statusCode, response.body).toBe(200);
      const page = (response.json() as Envelope<Paged<AuditRow>>).result as Paged<AuditRow>;
      return page.elements.filter((row) => row.kind === 'STORAGE_TAMPERING_REFUSED');
    };
    expect(await rows(provider, ROUTES.audit.provider.path)).toHaveLength(1);
    const other = await signedInAs(t.app, tenants.customerB.superAdmin.email);
    expect(await rows(other, ROUTES.audit.account.path)).toEqual([]);
  });

  it("removes the machine's data with the account's key despite the retention", async () => {
    const place = await access().machineRepositoryAccess(machineId);
    if (!place) throw new Error('no place');
    await place.provider.deletePrefix(place.bucket, place.prefix);
    expect(await place.provider.usage(place.bucket, place.prefix)).toEqual({ bytes: 0, objects: 0 });
  });
});
