/**
 * Rotating data checks and the corruption and stale-lock drills (issue 32 items 2 and 5), in the running app against
 * the real restic 0.14 and real repositories in the embedded storage: the rotation reads every pack once per period;
 * a corrupted pack is found, shown on the task page, mailed once and offered to the provider with a repair path; a
 * killed restic's lock older than a run's time limit is removed once, audited; a machine running a backup waits.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATA_CHECK_TEXTS, type Envelope, ROUTES, type TaskDataCheck } from '@portal/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cheapResticKeys } from '../../../../agent/src/restic-test-key.js';
import { auditEvents, repositoryCheckStates, repositoryDataChecks, taskActions, users } from '../../db/schema/index.js';
import { createTestApp, repositoryPasswordOf, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { createBackupStateService } from '../backup-state/service.js';
import { repositoryDir } from '../local-storage/paths.js';

const SLICES = 2;
const PERIOD_DAYS = 30;
const INTERVAL_MINUTES = (PERIOD_DAYS * 24 * 60) / SLICES;
let t: TestApp;
let tenants: Tenants;
let tmp = '';
let dataDir = '';
const db = () => t.database.db;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'portal-data-checks-'));
  dataDir = join(tmp, 'data');
  t = await createTestApp({
    DATA_DIR: dataDir,
    DATA_CHECK_PERIOD_DAYS: String(PERIOD_DAYS),
    DATA_CHECK_SLICES: String(SLICES),
    RUN_STALL_MINUTES: '45',
  });
  tenants = await createTenants(db());
}, 300_000);

afterAll(async () => {
  await t?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// --- helpers -----------------------------------------------------------------------------------------

interface Repo {
  machineId: number;
  taskId: number;
  packageId: number;
  dir: string;
  env: NodeJS.ProcessEnv;
}

/** A machine of customer A (its package without a location) with one task and a repository holding `mb` MB. */
async function machineWithRepository(name: string, mb: number): Promise<Repo> {
  const fixtures = backupFixtures(db());
  const packageId = await fixtures.package(tenants.customerA.customerId);
  const machineId = await fixtures.machine(packageId, { name });
  const taskId = (await createBackupStateService({ db: db() }).createTask(
    fixtures.task(machineId, { name: `${name} files` }),
  )) as number;
  const dir = repositoryDir(dataDir, null, machineId);
  const password = await repositoryPasswordOf(t, machineId);
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: tmp,
    RESTIC_REPOSITORY: dir,
    RESTIC_PASSWORD: password ?? '',
  };
  const src = join(tmp, `src-${machineId}`);
  mkdirSync(src, { recursive: true });
  // Random data does not deduplicate: several packs of restic's 4 MiB minimum.
  for (let i = 0; i < mb; i++)
    writeFileSync(join(src, `f${i}`), execFileSync('head', ['-c', '1048576', '/dev/urandom']));
  execFileSync('restic', ['--no-cache', 'init'], { env });
  cheapResticKeys(dir, password ?? '');
  execFileSync('restic', ['--no-cache', 'backup', '--tag', `task-${taskId}`, src], { env });
  return { machineId, taskId, packageId, dir, env };
}

/** Every pack file of the repository with its size. */
function packs(dir: string): { id: string; path: string; size: number }[] {
  const data = join(dir, 'data');
  return readdirSync(data).flatMap((sub) =>
    readdirSync(join(data, sub)).map((id) => ({
      id,
      path: join(data, sub, id),
      size: statSync(join(data, sub, id)).size,
    })),
  );
}

/** The repository's check is due now (its rotation as it stands). */
async function makeDue(machineId: number) {
  await db()
    .update(repositoryCheckStates)
    .set({ dueAt: new Date(t.clock.now.getTime() - 60_000) })
    .where(eq(repositoryCheckStates.backupMachineId, machineId));
}

const checksOf = (machineId: number) =>
  db()
    .select()
    .from(repositoryDataChecks)
    .where(eq(repositoryDataChecks.backupMachineId, machineId))
    .orderBy(repositoryDataChecks.id);

const restic = (repo: Repo, args: string[]) =>
  execFileSync('restic', ['--no-cache', ...args], { env: repo.env, encoding: 'utf8' });

async function signedIn(email: string) {
  const client = new TestClient(t.app);
  await client.signIn(email, FIXTURE_PASSWORD);
  return client;
}

