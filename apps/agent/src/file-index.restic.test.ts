/**
 * The agent's file index against the real restic: an index built with `restic ls` answers what `restic find`
 * answers (fixed and generated trees, generated patterns), and a search over indexed and unindexed snapshots
 * behaves as before (limit, cancel, time limit), forgotten snapshots' indexes go, a corrupt one falls back.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { type FileMatch, resticTaskTag } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileIndexer, FileIndexStore } from './file-index.js';
import { type FileSearchEvent, type FileSearchMessage, runFileSearch } from './file-search.js';
import { ResticRunner, type ResticSnapshot } from './restic.js';
import { cheapResticKeys } from './restic-test-key.js';
import { fileSearchMessage } from './testing.js';

const PASSWORD = 'file-index-secret';
let base = '';
let repo = '';
let indexes = 0;

const env = () => ({ ...process.env, RESTIC_REPOSITORY: repo, RESTIC_PASSWORD: PASSWORD });
const runner = () =>
  new ResticRunner({ repository: { repository: repo, password: PASSWORD }, host: 'test-machine', cacheDir: null });
const restic = (args: string[], cwd?: string) =>
  execFileSync('restic', ['--no-cache', ...args], { env: env(), encoding: 'utf8', ...(cwd ? { cwd } : {}) });

/** A fresh index folder with every snapshot of the repository indexed (or a store only, `build: false`). */
async function indexer(options: { build?: boolean; maxTotalBytes?: number } = {}) {
  indexes += 1;
  const built = new FileIndexer(new FileIndexStore(join(base, `index-${indexes}`), options.maxTotalBytes), runner());
  if (options.build !== false) {
    built.kick();
    await built.idle();
  }
  return built;
}

/** A folder's files backed up as a snapshot of the task; its id. */
function backup(taskId: number, folder: string): string {
  const out = restic(['backup', '--json', '--host', 'test-machine', '--tag', resticTaskTag(taskId), '.'], folder);
  const summary = out
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { message_type: string; snapshot_id?: string })
    .find((m) => m.message_type === 'summary');
  const short = summary?.snapshot_id ?? '';
  const listed = JSON.parse(restic(['snapshots', '--json', short])) as Array<{ id: string }>;
  return listed[0]?.id ?? '';
}

function write(root: string, path: string, content = '') {
  const full = join(root, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, content);
  utimesSync(full, new Date('2025-03-04T05:06:07.891Z'), new Date('2025-03-04T05:06:07.891Z'));
}

/** A seeded generator, so a failing tree can be made again. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return { next, pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T };
}

const SYLLABLES = ['re', 'Po', 'rt', 'doc', 'X', 'a', 'é', 'Ä', 'ß', '1', '2', '-', '.', ' ', '_', 'txt', 'md', 'İ'];

/** A tree of folders and files with names from few syllables, so names and parts repeat across folders. */
function generateTree(root: string, seed: number): string[] {
  const r = random(seed);
  const paths: string[] = [];
  const name = () => {
    let text = '';
    const length = 1 + Math.floor(r.next() * 3);
    for (let i = 0; i < length; i += 1) text += r.pick(SYLLABLES);
    return text.trim() === '' || text === '.' || text === '..' ? `n${text}x` : text;
  };
  const fill = (folder: string, depth: number) => {
    const count = 2 + Math.floor(r.next() * 4);
    for (let i = 0; i < count; i += 1) {
      const path = `${folder}/${name()}`;
      if (paths.includes(path)) continue;
      paths.push(path);
      if (depth < 4 && r.next() < 0.4) {
        mkdirSync(join(root, path), { recursive: true });
        fill(path, depth + 1);
      } else write(root, path, 'x'.repeat(Math.floor(r.next() * 50)));
    }
  };
  fill('', 0);
  return paths;
}

