/**
 * Seed creation (issue #5) with the real restic 0.14 (/usr/bin/restic) on real files: the agent is given a
 * local repository as the machine's repository and a folder as the seed disk. Its portal is unreachable on
 * purpose, so every event it reports stays in its outbox, where the test reads it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AgentTask,
  type AgentToServer,
  agentToServerSchema,
  seedDiskMissing,
  seedDiskNotFolder,
  seedRepositoryName,
} from '@portal/domain';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../server/src/features/live/testing.js';
import { Agent } from './agent.js';
import { SEEDS_FILE, seedDiskProblem } from './seed.js';
import { dirItem, makeTask } from './testing.js';

const PASSWORD = 'seed-test-password';
const MACHINE_ID = 42;
let base = '';
let src = '';
let main = '';
let closedPort = 0;
const agents: Agent[] = [];

function restic(repo: string, args: string[]): string {
  return execFileSync('restic', ['--no-cache', ...args], {
    env: { ...process.env, RESTIC_REPOSITORY: repo, RESTIC_PASSWORD: PASSWORD },
    encoding: 'utf8',
  });
}
const chunkerOf = (repo: string) =>
  (JSON.parse(restic(repo, ['cat', 'config'])) as { chunker_polynomial: string }).chunker_polynomial;
const snapshotsOf = (repo: string) =>
  JSON.parse(restic(repo, ['snapshots', '--json'])) as Array<{ id: string; tags?: string[]; hostname: string }>;
const filesOf = (repo: string, snapshot: string) =>
  restic(repo, ['ls', '--json', snapshot])
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { struct_type: string; path?: string })
    .filter((n) => n.struct_type === 'node')
    .map((n) => n.path ?? '');

/** The value `read` gives once it gives one (restic takes seconds: `init` alone derives a key). */
async function once<T>(read: () => T | undefined | false): Promise<T> {
  await eventually(() => Boolean(read()), 30_000);
  return read() as T;
}

/** An agent whose portal is unreachable: what it reports stays in its outbox. */
function newAgent(stateDir: string) {
  const agent = new Agent({
    config: { server: `http://127.0.0.1:${closedPort}`, machineId: MACHINE_ID, token: 'seed-test-token', stateDir },
    name: 'seed-host',
    log: () => {},
    logDir: null,
    reconnectDelay: () => 60_000,
    resticCacheDir: null,
  });
  agents.push(agent);
  return agent;
}

const reported = (agent: Agent) => agent.outbox.pending().map((e) => agentToServerSchema.parse(e));
const runsOf = (events: AgentToServer[], taskId: number) =>
  events.filter(
    (e): e is Extract<AgentToServer, { type: 'runStarted' }> => e.type === 'runStarted' && e.taskId === taskId,
  );
const finishOf = (events: AgentToServer[], runKey: string) =>
  events.find(
    (e): e is Extract<AgentToServer, { type: 'runFinished' }> => e.type === 'runFinished' && e.runKey === runKey,
  );

function seedTask(overrides: Partial<AgentTask>): AgentTask {
  return makeTask({
    status: 'AWAITING_SEED',
    createSeed: true,
    backupItems: [dirItem(src)],
    exclusions: ['*.log'],
    scheduleCron: '* * * * *',
    numberOfSnapshotsToKeep: 3,
    ...overrides,
  });
}

/** Gives the agent the machine's repository and its task list, as the portal does after hello. */
function configure(agent: Agent, tasks: AgentTask[]) {
  agent.handle({ type: 'repository', settings: { repository: main, password: PASSWORD } });
  agent.handle({ type: 'tasks', tasks, timeZone: 'UTC' });
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'agent-seed-'));
  src = join(base, 'src');
  mkdirSync(join(src, 'docs'), { recursive: true });
  writeFileSync(join(src, 'docs', 'a.txt'), 'alpha\n'.repeat(1000));
  writeFileSync(join(src, 'docs', 'debug.log'), 'excluded\n');
  main = join(base, 'main');
  // The machine's repository exists already (another task backs up into it), with its own chunker parameters.
  restic(main, ['init']);
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedPort = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
}, 30_000);

afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.stop(50)));
});

afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

