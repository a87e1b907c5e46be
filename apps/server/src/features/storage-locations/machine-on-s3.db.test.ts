/**
 * A machine on an S3 storage location, end to end (issue 16), against the real Ceph RGW of the test run, the
 * real restic and the agent's own restic runner on the live channel: the location is made through its route,
 * the linked machine is sent its repository (s3: with its own key), backs up there, its key neither reads
 * another machine's folder nor deletes; the portal's retention job prunes with the location's key, the
 * portal's download reads the snapshot from the bucket, and deleting the machine removes its folder and user.
 */

import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  type AgentTask,
  type RepositorySettings,
  ROUTES,
  type ServerToAgent,
  type StorageAccountDetail,
  type StorageLocationRow,
  withQuery,
} from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResticRunner } from '../../../../agent/src/restic.js';
import {
  accessKeys,
  backupMachines,
  backupPackages,
  backupTasks,
  storageUsers,
  taskActions,
} from '../../db/schema/index.js';
import type { FolderAt } from '../../storage/access.js';
import { processEnvFor } from '../../storage/s3.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import type { TestClient } from '../../testing/client.js';
import { resultOf, signedInAs } from '../../testing/envelope.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';
import { type Rgw, startedRgw } from '../../testing/rgw.js';
import { storageAccessFor } from '../../testing/storage-access.js';
import { createBackupStateService } from '../backup-state/service.js';
import { connectTestAgent, eventually, listenOnLoopback } from '../live/testing.js';
import { createMachineCredentials } from '../machine-auth/credentials.js';

const WAIT_MS = 60_000;
let tmp = '';
let t: TestApp;
let rgw: Rgw;
let tenants: Tenants;
let base = '';
let provider: TestClient;
let owner: TestClient;
let packageId = 0;
let location: StorageLocationRow;
let src = '';
const agents: Array<Awaited<ReturnType<typeof connectTestAgent>>> = [];

const db = () => t.database.db;
const access = () => storageAccessFor(db(), t.config.dataDir, t.config.masterKey ?? '');

/** A linked machine of the package on the live channel, after its hello: the repository and tasks it is sent. */
async function linkedMachine(name: string) {
  const machineId = await backupFixtures(db()).machine(packageId, { name });
  const credential = await createMachineCredentials(db()).issue(machineId);
  if (!credential) throw new Error('no credential');
  const agent = await connectTestAgent(t.app, base, credential);
  agents.push(agent);
  // The agent's hello, answered with its repository and its tasks (sent again to learn of a task made since).
  const hello = () =>
    agent.send({
      type: 'hello',
      name,
      osFamily: 'LINUX',
      operatingSystem: 'Debian 12',
      clientVersion: '2.1.0',
      timeZone: 'UTC',
      taskVersions: {},
    });
  await hello();
  const sent = <K extends ServerToAgent['type']>(type: K) =>
    agent.commands().filter((c): c is Extract<ServerToAgent, { type: K }> => c.type === type);
  await eventually(() => sent('repository').length > 0, WAIT_MS);
  const settings = sent('repository').at(-1)?.settings as RepositorySettings;
  return { machineId, agent, settings, hello, tasks: () => sent('tasks').at(-1)?.tasks ?? [] };
}

/** An S3 client with the key of a machine's repository settings, as its agent holds it. */
const keyClient = (settings: RepositorySettings) =>
  new S3Client({
    endpoint: rgw.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: {
      accessKeyId: settings.env?.AWS_ACCESS_KEY_ID ?? '',
      secretAccessKey: settings.env?.AWS_SECRET_ACCESS_KEY ?? '',
    },
    maxAttempts: 1,
  });
const nameOfFailure = (promise: Promise<unknown>) =>
  promise.then(
    () => 'succeeded',
    (e: Error) => e.name,
  );

/** restic with a repository's settings as an agent would run it (its env holds the S3 key). */
function resticWith(settings: RepositorySettings, repository: string, args: string[]) {
  return spawnSync('/usr/bin/restic', ['--no-cache', ...args], {
    env: {
      ...processEnvFor({ resticRepository: repository, rclonePath: '', env: settings.env ?? {} }),
      RESTIC_REPOSITORY: repository,
      RESTIC_PASSWORD: settings.password,
    },
    encoding: 'utf8',
  });
}

/** The snapshots of a machine's repository, read as the portal reads it: with the location's key. */
function snapshotsAt(folder: FolderAt, password: string): Array<{ id: string }> {
  const out = execFileSync('/usr/bin/restic', ['--no-cache', 'snapshots', '--json'], {
    env: {
      ...processEnvFor(folder.access),
      RESTIC_REPOSITORY: folder.access.resticRepository,
      RESTIC_PASSWORD: password,
    },
    encoding: 'utf8',
  });
  return JSON.parse(out) as Array<{ id: string }>;
}