/** Patterns made from a tree's own paths: names, globs, relative and absolute paths, `**`, classes, case. */
function generatePatterns(paths: readonly string[], seed: number, count: number): Array<[string, boolean]> {
  const r = random(seed);
  const out: Array<[string, boolean]> = [];
  const swapCase = (text: string) =>
    [...text].map((c) => (r.next() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join('');
  while (out.length < count) {
    const parts = r.pick(paths).split('/').slice(1);
    const last = parts.at(-1) as string;
    const chars = [...last];
    const at = Math.floor(r.next() * chars.length);
    const forms = [
      last,
      chars.map((c, i) => (i === at ? '?' : c)).join(''),
      `${chars.slice(0, at).join('')}*`,
      `*${chars.slice(at).join('')}`,
      parts.slice(-2).join('/'),
      `/${parts.map((p, i) => (i === at % parts.length ? '*' : p)).join('/')}`,
      `**/${last}`,
      `/${parts[0]}/**`,
      `/${parts[0]}/**/${last}`,
      `${chars.slice(0, at).join('')}[a-zA-Z]*`,
      `*[^a]`,
      `${parts[0]}`,
    ];
    const pattern = swapCase(r.pick(forms));
    if (pattern.startsWith('-') || pattern.trim() === '') continue;
    out.push([pattern, r.next() < 0.5]);
  }
  return out;
}

const search = fileSearchMessage;

/**
 * restic's listing of the repository's snapshots, asked once for each set of snapshot files: the searches without an
 * index (restic find, what an index must answer alike) list the snapshots first, and each restic start derives the
 * key again (most of a second here), for the same answer until a test adds or forgets a snapshot.
 */
const listings = new Map<string, Promise<ResticSnapshot[] | null>>();
function listingOnce(listed: ResticRunner): ResticRunner {
  const snapshots = listed.snapshots.bind(listed);
  listed.snapshots = (filter = []) => {
    const key = JSON.stringify([readdirSync(join(repo, 'snapshots')).sort(), filter]);
    const listing = listings.get(key) ?? snapshots(filter);
    listings.set(key, listing);
    return listing;
  };
  return listed;
}

async function run(
  message: FileSearchMessage,
  index: FileIndexer | null,
  options: Parameters<typeof runFileSearch>[3] = {},
) {
  const events: FileSearchEvent[] = [];
  const searcher = index ? runner() : listingOnce(runner());
  const finished = await runFileSearch(searcher, message, (e) => events.push(e), { ...options, index });
  const matches: FileMatch[] = events.flatMap((e) => (e.type === 'fileSearchMatches' ? e.matches : []));
  return { finished, matches };
}

let fixed: FileIndexer;
const ids: Record<string, string> = {};

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'agent-file-index-'));
  repo = join(base, 'repo');
  restic(['init']);
  cheapResticKeys(repo, PASSWORD);
  const data = join(base, 'fixed');
  for (const path of [
    'home/ana/Docs/Report.txt',
    'home/ana/Docs/report (1).txt',
    'home/ana/notes.md',
    'home/bo/docs/old [1]/report*.txt',
    'home/bo/docs/old [1]/ümlaut Ärger.txt',
    'home/bo/tab\there',
    'home/bo/new\nline',
    'home/bo/back\\slash',
    'srv/www/index.html',
    'srv/www/İstanbul.TXT',
    'srv/report.txt',
  ])
    write(data, path, path);
  mkdirSync(join(data, 'home/empty/inner'), { recursive: true });
  ids.fixed = backup(1, data);
  for (const seed of [7, 8]) {
    const tree = join(base, `tree-${seed}`);
    mkdirSync(tree);
    generateTree(tree, seed);
    ids[`tree-${seed}`] = backup(seed, tree);
  }
  fixed = await indexer();
}, 120_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('a snapshot file index (restic ls) answers as restic find', () => {
  it('builds one compressed index per snapshot, atomically', () => {
    const files = readdirSync(fixed.store.dir).sort();
    expect(files).toEqual(
      Object.values(ids)
        .map((id) => `${id}.gz`)
        .sort(),
    );
  });

  it.each([
    ['Report.txt', false],
    ['report.txt', true],
    ['*report*', true],
    ['*report*', false],
    ['docs', true],
    ['Docs', false],
    ['/home/*/notes.md', false],
    ['/home', false],
    ['/home/**/*.txt', false],
    ['**/old [1]', false],
    ['old \\[1\\]', false],
    ['report\\*.txt', false],
    ['*ärger*', true],
    ['*ÄRGER*', true],
    ['istanbul.txt', true],
    ['tab\there', false],
    ['new\nline', false],
    ['back\\\\slash', false],
    ['ana/docs/*', true],
    ['/srv/www', false],
    ['empty', false],
    ['[', false],
    ['[a-', true],
    ['/', false],
    ['!notes.md', false],
    ['./srv/../srv/www', false],
  ])('%s (ignore case: %s)', async (pattern, ignoreCase) => {
    const message = search({ pattern, ignoreCase });
    const bare = await run(message, null);
    const indexed = await run(message, fixed);
    expect(indexed.finished.outcome).toBe(bare.finished.outcome);
    expect(indexed.matches).toEqual(bare.matches);
  });

  it('generated trees and patterns: the same matches, in the same order', async () => {
    const differences: string[] = [];
    for (const seed of [7, 8]) {
      const paths = generateTree(join(base, `again-${seed}`), seed);
      for (const [pattern, ignoreCase] of generatePatterns(paths, seed * 31, 16)) {
        const message = search({ taskIds: [seed], pattern, ignoreCase });
        const bare = await run(message, null);
        const indexed = await run(message, fixed);
        const same =
          indexed.finished.outcome === bare.finished.outcome &&
          JSON.stringify(indexed.matches) === JSON.stringify(bare.matches);
        if (!same) differences.push(`${pattern} (${ignoreCase}): ${bare.matches.length} vs ${indexed.matches.length}`);
        else if (bare.matches.length > 0) expect(indexed.matches[0]?.snapshotId).toBe(ids[`tree-${seed}`]);
      }
    }
    expect(differences).toEqual([]);
  }, 240_000);
});

