/**
 * Seeding (issue #5) through the app on the real database, with the real restic on real files: a seed made
 * the way the agent makes it (`restic init --copy-chunker-params` from the machine's repository, then a backup
 * tagged with the task) is loaded into the machine's repository on the embedded storage.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AgentToServer,
  MESSAGES,
  noSeedRepositoryAt,
  ROUTES,
  type ServerToAgent,
  seedRepositoryName,
  type TaskRef,
} from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backupSnapshots, backupTasks, machineMessages, taskActions } from '../../db/schema/index.js';
import { runFinished } from '../../testing/agent-events.js';
import { createTestApp, repositoryPasswordOf, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import type { TestClient } from '../../testing/client.js';
import { signedInAs } from '../../testing/envelope.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';
import { storageAccessFor } from '../../testing/storage-access.js';
import { useTempDir } from '../../testing/suite.js';
import { createAgentEventsRepo } from '../agent-events/repo.js';
import { createBackupStateService } from '../backup-state/service.js';
import { connectTestAgent, eventually, listenOnLoopback, type TestStomp } from '../live/testing.js';
import { repositoryDir } from '../local-storage/paths.js';
import { createMachineCredentials, type MachineCredential } from '../machine-auth/credentials.js';
import { createTaskCommandsRepo } from '../task-commands/repo.js';
import { createSeedingRepo } from './repo.js';
import { createSeedingService } from './service.js';

const TEXT = MESSAGES.seeding;
let t: TestApp;
let tenants: Tenants;
const tmp = useTempDir('seeding');
let src = '';
let base = '';
let password = '';
let credential: MachineCredential;
/** customerB's machine: a task awaiting its seed, an ACTIVE task; the machine's repository; the seed disk. */
let ref: TaskRef;
let activeRef: TaskRef;
let mainRepo = '';
let disk = '';
let seedRepo = '';
/** The provider admin, and callers who may not load seeds: customerB's super admin, customerA's admin, a reseller. */
let provider: TestClient;
let others: TestClient[] = [];
const started: TestStomp[] = [];

function restic(repo: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync('restic', ['--no-cache', ...args], {
    env: { ...process.env, RESTIC_REPOSITORY: repo, RESTIC_PASSWORD: password, ...env },
    encoding: 'utf8',
  });
}
const snapshotsOf = (repo: string) =>
  JSON.parse(restic(repo, ['snapshots', '--json'])) as Array<{ id: string; tree: string; tags?: string[] }>;
const chunkerOf = (repo: string) =>
  (JSON.parse(restic(repo, ['cat', 'config'])) as { chunker_polynomial: string }).chunker_polynomial;

const load = (at: TaskRef, body: unknown, as = provider) => as.json('POST', ROUTES.seeding.load.build(at), body);
const taskRow = async (taskId: number) =>
  (await t.database.db.select().from(backupTasks).where(eq(backupTasks.id, taskId)))[0];
const action = async (actionId: number) =>
  (await t.database.db.select().from(taskActions).where(eq(taskActions.id, actionId)))[0];
