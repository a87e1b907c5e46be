import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileExclusions,
  EXCLUSION_LIMITS,
  EXCLUSION_MESSAGES,
  type ExclusionPlatform,
  exclusionEntrySchema,
  exclusionForPath,
  exclusionPlatformOf,
  exclusionsSchema,
  InvalidExclusionError,
  matchesExclusion,
  resticExcludeArgs,
  toResticPatterns,
  validateExclusion,
} from './exclusions.js';
import { createRandom, generateExclusions, generateTree } from './testing/random-tree.js';
import { resticExcludes } from './testing/restic-filter.js';

const M = EXCLUSION_MESSAGES;
const unix = (exclusion: string, existing: string[] = []) => validateExclusion(exclusion, existing, 'UNIX');
const windows = (exclusion: string, existing: string[] = []) => validateExclusion(exclusion, existing, 'WINDOWS');

describe('exclusion validation messages (002 §5.7)', () => {
  it('spells the messages as the specification does', () => {
    expect(Object.values(M)).toEqual([
      'Cannot be empty',
      'Duplicate exclusion',
      'Cannot end with double star',
      'Cannot start with path separator',
      'Cannot end with path separator',
      'Invalid format',
      'Invalid exclusion',
      'Unknown error occurred',
    ]);
  });

  it('rejects an empty or blank exclusion', () => {
    expect(unix('')).toBe(M.empty);
    expect(windows('  \t')).toBe(M.empty);
  });

  it('rejects a duplicate, case-insensitively on Windows only', () => {
    expect(unix('*.tmp', ['*.tmp'])).toBe(M.duplicate);
    expect(unix('*.TMP', ['*.tmp'])).toBeNull();
    expect(windows('*.TMP', ['*.tmp'])).toBe(M.duplicate);
    expect(windows('C:\\Users\\Ana', ['c:\\users\\ana'])).toBe(M.duplicate);
  });

  it('rejects an exclusion ending with a double star', () => {
    expect(unix('**')).toBe(M.endsWithDoubleStar);
    expect(unix('cache/**')).toBe(M.endsWithDoubleStar);
    expect(unix('a***')).toBe(M.endsWithDoubleStar);
    expect(windows('C:\\temp\\**')).toBe(M.endsWithDoubleStar);
  });

  it('rejects a leading backslash on Windows (network paths included), not a leading slash on Unix', () => {
    expect(windows('\\temp')).toBe(M.startsWithSeparator);
    expect(windows('\\\\server\\share\\x')).toBe(M.startsWithSeparator);
    expect(unix('/tmp')).toBeNull();
  });

  it('rejects a trailing slash or backslash on both platforms', () => {
    expect(unix('cache/')).toBe(M.endsWithSeparator);
    expect(unix('cache\\')).toBe(M.endsWithSeparator);
    expect(windows('C:\\temp\\')).toBe(M.endsWithSeparator);
    expect(windows('temp/')).toBe(M.endsWithSeparator);
    expect(unix('/')).toBe(M.endsWithSeparator);
  });

  it('reports the first broken rule in the specification order', () => {
    expect(unix('a/**', ['a/**'])).toBe(M.duplicate);
    expect(windows('\\a\\')).toBe(M.startsWithSeparator);
    expect(unix('[a]/')).toBe(M.endsWithSeparator);
    expect(windows('\\**')).toBe(M.endsWithDoubleStar);
  });

  it('rejects the invalid characters [ ] { } , and the opposite separator as Invalid format', () => {
    for (const ch of ['[', ']', '{', '}', ',']) {
      expect(unix(`a${ch}b`)).toBe(M.invalidFormat);
      expect(windows(`a${ch}b`)).toBe(M.invalidFormat);
    }
    expect(unix('a\\b')).toBe(M.invalidFormat);
    expect(windows('a/b')).toBe(M.invalidFormat);
    expect(windows('a\\b')).toBeNull();
    expect(unix('a/b')).toBeNull();
  });

  it('rejects text that is not a path glob as Invalid format', () => {
    expect(unix('a//b')).toBe(M.invalidFormat);
    expect(unix('//server')).toBe(M.invalidFormat);
    expect(unix('./a')).toBe(M.invalidFormat);
    expect(unix('a/../b')).toBe(M.invalidFormat);
    expect(unix('..')).toBe(M.invalidFormat);
    expect(windows('C:')).toBe(M.invalidFormat);
    expect(windows('C:temp')).toBe(M.invalidFormat);
    expect(windows('temp\\a:b')).toBe(M.invalidFormat);
    expect(windows('C:\\a\\\\b')).toBe(M.invalidFormat);
    expect(unix('a:b')).toBeNull();
    expect(unix('...')).toBeNull();
  });

  it('rejects well-formed globs we still refuse as Invalid exclusion', () => {
    expect(unix('x'.repeat(EXCLUSION_LIMITS.maxLength))).toBeNull();
    expect(unix('x'.repeat(EXCLUSION_LIMITS.maxLength + 1))).toBe(M.invalidExclusion);
    expect(unix('a\nb')).toBe(M.invalidExclusion);
    expect(unix('a\u0000b')).toBe(M.invalidExclusion);
    for (const ch of ['<', '>', '"', '|']) {
      expect(windows(`a${ch}b`)).toBe(M.invalidExclusion);
      expect(unix(`a${ch}b`)).toBeNull();
    }
    expect(unix('a**b**c**d**e')).toBeNull();
    expect(unix('a**b**c**d**e**f')).toBe(M.invalidExclusion);
  });

  it('rejects an exclusion that would exclude every path (restic would fail with an empty snapshot)', () => {
    for (const everything of ['*', '?*', '*?', '**/*', '/*', '/**/*', '**/**/*?']) {
      expect(unix(everything), everything).toBe(M.invalidExclusion);
    }
    expect(windows('*')).toBe(M.invalidExclusion);
    for (const something of ['?', '??*', '*/x', 'x/*', '*.tmp', 'a*']) expect(unix(something), something).toBeNull();
    expect(windows('C:\\*')).toBeNull();
  });

  it('answers Unknown error occurred when the checks themselves fail', () => {
    const corrupt = new Proxy([] as string[], {
      get: () => {
        throw new Error('corrupt list');
      },
    });
    expect(validateExclusion('a', corrupt, 'UNIX')).toBe(M.unknownError);
  });

  it('accepts ordinary exclusions', () => {
    for (const ok of ['*.tmp', 'node_modules', '.git', '/home/ana/Downloads', 'cache/**/*.bin', 'a?c', '!x', '-x']) {
      expect(unix(ok), ok).toBeNull();
    }
    for (const ok of ['*.tmp', 'C:\\Users\\Ana\\AppData', 'AppData\\Local\\Temp', 'Thumbs.db', 'c:\\a**b']) {
      expect(windows(ok), ok).toBeNull();
    }
  });

  it('reads the platform from the machine OS family', () => {
    expect(exclusionPlatformOf('WINDOWS')).toBe('WINDOWS');
    expect(exclusionPlatformOf('LINUX')).toBe('UNIX');
    expect(exclusionPlatformOf('MAC')).toBe('UNIX');
  });
});

