/**
 * The exclusion rules of 002 §5.7 checked against the real restic 0.14: for each case a directory tree is
 * written to disk, `restic backup` runs with the arguments of resticExcludeArgs (one repository, initialised
 * once, one tagged snapshot per case), the snapshots are listed, and the set of files and directories restic
 * kept must equal the set compileExclusions keeps.
 * The agent and the item tree rely on this equivalence, so restic must be installed: the test fails (it does
 * not skip) when it is missing.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileExclusions, resticExcludeArgs, toResticPatterns } from './exclusions.js';
import { createRandom, generateExclusions, generateTree, type TreeEntry } from './testing/random-tree.js';
import { resticExcludes } from './testing/restic-filter.js';

const RESTIC = process.env.RESTIC_BINARY ?? 'restic';
/** Change with EXCLUSION_RESTIC_SEED=<n> to explore other cases; a failure names its seed and case. */
const SEED = Number(process.env.EXCLUSION_RESTIC_SEED ?? 20261122);
const GENERATED_CASES = 20;

let base = '';
const env = (): NodeJS.ProcessEnv => ({
  ...process.env,
  RESTIC_REPOSITORY: join(base, 'repo'),
  RESTIC_PASSWORD: 'exclusion-test',
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function restic(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(RESTIC, ['--no-cache', ...args], { env: env(), maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
    });
  });
}

/** Writes a case's tree below its root. */
function writeTree(root: string, entries: readonly TreeEntry[]): void {
  mkdirSync(root, { recursive: true });
  for (const entry of entries) {
    const path = join(root, entry.rel);
    if (entry.type === 'dir') mkdirSync(path, { recursive: true });
    else writeFileSync(path, entry.rel);
  }
}

interface Case {
  label: string;
  entries: readonly TreeEntry[];
  makeExclusions: (root: string) => string[];
  /** Set in beforeAll, once the temporary directory exists. */
  root: string;
  exclusions: string[];
  /** Relative paths restic kept, or why the run failed. */
  kept?: Set<string>;
  failure?: string;
}

const cases: Case[] = [];

/** Registers a case; its tree is written and backed up in beforeAll, its test only compares. */
function addCase(label: string, entries: readonly TreeEntry[], makeExclusions: (root: string) => string[]): Case {
  const entry: Case = { label, entries, makeExclusions, root: '', exclusions: [] };
  cases.push(entry);
  return entry;
}

/** Backs a case up; 'snapshot is empty' (everything excluded) is a valid outcome, anything else a failure. */
async function backUp(entry: Case): Promise<void> {
  writeTree(entry.root, entry.entries);
  const args = ['backup', '--json', '--host', 'exclusion-test', '--tag', 'exclusion-test', entry.root];
  const run = await restic([...args, ...resticExcludeArgs(entry.exclusions, 'UNIX')]);
  if (run.code !== 0 && !run.stderr.includes('snapshot is empty')) {
    entry.failure = `restic backup exited with ${run.code}: ${run.stderr}`;
  }
}