async function dataCheckOf(client: TestClient, audience: 'customer' | 'provider', repo: Repo) {
  const ids = {
    customerId: tenants.customerA.customerId,
    packageId: repo.packageId,
    machineId: repo.machineId,
    taskId: repo.taskId,
  };
  const path =
    audience === 'provider' ? ROUTES.tasks.provider.dataCheck.build(ids) : ROUTES.tasks.customer.dataCheck.build(ids);
  const response = await client.json('GET', path);
  return {
    status: response.statusCode,
    result: (response.json() as Envelope<TaskDataCheck> & { result: TaskDataCheck }).result,
  };
}

// --- tests -------------------------------------------------------------------------------------------

describe('rotating data checks (issue 32 item 2)', () => {
  it('spreads first checks over one interval, then reads each slice in turn: every pack once per period', async () => {
    const repo = await machineWithRepository('rotation', 12);
    // The first pass gives the machine its rotation, due within one interval from now.
    await t.app.dataChecks.runOnce();
    const [state] = await db()
      .select()
      .from(repositoryCheckStates)
      .where(eq(repositoryCheckStates.backupMachineId, repo.machineId));
    expect(state?.nextSlice).toBe(1);
    expect(state?.slices).toBe(SLICES);
    const offset = (state?.dueAt.getTime() ?? 0) - t.clock.now.getTime();
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(offset).toBeLessThan(INTERVAL_MINUTES * 60_000);

    for (let slice = 1; slice <= SLICES; slice++) {
      t.clock.advanceMinutes(INTERVAL_MINUTES + 1);
      await makeDue(repo.machineId);
      expect(await t.app.dataChecks.runOnce()).toBeGreaterThanOrEqual(1);
    }
    const checks = await checksOf(repo.machineId);
    expect(checks.map((c) => [c.subset, c.outcome])).toEqual([
      ['1/2', 'PASSED'],
      ['2/2', 'PASSED'],
    ]);
    // Both slices together read every pack exactly once.
    const all = packs(repo.dir);
    expect(all.length).toBeGreaterThan(1);
    expect(checks.reduce((sum, c) => sum + c.bytesRead, 0)).toBe(all.reduce((sum, p) => sum + p.size, 0));
    expect(checks.every((c) => c.durationMs > 0 && c.errors.length === 0)).toBe(true);
    // The next check starts the rotation again, one interval after the last.
    const [after] = await db()
      .select()
      .from(repositoryCheckStates)
      .where(eq(repositoryCheckStates.backupMachineId, repo.machineId));
    expect(after?.nextSlice).toBe(1);
    expect(after?.leaseUntil).toBeNull();
    expect(after?.dueAt.getTime()).toBeGreaterThan(t.clock.now.getTime());
  }, 180_000);

  it('leaves a machine that is running a backup for later', async () => {
    const repo = await machineWithRepository('busy', 1);
    await t.app.dataChecks.runOnce();
    const [run] = await db()
      .insert(taskActions)
      .values({ backupTaskId: repo.taskId, backupMachineId: repo.machineId, type: 'BACKUP_RUN', status: 'IN_PROGRESS' })
      .returning({ id: taskActions.id });
    await makeDue(repo.machineId);
    await t.app.dataChecks.runOnce();
    expect(await checksOf(repo.machineId)).toHaveLength(0);
    await db()
      .update(taskActions)
      .set({ status: 'FINISHED_SUCCESS', timeFinished: t.clock.now })
      .where(eq(taskActions.id, run?.id ?? 0));
    await t.app.dataChecks.runOnce();
    expect((await checksOf(repo.machineId)).map((c) => c.outcome)).toEqual(['PASSED']);
  }, 120_000);
});

