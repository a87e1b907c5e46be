/**
 * Retention on the portal (issue 16) against the real restic 0.14 and a real repository in the embedded
 * storage's folder: what a task keeps, the pruning of removed hosting accounts, two instances at once,
 * failures kept for later, and the mark a finished run leaves.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentToServer, agentToServerSchema, PANEL_MESSAGES, RETENTION_MESSAGES } from '@portal/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cheapResticKeys } from '../../../../agent/src/restic-test-key.js';
import type { Database } from '../../db/client.js';
import { backupTasks, machineMessages, runAccountSnapshots } from '../../db/schema/index.js';
import { runFinished } from '../../testing/agent-events.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { openTestDatabase } from '../../testing/database.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';
import { storageAccessFor } from '../../testing/storage-access.js';
import { createAgentEventsRepo } from '../agent-events/repo.js';
import { createAgentEventService } from '../agent-events/service.js';
import { createBackupStateService } from '../backup-state/service.js';
import { repositoryDir } from '../local-storage/paths.js';
import { createRetentionRepo } from './repo.js';
import { createRetentionService } from './service.js';

const PASSWORD = 'retention-test-password';
const masterKey = randomBytes(32).toString('hex');
let database: Database;
let tenants: Tenants;
let tmp = '';
let dataDir = '';
let src = '';

beforeAll(async () => {
  database = await openTestDatabase();
  tenants = await createTenants(database.db);
  tmp = mkdtempSync(join(tmpdir(), 'portal-retention-'));
  dataDir = join(tmp, 'data');
  src = join(tmp, 'src');
  mkdirSync(src, { recursive: true });
  writeFileSync(join(src, 'notes.txt'), 'kept by the portal\n');
}, 60_000);

// Each test counts the machines a pass takes: marks another test left (a fake clock's retries) are not its own.
beforeEach(async () => {
  await database.db.update(backupTasks).set({ retentionDueAt: null });
});

afterAll(async () => {
  await database?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// --- helpers -----------------------------------------------------------------------------------------

function restic(repo: string, args: string[]): string {
  return execFileSync('/usr/bin/restic', ['--no-cache', ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, RESTIC_REPOSITORY: repo, RESTIC_PASSWORD: PASSWORD },
    encoding: 'utf8',
  });
}

/** A machine of a package without a location, its repository in the embedded default folder, and one task. */
async function machineWithTask(task: Partial<typeof backupTasks.$inferInsert> = {}) {
  const fixtures = backupFixtures(database.db);
  const machineId = await fixtures.machine(await fixtures.package(tenants.customerA.customerId));
  const taskId = (await createBackupStateService({ db: database.db }).createTask(fixtures.task(machineId))) as number;
  await database.db.update(backupTasks).set(task).where(eq(backupTasks.id, taskId));
  const repo = repositoryDir(dataDir, null, machineId);
  restic(repo, ['init']);
  cheapResticKeys(repo, PASSWORD);
  return { machineId, taskId, repo };
}

/** Backs up as the agent does (its tags, a chosen time). */
function backupAt(repo: string, taskId: number, time: string, tags: string[] = []): string {
  const args = ['backup', '--json', '--host', 'pc', '--tag', `task-${taskId}`, '--time', time];
  for (const tag of tags) args.push('--tag', tag);
  const out = restic(repo, [...args, src]);
  const summary = out
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { message_type: string; snapshot_id?: string })
    .find((m) => m.message_type === 'summary');
  return summary?.snapshot_id ?? '';
}

const snapshots = (repo: string, taskId: number) =>
  JSON.parse(restic(repo, ['snapshots', '--json', '--tag', `task-${taskId}`])) as {
    id: string;
    time: string;
    tags: string[];
  }[];

/** restic itself, except that each call is noted in `log` and a `forget` runs `onForget` (shell) first. */
function wrappedRestic(name: string, onForget = ''): { binary: string; log: string } {
  const binary = join(tmp, `${name}.sh`);
  const log = join(tmp, `${name}.log`);
  writeFileSync(log, '');
  writeFileSync(
    binary,
    `#!/bin/sh\necho "$*" >> ${log}\nfor a in "$@"; do [ "$a" = forget ] && { ${onForget || ':;'} }; done\nexec /usr/bin/restic "$@"\n`,
    { mode: 0o755 },
  );
  return { binary, log };
}

