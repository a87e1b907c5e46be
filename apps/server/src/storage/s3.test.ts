import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  GetObjectLockConfigurationCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { POLICY_DIFFERENCE_TEXTS, STORAGE_SERVICE_TEXTS } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundGuard } from '../net/outbound-guard.js';
import { loopbackGuard, type Rgw, startedRgw } from '../testing/rgw.js';
import { bucketPolicyFor, policyDifferences, policyPrincipals } from './policy.js';
import { type CreatedAccessKey, type FolderAccess, StorageError, type StorageProvider } from './provider.js';
import { createS3Provider, processEnvFor } from './s3.js';

/**
 * The s3 provider against a real Ceph RGW on loopback (testing/rgw.ts): buckets, policies, users, keys,
 * usage and removal, and the ransomware proofs: a machine's key, limited by the bucket policy the portal
 * writes, backs up with the real restic into its own folder but can neither read another machine's
 * folder nor delete what it backed up; the location's key prunes.
 */

let rgw: Rgw;
let provider: StorageProvider;
const tmp = mkdtempSync(join(tmpdir(), 'portal-s3-test-'));
let sequence = 0;
/** Bucket and user names unique within the run (the cluster is shared by the run's test files). */
const unique = (name: string) => `${name}-${process.pid}-${++sequence}`;

beforeAll(async () => {
  rgw = await startedRgw();
  provider = createS3Provider(rgw.connection(), { guard: loopbackGuard(), timeoutMs: 20_000 });
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** What the service says when a call fails, as { kind, message, fieldName }. */
async function failureOf(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StorageError);
  const { kind, message, fieldName } = error as StorageError;
  return { kind, message, fieldName };
}

/** The provider of an account holding another key (a storage user's). */
const providerWith = (key: CreatedAccessKey) =>
  createS3Provider(rgw.connection({ accessKeyId: key.keyId, secretAccessKey: key.secret }), { guard: loopbackGuard() });

/** An S3 client holding a given key, as a machine or location would. */
const clientWith = (key: CreatedAccessKey) =>
  new S3Client({
    endpoint: rgw.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: key.keyId, secretAccessKey: key.secret },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });

const nameOfFailure = (promise: Promise<unknown>) =>
  promise.then(
    () => 'succeeded',
    (e: Error) => e.name,
  );

describe('test connection', () => {
  it('succeeds with the admin key', async () => {
    await expect(provider.testConnection()).resolves.toBeUndefined();
  });

  it('names the access key field for an unknown key and the secret field for a wrong secret', async () => {
    const unknownKey = createS3Provider(rgw.connection({ accessKeyId: 'NOSUCHKEY0000000000' }), {
      guard: loopbackGuard(),
    });
    expect(await failureOf(unknownKey.testConnection())).toEqual({
      kind: 'credentials',
      message: STORAGE_SERVICE_TEXTS.unknownAccessKey,
      fieldName: 'accessKeyId',
    });
    const wrongSecret = createS3Provider(rgw.connection({ secretAccessKey: 'x'.repeat(40) }), {
      guard: loopbackGuard(),
    });
    const failure = await failureOf(wrongSecret.testConnection());
    expect(failure).toEqual({
      kind: 'credentials',
      message: STORAGE_SERVICE_TEXTS.wrongSecret,
      fieldName: 'secretAccessKey',
    });
    expect(failure.message).not.toContain(rgw.adminSecretKey);
  });

  it('says a key without the user capabilities cannot manage users', async () => {
    const user = unique('plain');
    await provider.createUser(user);
    const key = await provider.createAccessKey(user);
    const plain = providerWith(key);
    expect(await failureOf(plain.testConnection())).toEqual({
      kind: 'denied',
      message: STORAGE_SERVICE_TEXTS.cannotManageUsers,
      fieldName: 'accessKeyId',
    });
    await provider.deleteUser(user);
  });

  it.each([
    {
      name: 'reports an endpoint nobody answers on as unreachable, on the endpoint field',
      endpoint: 'http://127.0.0.1:9',
      kind: 'unreachable',
      message: STORAGE_SERVICE_TEXTS.unreachable,
    },
    {
      name: 'refuses an endpoint that is not an http(s) URL',
      endpoint: 'ftp://example.com',
      kind: 'malformed',
      message: STORAGE_SERVICE_TEXTS.endpointNotUrl,
    },
  ])('$name', async ({ endpoint, kind, message }) => {
    const unusable = createS3Provider(rgw.connection({ endpoint }), { guard: loopbackGuard() });
    expect(await failureOf(unusable.testConnection())).toEqual({ kind, message, fieldName: 'endpoint' });
  });

  it('refuses a loopback endpoint when private endpoints are not allowed, before connecting', async () => {
    const guarded = createS3Provider(rgw.connection(), { guard: createOutboundGuard({ allowPrivate: false }) });
    expect(await failureOf(guarded.testConnection())).toEqual({
      kind: 'refusedAddress',
      message: STORAGE_SERVICE_TEXTS.refusedAddress,
      fieldName: 'endpoint',
    });
    const byName = createS3Provider(rgw.connection({ endpoint: rgw.endpoint.replace('127.0.0.1', 'localhost') }), {
      guard: createOutboundGuard({ allowPrivate: false }),
    });
    expect((await failureOf(byName.listBuckets())).kind).toBe('refusedAddress');
  });
});