beforeAll(async () => {
  rgw = await startedRgw();
  tmp = mkdtempSync(join(tmpdir(), 'portal-machine-s3-'));
  // The RGW of the tests listens on loopback, which a real deployment refuses.
  t = await createTestApp({ DATA_DIR: join(tmp, 'data'), ALLOW_PRIVATE_ENDPOINTS: 'true' });
  tenants = await createTenants(db());
  base = await listenOnLoopback(t.app);
  provider = await signedInAs(t.app, tenants.providerAdmin.email);
  owner = await signedInAs(t.app, tenants.customerA.superAdmin.email);
  const account = resultOf<StorageAccountDetail>(
    await provider.json('POST', ROUTES.storageAccounts.add.build(), rgw.accountForm('Ceph')),
  );
  const customerId = tenants.customerA.customerId;
  location = resultOf<StorageLocationRow>(
    await provider.json('POST', ROUTES.storageLocations.create.build({ customerId }), { storageAccountId: account.id }),
  );
  packageId = await backupFixtures(db()).package(customerId);
  await db().update(backupPackages).set({ storageLocationId: location.id }).where(eq(backupPackages.id, packageId));
  src = join(tmp, 'src');
  mkdirSync(src, { recursive: true });
  writeFileSync(join(src, 'notes.txt'), 'kept on Ceph\n');
}, 120_000);

