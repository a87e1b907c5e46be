import { z } from 'zod';
import type { OsFamily } from './enums.js';
import { hasControlCharacter } from './text.js';

/**
 * Exclusions of a files-and-folders task (002 §5.7): validation, the glob matcher the item tree uses, and the
 * mapping onto restic 0.14 `--exclude` / `--iexclude` patterns the agent passes to `restic backup`.
 *
 * One parser feeds all three, so the form, the server, the tree and the agent can never disagree about what an
 * exclusion means; exclusions.restic.test.ts proves on generated trees that restic backs up exactly the paths
 * {@link compileExclusions} keeps.
 *
 * Glob rules (002 §5.7, with our decisions where the specification is silent):
 * - `*` matches any characters except a separator; `?` exactly one character (one Unicode code point, like Go's
 *   filepath.Match) except a separator.
 * - `**` forming a whole component (`a/**\/b`) matches zero or more whole components, so `a/**\/b` also matches
 *   `a/b` (as in restic, gitignore and bash globstar). `**` inside a component (`a**b`, `**.log`) matches any
 *   characters, separators included. Longer runs of stars mean the same as `**`.
 * - A full absolute path (Unix `/...`, Windows `C:\...`) is anchored at the root; any other pattern matches any
 *   run of whole path components, starting at any directory level.
 * - A pattern that matches a directory excludes everything below it (restic does not descend into an excluded
 *   directory), so a path is excluded when it or any of its ancestors matches.
 * - Windows compares case-insensitively (its file systems do; restic is given `--iexclude`), Unix
 *   case-sensitively (restic's `--exclude` compares names as they are, on macOS too).
 */

/** How exclusions are read: Windows paths (`C:\dir`, `\` separator) or Unix paths (`/dir`). */
export const EXCLUSION_PLATFORMS = ['WINDOWS', 'UNIX'] as const;
export type ExclusionPlatform = (typeof EXCLUSION_PLATFORMS)[number];

/** A machine's OS family decides how its exclusions are read; macOS and Linux are both Unix here. */
export function exclusionPlatformOf(osFamily: OsFamily): ExclusionPlatform {
  return osFamily === 'WINDOWS' ? 'WINDOWS' : 'UNIX';
}

/** The exclusion messages of 002 §5.7, spelled exactly as the specification writes them. */
export const EXCLUSION_MESSAGES = {
  empty: 'Cannot be empty',
  duplicate: 'Duplicate exclusion',
  endsWithDoubleStar: 'Cannot end with double star',
  startsWithSeparator: 'Cannot start with path separator',
  endsWithSeparator: 'Cannot end with path separator',
  invalidFormat: 'Invalid format',
  invalidExclusion: 'Invalid exclusion',
  unknownError: 'Unknown error occurred',
} as const;
export type ExclusionMessage = (typeof EXCLUSION_MESSAGES)[keyof typeof EXCLUSION_MESSAGES];

/**
 * Limits of one exclusion (ours; 002 §5.7 is silent). The length keeps every restic command line well inside
 * Windows' 32,767-character limit; each `**` inside a component doubles the restic patterns (see
 * {@link toResticPatterns}), so at most 4 of them keep one exclusion at 16 patterns.
 */
export const EXCLUSION_LIMITS = { maxLength: 1024, maxInnerDoubleStars: 4 } as const;

/** Characters no glob may contain on any platform (002 §5.7); the opposite separator is added per platform. */
const INVALID_CHARACTERS = ['[', ']', '{', '}', ','] as const;
/** Characters no Windows file name can contain besides separators, `*`, `?` and `:`: such a glob never matches. */
const WINDOWS_NAME_FORBIDDEN = ['<', '>', '"', '|'] as const;

const separatorOf = (platform: ExclusionPlatform) => (platform === 'WINDOWS' ? '\\' : '/');
const oppositeSeparatorOf = (platform: ExclusionPlatform) => (platform === 'WINDOWS' ? '/' : '\\');

/** One piece of a component: literal text, `*`, `?`, or a `**` inside a component (`deep`). */
type Token = { kind: 'literal'; text: string } | { kind: 'star' } | { kind: 'any' } | { kind: 'deep' };
/** A whole-component `**`, or a component made of tokens. */
type Component = { kind: 'globstar' } | { kind: 'segment'; tokens: Token[] };

