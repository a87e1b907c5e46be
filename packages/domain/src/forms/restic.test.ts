import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messagesByField } from './fields.js';
import { joinCommandParts, resticCommandLine, resticCommandSchema, splitCommandParts } from './restic.js';

const part = fc.string({ minLength: 1 }).filter((s) => !s.includes(' '));

describe('restic command (001 §5)', () => {
  it('001 §5: splits on single spaces; empty is an empty list', () => {
    expect(splitCommandParts('')).toEqual([]);
    expect(splitCommandParts('--json --no-lock')).toEqual(['--json', '--no-lock']);
  });

  it('001 §5: splitting and joining round-trip', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(joinCommandParts(splitCommandParts(text))).toBe(text);
      }),
    );
    fc.assert(
      fc.property(fc.array(part), (parts) => {
        expect(splitCommandParts(joinCommandParts(parts))).toEqual(parts);
      }),
    );
  });

  it("001 §5: the base command is required, labelled 'base command'", () => {
    expect(
      messagesByField(resticCommandSchema.safeParse({ requestId: 'r1', baseCommand: ' ' }).error?.issues ?? []),
    ).toEqual({
      baseCommand: 'base command is required',
    });
    expect(
      messagesByField(resticCommandSchema.safeParse({ requestId: 'r1', baseCommand: 'rm -rf' }).error?.issues ?? []),
    ).toEqual({
      baseCommand: 'base command is not valid',
    });
  });

  it('001 §3, §7: the payload carries lists, from the form text or from the wire', () => {
    expect(
      resticCommandSchema.parse({
        requestId: 'r1',
        baseCommand: 'snapshots',
        commandArguments: 'latest',
        commandFlags: '--json --compact',
      }),
    ).toEqual({
      requestId: 'r1',
      baseCommand: 'snapshots',
      commandArguments: ['latest'],
      commandFlags: ['--json', '--compact'],
    });
    expect(
      resticCommandSchema.parse({
        requestId: 'r1',
        baseCommand: 'check',
        commandArguments: [],
        commandFlags: ['--read-data'],
      }),
    ).toEqual({ requestId: 'r1', baseCommand: 'check', commandArguments: [], commandFlags: ['--read-data'] });
    expect(resticCommandSchema.parse({ requestId: 'r1', baseCommand: 'stats' })).toMatchObject({
      commandArguments: [],
      commandFlags: [],
    });
  });

  it('ours: no empty part (double, leading or trailing spaces); a request id is required', () => {
    expect(
      messagesByField(
        resticCommandSchema.safeParse({
          requestId: '',
          baseCommand: 'ls',
          commandArguments: 'a  b',
          commandFlags: '--json ',
        }).error?.issues ?? [],
      ),
    ).toEqual({
      requestId: 'Request id is required',
      commandArguments: 'Arguments must be separated by single spaces',
      commandFlags: 'Flags must be separated by single spaces',
    });
  });

  it("001 §2: the command line is 'restic' plus base command, arguments and flags", () => {
    expect(
      resticCommandLine({ baseCommand: 'snapshots', commandArguments: ['latest'], commandFlags: ['--json'] }),
    ).toBe('restic snapshots latest --json');
  });
});