describe('buckets and policies', () => {
  it('creates a bucket (again without harm), lists it, keeps its policy and deletes it with its objects', async () => {
    const bucket = unique('bucket');
    await provider.createBucket(bucket);
    await provider.createBucket(bucket);
    expect(await provider.listBuckets()).toContain(bucket);
    expect(await provider.getBucketPolicy(bucket)).toBeNull();

    const policy = bucketPolicyFor(bucket, [{ userName: 'portal-admin', role: 'location', prefix: 'customer' }]);
    await provider.putBucketPolicy(bucket, policy);
    const found = await provider.getBucketPolicy(bucket);
    expect(policyDifferences(found, policy)).toEqual([]);

    const admin = clientWith({ keyId: rgw.adminAccessKey, secret: rgw.adminSecretKey });
    await admin.send(new PutObjectCommand({ Bucket: bucket, Key: 'customer/1/config', Body: 'x' }));
    await provider.deleteBucket(bucket);
    expect(await provider.listBuckets()).not.toContain(bucket);
    await provider.deleteBucket(bucket);
  });

  it('says a bucket that does not exist does not exist', async () => {
    const failure = await failureOf(provider.getBucketPolicy('no-such-bucket-here'));
    expect(failure).toMatchObject({ kind: 'notFound', message: 'The bucket no-such-bucket-here does not exist' });
  });

  it('creates a bucket with Object Lock when the account requires it', async () => {
    const locked = createS3Provider(rgw.connection({ requireObjectLock: true }), { guard: loopbackGuard() });
    const bucket = unique('locked');
    await locked.createBucket(bucket);
    const admin = clientWith({ keyId: rgw.adminAccessKey, secret: rgw.adminSecretKey });
    const lock = await admin.send(new GetObjectLockConfigurationCommand({ Bucket: bucket }));
    expect(lock.ObjectLockConfiguration?.ObjectLockEnabled).toBe('Enabled');
    // Object Lock keeps every version: removing a folder removes its versions and delete markers too.
    await admin.send(new PutObjectCommand({ Bucket: bucket, Key: 'f/1/data', Body: 'one' }));
    await admin.send(new PutObjectCommand({ Bucket: bucket, Key: 'f/1/data', Body: 'two' }));
    await admin.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'f/1/data' }));
    await locked.deletePrefix(bucket, 'f/1');
    const versions = await admin.send(new ListObjectVersionsCommand({ Bucket: bucket }));
    expect([...(versions.Versions ?? []), ...(versions.DeleteMarkers ?? [])]).toEqual([]);
    await locked.deleteBucket(bucket);
  });
});