describe('seed creation (issue #5)', () => {
  it('backs the task up into portal-seed-{machineId} on the disk, with the chunker of the machine’s repository, once', async () => {
    const disk = join(base, 'disk-1');
    mkdirSync(disk);
    const stateDir = mkdtempSync(join(base, 'state-'));
    const task = seedTask({ id: 7, version: 2, pathToSeedDisk: disk });
    const agent = newAgent(stateDir);
    agent.start();
    configure(agent, [task]);

    const [started] = await once(() => runsOf(reported(agent), 7).length > 0 && runsOf(reported(agent), 7));
    expect(started).toMatchObject({ taskId: 7, manual: false, actionType: 'BACKUP_SEED_CREATION' });
    const finished = await once(() => finishOf(reported(agent), started?.runKey ?? ''));
    expect(finished).toMatchObject({ status: 'FINISHED_SUCCESS', exitCodeResult: 'SUCCESS', failureMessage: null });
    expect(finished.snapshotId).toMatch(/^[0-9a-f]{64}$/);

    const seed = join(disk, seedRepositoryName(MACHINE_ID));
    expect(chunkerOf(seed)).toBe(chunkerOf(main));
    const snapshots = snapshotsOf(seed);
    expect(snapshots.map((s) => [s.id, s.tags, s.hostname])).toEqual([[finished.snapshotId, ['task-7'], 'seed-host']]);
    const files = filesOf(seed, finished.snapshotId ?? '');
    expect(files).toContain(join(src, 'docs', 'a.txt'));
    expect(files).not.toContain(join(src, 'docs', 'debug.log'));
    // Nothing went to the machine's repository: that is what the seed is for.
    expect(snapshotsOf(main)).toEqual([]);
    expect(statSync(join(stateDir, SEEDS_FILE)).mode & 0o777).toBe(0o600);
    expect(agent.seeds.list()).toEqual([
      { taskId: 7, version: 2, repository: seed, snapshotId: finished.snapshotId, createdAt: finished.finishedAt },
    ]);

    // The same task list again, and a restart with the same state dir: not made again.
    agent.handle({ type: 'tasks', tasks: [task], timeZone: 'UTC' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await agent.stop(50);
    const restarted = newAgent(stateDir);
    restarted.start();
    configure(restarted, [task]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await restarted.scheduler.idle();
    expect(runsOf(reported(restarted), 7)).toHaveLength(1);
    expect(snapshotsOf(seed)).toHaveLength(1);

    // A new version of the task is a new seed (a second snapshot in the same seed repository).
    restarted.handle({ type: 'tasks', tasks: [{ ...task, version: 3 }], timeZone: 'UTC' });
    await eventually(() => runsOf(reported(restarted), 7).length === 2);
    await restarted.scheduler.idle();
    const second = runsOf(reported(restarted), 7)[1];
    expect(finishOf(reported(restarted), second?.runKey ?? '')).toMatchObject({ status: 'FINISHED_SUCCESS' });
    expect(snapshotsOf(seed)).toHaveLength(2);
  }, 60_000);

  it('fails a run with a clear message when the disk is missing, and tries again with the next list or run now', async () => {
    const disk = join(base, 'disk-not-connected');
    const stateDir = mkdtempSync(join(base, 'state-'));
    const task = seedTask({ id: 8, pathToSeedDisk: disk });
    const agent = newAgent(stateDir);
    agent.start();
    configure(agent, [task]);
    const [started] = await once(() => runsOf(reported(agent), 8).length > 0 && runsOf(reported(agent), 8));
    expect(started?.actionType).toBe('BACKUP_SEED_CREATION');
    const failed = await once(() => finishOf(reported(agent), started?.runKey ?? ''));
    expect(failed).toMatchObject({ status: 'FAILED', exitCodeResult: 'FATAL', failureMessage: seedDiskMissing(disk) });
    const messages = reported(agent).flatMap((e) =>
      e.type === 'messages' && e.runKey === started?.runKey ? e.messages : [],
    );
    expect(messages.map((m) => [m.type, m.text])).toEqual([['ERROR', seedDiskMissing(disk)]]);

    // The disk is connected; the next task list makes the seed.
    mkdirSync(disk);
    agent.handle({ type: 'tasks', tasks: [task], timeZone: 'UTC' });
    await eventually(() => runsOf(reported(agent), 8).length === 2);
    await agent.scheduler.idle();
    const retried = runsOf(reported(agent), 8)[1];
    expect(finishOf(reported(agent), retried?.runKey ?? '')).toMatchObject({ status: 'FINISHED_SUCCESS' });
    expect(snapshotsOf(join(disk, seedRepositoryName(MACHINE_ID)))).toHaveLength(1);

    // Run now (the portal's startTask) makes it again on request, as a manual seed creation.
    agent.handle({ type: 'startTask', requestId: 'run-now-seed', taskId: 8 });
    await eventually(() => runsOf(reported(agent), 8).length === 3);
    await agent.scheduler.idle();
    expect(runsOf(reported(agent), 8)[2]).toMatchObject({
      manual: true,
      requestId: 'run-now-seed',
      actionType: 'BACKUP_SEED_CREATION',
    });
  }, 60_000);

  it('neither schedules nor seeds a task awaiting its seed without create-seed and a disk path', async () => {
    const agent = newAgent(mkdtempSync(join(base, 'state-')));
    agent.start();
    configure(agent, [
      seedTask({ id: 9, pathToSeedDisk: null }),
      seedTask({ id: 10, createSeed: false, pathToSeedDisk: join(base, 'disk-1') }),
    ]);
    expect(agent.scheduler.nextRun(9)).toBeNull();
    expect(agent.scheduler.nextRun(10)).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(reported(agent).filter((e) => e.type === 'runStarted')).toEqual([]);
    expect(agent.seeds.list()).toEqual([]);
  });

  it('checks the seed disk: absolute, an existing folder', async () => {
    const file = join(base, 'a-file');
    writeFileSync(file, 'x');
    expect(await seedDiskProblem(file)).toBe(seedDiskNotFolder(file));
    expect(await seedDiskProblem(join(base, 'nope'))).toBe(seedDiskMissing(join(base, 'nope')));
    expect(await seedDiskProblem('relative/disk')).toMatch(/not an absolute path/);
    expect(await seedDiskProblem(base)).toBeNull();
  });
});
