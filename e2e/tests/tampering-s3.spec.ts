import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DeleteBucketPolicyCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutBucketPolicyCommand,
  PutBucketVersioningCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { expect } from '@playwright/test';
import {
  MESSAGES,
  PACKAGE_LABELS,
  type PackageRow,
  type Paged,
  STORAGE_ACCOUNT_FORM_LABELS,
  STORAGE_ACCOUNT_TYPE_TEXTS,
  STORAGE_USER_API_TEXTS,
  UNLIMITED_TEXT,
} from '@portal/domain';
import {
  freePort,
  requireCeph,
  rgwAdminEnv,
  startRgwCluster,
  stopRgwCluster,
} from '../../apps/server/src/testing/rgw-cluster';
import { linkAgentWithCode } from './agent';
import {
  jsonResult,
  newVisitor,
  openAdminAreaPage,
  pendingRequestRow,
  signIn,
  signOut,
  signUpCustomer,
} from './helpers';
import { test } from './machine';
import { recordSecret } from './secrets';
import { backUpSamples, expectAttackReported, machineRepository, resticAsMachine } from './tampering';

/** This spec's Ceph RGW (scripts/rgw-up.sh): started once before its journey, stopped and wiped after. */
const cluster = { dir: '', s3Port: 0, monPort: 0 };
let parent = '';

test.beforeAll(async () => {
  test.setTimeout(90_000);
  // Not installed: one line saying what to install, before anything starts.
  requireCeph();
  parent = mkdtempSync(join(tmpdir(), 'portal-e2e-rgw-'));
  Object.assign(cluster, { dir: join(parent, 'cluster'), s3Port: await freePort(), monPort: await freePort() });
  const started = Date.now();
  await startRgwCluster(cluster);
  console.log(`Ceph RGW started in ${Date.now() - started} ms`);
});

test.afterAll(() => {
  if (!parent) return;
  stopRgwCluster(cluster.dir);
  rmSync(parent, { recursive: true, force: true });
});

const PAGE = MESSAGES.storageAccountPages;
const F = STORAGE_ACCOUNT_FORM_LABELS;
const REQUEST = MESSAGES.packageRequest;
const PACKAGE = MESSAGES.packagePages;

/** The provider admin adds the RGW as an S3 storage account that requires Object Lock, in its dialog. */
async function addRgwAccount(page: Parameters<typeof signIn>[0], name: string) {
  const admin = rgwAdminEnv(cluster.dir);
  recordSecret(admin.RGW_ADMIN_SECRET_KEY ?? '');
  await openAdminAreaPage(page, 'Storage Accounts');
  await page.getByRole('button', { name: PAGE.add }).click();
  const dialog = page.getByRole('dialog', { name: PAGE.add });
  const field = (label: string) => dialog.getByLabel(label, { exact: true });
  await field(F.name).fill(name);
  await field(F.type).selectOption({ label: STORAGE_ACCOUNT_TYPE_TEXTS.S3 });
  await field(F.endpoint).fill(admin.RGW_ENDPOINT ?? '');
  await field(F.forcePathStyle).check();
  await field(F.userApi).selectOption({ label: STORAGE_USER_API_TEXTS.RGW_ADMIN });
  await field(F.accessKeyId).fill(admin.RGW_ADMIN_ACCESS_KEY ?? '');
  await field(F.secretAccessKey).fill(admin.RGW_ADMIN_SECRET_KEY ?? '');
  await field(F.requireObjectLock).check();
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText(PAGE.added)).toBeVisible();
}

/** The S3 client ransomware on the machine can make from what the agent keeps there: the machine's own key. */
function machineS3(stateDir: string) {
  const settings = machineRepository(stateDir);
  const [, endpoint, bucket, prefix] = /^s3:(https?:\/\/[^/]+)\/([^/]+)\/(.+?)\/?$/.exec(settings.repository) ?? [];
  if (!endpoint || !bucket || !prefix) throw new Error(`not an S3 repository: ${settings.repository}`);
  const { AWS_ACCESS_KEY_ID: accessKeyId = '', AWS_SECRET_ACCESS_KEY: secretAccessKey = '' } = settings.env ?? {};
  recordSecret(secretAccessKey);
  const s3 = new S3Client({
    endpoint,
    region: settings.env?.AWS_DEFAULT_REGION ?? 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId, secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 1,
  });
  return { s3, settings, bucket, prefix };
}

/** What an S3 request came to: `done`, or the name of the error it was refused with. */
const outcome = (request: Promise<unknown>) =>
  request.then(
    () => 'done',
    (error: Error) => error.name,
  );

/**
 * Immutability, proven hostile on S3 (issue 32 item 6): the provider adds a Ceph RGW as an S3 storage account that
 * requires Object Lock and approves a new customer's sign-up on it; the customer links a real agent and backs up.
 * Then the journey acts as ransomware with the machine's own S3 key (read where the agent keeps it): deleting a
 * data pack, an index, a snapshot, a key and the config, and changing the bucket's policy and versioning, all
 * refused by RGW; replacing those objects, which RGW lets through (the key may write, and S3 cannot tell a new
 * object from a replaced one) while Object Lock keeps the originals: the portal's scan puts them back. `restic check
 * --read-data` then passes, and the provider admin finds the attempt on the audit trail and one alert mail.
 * (tampering.spec.ts does the same on the embedded storage.)
 */