/** The task as the provider's dashboard shows it. */
async function dashboardRow(taskId: number) {
  const response = await provider.json('GET', `/dashboard/backupmachines/${ref.machineId}/tasks`);
  expect(response.statusCode).toBe(200);
  const rows = response.json().result.elements as Array<{ id: number; status: string; displayStatus: string }>;
  return rows.find((row) => row.id === taskId);
}

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: join(tmp, 'data') });
  tenants = await createTenants(t.database.db);
  const fixtures = backupFixtures(t.database.db);
  const backupState = createBackupStateService({ db: t.database.db });
  const packageId = await fixtures.package(tenants.customerB.customerId);
  const machineId = await fixtures.machine(packageId);
  const machine = { customerId: tenants.customerB.customerId, packageId, machineId };
  const seedTaskId = await backupState.createTask({
    ...fixtures.task(machineId, { name: 'Seeded', status: 'AWAITING_SEED' }),
    createSeed: true,
    pathToSeedDisk: '/media/seed',
    snapshotsEnabled: true,
  });
  const activeTaskId = await backupState.createTask(fixtures.task(machineId, { name: 'Active' }));
  if (!seedTaskId || !activeTaskId) throw new Error('tasks not created');
  ref = { ...machine, taskId: seedTaskId };
  activeRef = { ...machine, taskId: activeTaskId };

  password = (await repositoryPasswordOf(t, machineId)) ?? '';

  // The machine's repository on the embedded storage, as the agent's first `restic init` through the REST
  // backend leaves it; and the seed the agent makes on the disk (same password, same chunker parameters).
  mainRepo = repositoryDir(t.config.dataDir, null, machineId);
  mkdirSync(join(mainRepo, '..'), { recursive: true });
  restic(mainRepo, ['init']);
  src = join(tmp, 'src');
  mkdirSync(join(src, 'docs'), { recursive: true });
  writeFileSync(join(src, 'docs', 'big.bin'), randomBytes(2 * 1024 * 1024));
  writeFileSync(join(src, 'docs', 'a.txt'), 'alpha\n');
  disk = join(tmp, 'disk');
  seedRepo = join(disk, seedRepositoryName(machineId));
  restic(seedRepo, ['init', '--copy-chunker-params'], {
    RESTIC_FROM_REPOSITORY: mainRepo,
    RESTIC_FROM_PASSWORD: password,
  });
  restic(seedRepo, ['backup', '--host', 'seeded-host', '--tag', `task-${seedTaskId}`, src]);
  // Another task's seed on the same disk: not this task's to load.
  restic(seedRepo, ['backup', '--host', 'seeded-host', '--tag', 'task-999999', join(src, 'docs', 'a.txt')]);

  const issued = await createMachineCredentials(t.database.db).issue(machineId);
  if (!issued) throw new Error('no credential');
  credential = issued;
  const signedIn = (email: string) => signedInAs(t.app, email);
  provider = await signedIn(tenants.providerAdmin.email);
  others = await Promise.all(
    [tenants.customerB.superAdmin, tenants.customerA.admin, tenants.reseller.superAdmin].map((u) => signedIn(u.email)),
  );
  base = await listenOnLoopback(t.app);
}, 120_000);

afterEach(async () => {
  await Promise.all(started.splice(0).map((c) => c.stop()));
});
afterAll(() => t?.close());

describe('seed creation reported by the agent', () => {
  it('records a runStarted with actionType BACKUP_SEED_CREATION as such; the task still awaits its seed', async () => {
    const agent = await connectTestAgent(t.app, base, credential);
    started.push(agent.client);
    const runKey = 'seed-run-1';
    const events: AgentToServer[] = [
      {
        type: 'runStarted',
        runKey,
        taskId: ref.taskId,
        startedAt: new Date().toISOString(),
        manual: false,
        actionType: 'BACKUP_SEED_CREATION',
      },
      runFinished(runKey, { snapshotId: snapshotsOf(seedRepo)[0]?.id ?? null }),
    ];
    for (const event of events) expect(await agent.send(event)).toBe(true);
    const run = async (key: string) =>
      (await t.database.db.select().from(taskActions).where(eq(taskActions.runKey, key)))[0];
    await eventually(async () => (await run(runKey))?.status === 'FINISHED_SUCCESS');
    const seedSnapshotId = events[1]?.type === 'runFinished' ? events[1].snapshotId : null;
    expect(await run(runKey)).toMatchObject({
      type: 'BACKUP_SEED_CREATION',
      backupTaskId: ref.taskId,
      resticSnapshotId: seedSnapshotId,
      // The snapshot is on the seed disk: neither browsable from the run nor kept as the task's archive.
      snapshotsAvailable: false,
    });
    expect(
      await t.database.db.select().from(backupSnapshots).where(eq(backupSnapshots.backupTaskId, ref.taskId)),
    ).toEqual([]);
    // A plain run (no actionType, as older agents send) is a BACKUP_RUN.
    expect(
      await agent.send({
        type: 'runStarted',
        runKey: 'plain-run-1',
        taskId: activeRef.taskId,
        startedAt: new Date().toISOString(),
        manual: true,
      }),
    ).toBe(true);
    await eventually(async () => (await run('plain-run-1'))?.type === 'BACKUP_RUN');
    expect(await taskRow(ref.taskId)).toMatchObject({ status: 'AWAITING_SEED', displayStatus: 'AWAITING_SEED' });
  });
});