/** An exclusion taken apart; `root` is '' (unanchored), '/' (Unix root) or a drive such as 'C:' (Windows). */
interface ParsedExclusion {
  root: string;
  components: Component[];
}

type ParseResult = { ok: true; parsed: ParsedExclusion } | { ok: false; message: ExclusionMessage };

const WINDOWS_DRIVE = /^[A-Za-z]:/;

function tokenize(component: string): Component {
  const normalised = component.replace(/\*{3,}/g, '**');
  if (normalised === '**') return { kind: 'globstar' };
  const tokens: Token[] = [];
  let literal = '';
  const flush = () => {
    if (literal !== '') tokens.push({ kind: 'literal', text: literal });
    literal = '';
  };
  for (let i = 0; i < normalised.length; i++) {
    const ch = normalised.charAt(i);
    if (ch === '*') {
      flush();
      if (normalised.charAt(i + 1) === '*') {
        tokens.push({ kind: 'deep' });
        i++;
      } else tokens.push({ kind: 'star' });
    } else if (ch === '?') {
      flush();
      tokens.push({ kind: 'any' });
    } else literal += ch;
  }
  flush();
  return { kind: 'segment', tokens };
}

/**
 * Takes an exclusion apart once the specific checks of 002 §5.7 passed (see check). 'Invalid format' is
 * for text that cannot be converted to a glob: an invalid character, an empty component (doubled separator),
 * a `.` or `..` component (restic would clean them away, changing what the pattern means), a `:` anywhere but
 * a Windows drive, or a drive-relative Windows path (`C:` or `C:dir`). 'Invalid exclusion' is for a well-formed
 * glob we still refuse: too long, control characters, a character no Windows name can contain (it would never
 * match), too many inner `**`, or a pattern that matches every path (it would exclude the whole backup and
 * restic would fail with 'snapshot is empty').
 */
function parseExclusion(exclusion: string, platform: ExclusionPlatform): ParseResult {
  const invalidFormat = { ok: false, message: EXCLUSION_MESSAGES.invalidFormat } as const;
  const invalidExclusion = { ok: false, message: EXCLUSION_MESSAGES.invalidExclusion } as const;
  const forbidden = [...INVALID_CHARACTERS, oppositeSeparatorOf(platform)];
  if (forbidden.some((ch) => exclusion.includes(ch))) return invalidFormat;

  const separator = separatorOf(platform);
  let root = '';
  let rest = exclusion;
  if (platform === 'UNIX' && exclusion.startsWith('/')) {
    root = '/';
    rest = exclusion.slice(1);
  } else if (platform === 'WINDOWS' && WINDOWS_DRIVE.test(exclusion)) {
    if (exclusion.charAt(2) !== '\\') return invalidFormat;
    root = exclusion.slice(0, 2);
    rest = exclusion.slice(3);
  }
  const texts = rest.split(separator);
  if (texts.some((text) => text === '' || text === '.' || text === '..')) return invalidFormat;
  if (platform === 'WINDOWS' && rest.includes(':')) return invalidFormat;

  if (exclusion.length > EXCLUSION_LIMITS.maxLength || hasControlCharacter(exclusion)) return invalidExclusion;
  if (platform === 'WINDOWS' && WINDOWS_NAME_FORBIDDEN.some((ch) => exclusion.includes(ch))) return invalidExclusion;
  const components = texts.map(tokenize);
  const innerDoubleStars = components
    .flatMap((c) => (c.kind === 'segment' ? c.tokens : []))
    .filter((t) => t.kind === 'deep').length;
  if (innerDoubleStars > EXCLUSION_LIMITS.maxInnerDoubleStars) return invalidExclusion;
  if (matchesEveryPath(root, components)) return invalidExclusion;
  return { ok: true, parsed: { root, components } };
}

/**
 * Whether a pattern matches the first component of every path of the machine: unanchored or anchored at the
 * Unix root, leading `**` components, then one component that matches any non-empty name (`*`, `?*`, `**\/*`,
 * `/*`). Paths have no empty components, so one `?` next to a star still matches every name. (`C:\*` only
 * covers one drive and is allowed.)
 */