describe('corruption drill (issue 32 item 5)', () => {
  it('finds a corrupted pack, shows it on the task page, mails once and offers the provider the repair path', async () => {
    const repo = await machineWithRepository('corrupt', 6);
    await t.app.dataChecks.runOnce();
    // Damage one pack, and let the next check read its slice (restic's rule: the id's first byte modulo the slices).
    // The largest pack holds file data (trees are small and every check reads them).
    const [victim] = packs(repo.dir).sort((a, b) => b.size - a.size);
    if (!victim) throw new Error('no pack');
    const slice = (Number.parseInt(victim.id.slice(0, 2), 16) % SLICES) + 1;
    await db()
      .update(repositoryCheckStates)
      .set({ nextSlice: slice })
      .where(eq(repositoryCheckStates.backupMachineId, repo.machineId));
    execFileSync('chmod', ['u+w', victim.path]);
    execFileSync('dd', [`of=${victim.path}`, 'bs=1', 'seek=200', 'conv=notrunc'], { input: 'corrupted!' });
    const mailsBefore = t.lastMailId();

    await makeDue(repo.machineId);
    await t.app.dataChecks.runOnce();
    const [found] = await checksOf(repo.machineId);
    expect(found?.outcome).toBe('FAILED');
    expect(found?.errors.join('\n')).toContain(`Pack ID does not match, want ${victim.id}`);

    // The task page: the customer sees the damage, the provider also the repair path for restic 0.14.
    const provider = await dataCheckOf(await signedIn(tenants.providerAdmin.email), 'provider', repo);
    expect(provider.status).toBe(200);
    expect(provider.result.last).toMatchObject({ outcome: 'FAILED', subset: `${slice}/${SLICES}` });
    expect(provider.result.repair?.title).toContain('no repair command');
    expect(provider.result.repair?.steps.join('\n')).toContain('restic rebuild-index');
    const customer = await dataCheckOf(await signedIn(tenants.customerA.superAdmin.email), 'customer', repo);
    expect(customer.status).toBe(200);
    expect(customer.result.last?.outcome).toBe('FAILED');
    expect(customer.result.repair).toBeNull();
    // Another tenant's admin learns nothing of it.
    const other = await dataCheckOf(await signedIn(tenants.customerB.admin.email), 'customer', repo);
    expect(other.status).toBe(404);

    // One mail to the customer's super admin (failed-run alerts are on by default), however often it is found again.
    await t.app.mailDelivery.runOnce();
    const damagedMails = () =>
      t.mails
        .list()
        .filter((m) => m.id > mailsBefore && m.subject === 'Backup data damaged: corrupt')
        .filter((m) => m.to.includes(tenants.customerA.superAdmin.email));
    await vi.waitFor(() => expect(damagedMails()).toHaveLength(1));
    t.clock.advanceMinutes(PERIOD_DAYS * 24 * 60);
    for (let i = 0; i < SLICES; i++) {
      await makeDue(repo.machineId);
      await t.app.dataChecks.runOnce();
    }
    expect((await checksOf(repo.machineId)).map((c) => c.outcome)).toEqual(['FAILED', 'PASSED', 'FAILED']);
    await t.app.mailDelivery.runOnce();
    expect(damagedMails()).toHaveLength(1);

    // The manual repair path, followed: the damaged pack moved out, the index rebuilt, the snapshot forgotten.
    rmSync(victim.path);
    restic(repo, ['rebuild-index']);
    const snapshot = JSON.parse(restic(repo, ['snapshots', '--json']))[0] as { id: string };
    restic(repo, ['forget', '--prune', snapshot.id]);
    await makeDue(repo.machineId);
    await t.app.dataChecks.runOnce();
    expect((await checksOf(repo.machineId)).at(-1)?.outcome).toBe('PASSED');
  }, 240_000);
});

describe('stale lock drill (issue 32 item 5)', () => {
  it("removes a killed restic's lock once it is older than a run's time limit, once, audited", async () => {
    // restic writes its lock with the real time: the portal's clock starts from it here.
    t.clock.now = new Date();
    const repo = await machineWithRepository('locked', 1);
    await t.app.dataChecks.runOnce();
    // A backup killed mid-run leaves its lock behind.
    const child = spawn('restic', ['--no-cache', 'backup', '--stdin', '--stdin-filename', 'slow'], {
      env: repo.env,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    for (let i = 0; i < 100 && restic(repo, ['list', 'locks', '--no-lock']).trim() === ''; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
    const [lockId] = restic(repo, ['list', 'locks', '--no-lock']).trim().split('\n');
    expect(lockId).toMatch(/^[0-9a-f]{64}$/);
    const removals = () =>
      db()
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.type, 'STALE_LOCK_REMOVED'), eq(auditEvents.subjectId, repo.machineId)));

    // Younger than a run's time limit (45 minutes here): left alone.
    await makeDue(repo.machineId);
    await t.app.dataChecks.runOnce();
    expect(restic(repo, ['list', 'locks', '--no-lock']).trim()).toBe(lockId);
    expect(await removals()).toHaveLength(0);

    t.clock.advanceMinutes(46);
    await makeDue(repo.machineId);
    await t.app.dataChecks.runOnce();
    expect(restic(repo, ['list', 'locks', '--no-lock']).trim()).toBe('');
    await makeDue(repo.machineId);
    await t.app.dataChecks.runOnce();
    const records = await removals();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      customerId: tenants.customerA.customerId,
      subjectType: 'machine',
      outcome: 'succeeded',
    });
    expect(records[0]?.detail).toMatchObject({ lockId: lockId?.slice(0, 8) });
    // The checks themselves ran throughout: they read without a lock.
    expect((await checksOf(repo.machineId)).map((c) => c.outcome)).toEqual(['PASSED', 'PASSED', 'PASSED']);
  }, 120_000);
});

