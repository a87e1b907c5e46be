// Restore tests (issue 32 item 1): the time of one restore test of 1,000 sampled files through the agent's own test
// (runRestoreTest: snapshot listings, the trees and index for the content ids, `restic restore` of the sample into a
// scratch folder, every file hashed blob by blob, the folder removed), beside a bare `restic restore` of the same
// 1,000 files. The repository (BENCH_RESTORE_TEST_FILES files of 16 KiB, 100 to a folder, backed up twice with 50
// files changed between) is built once and kept under the temporary folder. A test that does not pass or a bare restic
// call that fails fails the run, and no figures are printed.
// `npx tsx bench/restore-test/thousand-files.ts`.
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ResticExit, ResticRunner } from '../../apps/agent/src/restic.js';
import { runRestoreTest, sampleFiles } from '../../apps/agent/src/restore-test.js';
import { Answers } from '../answers.js';
import { loadAverages } from '../machine.js';
import { keptUnder, resticOn } from '../restic.js';

const FILES = Number(process.env.BENCH_RESTORE_TEST_FILES ?? 10_000);
const SAMPLE = 1000;
const PER_FOLDER = 100;
const FILE_BYTES = 16 * 1024;
const PASSWORD = 'bench-restore-test-password';
const ROOT = join(tmpdir(), `portal-bench-restore-test-${FILES}`);
const REPOSITORY = join(ROOT, 'repo');
const DATA = join(ROOT, 'data');
const TASK_ID = 1;

const pathOf = (i: number) =>
  join(DATA, `folder-${String(Math.floor(i / PER_FOLDER)).padStart(4, '0')}`, `file-${String(i).padStart(6, '0')}.bin`);

const restic = resticOn(REPOSITORY, PASSWORD);
const answers = new Answers();
/** A bare restic call that must succeed, counted. */
const counted = (exit: ResticExit, what: string) =>
  answers.outcome(`bare restic ${what}`, exit.code === 0, `exit code ${exit.code} ${exit.spawnError?.message ?? ''}`);

const ensureRepository = () =>
  keptUnder(ROOT, () => {
    for (let i = 0; i < FILES; i++) {
      if (i % PER_FOLDER === 0) mkdirSync(join(pathOf(i), '..'), { recursive: true });
      writeFileSync(pathOf(i), randomBytes(FILE_BYTES));
    }
    restic(['init']);
    const backup = ['backup', '--host', 'bench', '--tag', `task-${TASK_ID}`, DATA];
    restic(backup);
    for (let i = 0; i < 50; i++) writeFileSync(pathOf(i * 97), randomBytes(FILE_BYTES));
    restic(backup);
  });

/** A repeatable random source, so the bare restore restores the very files the test sampled. */
const seeded = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};

const runner = new ResticRunner({
  repository: { repository: REPOSITORY, password: PASSWORD },
  host: 'bench',
  cacheDir: join(ROOT, 'cache'),
  platform: 'UNIX',
});

async function restoreTest(seed: number) {
  const started = performance.now();
  const finished = await runRestoreTest(
    runner,
    {
      type: 'restoreTest',
      requestId: 'bench',
      testKey: '00000000-0000-4000-8000-000000000001',
      taskId: TASK_ID,
      maxFiles: SAMPLE,
      maxBytes: 1024 * 1024 * 1024,
    },
    { scratchRoot: join(ROOT, 'scratch'), platform: 'UNIX', random: seeded(seed) },
  );
  return { ms: performance.now() - started, finished };
}

/** `restic restore` of the same sample alone: what the proof adds is the difference. */
async function bareRestore(seed: number, snapshotId: string) {
  const listed: Array<{ path: string; size: number; mtime: string }> = [];
  const listing = await runner.call({
    args: ['ls', '--no-lock', '--json', snapshotId],
    onStdoutLine: (line) => {
      const node = JSON.parse(line) as {
        struct_type?: string;
        type?: string;
        path: string;
        size: number;
        mtime: string;
      };
      if (node.struct_type === 'node' && node.type === 'file') listed.push(node);
    },
  });
  counted(listing, 'ls');
  const sample = sampleFiles(
    listed,
    new Map(listed.map((f) => [f.path, f])),
    { maxFiles: SAMPLE, maxBytes: 2 ** 40 },
    seeded(seed),
  );
  const target = join(ROOT, 'bare');
  const started = performance.now();
  const restored = await runner.call({
    args: ['restore', snapshotId, '--target', target, ...sample.files.flatMap((f) => ['--include', f.path])],
  });
  const ms = performance.now() - started;
  counted(restored, 'restore');
  rmSync(target, { recursive: true, force: true });
  return ms;
}

ensureRepository();
console.log(`load average before: ${loadAverages()}`);
const rows: string[] = [];
for (const [run, seed] of [
  ['first (cache cold)', 1],
  ['again', 2],
  ['again', 3],
] as const) {
  if (run.startsWith('first')) rmSync(join(ROOT, 'cache'), { recursive: true, force: true });
  const { ms, finished } = await restoreTest(seed);
  answers.outcome("the agent's restore test", finished.outcome === 'PASSED', JSON.stringify(finished));
  const bare = await bareRestore(seed, finished.snapshotId ?? '');
  rows.push(
    `| ${run} | ${finished.filesTested} (${finished.changedFilesTested} changed) | ${(finished.bytesTested / 1024 / 1024).toFixed(1)} MiB | ${Math.round(ms)} ms | ${Math.round(bare)} ms |`,
  );
}
if (!answers.verdict('Restore test')) process.exit(1);
console.log(`\n${FILES} files in the snapshot, ${SAMPLE} sampled (load average after: ${loadAverages()})\n`);
console.log('| run | files tested | bytes | restore test | bare restic restore of the same files |');
console.log('|---|---|---|---|---|');
for (const row of rows) console.log(row);