afterAll(async () => {
  for (const agent of agents) await agent.client.stop();
  await t?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('a machine on an S3 storage location (Ceph RGW)', () => {
  let first: Awaited<ReturnType<typeof linkedMachine>>;
  let taskId = 0;
  let runId = 0;
  let neighbourId = 0;

  it('is sent its s3: repository with its own key and backs up into its own folder with the agent’s runner', async () => {
    first = await linkedMachine('laptop');
    const [user] = await db()
      .select({ keyId: accessKeys.keyId })
      .from(storageUsers)
      .innerJoin(accessKeys, eq(accessKeys.storageUserId, storageUsers.id))
      .where(eq(storageUsers.backupMachineId, first.machineId));
    const machineFolder = await access().machineRepositoryAccess(first.machineId);
    if (!machineFolder) throw new Error('no folder');
    expect(first.settings.repository).toBe(machineFolder.access.resticRepository);
    expect(first.settings.repository).toMatch(/^s3:/);
    expect(first.settings.repository).toContain(`/${location.bucketName}/${first.machineId}`);
    // Its own key, not the location's nor the account's.
    expect(first.settings.env?.AWS_ACCESS_KEY_ID).toBe(user?.keyId);
    expect(first.settings.env?.AWS_ACCESS_KEY_ID).not.toBe(machineFolder.access.env.AWS_ACCESS_KEY_ID);
    expect(first.settings.env?.AWS_ACCESS_KEY_ID).not.toBe(rgw.adminAccessKey);

    const state = createBackupStateService({ db: db() });
    taskId =
      (await state.createTask({
        ...backupFixtures(db()).task(first.machineId, { name: 'Notes' }),
        backupItems: [{ path: src, name: 'src', type: 'DIRECTORY', missing: false }],
        numberOfSnapshotsToKeep: 1,
      })) ?? 0;
    await first.hello();
    await eventually(() => first.tasks().some((task) => task.id === taskId), WAIT_MS);
    const task = first.tasks().find((one) => one.id === taskId) as AgentTask;

    const runner = new ResticRunner({
      repository: first.settings,
      host: 'laptop',
      binary: '/usr/bin/restic',
      cacheDir: null,
      env: processEnvFor({ resticRepository: '', rclonePath: '', env: {} }),
    });
    // Two runs of a task that keeps one snapshot: the portal prunes the first after the second.
    const dueAt = async () =>
      (await db().select({ due: backupTasks.retentionDueAt }).from(backupTasks).where(eq(backupTasks.id, taskId)))[0]
        ?.due;
    for (const round of [1, 2]) {
      writeFileSync(join(src, 'notes.txt'), `kept on Ceph, run ${round}\n`);
      const runKey = randomUUID();
      await first.agent.send({ type: 'runStarted', runKey, taskId, startedAt: new Date().toISOString(), manual: true });
      const finished = await runner.backup(task, runKey, (event) => void first.agent.send(event));
      expect(finished.status, finished.failureMessage ?? '').toBe('FINISHED_SUCCESS');
      await first.agent.send(finished);
      // The finished run marks the task's retention due and wakes the job, which clears the mark once applied.
      await eventually(
        async () =>
          (await db().select().from(taskActions).where(eq(taskActions.backupTaskId, taskId))).length === round,
        WAIT_MS,
      );
      await eventually(async () => (await dueAt()) === null, WAIT_MS);
    }

    // The snapshots are objects under the machine's folder of the location's bucket.
    const usage = await machineFolder.provider.usage(machineFolder.bucket, machineFolder.prefix);
    expect(machineFolder.prefix).toBe(String(first.machineId));
    expect(usage.objects).toBeGreaterThan(0);
    // Pruned on the portal's side with the location's key: one snapshot left, the newest.
    const left = snapshotsAt(machineFolder, first.settings.password);
    expect(left).toHaveLength(1);
    const [run] = await db()
      .select({ id: taskActions.id, snapshot: taskActions.resticSnapshotId })
      .from(taskActions)
      .where(eq(taskActions.backupTaskId, taskId))
      .orderBy(taskActions.id);
    expect(left.map((s) => s.id)).not.toContain(run?.snapshot);
    runId = Math.max(
      ...(await db().select({ id: taskActions.id }).from(taskActions).where(eq(taskActions.backupTaskId, taskId))).map(
        (r) => r.id,
      ),
    );
  }, 180_000);

  it('the machine’s key may not delete its snapshots, nor read another machine’s folder', async () => {
    const folder = await access().machineRepositoryAccess(first.machineId);
    if (!folder) throw new Error('no folder');
    const [kept] = snapshotsAt(folder, first.settings.password);
    // The key the agent holds, straight at the service (restic itself would retry a refusal for a minute).
    const refused = await nameOfFailure(
      keyClient(first.settings).send(
        new DeleteObjectCommand({ Bucket: location.bucketName, Key: `${first.machineId}/snapshots/${kept?.id}` }),
      ),
    );
    expect(refused).toBe('AccessDenied');
    expect(snapshotsAt(folder, first.settings.password).map((s) => s.id)).toEqual([kept?.id]);

    const second = await linkedMachine('desktop');
    neighbourId = second.machineId;
    expect(second.settings.env?.AWS_ACCESS_KEY_ID).not.toBe(first.settings.env?.AWS_ACCESS_KEY_ID);
    // Its own folder it may use…
    const init = resticWith(second.settings, second.settings.repository, ['init']);
    expect(init.status, init.stderr).toBe(0);
    // …the first machine's it may not read, even knowing its password.
    const foreign = resticWith({ ...second.settings, password: first.settings.password }, first.settings.repository, [
      'cat',
      'config',
    ]);
    expect(foreign.status).not.toBe(0);
    expect(foreign.stderr).toMatch(/Access Denied|AccessDenied|403/i);
    expect(
      await nameOfFailure(
        keyClient(second.settings).send(
          new GetObjectCommand({ Bucket: location.bucketName, Key: `${first.machineId}/config` }),
        ),
      ),
    ).toBe('AccessDenied');
  }, 120_000);

  it('the portal’s download reads the snapshot from the bucket', async () => {
    const run = { machineId: first.machineId, taskId, runId };
    const tree = await owner.json('GET', withQuery(ROUTES.restore.snapshotTree.build(run), { path: src }));
    expect(tree.json().result.elements).toEqual([
      { path: join(src, 'notes.txt'), name: 'notes.txt', type: 'FILE', size: 'kept on Ceph, run 2\n'.length },
    ]);
    const initiated = resultOf<{ downloadId: string }>(
      await owner.json('POST', ROUTES.restore.initiateDownload.build(run), { downloadAllItems: true }),
    );
    const zip = await owner.request({
      method: 'POST',
      url: ROUTES.restore.download.build({ ...run, download: initiated.downloadId }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      payload: new URLSearchParams({ _csrf: owner.csrf }).toString(),
    });
    expect(zip.statusCode).toBe(200);
    const file = join(tmp, 'download.zip');
    writeFileSync(file, zip.rawPayload);
    execFileSync('unzip', ['-q', file, '-d', join(tmp, 'unzipped')]);
    expect(readFileSync(join(tmp, 'unzipped', src, 'notes.txt'), 'utf8')).toBe('kept on Ceph, run 2\n');
    // Another tenant reaches nothing of it.
    const stranger = await signedInAs(t.app, tenants.customerB.superAdmin.email);
    expect((await stranger.json('GET', ROUTES.restore.snapshotTree.build(run))).statusCode).toBe(404);
  }, 120_000);

  it('deleting the machine removes its folder and its storage user, and leaves its neighbour’s', async () => {
    const machineId = first.machineId;
    const folder = await access().machineRepositoryAccess(machineId);
    if (!folder) throw new Error('no folder');
    const neighbourFolder = await access().machineRepositoryAccess(neighbourId);
    const users = await folder.provider.listUsers();
    expect(users).toContain(`portal-machine-${machineId}`);

    await db().update(backupMachines).set({ status: 'SUSPENDED' }).where(eq(backupMachines.id, machineId));
    const path = withQuery(ROUTES.machines.action.build({ packageId, machineId }), { delete: 'true' });
    expect((await owner.json('PUT', path)).statusCode).toBe(200);
    await eventually(
      async () => (await db().select().from(backupMachines).where(eq(backupMachines.id, machineId))).length === 0,
      WAIT_MS,
    );
    expect(await folder.provider.usage(folder.bucket, folder.prefix)).toMatchObject({ objects: 0 });
    expect(await folder.provider.listUsers()).not.toContain(`portal-machine-${machineId}`);
    expect(
      await db()
        .select()
        .from(storageUsers)
        .where(eq(storageUsers.name, `portal-machine-${machineId}`)),
    ).toEqual([]);
    if (!neighbourFolder) throw new Error('no neighbour');
    expect(
      (await neighbourFolder.provider.usage(neighbourFolder.bucket, neighbourFolder.prefix)).objects,
    ).toBeGreaterThan(0);
  }, 120_000);
});