function matchesEveryPath(root: string, components: Component[]): boolean {
  const last = components[components.length - 1];
  if (root.length > 1 || last?.kind !== 'segment') return false;
  if (!components.slice(0, -1).every((c) => c.kind === 'globstar')) return false;
  const stars = last.tokens.filter((t) => t.kind === 'star' || t.kind === 'deep').length;
  const anys = last.tokens.filter((t) => t.kind === 'any').length;
  return stars + anys === last.tokens.length && stars > 0 && anys <= 1;
}

/**
 * Lower case per code point, keeping a character whose lower case is longer than one code point: the same
 * simple case mapping as Go's strings.ToLower, which restic's `--iexclude` applies to pattern and path.
 */
function foldCase(text: string): string {
  let out = '';
  for (const ch of text) {
    const lower = ch.toLowerCase();
    out += [...lower].length === 1 ? lower : ch;
  }
  return out;
}

/** Two exclusions are duplicates when they are equal, case-insensitively on Windows (002 §5.7). */
function sameExclusion(a: string, b: string, platform: ExclusionPlatform): boolean {
  return platform === 'WINDOWS' ? foldCase(a) === foldCase(b) : a === b;
}

/** The checks of 002 §5.7 in the specification's order, then the format checks of parseExclusion. */
function check(exclusion: string, existing: readonly string[], platform: ExclusionPlatform): ParseResult {
  const fail = (message: ExclusionMessage) => ({ ok: false, message }) as const;
  if (exclusion.trim() === '') return fail(EXCLUSION_MESSAGES.empty);
  if (existing.some((other) => sameExclusion(other, exclusion, platform))) return fail(EXCLUSION_MESSAGES.duplicate);
  if (exclusion.endsWith('**')) return fail(EXCLUSION_MESSAGES.endsWithDoubleStar);
  if (platform === 'WINDOWS' && exclusion.startsWith('\\')) return fail(EXCLUSION_MESSAGES.startsWithSeparator);
  if (exclusion.endsWith('/') || exclusion.endsWith('\\')) return fail(EXCLUSION_MESSAGES.endsWithSeparator);
  return parseExclusion(exclusion, platform);
}

/**
 * Validates one exclusion against the ones already in the list (002 §5.7). Returns the message to show, or
 * null when it is valid. Checks run in the specification's order, so an entry breaking several rules shows the
 * first: empty (blank counts as empty), duplicate, ends with `**`, starts with `\` on Windows, ends with a
 * separator, then the format checks ('Invalid format', 'Invalid exclusion', see parseExclusion).
 * 'Unknown error occurred' is the answer when the checks themselves fail (a corrupt list), never a crash.
 */
export function validateExclusion(
  exclusion: string,
  existing: readonly string[],
  platform: ExclusionPlatform,
): ExclusionMessage | null {
  try {
    const result = check(exclusion, existing, platform);
    return result.ok ? null : result.message;
  } catch {
    return EXCLUSION_MESSAGES.unknownError;
  }
}

/** The parsed form of a valid exclusion, or null. */
function parseValid(exclusion: string, platform: ExclusionPlatform): ParsedExclusion | null {
  const result = check(exclusion, [], platform);
  return result.ok ? result.parsed : null;
}

/**
 * The single-entry field of the Exclusions modal (002 §5.7): valid when it can be added to `existing`.
 */
export function exclusionEntrySchema(existing: readonly string[], platform: ExclusionPlatform) {
  return z.string().superRefine((value, ctx) => {
    const message = validateExclusion(value, existing, platform);
    if (message !== null) ctx.addIssue({ code: 'custom', message });
  });
}

/**
 * The `exclusions` list of the task form (002 §3, §5.7). Each entry is checked against the entries before it,
 * so a duplicate is reported on the later copy, and every message lands on its own index
 * (`['exclusions', i]` once nested in the task schema).
 */
export function exclusionsSchema(platform: ExclusionPlatform) {
  return z.array(z.string()).superRefine((list, ctx) => {
    list.forEach((value, index) => {
      const message = validateExclusion(value, list.slice(0, index), platform);
      if (message !== null) ctx.addIssue({ code: 'custom', message, path: [index] });
    });
  });
}