test('ransomware with a machine’s own S3 key cannot delete or replace its backups; the provider sees the attack', async ({
  page,
  machineDir: dir,
  startAgent,
}) => {
  test.setTimeout(150_000);
  const visitor = newVisitor('Hostile S3', { firstName: 'Eve', surname: 'Locked', password: 'hostile s3 password 1' });
  const accountName = `Ceph RGW ${visitor.stamp}`;
  const name = `HOSTILE-S3-${visitor.stamp}`;

  // The provider adds the RGW account and approves the new customer's sign-up on it: its location there.
  await signUpCustomer(page, visitor);
  await addRgwAccount(page, accountName);
  const request = await pendingRequestRow(page, visitor.companyName);
  await request.getByRole('button', { name: `${REQUEST.approve} ${visitor.companyName}` }).click();
  const approval = page.getByRole('dialog', { name: REQUEST.approveTitle });
  await approval.getByLabel(PACKAGE_LABELS.storageItemId).selectOption({ label: `${accountName} (${UNLIMITED_TEXT})` });
  await approval.getByRole('button', { name: REQUEST.approve }).click();
  await expect(page.getByText(REQUEST.approved)).toBeVisible();
  await signOut(page);

  // The customer names its package, links a machine to it and backs up.
  await signIn(page, visitor.email, visitor.password);
  const [approved] = (await jsonResult<Paged<PackageRow>>(page, '/admin/backuppackages?size=50')).elements;
  if (!approved) throw new Error('the approved sign-up has no package');
  await page.goto('/admin/backuppackages');
  await page
    .getByTestId('packages-table')
    .getByRole('button', { name: `${PACKAGE.initialize} ${approved.name}`, exact: true })
    .click();
  await page
    .getByRole('dialog', { name: PACKAGE.initializeTitle })
    .getByRole('button', { name: PACKAGE.initialize })
    .click();
  await expect(page.getByText(PACKAGE.initialized)).toBeVisible();
  await page.goto('/');
  const config = join(dir, 'config.json');
  const { machineId, stateDir } = await linkAgentWithCode(page, { name, config });
  startAgent(config);
  await backUpSamples(page, machineId, dir, 'tampering-s3-e2e');
  await signOut(page);

  // The attack, with the machine's own S3 key.
  const { s3, settings, bucket: Bucket, prefix } = machineS3(stateDir);
  const listed = await s3.send(new ListObjectsV2Command({ Bucket, Prefix: `${prefix}/` }));
  const keys = (listed.Contents ?? []).map((object) => object.Key ?? '');
  const first = (type: string) => keys.find((key) => key.startsWith(`${prefix}/${type}/`)) ?? `no ${type} object`;
  const targets = [first('data'), first('index'), first('snapshots'), first('keys'), `${prefix}/config`];
  const everyone = JSON.stringify({
    Version: '2012-10-17',
    Statement: [
      { Effect: 'Allow', Principal: { AWS: ['*'] }, Action: ['s3:*'], Resource: [`arn:aws:s3:::${Bucket}/*`] },
    ],
  });
  const refusals = [
    ...targets.map((Key) => () => s3.send(new DeleteObjectCommand({ Bucket, Key }))),
    () => s3.send(new PutBucketPolicyCommand({ Bucket, Policy: everyone })),
    () => s3.send(new DeleteBucketPolicyCommand({ Bucket })),
    () => s3.send(new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: 'Suspended' } })),
  ];
  const refused = [];
  for (const attempt of refusals) refused.push(await outcome(attempt()));
  expect(refused).toEqual(refusals.map(() => 'AccessDenied'));
  // Replacing goes through at RGW; Object Lock keeps what was there.
  const RANSOM = 'encrypted by ransomware';
  const replaced = [];
  for (const Key of targets) replaced.push(await outcome(s3.send(new PutObjectCommand({ Bucket, Key, Body: RANSOM }))));
  expect(replaced).toEqual(targets.map(() => 'done'));

  // The portal's scan (every minute in the journeys: S3_REPLACEMENT_SCAN_MINUTES) puts every original back; a pass
  // may come amid the replacing, so the journey waits for all of them. Then the repository is whole.
  const stillReplaced = async () => {
    const contents = [];
    for (const Key of targets) {
      contents.push(await (await s3.send(new GetObjectCommand({ Bucket, Key }))).Body?.transformToString());
    }
    return contents.filter((content) => content === RANSOM).length;
  };
  await expect.poll(stillReplaced, { timeout: 75_000, intervals: [1_000] }).toBe(0);
  const check = resticAsMachine(settings, ['--no-lock', 'check', '--read-data']);
  expect(check.status, check.stderr).toBe(0);
  expect(check.stdout).toContain('no errors were found');

  // The provider admin: the attempt on the audit trail, the machine named; one alert for the burst.
  await signIn(page, 'provider-admin@demo.test');
  await expectAttackReported(
    page,
    { machineId, name },
    'The object was replaced at the S3 service and the portal put its original content back (Object Lock kept it).',
  );
});