describe('exclusion schemas (002 §5.7, §5.6)', () => {
  it('puts each message on the index of the failing exclusion, duplicates on the later copy', () => {
    const result = exclusionsSchema('UNIX').safeParse(['*.tmp', '', 'a/', '*.tmp', 'ok', 'x/**']);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [[1], M.empty],
      [[2], M.endsWithSeparator],
      [[3], M.duplicate],
      [[5], M.endsWithDoubleStar],
    ]);
  });

  it('accepts a valid list and an empty one', () => {
    expect(exclusionsSchema('WINDOWS').parse(['*.tmp', 'C:\\temp'])).toEqual(['*.tmp', 'C:\\temp']);
    expect(exclusionsSchema('UNIX').parse([])).toEqual([]);
  });

  it('checks the single entry of the Exclusions modal against the current list', () => {
    const schema = exclusionEntrySchema(['*.tmp'], 'WINDOWS');
    expect(schema.safeParse('*.TMP').error?.issues[0]?.message).toBe(M.duplicate);
    expect(schema.safeParse('\\x').error?.issues[0]?.message).toBe(M.startsWithSeparator);
    expect(schema.parse('*.bak')).toBe('*.bak');
  });
});

describe('exclusion glob rules (002 §5.7)', () => {
  const excluded = (path: string, exclusion: string, platform: ExclusionPlatform = 'UNIX') =>
    matchesExclusion(path, exclusion, platform);

  it('* matches any characters except a separator', () => {
    expect(excluded('/bin/bash', 'b*sh')).toBe(true);
    expect(excluded('/bin/ash', 'b*sh')).toBe(false);
    expect(excluded('/x/b/ash', 'b*sh')).toBe(false);
    expect(excluded('/x/.tmp', '*.tmp')).toBe(true);
  });

  it('** matches any characters including separators', () => {
    expect(excluded('/home/docs/a/b/c.txt', 'docs**.txt')).toBe(true);
    expect(excluded('/home/docs.txt', 'docs**.txt')).toBe(true);
    expect(excluded('/home/xdocs/c.txt', 'docs**.txt')).toBe(false);
    expect(excluded('/home/ana/x.log', '/home/**.log')).toBe(true);
  });

  it('** as a whole component matches zero or more directories', () => {
    expect(excluded('/foo/bar', 'foo/**/bar')).toBe(true);
    expect(excluded('/dir/foo/a/b/bar/file', 'foo/**/bar')).toBe(true);
    expect(excluded('/foo/barx', 'foo/**/bar')).toBe(false);
    expect(excluded('/tmp', '**/tmp')).toBe(true);
  });

  it('? matches one character except a separator, an emoji counting as one', () => {
    expect(excluded('/a/🎉.txt', '?.txt')).toBe(true);
    expect(excluded('/a/ab.txt', '?.txt')).toBe(false);
    expect(excluded('/a/b', 'a?b')).toBe(false);
  });

  it('anchors a full absolute path and lets other patterns start at any level', () => {
    expect(excluded('/home/ana', '/home')).toBe(true);
    expect(excluded('/srv/home', '/home')).toBe(false);
    expect(excluded('/srv/home', 'home')).toBe(true);
    expect(excluded('/srv/home/ana/x', 'home/ana')).toBe(true);
    expect(excluded('C:\\Users\\Ana', 'C:\\Users', 'WINDOWS')).toBe(true);
    expect(excluded('D:\\Users\\Ana', 'C:\\Users', 'WINDOWS')).toBe(false);
    expect(excluded('D:\\Users\\Ana', 'Users\\Ana', 'WINDOWS')).toBe(true);
  });

  it('matches whole components only', () => {
    expect(excluded('/dir/foobar', 'foo')).toBe(false);
    expect(excluded('/dir/barfoo', 'foo')).toBe(false);
    expect(excluded('/dir1/foo/dir2/file', 'foo')).toBe(true);
  });

  it('excludes everything below a matched directory', () => {
    expect(excluded('/a/node_modules/x/y/z.js', 'node_modules')).toBe(true);
    expect(excluded('/home/ana/Downloads/big.iso', '/home/ana/Downloads')).toBe(true);
  });

  it('compares case-insensitively on Windows and case-sensitively on Unix', () => {
    expect(excluded('C:\\Users\\Ana\\PHOTO.JPG', '*.jpg', 'WINDOWS')).toBe(true);
    expect(excluded('c:\\users\\ana', 'C:\\USERS', 'WINDOWS')).toBe(true);
    expect(excluded('/home/PHOTO.JPG', '*.jpg')).toBe(false);
    expect(excluded('/Home/x', '/home')).toBe(false);
  });

  it('takes both separators in Windows paths and ignores a trailing one', () => {
    expect(excluded('C:/Users/Ana', 'Users\\Ana', 'WINDOWS')).toBe(true);
    expect(excluded('C:\\Users\\Ana\\', 'C:\\Users\\Ana', 'WINDOWS')).toBe(true);
    expect(excluded('/home/ana/', '/home/ana')).toBe(true);
  });

  it('ignores invalid exclusions and matches nothing with an empty list', () => {
    const matcher = compileExclusions(['[x]', '', 'ok'], 'UNIX');
    expect(matcher.excludes('/a/[x]')).toBe(false);
    expect(matcher.excludes('/a/ok')).toBe(true);
    expect(compileExclusions([], 'UNIX').excludes('/a')).toBe(false);
  });

  it('makes the anchored exclusion of an item only when its path can be written as one', () => {
    expect(exclusionForPath('/home/ana/My Files', 'UNIX')).toBe('/home/ana/My Files');
    expect(exclusionForPath('C:\\Users\\Ana', 'WINDOWS')).toBe('C:\\Users\\Ana');
    expect(exclusionForPath('/home/a,b', 'UNIX')).toBeNull();
    expect(exclusionForPath('/home/what?', 'UNIX')).toBeNull();
    expect(exclusionForPath('\\\\server\\share', 'WINDOWS')).toBeNull();
    expect(exclusionForPath('relative', 'UNIX')).toBeNull();
  });

  it('never lets a descendant of an excluded path back in (property)', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const random = createRandom(seed);
        const entries = generateTree(random);
        const matcher = compileExclusions(generateExclusions(random, entries, '/r'), 'UNIX');
        for (const entry of entries) {
          const parent = entry.rel.split('/').slice(0, -1).join('/');
          if (parent !== '' && matcher.excludes(`/r/${parent}`)) expect(matcher.excludes(`/r/${entry.rel}`)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('restic mapping (002 §5.7, DESIGN §6)', () => {
  it('passes plain patterns through unchanged', () => {
    expect(toResticPatterns('*.tmp', 'UNIX')).toEqual(['*.tmp']);
    expect(toResticPatterns('/home/ana/x y', 'UNIX')).toEqual(['/home/ana/x y']);
    expect(toResticPatterns('foo/**/bar', 'UNIX')).toEqual(['foo/**/bar']);
  });

  it('splits a ** inside a component into the no-separator and the separator cases', () => {
    expect(toResticPatterns('do**.txt', 'UNIX')).toEqual(['do*.txt', 'do*/**/*.txt']);
    expect(toResticPatterns('a**b**c', 'UNIX')).toHaveLength(4);
    expect(toResticPatterns('a***b', 'UNIX')).toEqual(['a*b', 'a*/**/*b']);
  });

  it('escapes a leading ! so restic does not read a negative pattern', () => {
    expect(toResticPatterns('!bang', 'UNIX')).toEqual(['[!]bang']);
    expect(toResticPatterns('a/!b', 'UNIX')).toEqual(['a/!b']);
  });

  it('keeps Windows volume paths with backslashes and uses --iexclude', () => {
    expect(toResticPatterns('C:\\Users\\*\\AppData', 'WINDOWS')).toEqual(['C:\\Users\\*\\AppData']);
    expect(toResticPatterns('Temp\\x**.log', 'WINDOWS')).toEqual(['Temp\\x*.log', 'Temp\\x*\\**\\*.log']);
    expect(resticExcludeArgs(['*.TMP', 'C:\\x'], 'WINDOWS')).toEqual(['--iexclude=*.TMP', '--iexclude=C:\\x']);
  });

  it('writes one --exclude=<pattern> argument per distinct pattern', () => {
    expect(resticExcludeArgs(['-dash', 'a**b', 'a*b'], 'UNIX')).toEqual([
      '--exclude=-dash',
      '--exclude=a*b',
      '--exclude=a*/**/*b',
    ]);
    expect(resticExcludeArgs([], 'UNIX')).toEqual([]);
  });

  it('refuses to map an invalid exclusion instead of silently backing it up', () => {
    expect(() => toResticPatterns('a/', 'UNIX')).toThrow(InvalidExclusionError);
    expect(() => resticExcludeArgs(['ok', '[x]'], 'UNIX')).toThrow("Invalid exclusion '[x]': Invalid format");
  });

  /**
   * The restic test runs Unix only; on Windows the mapping is checked against testing/restic-filter, a model of
   * restic's filter that the restic test validates against the real binary.
   */
  for (const [platform, os, root] of [
    ['WINDOWS', 'windows', 'C:\\Users\\Ana'],
    ['UNIX', 'unix', '/home/ana'],
  ] as const) {
    it(`excludes on ${platform} exactly what restic's filter excludes with the mapped patterns (property)`, () => {
      const separator = platform === 'WINDOWS' ? '\\' : '/';
      fc.assert(
        fc.property(fc.integer(), fc.boolean(), (seed, shout) => {
          const random = createRandom(seed);
          const entries = generateTree(random);
          const exclusions = generateExclusions(random, entries, root, 4, platform);
          const patterns = exclusions.flatMap((exclusion) => toResticPatterns(exclusion, platform));
          const matcher = compileExclusions(exclusions, platform);
          for (const entry of entries) {
            const rel = entry.rel.replaceAll('/', separator);
            const path = `${root}${separator}${shout && platform === 'WINDOWS' ? rel.toUpperCase() : rel}`;
            expect(matcher.excludes(path), `${path} with ${JSON.stringify(exclusions)}`).toBe(
              resticExcludes(patterns, path, os, platform === 'WINDOWS'),
            );
          }
        }),
        { numRuns: 300 },
      );
    });
  }
});