// ---------------------------------------------------------------------------------------------------------
// Matching

const REGEX_SYNTAX = /[\\^$.*+?()[\]{}|/]/g;
const escapeRegex = (text: string) => text.replace(REGEX_SYNTAX, '\\$&');

function tokenRegex(token: Token): string {
  switch (token.kind) {
    case 'literal':
      return escapeRegex(token.text);
    case 'star':
      return '[^/]*';
    case 'any':
      return '[^/]';
    case 'deep':
      return '.*';
  }
}

/**
 * The regular expression of a parsed exclusion, run against a path written as `/c1/c2/.../cn` (see
 * {@link matchSubject}). Each component is `/` plus its tokens; a whole-component `**` is zero or more
 * components; the end must fall on a component boundary, and an unanchored pattern may start at any `/`, so
 * the expression matches when any run of whole components matches, including runs ending at an ancestor.
 */
function exclusionRegex(parsed: ParsedExclusion): RegExp {
  const body = parsed.components
    .map((c) => (c.kind === 'globstar' ? '(?:/[^/]*)*' : `/${c.tokens.map(tokenRegex).join('')}`))
    .join('');
  const start = parsed.root === '' ? '' : parsed.root === '/' ? '^' : `^/${escapeRegex(parsed.root)}`;
  return new RegExp(`${start}${body}(?=/|$)`, 'su');
}

/**
 * A path written the way restic splits it (internal/filter splitPath): separators become `/` (both `\` and `/`
 * on Windows, only `/` on Unix), an absolute path keeps its leading `/`, a Windows volume path `C:\x` becomes
 * `/C:/x` (the drive is its first component) and a trailing separator is dropped.
 */
function matchSubject(path: string, platform: ExclusionPlatform): string {
  const slashed = platform === 'WINDOWS' ? foldCase(path).replace(/\\/g, '/') : path;
  const rooted = slashed.startsWith('/') ? slashed : `/${slashed}`;
  return rooted.length > 1 ? rooted.replace(/\/+$/, '') : rooted;
}

/** A compiled exclusion list: `excludes(path)` is true when the path or one of its ancestors matches. */
export interface ExclusionMatcher {
  readonly excludes: (path: string) => boolean;
}

/**
 * Compiles an exclusion list for matching absolute paths of the machine (`/home/u/x`, `C:\Users\x`). Invalid
 * entries are skipped: the forms reject them with their message, so the tree just does not apply them.
 */
export function compileExclusions(exclusions: readonly string[], platform: ExclusionPlatform): ExclusionMatcher {
  const regexes: RegExp[] = [];
  for (const exclusion of exclusions) {
    const parsed = parseValid(platform === 'WINDOWS' ? foldCase(exclusion) : exclusion, platform);
    if (parsed !== null) regexes.push(exclusionRegex(parsed));
  }
  return {
    excludes: (path) => {
      if (regexes.length === 0) return false;
      const subject = matchSubject(path, platform);
      return regexes.some((regex) => regex.test(subject));
    },
  };
}

/** Whether one exclusion excludes the path (itself or through an excluded ancestor). */
export function matchesExclusion(path: string, exclusion: string, platform: ExclusionPlatform): boolean {
  return compileExclusions([exclusion], platform).excludes(path);
}

/**
 * The anchored exclusion that excludes exactly one item (and what is below it): its absolute path. Null when the
 * path cannot be written as such an exclusion: it holds one of `[ ] { } ,` (no exclusion may) or `*` / `?`
 * (they would act as wildcards and exclude more), or it is not a full absolute path (a network path).
 */
export function exclusionForPath(path: string, platform: ExclusionPlatform): string | null {
  if (path.includes('*') || path.includes('?')) return null;
  const parsed = parseValid(path, platform);
  return parsed !== null && parsed.root !== '' ? path : null;
}

// ---------------------------------------------------------------------------------------------------------
// restic

/** Thrown when an invalid exclusion reaches the restic mapping (it should have been rejected when saved). */
export class InvalidExclusionError extends Error {
  constructor(
    readonly exclusion: string,
    readonly reason: ExclusionMessage,
  ) {
    super(`Invalid exclusion '${exclusion}': ${reason}`);
    this.name = 'InvalidExclusionError';
  }
}

