/**
 * Restore to the machine against the real restic 0.14 on real files and a local repository in a temporary
 * directory: the restored bytes are compared with the backed-up ones.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentToServerSchema } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResticRunner, type RunEvent } from './restic.js';
import { type RestoreCommand, refusedRestore, restoreArgs, runRestore } from './restore.js';
import { dirItem, makeTask } from './testing.js';

let base = '';
let src = '';
let snapshotId = '';
let runner: ResticRunner;
const big = randomBytes(3 * 1024 * 1024);

/** The restore of one snapshot (the backed-up one unless told), its chosen paths (none: all) to the target. */
const command = (options: { includes?: string[]; snapshot?: string; target?: string | null } = {}): RestoreCommand => ({
  type: 'restoreRun',
  requestId: 'q',
  taskId: 3,
  runId: 1,
  snapshots: [{ snapshotId: options.snapshot ?? snapshotId, includes: options.includes ?? [] }],
  target: options.target ?? null,
});

async function restore(restoreCommand: RestoreCommand, onEvent?: (event: RunEvent, abort: () => void) => void) {
  const events: RunEvent[] = [];
  const stop = new AbortController();
  const finished = await runRestore(
    runner,
    restoreCommand,
    `restore-${Date.now()}`,
    (event) => {
      events.push(event);
      onEvent?.(event, () => stop.abort());
    },
    { signal: stop.signal, platform: 'UNIX', measureMs: 5 },
  );
  for (const event of [...events, finished]) expect(agentToServerSchema.safeParse(event).success).toBe(true);
  return { finished, progress: events.filter((e) => e.type === 'runProgress'), events };
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'agent-restore-'));
  chmodSync(base, 0o755);
  src = join(base, 'src');
  mkdirSync(join(src, 'docs', 'sub'), { recursive: true });
  writeFileSync(join(src, 'docs', 'a.txt'), 'alpha\n');
  writeFileSync(join(src, 'docs', 'sub', 'b.txt'), 'bravo\n');
  writeFileSync(join(src, 'docs', 'sub', 'big.bin'), big);
  runner = new ResticRunner({
    repository: { repository: join(base, 'repo'), password: 'restore-test-password' },
    host: 'test-machine',
    cacheDir: null,
    platform: 'UNIX',
  });
  const finished = await runner.backup(makeTask({ id: 3, backupItems: [dirItem(join(src, 'docs'))] }), 'b', () => {});
  expect(finished.status).toBe('FINISHED_SUCCESS');
  snapshotId = finished.snapshotId ?? '';
}, 60_000);

afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

describe('restore to the machine', () => {
  it('builds restic restore: the snapshot, the target (/ for the original place), one literal --include per item', () => {
    expect(restoreArgs({ snapshotId, includes: ['/a/*b', '/c'] }, '/', 'UNIX')).toEqual([
      'restore',
      snapshotId,
      '--target',
      '/',
      '--include',
      '/a/\\*b',
      '--include',
      '/c',
    ]);
    expect(restoreArgs({ snapshotId, includes: [] }, '/srv/x', 'UNIX')).toEqual([
      'restore',
      snapshotId,
      '--target',
      '/srv/x',
    ]);
    expect(refusedRestore(command(), 'WINDOWS')).toMatch(/original place is not supported on Windows/);
    expect(refusedRestore(command({ target: 'D:\\x' }), 'WINDOWS')).toBeNull();
  });

  it('restores the chosen folder below another folder, with the same bytes and honest progress', async () => {
    const target = join(base, 'chosen');
    const sub = join(src, 'docs', 'sub');
    const { finished, progress } = await restore(command({ includes: [sub], target }));
    expect(finished).toMatchObject({ status: 'FINISHED_SUCCESS', exitCodeResult: 'SUCCESS', failureMessage: null });
    expect(readFileSync(join(target, sub, 'big.bin')).equals(big)).toBe(true);
    expect(readFileSync(join(target, sub, 'b.txt'), 'utf8')).toBe('bravo\n');
    expect(existsSync(join(target, src, 'docs', 'a.txt'))).toBe(false);
    const total = big.length + 'bravo\n'.length;
    expect(finished.bytesTotal).toBe(total);
    expect(progress[0]).toMatchObject({ phase: 'PREPARING_FOR_TRANSFER', percentage: 0 });
    expect(progress.some((p) => p.phase === 'TRANSFERRING_FILES' && p.bytesTotal === total)).toBe(true);
    // Never 100 % before restic has finished; then everything.
    expect(progress.filter((p) => p.phase !== 'FINALIZED').every((p) => p.percentage < 100)).toBe(true);
    expect(progress.at(-1)).toMatchObject({ phase: 'FINALIZED', percentage: 100, currentItem: 2, totalItems: 2 });
  }, 60_000);

  it('restores a changed file to its original place', async () => {
    const file = join(src, 'docs', 'a.txt');
    writeFileSync(file, 'changed since the backup\n');
    const { finished } = await restore(command({ includes: [file] }));
    expect(finished.status).toBe('FINISHED_SUCCESS');
    expect(readFileSync(file, 'utf8')).toBe('alpha\n');
  }, 60_000);

  it('cancels: restic is stopped and the restore is FAILED as cancelled', async () => {
    const target = join(base, 'cancelled');
    const { finished } = await restore(command({ target }), (event, abort) => {
      if (event.type === 'runProgress' && event.phase === 'TRANSFERRING_FILES') abort();
    });
    expect(finished).toMatchObject({ status: 'FAILED', exitCodeResult: 'CANCELLATION_REQUESTED' });
  }, 60_000);

  it('fails with a message when the snapshot cannot be read', async () => {
    const { finished, events } = await restore(command({ snapshot: 'f'.repeat(64), target: join(base, 'none') }));
    expect(finished).toMatchObject({ status: 'FAILED', exitCodeResult: 'FATAL' });
    expect(finished.failureMessage).toMatch(/^The snapshot could not be read: .*no matching ID found/);
    expect(events.some((e) => e.type === 'messages' && e.messages.some((m) => m.type === 'ERROR'))).toBe(true);
  }, 60_000);
});
