/**
 * Test-only generators for the exclusion tests: a seeded random source, directory trees with awkward names and
 * exclusion lists built from a tree's own names plus glob pieces. Pure (no I/O), so the restic test writes the
 * tree to disk itself and the pure tests can use the same shapes.
 */
import { type ExclusionPlatform, validateExclusion } from '../exclusions.js';

/** A small seeded generator (mulberry32): the same seed always gives the same cases. */
export interface Random {
  next(): number;
  int(maxExclusive: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (maxExclusive: number) => Math.floor(next() * maxExclusive);
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => {
      const item = items[int(items.length)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
    chance: (probability) => next() < probability,
  };
}

/** One entry of a generated tree: its path relative to the tree's root, `/`-separated. */
export interface TreeEntry {
  rel: string;
  type: 'dir' | 'file';
}

/**
 * Name stems: spaces (also leading and trailing), dots, dashes, a leading `!` (restic's negation mark), `-`, `#`,
 * `$` and `~`, accented and CJK letters, an emoji outside the BMP (`?` must take it as one character), case
 * twins (Unix is case-sensitive), and `[`, `,` that names may hold but exclusions may not.
 */
const STEMS = [
  'doc',
  'Doc',
  'docs',
  'a',
  'b',
  'ab',
  'report',
  'data',
  'img',
  'cache',
  'node_modules',
  '.git',
  '.hidden',
  'my file',
  ' lead',
  'trail ',
  'a b c',
  'é',
  'naïve',
  'Über',
  '日本',
  '🎉',
  'x🎉y',
  'a-b',
  'a.b',
  'v1.2',
  '!bang',
  '-dash',
  '#hash',
  '$HOME',
  '~tilde',
  "it's",
  '(x)',
  'x&y',
  '[br]',
  'c,d',
  '...',
] as const;
const EXTENSIONS = ['', '', '', '.txt', '.log', '.tmp', '.JPG', '.jpg', '.tar.gz'] as const;

function freshName(random: Random, taken: Set<string>): string {
  for (;;) {
    const name = random.pick(STEMS) + (random.chance(0.3) ? `-${random.int(3)}` : '') + random.pick(EXTENSIONS);
    if (!taken.has(name)) {
      taken.add(name);
      return name;
    }
  }
}

/** A tree of at most `maxEntries` entries, up to `maxDepth` levels, including empty directories. */
export function generateTree(random: Random, maxDepth = 4, maxEntries = 40): TreeEntry[] {
  const entries: TreeEntry[] = [];
  const fill = (prefix: string, depth: number) => {
    const taken = new Set<string>();
    const count = depth === 1 ? 3 + random.int(5) : 1 + random.int(4);
    for (let i = 0; i < count && entries.length < maxEntries; i++) {
      const rel = prefix + freshName(random, taken);
      const isDir = depth < maxDepth && random.chance(depth === 1 ? 0.7 : 0.45);
      entries.push({ rel, type: isDir ? 'dir' : 'file' });
      if (isDir && random.chance(0.85)) fill(`${rel}/`, depth + 1);
    }
  };
  fill('', 1);
  return entries;
}

const components = (rel: string) => rel.split('/');
const lastOf = (rel: string) => components(rel)[components(rel).length - 1] ?? rel;

/** A random slice of a name, by code points. */
function piece(random: Random, name: string, fromStart: boolean): string {
  const chars = [...name];
  const length = 1 + random.int(Math.max(1, chars.length - 1));
  return (fromStart ? chars.slice(0, length) : chars.slice(chars.length - length)).join('');
}

/** Replaces one code point of a name with `?`. */
function withQuestionMark(random: Random, name: string): string {
  const chars = [...name];
  chars[random.int(chars.length)] = '?';
  return chars.join('');
}

const swapCase = (text: string) =>
  [...text].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join('');

/** One exclusion derived from the tree: most of them match something, some match nothing. */
function oneExclusion(random: Random, entries: readonly TreeEntry[], root: string, separator: string): string {
  return slashed(random, entries, root).replaceAll('/', separator);
}

/** One exclusion written with `/`; `root` is already in the platform's form and is kept as it is. */
function slashed(random: Random, entries: readonly TreeEntry[], root: string): string {
  const entry = random.pick(entries);
  const parts = components(entry.rel);
  const name = lastOf(entry.rel);
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.')) : '.txt';
  switch (random.int(15)) {
    case 0:
      return name;
    case 1:
      return withQuestionMark(random, name);
    case 2:
      return `${piece(random, name, true)}*`;
    case 3:
      return `*${ext}`;
    case 4:
      return parts.slice(-2).join('/');
    case 5: {
      const ancestor = parts[random.int(Math.max(1, parts.length - 1))] ?? name;
      return `${ancestor}/**/${name}`;
    }
    case 6:
      return `**/${name}`;
    case 7: {
      const first = parts[0] ?? name;
      return `${piece(random, first, true)}**${piece(random, name, false)}`;
    }
    case 8:
      return `${root}/${entry.rel}`;
    case 9:
      return `${root}/**/${random.chance(0.5) ? name : `*${ext}`}`;
    case 10:
      return `*${piece(random, name, false)}`;
    case 11:
      return swapCase(name);
    case 12:
      return `**${piece(random, name, false)}`;
    case 13: {
      const first = parts[random.int(parts.length)] ?? name;
      return `${piece(random, first, true)}**${piece(random, name, false)}`;
    }
    default:
      return `${root}/${parts.slice(0, -1).concat(withQuestionMark(random, name)).join('/')}`;
  }
}

/** 1 to `max` distinct valid exclusions for a tree below `root` (invalid candidates are dropped). */
export function generateExclusions(
  random: Random,
  entries: readonly TreeEntry[],
  root: string,
  max = 4,
  platform: ExclusionPlatform = 'UNIX',
): string[] {
  const chosen: string[] = [];
  const wanted = 1 + random.int(max);
  for (let attempt = 0; attempt < 50 && chosen.length < wanted; attempt++) {
    const candidate = oneExclusion(random, entries, root, platform === 'WINDOWS' ? '\\' : '/');
    if (validateExclusion(candidate, chosen, platform) === null) chosen.push(candidate);
  }
  return chosen;
}
