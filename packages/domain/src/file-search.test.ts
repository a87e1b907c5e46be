import { describe, expect, it } from 'vitest';
import {
  exactPathPattern,
  FILE_SEARCH_TEXTS,
  fileIndexArgv,
  fileIndexRefusal,
  fileSearchArgv,
  fileSearchOutcomeText,
  fileSearchRefusal,
  fileSearchRequestSchema,
  readFileSearchUpdate,
} from './file-search.js';

const SNAPSHOT = 'a'.repeat(64);

describe('the search form', () => {
  const parse = (pattern: string) => fileSearchRequestSchema.safeParse({ searchId: 'search-0001', pattern });
  const messageOf = (pattern: string) => {
    const result = parse(pattern);
    return result.success ? null : result.error.issues[0]?.message;
  };

  it('takes a name or path pattern, trimmed, ignoring case unless told', () => {
    expect(parse('  *.docx ').data).toEqual({ searchId: 'search-0001', pattern: '*.docx', ignoreCase: true });
  });

  it('refuses an empty, too long, control-character or dash-led pattern with its message', () => {
    expect(messageOf('   ')).toBe(FILE_SEARCH_TEXTS.patternRequired);
    expect(messageOf('x'.repeat(256))).toBe(FILE_SEARCH_TEXTS.patternTooLong);
    expect(messageOf('a\nb')).toBe(FILE_SEARCH_TEXTS.patternControl);
    expect(messageOf('--password-command=sh')).toBe(FILE_SEARCH_TEXTS.patternDash);
  });

  it('refuses a search id that is not the browser’s token', () => {
    expect(fileSearchRequestSchema.safeParse({ searchId: 'a b', pattern: 'x' }).success).toBe(false);
  });
});

describe('the restic arguments of a search', () => {
  it('are find with JSON, no lock, the snapshot, then the pattern after --', () => {
    expect(fileSearchArgv({ pattern: '*.txt', ignoreCase: true }, SNAPSHOT)).toEqual([
      'find',
      '--json',
      '--no-lock',
      '--ignore-case',
      '--snapshot',
      SNAPSHOT,
      '--',
      '*.txt',
    ]);
    expect(fileSearchArgv({ pattern: 'x', ignoreCase: false }, SNAPSHOT)).not.toContain('--ignore-case');
  });

  it('pass the realtime allow-list, and a pattern that would be a flag or carries a control character does not', () => {
    expect(fileSearchRefusal({ pattern: '/home/*/report*', ignoreCase: true })).toBeNull();
    expect(fileSearchRefusal({ pattern: '-o', ignoreCase: false })).toMatch(/-o/);
    expect(fileSearchRefusal({ pattern: 'a\u0000b', ignoreCase: false })).not.toBeNull();
    expect(fileSearchRefusal({ pattern: '', ignoreCase: false })).toBe(FILE_SEARCH_TEXTS.patternRequired);
    expect(fileSearchRefusal({ pattern: 'x'.repeat(9000), ignoreCase: false })).toBe(FILE_SEARCH_TEXTS.patternTooLong);
  });
});

describe('the restic arguments of a snapshot’s file index', () => {
  it('are ls with JSON and no lock, the snapshot after --, within the allow-list; nothing but a full id', () => {
    expect(fileIndexArgv(SNAPSHOT)).toEqual(['ls', '--json', '--no-lock', '--', SNAPSHOT]);
    expect(fileIndexRefusal(SNAPSHOT)).toBeNull();
    expect(fileIndexRefusal('latest')).not.toBeNull();
    expect(fileIndexRefusal('--password-command=sh')).not.toBeNull();
  });
});

describe('a history’s exact path', () => {
  it('escapes restic’s wildcards so that they match themselves only', () => {
    expect(exactPathPattern('/data/a [1]/*x?\\y.txt')).toBe('/data/a \\[1\\]/\\*x\\?\\\\y.txt');
    expect(exactPathPattern('/plain/path.txt')).toBe('/plain/path.txt');
  });
});

describe('search updates on the machine queue', () => {
  it('are read back, and anything else is not one', () => {
    const finished = { fileSearchId: 's1', kind: 'finished', outcome: 'LIMIT_REACHED', message: null };
    expect(readFileSearchUpdate(JSON.stringify(finished))).toEqual(finished);
    expect(readFileSearchUpdate(JSON.stringify({ requestId: 'x', responsePayloadJson: '{}' }))).toBeNull();
    expect(readFileSearchUpdate('not json')).toBeNull();
  });

  it('name why a search ended, or nothing when it completed', () => {
    expect(fileSearchOutcomeText('COMPLETE', null)).toBeNull();
    expect(fileSearchOutcomeText('LIMIT_REACHED', null)).toBe(FILE_SEARCH_TEXTS.limitReached);
    expect(fileSearchOutcomeText('FAILED', 'repository locked')).toBe(`${FILE_SEARCH_TEXTS.failed} repository locked`);
  });
});