describe('users and access keys', () => {
  it('creates, lists and deletes users and their keys; a new key works and a deleted one does not', async () => {
    const user = unique('portal-machine');
    await provider.createUser(user);
    await provider.createUser(user);
    expect(await provider.listUsers()).toContain(user);

    const key = await provider.createAccessKey(user);
    expect(key.keyId).toMatch(/^[A-Z0-9]{20}$/);
    expect(key.secret).toHaveLength(40);
    expect(await provider.listAccessKeys(user)).toEqual([key.keyId]);
    const second = await provider.createAccessKey(user);
    expect((await provider.listAccessKeys(user)).sort()).toEqual([key.keyId, second.keyId].sort());
    // The new key is a working S3 key of its own user, who owns no bucket.
    const asUser = providerWith(key);
    expect(await asUser.listBuckets()).toEqual([]);

    await provider.deleteAccessKey(user, key.keyId);
    await provider.deleteAccessKey(user, key.keyId);
    expect(await provider.listAccessKeys(user)).toEqual([second.keyId]);
    expect((await failureOf(asUser.listBuckets())).kind).toBe('credentials');

    await provider.deleteUser(user);
    await provider.deleteUser(user);
    expect(await provider.listUsers()).not.toContain(user);
    expect((await failureOf(provider.createAccessKey(user))).kind).toBe('notFound');
  });

  it("says so when the account's IAM user API is not there (RGW 16 has no IAM users)", async () => {
    const viaIam = createS3Provider(rgw.connection({ userApi: 'IAM', iamEndpoint: rgw.endpoint }), {
      guard: loopbackGuard(),
    });
    expect(await failureOf(viaIam.createUser(unique('iam-user')))).toEqual({
      kind: 'unsupported',
      message: STORAGE_SERVICE_TEXTS.iamUnsupported,
      fieldName: 'userApi',
    });
    const none = createS3Provider(rgw.connection({ userApi: null }), { guard: loopbackGuard() });
    expect(await failureOf(none.listUsers())).toEqual({
      kind: 'unsupported',
      message: STORAGE_SERVICE_TEXTS.noUserApi,
      fieldName: 'userApi',
    });
  });

  it('deletes a user who owns a bucket, with the bucket', async () => {
    const user = unique('owner');
    await provider.createUser(user);
    const key = await provider.createAccessKey(user);
    const asUser = providerWith(key);
    const bucket = unique('owned');
    await asUser.createBucket(bucket);
    // The name is taken by another owner now.
    expect(await failureOf(provider.createBucket(bucket))).toEqual({
      kind: 'conflict',
      message: STORAGE_SERVICE_TEXTS.bucketTaken,
      fieldName: '',
    });
    await provider.deleteUser(user);
    expect(await provider.listUsers()).not.toContain(user);
    expect(await provider.listBuckets()).not.toContain(bucket);
  });
});

describe('usage and removal of a folder', () => {
  it('sums the objects under a folder only, and removes that folder only', async () => {
    const bucket = unique('usage');
    await provider.createBucket(bucket);
    const admin = clientWith({ keyId: rgw.adminAccessKey, secret: rgw.adminSecretKey });
    const put = (Key: string, size: number) =>
      admin.send(new PutObjectCommand({ Bucket: bucket, Key, Body: Buffer.alloc(size, 1) }));
    await put('c/1/config', 100);
    await put('c/1/data/ab/x', 1000);
    await put('c/10/config', 7);
    // More than one page of listing (1000 keys each) and of deletion (1000 keys each).
    await Promise.all(Array.from({ length: 1005 }, (_, i) => put(`c/1/data/cd/${i}`, 1)));

    expect(await provider.usage(bucket, 'c/1')).toEqual({ bytes: 1100 + 1005, objects: 1007 });
    expect(await provider.usage(bucket, 'c/10/')).toEqual({ bytes: 7, objects: 1 });
    expect(await provider.usage(bucket, '')).toEqual({ bytes: 1100 + 1005 + 7, objects: 1008 });

    await provider.deletePrefix(bucket, 'c/1');
    expect(await provider.usage(bucket, 'c/1')).toEqual({ bytes: 0, objects: 0 });
    expect(await provider.usage(bucket, 'c/10')).toEqual({ bytes: 7, objects: 1 });

    // A versioned bucket keeps old versions: removal takes them too.
    await admin.send(
      new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: 'Enabled' } }),
    );
    await put('c/10/config', 8);
    await provider.deletePrefix(bucket, 'c/10');
    const versions = await admin.send(new ListObjectVersionsCommand({ Bucket: bucket, Prefix: 'c/10/' }));
    expect([...(versions.Versions ?? []), ...(versions.DeleteMarkers ?? [])]).toEqual([]);
    await provider.deleteBucket(bucket);
  });
});