/** Every way to read the inner `**` of one component: kept inside (`*`) or split into `*` / `**` / `*`. */
function expandSegment(tokens: Token[]): string[][] {
  let variants: string[][] = [['']];
  for (const token of tokens) {
    const next: string[][] = [];
    for (const variant of variants) {
      const head = variant.slice(0, -1);
      const last = variant[variant.length - 1] ?? '';
      if (token.kind === 'deep') {
        next.push([...head, `${last}*`]);
        next.push([...head, `${last}*`, '**', '*']);
      } else {
        const text = token.kind === 'literal' ? token.text : token.kind === 'star' ? '*' : '?';
        next.push([...head, last + text]);
      }
    }
    variants = next;
  }
  return variants;
}

/**
 * The restic 0.14 patterns that together exclude exactly what the exclusion excludes (for `--exclude` on
 * Unix, `--iexclude` on Windows).
 *
 * Why this is faithful: restic splits pattern and path into components, matches each component with Go's
 * filepath.Match (`*` and `?` stop at the separator, like ours), expands a whole-component `**` into zero or
 * more components, anchors a pattern starting with `/` and otherwise tries every starting component, and
 * matches a pattern against any run of components, not only up to the last one (so a match on a directory
 * covers its contents, as restic also never descends into it). What needs translating:
 * - a `**` inside a component matches across separators in our rules but not in restic's: `a**b` becomes
 *   `a*b` (no separator crossed) plus `a*` / `**` / `*b` (one or more crossed); k of them give 2^k patterns;
 * - a leading `!` would make restic read a negative pattern (since 0.14): it is written `[!]`, a character
 *   class matching `!` (the only escape that works on both platforms; `[` cannot occur otherwise since
 *   exclusions may not contain it);
 * - Windows: the pattern keeps its `\` separators and volume form `C:\dir\*.tmp`; restic cleans it with
 *   filepath.Clean (so `/` would do as well) and tests it against the absolute volume path, where the drive
 *   `c:` is the first component, so a drive pattern can only match at the root. Case is ignored by
 *   `--iexclude`, which lower-cases pattern and path.
 * Everything else is literal: Go's other special characters (`[`, `]`, `\` on Unix) cannot occur.
 *
 * @throws InvalidExclusionError for an exclusion that validateExclusion rejects: backing up what the user meant
 * to exclude must never happen silently.
 */
export function toResticPatterns(exclusion: string, platform: ExclusionPlatform): string[] {
  const result = check(exclusion, [], platform);
  if (!result.ok) throw new InvalidExclusionError(exclusion, result.message);
  const parsed = result.parsed;
  const separator = separatorOf(platform);
  let variants: string[][] = [[]];
  for (const component of parsed.components) {
    const options = component.kind === 'globstar' ? [['**']] : expandSegment(component.tokens);
    variants = variants.flatMap((variant) => options.map((option) => [...variant, ...option]));
  }
  const prefix = parsed.root === '' ? '' : parsed.root === '/' ? '/' : `${parsed.root}${separator}`;
  const patterns = variants.map((variant) => {
    const pattern = prefix + variant.join(separator);
    return pattern.startsWith('!') ? `[!]${pattern.slice(1)}` : pattern;
  });
  return [...new Set(patterns)];
}

/**
 * The `restic backup` arguments for a task's exclusions: one `--exclude=<pattern>` (Unix) or
 * `--iexclude=<pattern>` (Windows, case-insensitive) per pattern, written with `=` so a pattern starting with
 * `-` is never read as a flag. Passed as separate process arguments, never through a shell or an exclude file
 * (which would trim spaces, expand `$VARS` and skip `#` lines).
 *
 * @throws InvalidExclusionError as {@link toResticPatterns}.
 */
export function resticExcludeArgs(exclusions: readonly string[], platform: ExclusionPlatform): string[] {
  const flag = platform === 'WINDOWS' ? '--iexclude' : '--exclude';
  const patterns = new Set(exclusions.flatMap((exclusion) => toResticPatterns(exclusion, platform)));
  return [...patterns].map((pattern) => `${flag}=${pattern}`);
}