/** Runs the tasks at most `limit` at a time (restic is CPU-bound on key derivation). */
async function inPool(tasks: (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const task = tasks[next++];
      if (task) await task();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

/**
 * Lists every snapshot of the run with one `restic find --json '*'` (every node of every snapshot, with its
 * full path): the same content as one `restic ls --json` per snapshot, with one key derivation instead of one
 * per snapshot, which keeps the file near 20 s. restic stores an absolute target under its full path, so each
 * node belongs to the case whose root prefixes it.
 */
async function listSnapshots(): Promise<void> {
  const run = await restic(['find', '--json', '--host', 'exclusion-test', '*']);
  if (run.code !== 0) throw new Error(`restic find exited with ${run.code}: ${run.stderr}`);
  const snapshots = JSON.parse(run.stdout || '[]') as { matches: { path: string }[] }[];
  for (const entry of cases) entry.kept ??= new Set();
  for (const { matches } of snapshots) {
    for (const { path } of matches) {
      const owner = cases.find((entry) => path.startsWith(`${entry.root}/`));
      owner?.kept?.add(path.slice(owner.root.length + 1));
    }
  }
}

beforeAll(async () => {
  const version = spawnSync(RESTIC, ['version'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) {
    throw new Error(
      `restic is required by this test (002 §5.7 exclusions are checked against real restic backups) but ` +
        `'${RESTIC} version' failed: ${version.error?.message ?? version.stderr}. Install it (apt-get install restic).`,
    );
  }
  base = mkdtempSync(join(tmpdir(), 'portal-exclusions-'));
  cases.forEach((entry, index) => {
    entry.root = join(base, `case-${index + 1}`, 'root');
    entry.exclusions = entry.makeExclusions(entry.root);
  });
  const init = await restic(['init']);
  if (init.code !== 0) throw new Error(`restic init failed: ${init.stderr}`);
  await inPool(
    cases.map((entry) => () => backUp(entry)),
    3,
  );
  await listSnapshots();
}, 180_000);

afterAll(() => {
  if (base !== '') rmSync(base, { recursive: true, force: true });
});

/** What our matcher keeps of the tree (002 §5.7 rules), as relative paths. */
function keptByMatcher(root: string, entries: readonly TreeEntry[], exclusions: readonly string[]): Set<string> {
  const matcher = compileExclusions(exclusions, 'UNIX');
  if (matcher.excludes(root)) return new Set();
  return new Set(entries.filter((entry) => !matcher.excludes(`${root}/${entry.rel}`)).map((entry) => entry.rel));
}

const sorted = (set: ReadonlySet<string>) => [...set].sort();

/** Asserts restic and the matcher agree on a case and returns what was kept. */
function agree(entry: Case): string[] {
  if (entry.failure !== undefined) throw new Error(`${entry.label}: ${entry.failure}`);
  const expected = keptByMatcher(entry.root, entry.entries, entry.exclusions);
  const actual = sorted(entry.kept ?? new Set());
  expect(
    { exclusions: entry.exclusions, kept: actual },
    `${entry.label}: restic must back up exactly what the matcher keeps (tree: ${JSON.stringify(entry.entries)})`,
  ).toEqual({ exclusions: entry.exclusions, kept: sorted(expected) });
  // The model of restic's filter that the pure tests use for Windows must agree with restic too.
  const patterns = entry.exclusions.flatMap((exclusion) => toResticPatterns(exclusion, 'UNIX'));
  const modelled = entry.entries
    .filter((e) => !resticExcludes(patterns, `${entry.root}/${e.rel}`, 'unix', false))
    .map((e) => e.rel);
  expect(modelled.sort(), `${entry.label}: testing/restic-filter models restic`).toEqual(actual);
  return actual;
}

const dir = (rel: string): TreeEntry => ({ rel, type: 'dir' });
const file = (rel: string): TreeEntry => ({ rel, type: 'file' });

/** A fixed tree for the hand-written cases; every rule below is checked on it. */
const HAND_TREE: TreeEntry[] = [
  dir('bin'),
  file('bin/bash'),
  file('bin/ash'),
  dir('docs'),
  file('docs/a.txt'),
  file('docs/b.TXT'),
  dir('docs/deep'),
  dir('docs/deep/er'),
  file('docs/deep/er/c.txt'),
  file('docs/deep/d.log'),
  dir('foo'),
  dir('foo/bar'),
  file('foo/bar/x'),
  dir('foo/x'),
  dir('foo/x/bar'),
  file('foo/x/bar/y'),
  file('foobar'),
  file('barfoo'),
  dir('Doc'),
  file('Doc/z'),
  file('!bang'),
  file('-dash'),
  file(' lead space'),
  file('trail space '),
  file('$HOME'),
  file('#hash'),
  file('🎉.txt'),
  file('ab.txt'),
  file('日本.log'),
  dir('[br]'),
  file('[br]/in'),
  file('c,d'),
  dir('empty'),
];

/** Every path of HAND_TREE except the listed ones and what is below them. */
const allBut = (...removed: string[]) =>
  HAND_TREE.map((e) => e.rel)
    .filter((rel) => !removed.some((r) => rel === r || rel.startsWith(`${r}/`)))
    .sort();

describe('exclusions against restic 0.14 (002 §5.7)', () => {
  const handCases: { rule: string; exclusions: (root: string) => string[]; removed: string[] }[] = [
    { rule: '* does not cross a separator', exclusions: () => ['b*sh'], removed: ['bin/bash'] },
    {
      rule: '* matches within one component at any level',
      exclusions: () => ['*.txt'],
      removed: ['docs/a.txt', 'docs/deep/er/c.txt', '🎉.txt', 'ab.txt'],
    },
    {
      rule: '** as a component matches zero or more directories',
      exclusions: () => ['foo/**/bar'],
      removed: ['foo/bar', 'foo/x/bar'],
    },
    {
      rule: '** inside a component matches across separators',
      exclusions: () => ['do**.txt'],
      removed: ['docs/a.txt', 'docs/deep/er/c.txt'],
    },
    {
      rule: '? matches exactly one character, a whole emoji included',
      exclusions: () => ['?.txt', '??.log'],
      removed: ['docs/a.txt', 'docs/deep/er/c.txt', '🎉.txt', '日本.log'],
    },
    {
      rule: 'a full absolute path is anchored',
      exclusions: (root) => [`${root}/bar`, `${root}/docs/deep`],
      removed: ['docs/deep'],
    },
    {
      rule: 'an unanchored pattern matches whole components at any level',
      exclusions: () => ['bar', 'deep/er'],
      removed: ['foo/bar', 'foo/x/bar', 'docs/deep/er'],
    },
    { rule: 'a matched directory excludes everything below it', exclusions: () => ['docs'], removed: ['docs'] },
    {
      rule: 'Unix compares case-sensitively',
      exclusions: () => ['doc', '*.txt'],
      removed: ['docs/a.txt', 'docs/deep/er/c.txt', '🎉.txt', 'ab.txt'],
    },
    {
      rule: 'a leading ! is a name, not a restic negation',
      exclusions: () => ['!bang', '-dash'],
      removed: ['!bang', '-dash'],
    },
    {
      rule: 'spaces, $ and # are literal',
      exclusions: () => [' lead space', 'trail space ', '$HOME', '#hash'],
      removed: [' lead space', 'trail space ', '$HOME', '#hash'],
    },
    {
      rule: 'names with [ ] and , are matched by wildcards',
      exclusions: () => ['?br?', 'c?d'],
      removed: ['[br]', 'c,d'],
    },
    {
      rule: 'an exclusion matching the root itself excludes everything',
      exclusions: (root) => [basename(root)],
      removed: HAND_TREE.map((e) => e.rel),
    },
  ];

  for (const { rule, exclusions, removed } of handCases) {
    const entry = addCase(rule, HAND_TREE, exclusions);
    it(`§5.7 ${rule}`, () => {
      expect(agree(entry)).toEqual(allBut(...removed));
    });
  }

  const random = createRandom(SEED);
  for (let n = 1; n <= GENERATED_CASES; n++) {
    const entries = generateTree(random);
    const exclusionSeed = random.int(2 ** 31);
    const entry = addCase(`case ${n}`, entries, (root) =>
      generateExclusions(createRandom(exclusionSeed), entries, root),
    );
    it(`§5.7 generated case ${n} (seed ${SEED}): restic keeps exactly what the matcher keeps`, () => {
      agree(entry);
    });
  }

  it('§5.7 the generated cases exercise both outcomes (some paths excluded, some kept)', () => {
    const generated = cases.filter((entry) => entry.label.startsWith('case '));
    const excluded = generated.reduce((sum, entry) => sum + entry.entries.length - (entry.kept?.size ?? 0), 0);
    const kept = generated.reduce((sum, entry) => sum + (entry.kept?.size ?? 0), 0);
    expect(excluded).toBeGreaterThan(20);
    expect(kept).toBeGreaterThan(100);
  });
});
