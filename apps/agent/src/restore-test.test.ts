/**
 * Restore tests against the real restic 0.14 and a local repository: a clean repository passes, a restored file
 * changed before the check and a pack whose bytes were altered are both found, and the scratch folder is gone after.
 */
import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentToServerSchema } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResticRunner } from './restic.js';
import { type RestoreTestCommand, type RestoreTestOptions, runRestoreTest, sampleFiles } from './restore-test.js';
import { dirItem, makeTask } from './testing.js';

let base = '';
let src = '';
let repo = '';
let runner: ResticRunner;
const TASK = 7;

const command = (sample: Partial<Pick<RestoreTestCommand, 'maxFiles' | 'maxBytes'>> = {}): RestoreTestCommand => ({
  type: 'restoreTest',
  requestId: 'q',
  testKey: '3f7c1a52-6d7e-4b8a-9c1d-2e3f4a5b6c7d',
  taskId: TASK,
  maxFiles: sample.maxFiles ?? 100,
  maxBytes: sample.maxBytes ?? 64 * 1024 * 1024,
});

async function test(sample?: Parameters<typeof command>[0], options: Partial<RestoreTestOptions> = {}) {
  const finished = await runRestoreTest(runner, command(sample), {
    scratchRoot: join(base, 'scratch'),
    platform: 'UNIX',
    ...options,
  });
  expect(agentToServerSchema.safeParse(finished).success).toBe(true);
  expect(existsSync(join(base, 'scratch', command().testKey))).toBe(false);
  return finished;
}

const backup = async () => {
  const finished = await runner.backup(
    makeTask({ id: TASK, backupItems: [dirItem(src)] }),
    `b-${Date.now()}`,
    () => {},
  );
  expect(finished.status).toBe('FINISHED_SUCCESS');
};

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'agent-restore-test-'));
  chmodSync(base, 0o755);
  src = join(base, 'src');
  mkdirSync(join(src, 'docs', 'deep', 'er'), { recursive: true });
  for (let i = 0; i < 20; i++) writeFileSync(join(src, 'docs', `f${i}.txt`), `file ${i}\n`);
  writeFileSync(join(src, 'docs', 'deep', 'er', 'big.bin'), randomBytes(5 * 1024 * 1024));
  writeFileSync(join(src, 'empty.txt'), '');
  repo = join(base, 'repo');
  runner = new ResticRunner({
    repository: { repository: repo, password: 'restore-test-password' },
    host: 'test-machine',
    cacheDir: null,
    platform: 'UNIX',
  });
  await backup();
  // The second run changes one file and adds one: both are always in the sample.
  appendFileSync(join(src, 'docs', 'f3.txt'), 'changed\n');
  writeFileSync(join(src, 'docs', 'new.txt'), 'new\n');
  await backup();
}, 120_000);

afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

describe('sampling', () => {
  const file = (path: string, size = 10, mtime = 't1') => ({ path, size, mtime });
  it('takes changed and new files first, then others, within the count and the byte cap', () => {
    const before = new Map([file('/a'), file('/b'), file('/c', 10, 't0')].map((f) => [f.path, f]));
    const now = [file('/a'), file('/b'), file('/c'), file('/d', 50), file('/huge', 1000)];
    const two = sampleFiles(now, before, { maxFiles: 2, maxBytes: 500 });
    expect(two.files.map((f) => f.path).sort()).toEqual(['/c', '/d']);
    expect(two.changed).toBe(2);
    // The huge new file passes the cap: left out, smaller ones still fit.
    const capped = sampleFiles(now, before, { maxFiles: 10, maxBytes: 100 });
    expect(capped.files.map((f) => f.path).sort()).toEqual(['/a', '/b', '/c', '/d']);
    expect(capped.changed).toBe(2);
    // Without a snapshot before it, every file is new.
    expect(sampleFiles(now, null, { maxFiles: 10, maxBytes: 10_000 }).changed).toBe(5);
  });
});

describe('restore test with restic', () => {
  it('passes on an intact repository: every sampled file proved against the content ids, changed ones included', async () => {
    const finished = await test();
    expect(finished).toMatchObject({ outcome: 'PASSED', mismatchCount: 0, filesTested: 23, message: null });
    expect(finished.snapshotId).toMatch(/^[0-9a-f]{64}$/);
    expect(finished.bytesTested).toBe(5 * 1024 * 1024 + 20 * 7 + 10 + 8 + 4);
    expect(finished.changedFilesTested).toBe(2);
  }, 60_000);

  it('keeps to the sample: two files, the changed ones', async () => {
    const finished = await test({ maxFiles: 2 });
    expect(finished).toMatchObject({ outcome: 'PASSED', filesTested: 2, changedFilesTested: 2 });
    expect(finished.bytesTested).toBe(readFileSync(join(src, 'docs', 'f3.txt')).length + 4);
  }, 60_000);

  it('finds a restored file that differs from the snapshot, whatever the live file says', async () => {
    const finished = await test(
      {},
      {
        beforeCheck: async (scratch) => {
          const restored = join(scratch, src, 'docs', 'f5.txt');
          writeFileSync(restored, 'file 6\n'); // same size, other bytes
        },
      },
    );
    expect(finished).toMatchObject({ outcome: 'MISMATCH', mismatchCount: 1 });
    expect(finished.mismatches).toEqual([{ path: join(src, 'docs', 'f5.txt'), kind: 'CONTENT' }]);
  }, 60_000);

  it('finds a pack whose stored bytes were tampered with', async () => {
    // The largest pack holds the big file's data; one byte changed in the middle of it.
    const packs = readdirSync(join(repo, 'data'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
    const largest = packs.sort((a, b) => statSync(b).size - statSync(a).size)[0] as string;
    chmodSync(largest, 0o600);
    const bytes = readFileSync(largest);
    const at = Math.floor(bytes.length / 2);
    bytes[at] = (bytes[at] ?? 0) ^ 0xff;
    writeFileSync(largest, bytes);
    const finished = await test();
    expect(finished.message).toBeNull();
    expect(finished.outcome).toBe('MISMATCH');
    expect(finished.mismatches).toEqual([
      { path: join(src, 'docs', 'deep', 'er', 'big.bin'), kind: expect.stringMatching(/^(SIZE|CONTENT|MISSING)$/) },
    ]);
  }, 60_000);

  it('fails with the reason when the task has no snapshot', async () => {
    const finished = await runRestoreTest(
      runner,
      { ...command(), taskId: 99 },
      { scratchRoot: join(base, 'scratch'), platform: 'UNIX' },
    );
    expect(finished).toMatchObject({ outcome: 'FAILED', snapshotId: null, filesTested: 0 });
    expect(finished.message).toMatch(/no snapshot/);
  }, 60_000);
});