describe("the provider's 'Check all data now' (issue 32 items 2, 5)", () => {
  it('reads all the data at once, leaves the rotation where it was; others are refused', async () => {
    const repo = await machineWithRepository('checked-now', 6);
    // The machine gets its rotation (its first check due some time in the interval).
    await t.app.dataChecks.runOnce();
    const [state] = await db()
      .select()
      .from(repositoryCheckStates)
      .where(eq(repositoryCheckStates.backupMachineId, repo.machineId));
    const ids = {
      customerId: tenants.customerA.customerId,
      packageId: repo.packageId,
      machineId: repo.machineId,
      taskId: repo.taskId,
    };
    const path = ROUTES.tasks.provider.checkData.build(ids);
    const provider = await signedIn(tenants.providerAdmin.email);
    expect((await dataCheckOf(provider, 'provider', repo)).result).toMatchObject({ checking: false, checkable: true });
    expect(
      (await dataCheckOf(await signedIn(tenants.customerA.superAdmin.email), 'customer', repo)).result,
    ).toMatchObject({ checkable: false });

    // Another customer's path to the machine, a customer's admin and a read-only provider admin get nothing started.
    const elsewhere = ROUTES.tasks.provider.checkData.build({ ...ids, customerId: tenants.customerB.customerId });
    expect((await provider.json('POST', elsewhere)).statusCode).toBe(404);
    expect((await (await signedIn(tenants.customerA.superAdmin.email)).json('POST', path)).statusCode).toBe(403);
    await db().update(users).set({ readOnly: true }).where(eq(users.id, tenants.providerAdmin.id));
    try {
      expect((await (await signedIn(tenants.providerAdmin.email)).json('POST', path)).statusCode).toBe(403);
    } finally {
      await db().update(users).set({ readOnly: false }).where(eq(users.id, tenants.providerAdmin.id));
    }
    expect((await dataCheckOf(provider, 'provider', repo)).result.checking).toBe(false);

    const started = await provider.json('POST', path);
    expect(started.statusCode).toBe(200);
    expect(started.json().result).toMatchObject({ checking: true, checkable: true });
    // The job's next pass (woken at once where the jobs run) reads every pack, and the rotation stays put.
    const before = (await checksOf(repo.machineId)).length;
    await t.app.dataChecks.runOnce();
    const checks = await checksOf(repo.machineId);
    expect(checks).toHaveLength(before + 1);
    const all = checks.at(-1);
    const total = packs(repo.dir).reduce((sum, pack) => sum + pack.size, 0);
    expect(all).toMatchObject({ subset: '1/1', outcome: 'PASSED', bytesRead: total });
    const [after] = await db()
      .select()
      .from(repositoryCheckStates)
      .where(eq(repositoryCheckStates.backupMachineId, repo.machineId));
    expect(after).toMatchObject({ nextSlice: state?.nextSlice, fullReadRequested: false, leaseUntil: null });
    expect((await dataCheckOf(provider, 'provider', repo)).result.checking).toBe(false);
  }, 120_000);

  it('answers a conflict while a check of the repository runs', async () => {
    const repo = await machineWithRepository('checked-busy', 1);
    await t.app.dataChecks.runOnce();
    await db()
      .update(repositoryCheckStates)
      .set({ leaseUntil: new Date(t.clock.now.getTime() + 60 * 60_000) })
      .where(eq(repositoryCheckStates.backupMachineId, repo.machineId));
    const provider = await signedIn(tenants.providerAdmin.email);
    const path = ROUTES.tasks.provider.checkData.build({
      customerId: tenants.customerA.customerId,
      packageId: repo.packageId,
      machineId: repo.machineId,
      taskId: repo.taskId,
    });
    const answer = await provider.json('POST', path);
    expect(answer.statusCode).toBe(409);
    expect(answer.json().messages[0].message).toBe(DATA_CHECK_TEXTS.alreadyChecking);
  });
});
