/**
 * Restore to the machine against the real restic 0.14 on real files and a local repository in a temporary
 * directory: the restored bytes are compared with the backed-up ones.
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentToServerSchema, type RestoreConflictChoice } from '@portal/domain';
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
const command = (
  options: {
    includes?: string[];
    snapshot?: string;
    target?: string | null;
    existingFiles?: RestoreConflictChoice;
  } = {},
): RestoreCommand => ({
  type: 'restoreRun',
  requestId: 'q',
  taskId: 3,
  runId: 1,
  snapshots: [{ snapshotId: options.snapshot ?? snapshotId, includes: options.includes ?? [] }],
  target: options.target ?? null,
  existingFiles: options.existingFiles ?? 'OVERWRITE',
});

/** The restore's start as the tests' clock gives it: kept-both names carry it. */
const START = new Date(2026, 0, 31, 14, 5);

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
    { signal: stop.signal, platform: 'UNIX', measureMs: 5, now: () => START },
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
    expect(finished.restoreSummary).toEqual({
      filesRestored: 2,
      bytesRestored: total,
      filesRenamed: 0,
      filesSkipped: 0,
      errors: 0,
    });
  }, 60_000);

  describe('files that already exist where restored ones go', () => {
    const docs = () => join(src, 'docs');
    /** A target holding the machine's own a.txt (changed) and a file the backup does not have. */
    const machineFiles = (name: string) => {
      const target = join(base, name);
      const at = (path: string) => join(target, docs(), path);
      mkdirSync(join(target, docs()), { recursive: true });
      writeFileSync(at('a.txt'), "the machine's a\n");
      writeFileSync(at('mine.txt'), 'only on the machine\n');
      return { target, at };
    };
    const leftOver = (target: string) =>
      readdirSync(join(target, docs())).filter((name) => name.startsWith('.portal-restore-'));

    it('overwrites them: every file is the backed-up one, the rest of the folder stays', async () => {
      const { target, at } = machineFiles('overwrite');
      const { finished } = await restore(command({ includes: [docs()], target, existingFiles: 'OVERWRITE' }));
      expect(finished.status).toBe('FINISHED_SUCCESS');
      expect(readFileSync(at('a.txt'), 'utf8')).toBe('alpha\n');
      expect(readFileSync(at('sub/big.bin')).equals(big)).toBe(true);
      expect(readFileSync(at('mine.txt'), 'utf8')).toBe('only on the machine\n');
      expect(finished.restoreSummary).toEqual({
        filesRestored: 3,
        bytesRestored: big.length + 12,
        filesRenamed: 0,
        filesSkipped: 0,
        errors: 0,
      });
      expect(leftOver(target)).toEqual([]);
    }, 60_000);

    it("skips them: the machine's file stays, the missing ones are restored", async () => {
      const { target, at } = machineFiles('skip');
      const { finished } = await restore(command({ includes: [docs()], target, existingFiles: 'SKIP' }));
      expect(finished.status).toBe('FINISHED_SUCCESS');
      expect(readFileSync(at('a.txt'), 'utf8')).toBe("the machine's a\n");
      expect(readFileSync(at('sub/b.txt'), 'utf8')).toBe('bravo\n');
      expect(readFileSync(at('sub/big.bin')).equals(big)).toBe(true);
      expect(finished.restoreSummary).toEqual({
        filesRestored: 2,
        bytesRestored: big.length + 6,
        filesRenamed: 0,
        filesSkipped: 1,
        errors: 0,
      });
      expect(leftOver(target)).toEqual([]);
    }, 60_000);

    it('keeps both: the restored file beside the machine’s under a dated name, numbered when that is taken', async () => {
      const { target, at } = machineFiles('keep-both');
      writeFileSync(at('a (restored 2026-01-31 1405).txt'), 'an earlier restore\n');
      const { finished } = await restore(command({ includes: [docs()], target, existingFiles: 'KEEP_BOTH' }));
      expect(finished.status).toBe('FINISHED_SUCCESS');
      expect(readFileSync(at('a.txt'), 'utf8')).toBe("the machine's a\n");
      expect(readFileSync(at('a (restored 2026-01-31 1405).txt'), 'utf8')).toBe('an earlier restore\n');
      expect(readFileSync(at('a (restored 2026-01-31 1405 2).txt'), 'utf8')).toBe('alpha\n');
      expect(readFileSync(at('sub/big.bin')).equals(big)).toBe(true);
      expect(finished.restoreSummary).toMatchObject({ filesRestored: 3, filesRenamed: 1, filesSkipped: 0, errors: 0 });
      expect(leftOver(target)).toEqual([]);
    }, 60_000);

    it('does not replace a folder with a file: an error in the summary, a warning, the rest restored', async () => {
      const { target, at } = machineFiles('folder-in-the-way');
      rmSync(at('a.txt'));
      mkdirSync(at('a.txt'));
      const { finished, events } = await restore(command({ includes: [docs()], target, existingFiles: 'OVERWRITE' }));
      expect(finished).toMatchObject({ status: 'FINISHED_WARNINGS', exitCodeResult: 'SOME_FILES_NOT_ACCESSIBLE' });
      expect(finished.restoreSummary).toMatchObject({ filesRestored: 2, errors: 1 });
      expect(readFileSync(at('sub/big.bin')).equals(big)).toBe(true);
      const warnings = events
        .flatMap((e) => (e.type === 'messages' ? e.messages : []))
        .filter((m) => m.type === 'WARNING');
      expect(warnings.map((m) => m.text)).toContain(
        `${at('a.txt')} could not be restored: a file and a folder of the same name: not replaced`,
      );
    }, 60_000);
  });

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