describe('seed loading (POST …/backuptasks/{taskId}/seed)', () => {
  it('is for provider admins only; another customer’s path is not found', async () => {
    for (const caller of others) {
      const response = await load(ref, { path: disk }, caller);
      expect(response.statusCode).toBe(403);
      expect(response.json().status).toBe('ERROR');
    }
    for (const wrong of [
      { ...ref, customerId: tenants.customerA.customerId },
      { ...ref, packageId: ref.packageId + 1000 },
      { ...ref, machineId: ref.machineId + 1000 },
    ]) {
      const response = await load(wrong, { path: disk });
      expect(response.statusCode).toBe(404);
      expect(response.json().messages[0].message).toBe(MESSAGES.backupMachine.notFound);
    }
    const noTask = await load({ ...ref, taskId: ref.taskId + 1000 }, { path: disk });
    expect(noTask.statusCode).toBe(404);
    expect(noTask.json().messages[0].message).toBe(TEXT.taskNotFound);
    expect(await taskRow(ref.taskId)).toMatchObject({ status: 'AWAITING_SEED' });
  });

  it('validates the path with messages on the field', async () => {
    const empty = join(tmp, 'empty');
    mkdirSync(empty, { recursive: true });
    const wrongPassword = join(tmp, 'other-seed');
    restic(wrongPassword, ['init'], { RESTIC_PASSWORD: 'another-password' });
    const cases: Array<[unknown, string]> = [
      [{}, TEXT.pathRequired],
      [{ path: '  ' }, TEXT.pathRequired],
      [{ path: 'disk/seed' }, TEXT.pathNotAbsolute],
      [{ path: join(tmp, 'no-such-disk') }, TEXT.pathNotFound],
      [{ path: join(src, 'docs', 'a.txt') }, TEXT.pathNotFound],
      [{ path: empty }, noSeedRepositoryAt(ref.machineId)],
      [{ path: mainRepo }, TEXT.seedIsMachineRepository],
    ];
    for (const [body, message] of cases) {
      const response = await load(ref, body);
      expect({ body, status: response.statusCode, messages: response.json().messages }).toEqual({
        body,
        status: 400,
        messages: [expect.objectContaining({ fieldName: 'path', message })],
      });
    }
    const unopened = await load(ref, { path: wrongPassword });
    expect(unopened.statusCode).toBe(400);
    expect(unopened.json().messages[0]).toMatchObject({
      fieldName: 'path',
      message: expect.stringMatching(/could not be opened with the machine's repository password: .*wrong password/),
    });
    // A seed without this task's snapshots (the other task's seed only).
    const otherTasks = join(tmp, 'other-tasks');
    restic(otherTasks, ['init']);
    restic(otherTasks, ['backup', '--tag', 'task-999999', join(src, 'docs', 'a.txt')]);
    const noSnapshot = await load(ref, { path: otherTasks });
    expect(noSnapshot.json().messages[0]).toMatchObject({ fieldName: 'path', message: TEXT.noTaskSnapshot });
    const actions = await t.database.db.select().from(taskActions).where(eq(taskActions.type, 'BACKUP_SEED_LOADING'));
    expect(actions).toEqual([]);
  });

  it('refuses a task that does not await its seed', async () => {
    const response = await load(activeRef, { path: disk });
    expect(response.statusCode).toBe(409);
    expect(response.json().messages[0].message).toBe(TEXT.taskNotAwaitingSeed);
  });

  it('copies the task’s snapshots into the machine’s repository, then makes the task ACTIVE and tells the agent', async () => {
    const agent = await connectTestAgent(t.app, base, credential);
    started.push(agent.client);
    expect(await dashboardRow(ref.taskId)).toMatchObject({ status: 'AWAITING_SEED', displayStatus: 'AWAITING_SEED' });
    expect(chunkerOf(seedRepo)).toBe(chunkerOf(mainRepo));
    const seedSnapshot = snapshotsOf(seedRepo).find((s) => s.tags?.includes(`task-${ref.taskId}`));

    const response = await load(ref, { path: disk });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'OK',
      messages: [{ type: 'INFO', message: TEXT.loadStarted }],
      result: { actionId: expect.any(Number) },
    });
    const actionId = response.json().result.actionId as number;
    expect(await action(actionId)).toMatchObject({
      type: 'BACKUP_SEED_LOADING',
      status: 'IN_PROGRESS',
      backupTaskId: ref.taskId,
    });
    // A second load while this one runs is refused, and records nothing.
    const second = await load(ref, { path: seedRepo });
    expect(second.statusCode).toBe(409);
    expect(second.json().messages[0].message).toBe(TEXT.alreadyLoading);

    await eventually(async () => (await action(actionId))?.status !== 'IN_PROGRESS', 60_000);
    expect(await action(actionId)).toMatchObject({
      status: 'FINISHED_SUCCESS',
      exitCodeResult: 'SUCCESS',
      failureMessage: null,
      phase: 'FINALIZED',
      transferProgressPercentage: 100,
    });
    const loads = await t.database.db.select().from(taskActions).where(eq(taskActions.type, 'BACKUP_SEED_LOADING'));
    expect(loads.map((l) => l.id)).toEqual([actionId]);

    // The task's snapshot is in the machine's repository now (the other task's is not); the seed is untouched.
    const copied = snapshotsOf(mainRepo);
    expect(copied.map((s) => [s.tree, s.tags])).toEqual([[seedSnapshot?.tree, [`task-${ref.taskId}`]]]);
    expect(snapshotsOf(seedRepo)).toHaveLength(2);
    const logged = await t.database.db.select().from(machineMessages).where(eq(machineMessages.taskActionId, actionId));
    expect(logged.some((m) => /saved/.test(m.message))).toBe(true);

    // ACTIVE (a transaction after the action's own), shown by its last run again, and the agent has its new task list.
    await eventually(async () => (await taskRow(ref.taskId))?.status === 'ACTIVE', 10_000);
    expect(await taskRow(ref.taskId)).toMatchObject({ status: 'ACTIVE', statusOfLastRun: 'FINISHED_SUCCESS' });
    expect(await dashboardRow(ref.taskId)).toMatchObject({ status: 'ACTIVE', displayStatus: 'LAST_SUCCEEDED' });
    await eventually(() =>
      agent
        .commands()
        .some(
          (c: ServerToAgent) =>
            c.type === 'tasks' && c.tasks.some((task) => task.id === ref.taskId && task.status === 'ACTIVE'),
        ),
    );

    // The task's next backup into the machine's repository reuses the copied data (restic deduplicates).
    const summary = restic(mainRepo, ['backup', '--json', '--host', 'seeded-host', '--tag', `task-${ref.taskId}`, src])
      .split('\n')
      .filter((line) => line.includes('"summary"'))
      .map((line) => JSON.parse(line) as { data_added: number; total_bytes_processed: number })[0];
    expect(summary?.total_bytes_processed).toBeGreaterThan(2 * 1024 * 1024);
    expect(summary?.data_added).toBeLessThan(64 * 1024);

    // Loaded: a task that no longer awaits its seed is not loaded again.
    const again = await load(ref, { path: disk });
    expect(again.statusCode).toBe(409);
    expect(again.json().messages[0].message).toBe(TEXT.taskNotAwaitingSeed);
  }, 120_000);
});

