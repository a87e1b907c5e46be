/**
 * restic 0.14's `find` pattern semantics, for searching a snapshot's file index instead of running restic
 * (file-index.ts): `filter.Match` and `filter.ChildMatch` (internal/filter/filter.go), Go's `filepath.Match` and
 * `path.Clean` (Go 1.19, Unix), and `strings.ToLower` for `--ignore-case`, ported as they are so that the index
 * answers what `restic find` answers (file-index.restic.test.ts compares the two on generated trees).
 *
 * In short: a pattern is split at `/` into parts; a relative pattern matches a path when its parts match any run of
 * consecutive components (so `docs` matches `/a/docs` and everything below it), an absolute one when they match the
 * first components; `**` stands for any number of components; each part is a `filepath.Match` glob.
 *
 * Known difference: restic 0.14 skips a directory whose tree is identical to one it already walked without a match
 * (its `ignoreTrees`, removed as a bug in restic 0.17, https://github.com/restic/restic/pull/4615); the index
 * reports the matches in such a directory as restic 0.17 does. Windows agents keep `restic find` (`\\` is a
 * separator there, not an escape).
 */

/** A malformed pattern, as restic stops on it ("Match: syntax error in pattern"). */
export class FindPatternError extends Error {
  constructor() {
    super('Match: syntax error in pattern');
  }
}

interface Part {
  /** '/' first for an absolute pattern; '' for `**`. */
  pattern: string;
  isSimple: boolean;
}

const cpLength = (cp: number) => (cp > 0xffff ? 2 : 1);

/** Go's path.Clean. */
export function cleanPath(p: string): string {
  if (p === '') return '.';
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
      continue;
    }
    out.push(part);
  }
  const joined = out.join('/');
  if (rooted) return `/${joined}`;
  return joined === '' ? '.' : joined;
}

/**
 * Go's strings.ToLower: simple case mapping per code point. JavaScript's own differs only where it maps İ to two
 * characters and a final Σ to ς.
 */
export function goLower(text: string): string {
  if (!text.includes('\u0130') && !text.includes('\u03a3')) return text.toLowerCase();
  let out = '';
  for (const ch of text) out += ch === '\u0130' ? 'i' : ch.toLowerCase();
  return out;
}

function splitPath(p: string): string[] {
  const parts = p.split('/');
  if (parts[0] === '') parts[0] = '/';
  return parts;
}

function preparePattern(patternStr: string): Part[] {
  // A leading '!' negates an exclude pattern; find's Match ignores the negation.
  const text = patternStr.startsWith('!') ? patternStr.slice(1) : patternStr;
  return splitPath(cleanPath(text)).map((part) => ({
    pattern: part === '**' ? '' : part,
    isSimple: !/[\\[\]*?]/.test(part),
  }));
}

const doubleWildcard = (parts: readonly Part[]) => parts.findIndex((p) => p.pattern === '');

// --- Go's filepath.Match (Unix) ------------------------------------------------------------------------

function scanChunk(pattern: string): { star: boolean; chunk: string; rest: string } {
  let start = 0;
  while (start < pattern.length && pattern[start] === '*') start += 1;
  const p = pattern.slice(start);
  let inRange = false;
  let i = 0;
  scan: for (; i < p.length; i += 1) {
    switch (p[i]) {
      case '\\':
        if (i + 1 < p.length) i += 1;
        break;
      case '[':
        inRange = true;
        break;
      case ']':
        inRange = false;
        break;
      case '*':
        if (!inRange) break scan;
        break;
    }
  }
  return { star: start > 0, chunk: p.slice(0, i), rest: p.slice(i) };
}

/** One escaped or plain code point of a character class at `at`: its value and where the class goes on. */
function getEsc(chunk: string, at: number): [number, number] {
  let i = at;
  if (i >= chunk.length || chunk[i] === '-' || chunk[i] === ']') throw new FindPatternError();
  if (chunk[i] === '\\') {
    i += 1;
    if (i >= chunk.length) throw new FindPatternError();
  }
  const r = chunk.codePointAt(i) as number;
  i += cpLength(r);
  if (i >= chunk.length) throw new FindPatternError();
  return [r, i];
}

/** A character class from after its '[': negated or not, its ranges (lo > hi: none), where the pattern goes on. */
function readClass(chunk: string, at: number): { negated: boolean; ranges: Array<[number, number]>; end: number } {
  let c = at;
  const negated = chunk[c] === '^';
  if (negated) c += 1;
  const ranges: Array<[number, number]> = [];
  for (;;) {
    if (chunk[c] === ']' && ranges.length > 0) return { negated, ranges, end: c + 1 };
    let lo: number;
    [lo, c] = getEsc(chunk, c);
    let hi = lo;
    if (chunk[c] === '-') [hi, c] = getEsc(chunk, c + 1);
    ranges.push([lo, hi]);
  }
}

