/** restic find's pattern rules as ported (the comparison with restic itself: file-index.restic.test.ts). */
import { describe, expect, it } from 'vitest';
import { cleanPath, FindMatcher, FindPatternError, goLower, goMatch } from './find-match.js';

describe("Go's filepath.Match", () => {
  it.each([
    ['report.txt', 'report.txt', true],
    ['*', 'anything', true],
    ['*.txt', 'notes.txt', true],
    ['*.txt', 'notes.txt.bak', false],
    ['r*t*x', 'report.tax', true],
    ['r?port', 'report', true],
    ['r?port', 'rport', false],
    ['?', '☺', true],
    ['??', '☺', false],
    ['[a-c]x', 'bx', true],
    ['[^a-c]x', 'bx', false],
    ['[^a-c]x', 'dx', true],
    ['a\\*b', 'a*b', true],
    ['a\\*b', 'aXb', false],
    ['[\\]]', ']', true],
    ['[x\\-]', '-', true],
    ['*', 'a/b', false],
  ])('%s against %s: %s', (pattern, name, expected) => {
    expect(goMatch(pattern, name)).toBe(expected);
  });

  it.each(['[', 'a[', '[^', '[]]', '[-a]', '[a-]', 'x\\', '[a-b-c]'])('%s is malformed whatever the name', (p) => {
    expect(() => goMatch(p, 'a')).toThrow(FindPatternError);
    expect(() => goMatch(p, 'zzz')).toThrow(FindPatternError);
  });
});

describe("Go's path.Clean and strings.ToLower", () => {
  it.each([
    ['', '.'],
    ['a/', 'a'],
    ['//a//b/./c/..', '/a/b'],
    ['/..', '/'],
    ['../../x', '../../x'],
    ['a/..', '.'],
  ])('%s cleans to %s', (p, clean) => expect(cleanPath(p)).toBe(clean));

  it('lowers per code point as Go does', () => {
    expect(goLower('ÄÖÜ İstanbul ΣΑΣ')).toBe('äöü istanbul σασ');
    expect(goLower('MIXED.Case')).toBe('mixed.case');
  });
});

/** The matches of a pattern over paths given in restic's walk order. */
function matches(pattern: string, entries: Array<[string, boolean]>, ignoreCase = false): string[] {
  const matcher = new FindMatcher(pattern, ignoreCase);
  return entries
    .filter(([path, isDir]) => {
      const parts = path.split('/');
      return matcher.visit(parts.length - 1, parts.at(-1) as string, isDir);
    })
    .map(([path]) => path);
}

const TREE: Array<[string, boolean]> = [
  ['/home', true],
  ['/home/ana', true],
  ['/home/ana/Docs', true],
  ['/home/ana/Docs/report.txt', false],
  ['/home/ana/notes.md', false],
  ['/home/bo', true],
  ['/home/bo/docs', true],
  ['/home/bo/docs/old', true],
  ['/home/bo/docs/old/report.txt', false],
  ['/srv', true],
  ['/srv/report.txt', false],
];

describe('restic find over a walk', () => {
  it('a name matches the entry and everything below an entry of that name', () => {
    expect(matches('docs', TREE)).toEqual(['/home/bo/docs', '/home/bo/docs/old', '/home/bo/docs/old/report.txt']);
    expect(matches('docs', TREE, true)).toEqual([
      '/home/ana/Docs',
      '/home/ana/Docs/report.txt',
      '/home/bo/docs',
      '/home/bo/docs/old',
      '/home/bo/docs/old/report.txt',
    ]);
  });

  it('an absolute pattern matches from the root; ** any number of folders', () => {
    expect(matches('/home/*/notes.md', TREE)).toEqual(['/home/ana/notes.md']);
    expect(matches('/srv', TREE)).toEqual(['/srv', '/srv/report.txt']);
    expect(matches('/home/**/report.txt', TREE)).toEqual(['/home/ana/Docs/report.txt', '/home/bo/docs/old/report.txt']);
    expect(matches('docs/**/*.txt', TREE)).toEqual(['/home/bo/docs/old/report.txt']);
    expect(matches('bo/docs', TREE)).toEqual(['/home/bo/docs', '/home/bo/docs/old', '/home/bo/docs/old/report.txt']);
  });

  it('stops on a malformed part once restic would reach it', () => {
    expect(() => matches('[', TREE)).toThrow(FindPatternError);
    // The simple part after it decides first: no component is 'nothing', so the malformed one is never tried.
    expect(matches('[/nothing', TREE)).toEqual([]);
  });
});