describe('searching with indexes', () => {
  it('over snapshots with and without an index gives the matches restic gives', async () => {
    const newer = join(base, 'newer');
    write(newer, 'home/ana/Docs/Report.txt', 'a newer report');
    write(newer, 'home/ana/Docs/report-2.txt', 'another');
    const second = backup(1, newer);
    const message = search();
    const bare = await run(message, null);
    // The older snapshot has its index; the newer one not yet: restic finds in it, and it is indexed afterwards.
    const mixed = await run(message, fixed);
    expect(bare.matches.map((m) => m.snapshotId)).toContain(second);
    expect(mixed.matches).toEqual(bare.matches);
    await fixed.idle();
    expect(fixed.store.has(second)).toBe(true);
    const again = await run(message, fixed);
    expect(again.matches).toEqual(bare.matches);
  }, 60_000);

  it('needs no restic process when every snapshot has its index', async () => {
    const noRestic = new ResticRunner({
      repository: { repository: repo, password: PASSWORD },
      host: 'test-machine',
      cacheDir: null,
      binary: join(base, 'no-restic-here'),
    });
    const events: FileSearchEvent[] = [];
    const finished = await runFileSearch(noRestic, search(), (e) => events.push(e), { index: fixed });
    const bare = await run(search(), null);
    expect(finished.outcome).toBe('COMPLETE');
    expect(events.flatMap((e) => (e.type === 'fileSearchMatches' ? e.matches : []))).toEqual(bare.matches);
  });

  it('stops at the limit, when cancelled and at the time limit', async () => {
    const limited = await run(search({ pattern: '*', limit: 7 }), fixed);
    expect(limited.matches).toHaveLength(7);
    expect(limited.finished.outcome).toBe('LIMIT_REACHED');
    // Stopped while the search lists the snapshots: an index's search is over in a moment, so a stop sent on its
    // first matches could come after its end (and then it rightly answers COMPLETE).
    const stop = new AbortController();
    const listing = runner();
    const snapshotNames = listing.snapshotNames.bind(listing);
    listing.snapshotNames = () => {
      stop.abort();
      return snapshotNames();
    };
    const events: FileSearchEvent[] = [];
    const cancelled = await runFileSearch(listing, search({ pattern: '*' }), (event) => events.push(event), {
      signal: stop.signal,
      index: fixed,
      flushMs: 0,
    });
    expect(cancelled.outcome).toBe('CANCELLED');
    expect(events.filter((event) => event.type === 'fileSearchMatches')).toEqual([]);
    const timed = await run(search({ pattern: '*' }), fixed, { timeLimitMs: 1 });
    expect(timed.finished.outcome).toBe('TIMED_OUT');
  });

  it('removes the index of a snapshot no longer in the repository', async () => {
    const own = await indexer();
    const gone = join(base, 'gone');
    write(gone, 'gone.txt');
    const id = backup(9, gone);
    own.kick();
    await own.idle();
    expect(own.store.has(id)).toBe(true);
    restic(['forget', id]);
    await run(search({ taskIds: [9], pattern: 'gone.txt' }), own);
    expect(own.store.has(id)).toBe(false);
    expect(own.store.has(ids.fixed as string)).toBe(true);
  }, 60_000);

  it('falls back to restic for a truncated or unreadable index, and removes it', async () => {
    const own = await indexer();
    const file = join(own.store.dir, `${ids.fixed}.gz`);
    const message = search({ pattern: '*' });
    const bare = await run(message, null);
    const whole = readFileSync(file);
    for (const broken of [
      whole.subarray(0, Math.floor(whole.length / 2)),
      Buffer.from('not gzip at all'),
      gzipSync('portal-file-index\t1\tsomething else\n'),
      // Cut at a line: its entries are the snapshot's first ones, found again by restic without being repeated.
      gzipSync(gunzipSync(whole).toString('utf8').split('\n').slice(0, 12).join('\n').concat('\n')),
    ]) {
      writeFileSync(file, broken);
      const fallen = await run(message, own);
      expect(fallen.matches).toEqual(bare.matches);
      expect(readdirSync(own.store.dir)).not.toContain(`${ids.fixed}.gz`);
      await own.idle();
    }
  }, 120_000);

  it('builds no index past the size bound, newest snapshots first', async () => {
    const bounded = await indexer({ maxTotalBytes: 1 });
    // The newest fills the bound at once: it alone is kept.
    expect(readdirSync(bounded.store.dir)).toHaveLength(1);
  }, 60_000);
});