/** Whether `chunk` matches the start of `s`: the rest of `s`, or null. Scans the whole chunk for errors. */
function matchChunk(chunk: string, s: string): string | null {
  let failed = false;
  let si = 0;
  let c = 0;
  while (c < chunk.length) {
    if (!failed && si >= s.length) failed = true;
    const ch = chunk[c];
    if (ch === '[') {
      let r = 0;
      if (!failed) {
        r = s.codePointAt(si) as number;
        si += cpLength(r);
      }
      const set = readClass(chunk, c + 1);
      c = set.end;
      if (set.ranges.some(([lo, hi]) => lo <= r && r <= hi) === set.negated) failed = true;
      continue;
    }
    if (ch === '?') {
      if (!failed) {
        if (s[si] === '/') failed = true;
        si += cpLength(s.codePointAt(si) as number);
      }
      c += 1;
      continue;
    }
    if (ch === '\\') {
      c += 1;
      if (c >= chunk.length) throw new FindPatternError();
    }
    if (!failed) {
      if (chunk[c] !== s[si]) failed = true;
      si += 1;
    }
    c += 1;
  }
  return failed ? null : s.slice(si);
}

/** Go's filepath.Match on Unix; throws FindPatternError for a malformed pattern. */
export function goMatch(pattern: string, name: string): boolean {
  let p = pattern;
  let n = name;
  outer: while (p.length > 0) {
    const { star, chunk, rest } = scanChunk(p);
    p = rest;
    if (star && chunk === '') return !n.includes('/');
    const t = matchChunk(chunk, n);
    if (t !== null && (t.length === 0 || p.length > 0)) {
      n = t;
      continue;
    }
    if (star) {
      for (let i = 0; i < n.length && n[i] !== '/'; i += cpLength(n.codePointAt(i) as number)) {
        const skipped = n.slice(i + cpLength(n.codePointAt(i) as number));
        const u = matchChunk(chunk, skipped);
        if (u !== null) {
          if (p.length === 0 && u.length > 0) continue;
          n = u;
          continue outer;
        }
      }
    }
    // Before answering no, the rest of the pattern must be well-formed.
    while (p.length > 0) {
      const next = scanChunk(p);
      p = next.rest;
      matchChunk(next.chunk, '');
    }
    return false;
  }
  return n.length === 0;
}

const partMatches = (part: Part, component: string) =>
  part.isSimple ? part.pattern === component : goMatch(part.pattern, component);

/**
 * A well-formed filepath.Match pattern as an anchored regular expression, for the same answers at native speed:
 * Go's chunks after the first each follow a `*`, so its leftmost matching is plain glob matching; `*` and `?` never
 * take a '/', a class takes one code point ([^…] any other, a range written backwards none).
 */
export function globRegExp(pattern: string): RegExp {
  const literal = (cp: number) => `\\u{${cp.toString(16)}}`;
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '*') {
      out += '[^/]*';
      i += 1;
    } else if (c === '?') {
      out += '[^/]';
      i += 1;
    } else if (c === '[') {
      const set = readClass(pattern, i + 1);
      i = set.end;
      const ranges = set.ranges
        .filter(([lo, hi]) => lo <= hi)
        .map(([lo, hi]) => `${literal(lo)}-${literal(hi)}`)
        .join('');
      out += set.negated ? `[^${ranges}]` : `[${ranges}]`;
    } else {
      if (c === '\\') i += 1;
      const cp = pattern.codePointAt(i) as number;
      out += literal(cp);
      i += cpLength(cp);
    }
  }
  return new RegExp(`^${out}$`, 'u');
}

// --- restic's filter.Match and filter.ChildMatch -------------------------------------------------------

function match(parts: readonly Part[], strs: readonly string[]): boolean {
  const pos = doubleWildcard(parts);
  if (pos >= 0) {
    // '**' expanded into 0, 1, 2, … single wildcards.
    for (let i = 0; i <= strs.length - parts.length + 1; i += 1) {
      const expanded = [
        ...parts.slice(0, pos),
        ...Array.from({ length: i }, () => ({ pattern: '*', isSimple: false })),
        ...parts.slice(pos + 1),
      ];
      if (match(expanded, strs)) return true;
    }
    return false;
  }
  if (parts.length === 0) return strs.length === 0;
  if (parts.length <= strs.length) {
    let minOffset = 0;
    let maxOffset = strs.length - parts.length;
    if (parts[0]?.pattern === '/') maxOffset = 0;
    else if (strs[0] === '/') minOffset = 1;
    outer: for (let offset = maxOffset; offset >= minOffset; offset -= 1) {
      for (let i = parts.length - 1; i >= 0; i -= 1) {
        if (!partMatches(parts[i] as Part, strs[offset + i] as string)) continue outer;
      }
      return true;
    }
  }
  return false;
}

