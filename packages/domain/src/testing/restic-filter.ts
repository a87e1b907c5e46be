/**
 * Test-only model of restic 0.14's exclude filter (internal/filter: preparePattern, splitPath, match, List and
 * Go's filepath.Match per component), written from restic's documented behaviour and checked against the real
 * restic binary in exclusions.restic.test.ts. It lets the pure tests check the Windows mapping (`--iexclude`,
 * `\` separators, `C:` volumes), which cannot run here.
 */
export type ResticOs = 'windows' | 'unix';

/** restic's splitPath: separators to `/` (`\` too on Windows), a leading empty part becomes the root `/`. */
function splitPath(path: string, os: ResticOs): string[] {
  const slashed = os === 'windows' ? path.replace(/\\/g, '/') : path;
  const parts = slashed.split('/');
  if (parts[0] === '') parts[0] = '/';
  return parts;
}

/** Go's filepath.Match for one component: `*`, `?`, `[...]` classes (`^` negates), `\` escapes on Unix only. */
function componentRegex(pattern: string, os: ResticOs): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern.charAt(i);
    if (ch === '*') out += '.*';
    else if (ch === '?') out += '.';
    else if (ch === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) throw new Error(`bad pattern ${pattern}`);
      let body = pattern.slice(i + 1, end);
      const negated = body.startsWith('^');
      if (negated) body = body.slice(1);
      out += `[${negated ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
    } else if (ch === '\\' && os === 'unix') {
      i++;
      out += pattern.charAt(i).replace(/[\\^$.*+?()[\]{}|/]/, '\\$&');
    } else out += ch.replace(/[\\^$.*+?()[\]{}|/]/, '\\$&');
  }
  return new RegExp(`^${out}$`, 'su');
}

function partMatches(pattern: string, name: string, os: ResticOs): boolean {
  return /[\\[\]*?]/.test(pattern) ? componentRegex(pattern, os).test(name) : pattern === name;
}

/** restic's match: `**` expands to zero or more `*` parts; `/`-rooted patterns are anchored, others float. */
function match(parts: readonly string[], strs: readonly string[], os: ResticOs): boolean {
  const star = parts.indexOf('**');
  if (star >= 0) {
    for (let i = 0; i <= strs.length - parts.length + 1; i++) {
      const expanded = [...parts.slice(0, star), ...Array<string>(i).fill('*'), ...parts.slice(star + 1)];
      if (match(expanded, strs, os)) return true;
    }
    return false;
  }
  if (parts.length === 0) return strs.length === 0;
  if (parts.length > strs.length) return false;
  let minOffset = 0;
  let maxOffset = strs.length - parts.length;
  if (parts[0] === '/') maxOffset = 0;
  else if (strs[0] === '/') minOffset = 1;
  for (let offset = maxOffset; offset >= minOffset; offset--) {
    if (parts.every((part, i) => partMatches(part, strs[offset + i] ?? '', os))) return true;
  }
  return false;
}

const goLower = (text: string) =>
  [...text]
    .map((ch) => {
      const lower = ch.toLowerCase();
      return [...lower].length === 1 ? lower : ch;
    })
    .join('');

/**
 * Whether restic's exclude filter rejects `path` itself, given `--exclude` (or `--iexclude`) patterns: the last
 * matching pattern wins, a `!` pattern cancelling an earlier match (restic 0.14 List).
 */
export function resticRejects(patterns: readonly string[], path: string, os: ResticOs, ignoreCase: boolean): boolean {
  const fold = (text: string) => (ignoreCase ? goLower(text) : text);
  const strs = splitPath(fold(path), os);
  let matched = false;
  for (const raw of patterns) {
    const negated = raw.startsWith('!');
    const pattern = fold(negated ? raw.slice(1) : raw);
    const cleaned = os === 'windows' ? pattern.replace(/\//g, '\\') : pattern;
    if (match(splitPath(cleaned, os), strs, os)) matched = !negated;
  }
  return matched;
}

/**
 * Whether restic leaves `path` out of a backup: it rejects the path or one of its ancestors (restic never
 * descends into a rejected directory). `path` is absolute: `/a/b` on Unix, `C:\a\b` on Windows.
 */
export function resticExcludes(patterns: readonly string[], path: string, os: ResticOs, ignoreCase: boolean): boolean {
  const separator = os === 'windows' ? '\\' : '/';
  const parts = path.split(separator);
  for (let end = 1; end <= parts.length; end++) {
    const prefix = parts.slice(0, end).join(separator);
    if (prefix === '') continue;
    if (resticRejects(patterns, prefix, os, ignoreCase)) return true;
  }
  return false;
}
