// File search at scale (issue 31 item 2): a restic repository of 1,000,000 files, searched through the agent's
// own search (runFileSearch: the snapshot listing, then the snapshot's file index as the agent builds it after a
// backup, or `restic find --json` read as it arrives, and the batches the agent sends); the time to the first batch
// of matches is the figure, target 2 s with the index (every case, every run; exit 1 if missed), plain `restic find`
// beside it. The index is built afresh each time, timed. The repository is built once and kept under the temporary
// folder (BENCH_FILE_SEARCH_FILES files, empty, 1,000 to a folder: `find` reads only trees). A search that does not
// end complete (or at its limit) fails the run, and no figures are printed.
// `npx tsx bench/file-search/first-results.ts`.
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FILE_SEARCH } from '@portal/domain';
import { FileIndexer, FileIndexStore } from '../../apps/agent/src/file-index.js';
import { type FileSearchEvent, runFileSearch } from '../../apps/agent/src/file-search.js';
import { ResticRunner } from '../../apps/agent/src/restic.js';
import { Answers } from '../answers.js';
import { loadAverages } from '../machine.js';
import { keptUnder, resticOn } from '../restic.js';

const FILES = Number(process.env.BENCH_FILE_SEARCH_FILES ?? 1_000_000);
const PER_FOLDER = 1000;
const TARGET_MS = 2000;
const PASSWORD = 'bench-file-search-password';
const ROOT = join(tmpdir(), `portal-bench-file-search-${FILES}`);
const REPOSITORY = join(ROOT, 'repo');
const TASK_ID = 1;

const name = (i: number) => `document-${String(i).padStart(7, '0')}.txt`;

const restic = resticOn(REPOSITORY, PASSWORD);
const answers = new Answers();

/** The files, backed up as the task's snapshot, then removed: the repository is what is kept. */
const ensureRepository = () =>
  keptUnder(ROOT, () => {
    const data = join(ROOT, 'data');
    let started = Date.now();
    for (let i = 0; i < FILES; i++) {
      const folder = join(data, 'home', 'shared', `folder-${String(Math.floor(i / PER_FOLDER)).padStart(4, '0')}`);
      if (i % PER_FOLDER === 0) mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, name(i)), '');
    }
    console.log(`generated ${FILES} files in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    started = Date.now();
    restic(['init']);
    restic(['backup', '--host', 'bench', '--tag', `task-${TASK_ID}`, '.'], data);
    console.log(`backed up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    rmSync(data, { recursive: true, force: true });
  });

const runner = () =>
  new ResticRunner({
    repository: { repository: REPOSITORY, password: PASSWORD },
    host: 'bench',
    cacheDir: join(ROOT, 'cache'),
  });

async function search(
  pattern: string,
  index: FileIndexer | null,
): Promise<{ firstMs: number | null; totalMs: number; cpuMs: number; matches: number; outcome: string }> {
  const started = performance.now();
  // The agent's own CPU time (reading and matching the index; restic's, a child process, is not in it).
  const cpu = process.cpuUsage();
  let firstMs: number | null = null;
  let matches = 0;
  const finished = await runFileSearch(
    runner(),
    {
      type: 'fileSearch',
      requestId: 'bench',
      searchKey: 'search:1:customer:bench',
      taskIds: [TASK_ID],
      pattern,
      ignoreCase: true,
      limit: FILE_SEARCH.maxMatches,
    },
    (event: FileSearchEvent) => {
      if (event.type !== 'fileSearchMatches') return;
      firstMs ??= performance.now() - started;
      matches += event.matches.length;
    },
    { index },
  );
  const ended = finished.outcome === 'COMPLETE' || finished.outcome === 'LIMIT_REACHED';
  answers.outcome(`search ${index ? 'with' : 'without'} the index`, ended, `${pattern}: ${finished.outcome}`);
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  return { firstMs, totalMs: performance.now() - started, cpuMs, matches, outcome: finished.outcome };
}

ensureRepository();
console.log(`load average before: ${loadAverages()}`);

// The index as the agent builds it after a backup: `restic ls --json` at the lowest priority into its gzip'd file.
const indexDir = join(ROOT, 'file-index');
rmSync(indexDir, { recursive: true, force: true });
const indexer = new FileIndexer(new FileIndexStore(indexDir), runner(), (text) => console.log(text));
const buildStarted = performance.now();
indexer.kick();
await indexer.idle();
const buildMs = performance.now() - buildStarted;
const indexBytes = readdirSync(indexDir).reduce((sum, name) => sum + statSync(join(indexDir, name)).size, 0);
console.log(
  `index built in ${(buildMs / 1000).toFixed(1)} s, ${(indexBytes / 1024 / 1024).toFixed(1)} MiB on disk (load ${loadAverages()})`,
);

const patterns = [
  ['a name early in the tree', name(1)],
  ['a name late in the tree', name(FILES - 1)],
  ['a pattern matching every file (limit reached)', 'document-*'],
  ['a path pattern', `/home/shared/folder-${String(Math.floor((FILES - 1) / PER_FOLDER)).padStart(4, '0')}/*7.txt`],
] as const;
const rows: string[] = [];
let missed = false;
const cell = (ms: number | null) => (ms === null ? 'none' : `${Math.round(ms)} ms`);
for (const [what, pattern] of patterns) {
  // The index's search twice (the first after the build, then again), plain restic find once, same pattern.
  const runs = [
    ['index', await search(pattern, indexer)],
    ['index, again', await search(pattern, indexer)],
    ['restic find (no index)', await search(pattern, null)],
  ] as const;
  for (const [how, result] of runs) {
    if (how !== 'restic find (no index)' && (result.firstMs === null || result.firstMs > TARGET_MS)) missed = true;
    rows.push(
      `| ${what} (\`${pattern}\`) | ${how} | ${cell(result.firstMs)} | ${cell(result.totalMs)} | ${cell(result.cpuMs)} | ${result.matches} | ${result.outcome} |`,
    );
  }
}
if (!answers.verdict('File search')) process.exit(1);
console.log(`\n${FILES} files, target: first results within ${TARGET_MS} ms (load average after: ${loadAverages()})\n`);
console.log('| search | how | first results | whole search | agent CPU | matches | outcome |');
console.log('|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
if (missed) process.exitCode = 1;