function childMatch(parts: readonly Part[], path: readonly string[]): boolean {
  if (parts[0]?.pattern !== '/') return true;
  const pos = doubleWildcard(parts);
  const strs = pos >= 0 && path.length >= pos ? path.slice(0, pos) : path;
  const l = Math.min(strs.length, parts.length);
  return match(parts.slice(0, l), strs);
}

/**
 * restic find's decision for each entry of a snapshot, fed in restic's walk order (depth first, names sorted, a
 * folder before its contents; the order of `restic ls`): whether it matches. Throws FindPatternError where restic
 * stops on a malformed pattern.
 */
export class FindMatcher {
  private readonly parts: Part[];
  private readonly absolute: boolean;
  /** The pattern can fail (a malformed part) or holds `**`: every entry goes through restic's own steps. */
  private readonly literal: boolean;
  private readonly ignoreCase: boolean;
  /** The components of the entry's path as matched ('/' first), lower case with --ignore-case. */
  private readonly components: string[] = ['/'];
  /** Whether the folder at each depth matched (the fast path: a deeper entry matches when it does). */
  private readonly matchedAt: boolean[] = [false];
  /** The well-formed glob parts compiled (null for a simple part). */
  private readonly globs: Array<RegExp | null>;
  /** A folder whose contents restic does not walk (no child may match), by its depth; the reader may skip them. */
  skipBelow = Number.POSITIVE_INFINITY;

  constructor(pattern: string, ignoreCase: boolean) {
    this.ignoreCase = ignoreCase;
    this.parts = preparePattern(ignoreCase ? goLower(pattern) : pattern);
    this.absolute = this.parts[0]?.pattern === '/';
    const wellFormed = this.parts.every((part) => {
      if (part.isSimple || part.pattern === '') return true;
      try {
        goMatch(part.pattern, '');
        return true;
      } catch {
        return false;
      }
    });
    this.literal = !wellFormed || doubleWildcard(this.parts) >= 0;
    this.globs = wellFormed ? this.parts.map((part) => (part.isSimple ? null : globRegExp(part.pattern))) : [];
  }

  /** An entry at `depth` (1: in the snapshot's root) named `name`; true when restic would print it. */
  visit(depth: number, name: string, isDir: boolean): boolean {
    if (depth > this.skipBelow) return false;
    this.skipBelow = Number.POSITIVE_INFINITY;
    this.components.length = depth + 1;
    this.components[depth] = this.ignoreCase ? goLower(name) : name;
    if (this.literal) {
      const matched = match(this.parts, this.components);
      if (isDir && !childMatch(this.parts, this.components)) this.skipBelow = depth;
      return matched;
    }
    const matched = this.fastMatch(depth);
    this.matchedAt.length = depth + 1;
    this.matchedAt[depth] = matched;
    // restic's ChildMatch for an absolute pattern: the folders so far must match the pattern's first parts.
    if (isDir && this.absolute && !(depth < this.parts.length ? this.partAt(depth, depth) : matched)) {
      this.skipBelow = depth;
    }
    return matched;
  }

  /**
   * match() without `**` or a malformed part, from what the entry's folders gave: a window of the parts over
   * the components matches or not whatever follows it, so only the window ending at this entry is new (relative)
   * or only the entry as deep as the pattern decides (absolute). Skipping folders changes no answer then.
   */
  private fastMatch(depth: number): boolean {
    const k = this.parts.length;
    const length = depth + 1;
    if (this.absolute) {
      if (length < k) return false;
      if (length > k) return this.matchedAt[k - 1] ?? false;
      return this.window(0);
    }
    if (depth < k) return false;
    return this.window(length - k) || (depth - 1 >= k && (this.matchedAt[depth - 1] ?? false));
  }

  private window(offset: number): boolean {
    for (let i = this.parts.length - 1; i >= 0; i -= 1) if (!this.partAt(i, offset + i)) return false;
    return true;
  }

  private partAt(part: number, component: number): boolean {
    const text = this.components[component] as string;
    const glob = this.globs[part];
    return glob ? glob.test(text) : (this.parts[part] as Part).pattern === text;
  }
}