describe('seed loading, failures', () => {
  it('records a failed copy, keeps the task awaiting its seed, and fails loads a stopped server left busy', async () => {
    const fixtures = backupFixtures(t.database.db);
    const backupState = createBackupStateService({ db: t.database.db });
    const taskId = await backupState.createTask({
      ...fixtures.task(ref.machineId, { status: 'AWAITING_SEED' }),
      createSeed: true,
      pathToSeedDisk: '/media/seed',
    });
    if (!taskId) throw new Error('task not created');
    const seedFor = join(tmp, 'disk-2');
    const seed = join(seedFor, seedRepositoryName(ref.machineId));
    restic(seed, ['init']);
    restic(seed, ['backup', '--tag', `task-${taskId}`, join(src, 'docs', 'a.txt')]);
    const repo = createSeedingRepo(t.database.db);
    /** A service whose restic is the real one, except that `restic copy` runs `copy` (a shell snippet) instead. */
    const service = (copy: string | null) => {
      let binary = 'restic';
      if (copy !== null) {
        binary = join(tmp, `restic-${randomBytes(4).toString('hex')}.sh`);
        const script = `#!/bin/sh\nfor a in "$@"; do [ "$a" = copy ] && { ${copy} }; done\nexec restic "$@"\n`;
        writeFileSync(binary, script, { mode: 0o755 });
      }
      return createSeedingService({
        repo,
        machines: createTaskCommandsRepo(t.database.db),
        storage: storageAccessFor(t.database.db, t.config.dataDir, t.config.masterKey ?? ''),
        messages: createAgentEventsRepo(t.database.db),
        backupState,
        repositoryPassword: async () => password,
        syncTasks: async () => {},
        resticBinary: binary,
      });
    };
    const seeding = service('echo "Fatal: the disk went away" >&2; exit 1;');
    const { actionId } = await seeding.loadSeed({ ...ref, taskId }, seedFor);
    await seeding.idle();
    expect(await action(actionId)).toMatchObject({
      type: 'BACKUP_SEED_LOADING',
      status: 'FAILED',
      exitCodeResult: 'FATAL',
      failureMessage: expect.stringContaining('Fatal: the disk went away'),
    });
    // The seed was made without the machine's chunker parameters: said, not refused.
    const logged = await t.database.db.select().from(machineMessages).where(eq(machineMessages.taskActionId, actionId));
    expect(logged.map((m) => [m.messageType, m.message])).toContainEqual(['WARNING', TEXT.chunkerDiffers]);
    expect(await taskRow(taskId)).toMatchObject({ status: 'AWAITING_SEED', displayStatus: 'AWAITING_SEED' });

    // A load cut off by a server stop is failed as interrupted, at stop or at the next start.
    // A copy that would take half a minute, ended by the stop's SIGINT. The sleep takes the shell's place: a
    // background one would outlive a SIGINT that comes before the shell set a trap, and the load would wait for
    // it to close restic's output.
    const slow = 'exec sleep 30;';
    const stopping = service(slow);
    const cut = await stopping.loadSeed({ ...ref, taskId }, seedFor);
    await stopping.stop();
    expect(await action(cut.actionId)).toMatchObject({ status: 'FAILED', failureMessage: TEXT.loadInterrupted });
    const crashed = service(slow);
    const left = await crashed.loadSeed({ ...ref, taskId }, seedFor);
    // A new server process finds the busy load it does not run.
    expect(await service(null).failInterruptedLoads()).toBe(1);
    expect(await action(left.actionId)).toMatchObject({
      status: 'FAILED',
      exitCodeResult: 'IO_OR_INTERRUPT_EXCEPTION',
      failureMessage: TEXT.loadInterrupted,
    });
    await crashed.stop();
    expect(await taskRow(taskId)).toMatchObject({ status: 'AWAITING_SEED' });
  }, 120_000);
});