function retentionService(options: { binary?: string; now?: () => Date } = {}) {
  return createRetentionService({
    repo: createRetentionRepo(database.db),
    storage: storageAccessFor(database.db, dataDir, masterKey),
    repositoryPassword: async () => PASSWORD,
    messages: createAgentEventsRepo(database.db),
    ...(options.binary ? { resticBinary: options.binary } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
}

const dueAt = (taskId: number) => createRetentionRepo(database.db).dueAt(taskId);
const messagesOf = async (machineId: number) =>
  (
    await database.db
      .select({ type: machineMessages.messageType, text: machineMessages.message })
      .from(machineMessages)
      .where(eq(machineMessages.backupMachineId, machineId))
  ).map((m) => `${m.type} ${m.text}`);

// --- tests -------------------------------------------------------------------------------------------

describe('retention on the portal', () => {
  it('keeps the newest snapshot of each of the last N weeks of the task after a run, and clears the mark', async () => {
    const { taskId, repo } = await machineWithTask({ numberOfSnapshotsToKeep: 2 });
    const other = await machineWithTask({ numberOfSnapshotsToKeep: 2 });
    for (const time of ['2026-09-01 10:00:00', '2026-09-02 10:00:00', '2026-09-09 10:00:00', '2026-09-16 10:00:00']) {
      backupAt(repo, taskId, time);
    }
    const newest = backupAt(repo, taskId, '2026-09-17 09:00:00');
    // Another task's snapshots in the same repository are never touched.
    backupAt(repo, taskId + 1000, '2026-01-01 10:00:00');
    backupAt(other.repo, other.taskId, '2026-01-01 10:00:00');
    backupAt(other.repo, other.taskId, '2026-02-01 10:00:00');
    backupAt(other.repo, other.taskId, '2026-03-01 10:00:00');

    const retention = retentionService();
    await retention.runFinished(taskId, { snapshotMade: true, numberOfSnapshotsToKeep: 2 });
    expect(await dueAt(taskId)).not.toBeNull();
    expect(await retention.runPending()).toBe(1);

    const kept = snapshots(repo, taskId);
    // The run's week (its newest, 17 September) and the week before that has one (16 September's belongs to the
    // same ISO week as the 17th: so the 9th).
    expect(kept).toHaveLength(2);
    expect(kept.map((s) => s.id.slice(0, 8))).toContain(newest.slice(0, 8));
    expect(kept.some((s) => s.time.startsWith('2026-09-09'))).toBe(true);
    expect(snapshots(repo, taskId + 1000)).toHaveLength(1);
    expect(snapshots(other.repo, other.taskId)).toHaveLength(3);
    expect(await dueAt(taskId)).toBeNull();
    // Nothing due: a pass does nothing.
    expect(await retention.runPending()).toBe(0);
  }, 120_000);

  it('leaves a task without a snapshot limit, or a run without a snapshot, unmarked', async () => {
    const unlimited = await machineWithTask({ numberOfSnapshotsToKeep: -1 });
    const retention = retentionService();
    await retention.runFinished(unlimited.taskId, { snapshotMade: true, numberOfSnapshotsToKeep: -1 });
    expect(await dueAt(unlimited.taskId)).toBeNull();
    await retention.runFinished(unlimited.taskId, { snapshotMade: false, numberOfSnapshotsToKeep: 3 });
    expect(await dueAt(unlimited.taskId)).toBeNull();
  }, 60_000);

  it('is marked due by a finished backup run the agent reports', async () => {
    const { machineId, taskId } = await machineWithTask({ numberOfSnapshotsToKeep: 3 });
    const retention = retentionService();
    const events = createAgentEventService({
      repo: createAgentEventsRepo(database.db),
      backupState: createBackupStateService({ db: database.db }),
      backupRunFinished: (id, run) => retention.runFinished(id, run),
    });
    const machine = { id: machineId, customerId: tenants.customerA.customerId, backupPackageId: 0 };
    const send = (body: AgentToServer) => events.handle(machine, agentToServerSchema.parse(body));
    await send({ type: 'runStarted', runKey: 'r1', taskId, startedAt: new Date().toISOString(), manual: false });
    expect(await dueAt(taskId)).toBeNull();
    await send(runFinished('r1', { snapshotId: 'b'.repeat(64) }));
    expect(await dueAt(taskId)).not.toBeNull();
  }, 60_000);

  it('lets only one of two instances prune a repository', async () => {
    const { taskId, repo } = await machineWithTask({ numberOfSnapshotsToKeep: 1 });
    for (const time of ['2026-08-01 10:00:00', '2026-08-10 10:00:00', '2026-08-20 10:00:00']) {
      backupAt(repo, taskId, time);
    }
    const wrapped = wrappedRestic('two-instances');
    await retentionService().runFinished(taskId, { snapshotMade: true, numberOfSnapshotsToKeep: 1 });
    const [one, two] = await Promise.all([
      retentionService({ binary: wrapped.binary }).runPending(),
      retentionService({ binary: wrapped.binary }).runPending(),
    ]);
    expect(one + two).toBe(1);
    const forgets = readFileSync(wrapped.log, 'utf8')
      .split('\n')
      .filter((line) => line.includes('forget') && !line.includes('--dry-run'));
    expect(forgets).toHaveLength(1);
    expect(snapshots(repo, taskId)).toHaveLength(1);
  }, 120_000);

  it('keeps the mark when forget fails, says so once on the machine log, and tries again later', async () => {
    const { machineId, taskId, repo } = await machineWithTask({ numberOfSnapshotsToKeep: 1 });
    backupAt(repo, taskId, '2026-08-01 10:00:00');
    backupAt(repo, taskId, '2026-08-20 10:00:00');
    const failing = wrappedRestic('failing', 'echo "Fatal: unable to save index: storage gone" >&2; exit 1;');
    let now = new Date('2026-09-01T00:00:00Z');
    const retention = retentionService({ binary: failing.binary, now: () => now });
    await retention.runFinished(taskId, { snapshotMade: true, numberOfSnapshotsToKeep: 1 });
    expect(await retention.runPending()).toBe(1);
    const retryAt = await dueAt(taskId);
    expect(retryAt?.getTime()).toBe(now.getTime() + 60_000);
    expect(snapshots(repo, taskId)).toHaveLength(2);
    const warning = `WARNING ${RETENTION_MESSAGES.failed('Fatal: unable to save index: storage gone')}`;
    expect(await messagesOf(machineId)).toEqual([warning]);

    // Not before its time; then failing again waits twice as long, without a second message.
    expect(await retention.runPending()).toBe(0);
    now = new Date(now.getTime() + 60_000);
    expect(await retention.runPending()).toBe(1);
    expect((await dueAt(taskId))?.getTime()).toBe(now.getTime() + 120_000);
    expect(await messagesOf(machineId)).toEqual([warning]);

    // The storage is back: done.
    now = new Date(now.getTime() + 120_000);
    expect(await retentionService({ now: () => now }).runPending()).toBe(1);
    expect(await dueAt(taskId)).toBeNull();
    expect(snapshots(repo, taskId)).toHaveLength(1);
  }, 120_000);

  it('removes nothing while the task has snapshots dated ahead of the portal’s clock (they would push real ones out)', async () => {
    const { machineId, taskId, repo } = await machineWithTask({ numberOfSnapshotsToKeep: 1 });
    backupAt(repo, taskId, '2026-08-01 10:00:00');
    backupAt(repo, taskId, '2026-08-20 10:00:00');
    // What ransomware writing with the machine's key could add: a snapshot of the task from the year 2099.
    backupAt(repo, taskId, '2099-01-01 10:00:00');
    const now = new Date('2026-09-01T00:00:00Z');
    const retention = retentionService({ now: () => now });
    await retention.runFinished(taskId, { snapshotMade: true, numberOfSnapshotsToKeep: 1 });
    expect(await retention.runPending()).toBe(1);
    expect(snapshots(repo, taskId)).toHaveLength(3);
    expect(await dueAt(taskId)).not.toBeNull();
    expect(await messagesOf(machineId)).toEqual([`WARNING ${RETENTION_MESSAGES.snapshotsAhead(1)}`]);
  }, 60_000);

  it('waits for a repository a backup holds locked, removing only stale locks, and writes no message', async () => {
    const { machineId, taskId, repo } = await machineWithTask({ numberOfSnapshotsToKeep: 1 });
    backupAt(repo, taskId, '2026-08-01 10:00:00');
    const locked = wrappedRestic(
      'locked',
      'echo "unable to create lock in backend: repository is already locked by PID 7 on pc" >&2; exit 1;',
    );
    await retentionService().runFinished(taskId, { snapshotMade: true, numberOfSnapshotsToKeep: 1 });
    expect(await retentionService({ binary: locked.binary }).runPending()).toBe(1);
    expect(await dueAt(taskId)).not.toBeNull();
    const calls = readFileSync(locked.log, 'utf8').split('\n');
    expect(calls).toContain('--no-cache unlock');
    expect(calls.some((line) => line.includes('--remove-all'))).toBe(false);
    expect(await messagesOf(machineId)).toEqual([]);
  }, 60_000);
});

describe('pruning removed hosting accounts on the portal', () => {
  it("deletes a removed account's backups once the delay since the portal first learned it has passed", async () => {
    const { machineId, taskId, repo } = await machineWithTask({
      type: 'CPANEL',
      pruneAfterCount: 2,
      pruneTimeUnit: 'DAY',
      numberOfSnapshotsToKeep: -1,
    });
    const ana = backupAt(repo, taskId, '2026-03-01 12:00:00', ['account-ana']);
    const bob = backupAt(repo, taskId, '2026-03-01 12:00:00', ['account-bob']);
    const full = (short: string) => snapshots(repo, taskId).find((s) => s.id.startsWith(short))?.id ?? '';
    await database.db.insert(runAccountSnapshots).values([
      { backupTaskId: taskId, runSnapshotId: full(ana), account: 'ana', resticSnapshotId: full(ana) },
      { backupTaskId: taskId, runSnapshotId: full(ana), account: 'bob', resticSnapshotId: full(bob) },
    ]);
    let now = new Date('2026-03-02T12:00:00Z');
    const retention = retentionService({ now: () => now });
    const run = { snapshotMade: true, numberOfSnapshotsToKeep: -1, panelAccounts: ['ana'] };

    // Bob is reported gone: recorded, not pruned.
    await retention.runFinished(taskId, run);
    await retention.runPending();
    expect(snapshots(repo, taskId)).toHaveLength(2);

    // A day and a half later: not yet (the delay counts from the first report, not from each run).
    now = new Date('2026-03-04T00:00:00Z');
    await retention.runFinished(taskId, run);
    await retention.runPending();
    expect(snapshots(repo, taskId)).toHaveLength(2);

    // Two days after: forgotten and pruned; ana's backups untouched; the machine's log says so.
    now = new Date('2026-03-04T12:00:00Z');
    await retention.runFinished(taskId, run);
    await retention.runPending();
    expect(snapshots(repo, taskId).map((s) => s.tags)).toEqual([[`task-${taskId}`, 'account-ana']]);
    expect(await messagesOf(machineId)).toEqual([`INFO ${PANEL_MESSAGES.pruned(['bob'])}`]);
    const accounts = await database.db
      .select({ account: runAccountSnapshots.account })
      .from(runAccountSnapshots)
      .where(and(eq(runAccountSnapshots.backupTaskId, taskId)));
    expect(accounts).toEqual([{ account: 'ana' }]);
    expect(await dueAt(taskId)).toBeNull();
  }, 120_000);

  it('forgets the record of an account that is back, and never prunes with pruning off', async () => {
    const { taskId, repo } = await machineWithTask({
      type: 'CPANEL',
      pruneAfterCount: -1,
      numberOfSnapshotsToKeep: -1,
    });
    const bob = backupAt(repo, taskId, '2026-03-01 12:00:00', ['account-bob']);
    const id = snapshots(repo, taskId).find((s) => s.id.startsWith(bob))?.id ?? '';
    await database.db
      .insert(runAccountSnapshots)
      .values({ backupTaskId: taskId, runSnapshotId: id, account: 'bob', resticSnapshotId: id });
    let now = new Date('2026-03-02T12:00:00Z');
    const retention = retentionService({ now: () => now });
    await retention.runFinished(taskId, { snapshotMade: true, numberOfSnapshotsToKeep: -1, panelAccounts: [] });
    expect(await createRetentionRepo(database.db).removedAccounts(taskId)).toHaveLength(1);
    now = new Date('2030-01-01T00:00:00Z');
    await retention.runPending();
    expect(snapshots(repo, taskId)).toHaveLength(1);
    await retention.runFinished(taskId, { snapshotMade: true, numberOfSnapshotsToKeep: -1, panelAccounts: ['bob'] });
    expect(await createRetentionRepo(database.db).removedAccounts(taskId)).toEqual([]);
  }, 60_000);
});