describe('a machine key limited by the bucket policy (ransomware)', () => {
  const bucket = unique('ransom');
  const names = { location: unique('portal-location'), a: unique('portal-machine-a'), b: unique('portal-machine-b') };
  const keys: Record<keyof typeof names, CreatedAccessKey> = {} as never;
  let policy = '';
  const source = join(tmp, 'source');

  const restic = (access: FolderAccess, args: string[]) =>
    spawnSync('restic', ['--no-cache', '-r', access.resticRepository, ...args], {
      env: { ...processEnvFor(access), RESTIC_PASSWORD: 'repository-password' },
      encoding: 'utf8',
      timeout: 60_000,
    });
  const resticOk = (access: FolderAccess, args: string[]) => {
    const run = restic(access, args);
    expect(run.status, `restic ${args.join(' ')}: ${run.stderr}`).toBe(0);
    return run.stdout;
  };
  const snapshotIds = (access: FolderAccess) =>
    (JSON.parse(resticOk(access, ['snapshots', '--json'])) as Array<{ id: string }>).map((s) => s.id);

  beforeAll(async () => {
    await provider.createBucket(bucket);
    for (const role of ['location', 'a', 'b'] as const) {
      await provider.createUser(names[role]);
      keys[role] = await provider.createAccessKey(names[role]);
    }
    policy = bucketPolicyFor(bucket, [
      { userName: names.location, role: 'location', prefix: 'customer-7' },
      { userName: names.a, role: 'machine', prefix: 'customer-7/1' },
      { userName: names.b, role: 'machine', prefix: 'customer-7/2' },
    ]);
    await provider.putBucketPolicy(bucket, policy);
    mkdirSync(join(source, 'docs'), { recursive: true });
    writeFileSync(join(source, 'docs', 'report.txt'), 'quarterly figures\n');
  });
  afterAll(async () => {
    await provider.deleteBucket(bucket);
    for (const name of Object.values(names)) await provider.deleteUser(name);
  });

  const machineA = () => provider.folderAccess(bucket, 'customer-7/1', keys.a);
  const machineB = () => provider.folderAccess(bucket, 'customer-7/2', keys.b);

  it('lets a machine back up with restic into its own folder and list its snapshots', () => {
    resticOk(machineA(), ['init']);
    resticOk(machineA(), ['backup', source]);
    resticOk(machineB(), ['init']);
    resticOk(machineB(), ['backup', source]);
    expect(snapshotIds(machineA())).toHaveLength(1);
  });

  it("keeps a machine out of another machine's folder: no listing, no reading, no restic", async () => {
    const a = clientWith(keys.a);
    expect(await nameOfFailure(a.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'customer-7/2/' })))).toBe(
      'AccessDenied',
    );
    expect(await nameOfFailure(a.send(new GetObjectCommand({ Bucket: bucket, Key: 'customer-7/2/config' })))).toBe(
      'AccessDenied',
    );
    expect(await nameOfFailure(a.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'customer-7/' })))).toBe(
      'AccessDenied',
    );
    expect(await nameOfFailure(a.send(new ListObjectsV2Command({ Bucket: bucket })))).toBe('AccessDenied');
    expect(await nameOfFailure(a.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: '' })))).toBe('AccessDenied');
    const intruder = provider.folderAccess(bucket, 'customer-7/2', keys.a);
    expect(restic(intruder, ['snapshots']).status).not.toBe(0);
  });

  it('lets a machine delete its lock files but nothing it backed up', async () => {
    const a = clientWith(keys.a);
    const own = await a.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'customer-7/1/' }));
    const keysOf = (folder: string) =>
      (own.Contents ?? []).map((o) => o.Key ?? '').filter((k) => k.startsWith(`customer-7/1/${folder}/`));
    const [snapshot] = keysOf('snapshots');
    const [data] = keysOf('data');
    expect(snapshot).toBeDefined();
    expect(data).toBeDefined();
    for (const Key of [snapshot, data, 'customer-7/1/config', keysOf('keys')[0]])
      expect(await nameOfFailure(a.send(new DeleteObjectCommand({ Bucket: bucket, Key })))).toBe('AccessDenied');
    await a.send(new PutObjectCommand({ Bucket: bucket, Key: 'customer-7/1/locks/0123abcd', Body: '{}' }));
    await expect(
      a.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'customer-7/1/locks/0123abcd' })),
    ).resolves.toBeDefined();
    // Its backups are still whole.
    resticOk(machineA(), ['check']);
  });

  it("prunes with the location's key: forget --prune removes what the machine's key may not", () => {
    resticOk(machineA(), ['backup', source, '--tag', 'second']);
    expect(snapshotIds(machineA())).toHaveLength(2);
    // (restic forget with the machine's key would retry its refused deletes for a minute; the deletes
    // themselves are refused above.)

    const location = provider.folderAccess(bucket, 'customer-7/1', keys.location);
    resticOk(location, ['forget', '--keep-last', '1', '--prune']);
    // A location's key may also make a repository of its own in its folder.
    resticOk(provider.folderAccess(bucket, 'customer-7/portal', keys.location), ['init']);
    expect(snapshotIds(location)).toHaveLength(1);
    resticOk(location, ['check']);
  });

  it("copies a machine's repository to another folder with rclone and the location's key", () => {
    const from = provider.folderAccess(bucket, 'customer-7/1', keys.location);
    const to = provider.folderAccess(bucket, 'customer-7/moved/1', keys.location);
    // rclone's S3 backend fails with AWS_CA_BUNDLE set (as it is on these machines): processEnvFor drops it.
    const env = processEnvFor(from);
    expect(env.AWS_CA_BUNDLE).toBeUndefined();
    execFileSync('rclone', ['copy', from.rclonePath, to.rclonePath], { env, stdio: 'pipe' });
    execFileSync('rclone', ['check', from.rclonePath, to.rclonePath], { env, stdio: 'pipe' });
    expect(snapshotIds(to)).toEqual(snapshotIds(from));
  });

  it('finds the policy at the service consistent, then names a right someone added there', async () => {
    expect(policyDifferences(await provider.getBucketPolicy(bucket), policy)).toEqual([]);
    expect(policyPrincipals(policy).sort()).toEqual(Object.values(names).sort());

    const changed = JSON.parse(policy) as { Statement: unknown[] };
    changed.Statement.push({
      Effect: 'Allow',
      Principal: { AWS: `arn:aws:iam:::user/${names.a}` },
      Action: 's3:DeleteObject',
      Resource: `arn:aws:s3:::${bucket}/customer-7/1/*`,
    });
    await provider.putBucketPolicy(bucket, JSON.stringify(changed));
    expect(policyDifferences(await provider.getBucketPolicy(bucket), policy)).toEqual([
      POLICY_DIFFERENCE_TEXTS.extraRight(names.a, 'Allow', `s3:DeleteObject on arn:aws:s3:::${bucket}/customer-7/1/*`),
    ]);
    await provider.putBucketPolicy(bucket, policy);
  });
});
