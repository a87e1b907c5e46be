/** The realtime command allow-list (issue 29): every dangerous form refused, allowed ones pass, read as restic reads them. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resticCommandFormSchema, resticCommandSchema } from './forms/restic.js';
import { REALTIME_COMMAND_TEXTS, resticCommandNotAllowedText } from './messages.js';
import {
  DEFAULT_REALTIME_ALLOW_LIST,
  REALTIME_CAT_OBJECT_TYPES,
  REALTIME_COMMANDS,
  REALTIME_GLOBAL_FLAGS,
  type RealtimeCommandName,
  type RealtimeFlag,
  readRealtimeFlags,
  realtimeCommandArgv,
  realtimeCommandRefusal,
  realtimeFlagsOf,
  realtimeFlagValueValid,
} from './realtime-commands.js';

const T = REALTIME_COMMAND_TEXTS;
const command = (baseCommand: string, commandFlags: string[] = [], commandArguments: string[] = []) => ({
  baseCommand,
  commandFlags,
  commandArguments,
});
const refusal = (baseCommand: string, flags: string[] = [], args: string[] = []) =>
  realtimeCommandRefusal(command(baseCommand, flags, args));

/**
 * restic 0.14's flags that must never pass: they name a repository, an option, a password source, a program,
 * key material, TLS files or the cache, or change what the repository is written with.
 */
const FORBIDDEN_LONG = [
  'repo',
  'repository-file',
  'from-repo',
  'from-repository-file',
  'from-password-file',
  'from-password-command',
  'from-key-hint',
  'option',
  'password-file',
  'password-command',
  'key-hint',
  'cacert',
  'tls-client-cert',
  'insecure-tls',
  'cache-dir',
  'cleanup-cache',
  'compression',
  'pack-size',
  'remove-all',
  'help',
];
const FORBIDDEN_SHORT = ['r', 'o', 'p', 'h'];

describe('realtime command allow-list (issue 29)', () => {
  it('refuses the issue’s command: -vr is -v and -r, and names -r', () => {
    expect(refusal('snapshots', ['-vr', 'sftp:x@127.0.0.1:/x', '-vo', 'sftp.command=/bin/sh -c id>proof'])).toEqual({
      field: 'commandFlags',
      message: T.flagNotAllowed('-r', 'snapshots', '-vr'),
    });
  });

  it.each([
    [['-vo', 'rclone.program=/bin/sh'], '-o'],
    [['-vp', '/etc/passwd'], '-p'],
    [['--option=sftp.command=/bin/sh'], '--option'],
    [['--option', 'sftp.command=/bin/sh'], '--option'],
    [['-osftp.command=/bin/sh'], '-o'],
    [['-o', 'sftp.command=/bin/sh'], '-o'],
    [['--repo=/tmp/other'], '--repo'],
    [['-r', '/tmp/other'], '-r'],
    [['--repository-file', '/tmp/f'], '--repository-file'],
    [['--password-command', 'sh -c id'], '--password-command'],
    [['--password-file=/tmp/p'], '--password-file'],
    [['--from-repo', '/tmp/x'], '--from-repo'],
    [['--cache-dir', '/tmp/c'], '--cache-dir'],
    [['--cacert', '/tmp/c'], '--cacert'],
    [['--tls-client-cert', '/tmp/c'], '--tls-client-cert'],
    [['--key-hint', 'abc'], '--key-hint'],
    [['-qvr', '/tmp/x'], '-r'],
    [['-cvo', 'x=y'], '-o'],
    [['-json'], '-j'],
  ])('refuses %j, naming %s', (flags, named) => {
    const why = refusal('snapshots', flags);
    expect(why?.field).toBe('commandFlags');
    expect(why?.message).toContain(`The flag ${named}`);
  });

  it('refuses an argument that starts with -, and a bare word among the flags', () => {
    expect(refusal('ls', [], ['latest', '--repo=/x'])).toEqual({
      field: 'commandArguments',
      message: T.argumentIsFlag('--repo=/x'),
    });
    expect(refusal('find', [], ['-r'])).toMatchObject({ field: 'commandArguments' });
    expect(refusal('find', [], ['-'])).toMatchObject({ field: 'commandArguments' });
    expect(refusal('snapshots', ['--json', 'latest'])).toEqual({
      field: 'commandFlags',
      message: T.notAFlag('latest'),
    });
    expect(refusal('snapshots', ['--'])).toEqual({ field: 'commandFlags', message: T.separatorInFlags });
  });

  it('reads values as restic does: separate, after =, glued to a short flag; checks them', () => {
    expect(readRealtimeFlags('snapshots', ['-H', 'pc1', '--host=pc2', '-Hpc3', '-H=pc4', '-cH', 'pc5'])).toEqual({
      flags: [
        { long: 'host', value: 'pc1' },
        { long: 'host', value: 'pc2' },
        { long: 'host', value: 'pc3' },
        { long: 'host', value: 'pc4' },
        { long: 'compact', value: null },
        { long: 'host', value: 'pc5' },
      ],
    });
    // A value-taking short flag swallows the rest of its group: `-Hvr` is the host 'vr', not -v -r.
    expect(readRealtimeFlags('snapshots', ['-Hvr'])).toEqual({ flags: [{ long: 'host', value: 'vr' }] });
    expect(refusal('snapshots', ['--host', '-r'])).toMatchObject({ field: 'commandFlags' });
    expect(refusal('snapshots', ['--host'])).toEqual({ field: 'commandFlags', message: T.needsValue('--host') });
    expect(refusal('snapshots', ['--latest', 'x'])?.message).toContain("'x' is not a valid value for --latest");
    expect(refusal('snapshots', ['--json=true'])).toEqual({ field: 'commandFlags', message: T.takesNoValue('--json') });
    expect(refusal('stats', ['--mode', 'everything'])).toMatchObject({ field: 'commandFlags' });
    expect(refusal('find', ['-s', 'zz'])).toMatchObject({ field: 'commandFlags' });
    expect(refusal('check', ['--read-data-subset', 'all'])).toMatchObject({ field: 'commandFlags' });
    expect(refusal('snapshots', ['--verbose=9'])).toMatchObject({ field: 'commandFlags' });
    expect(refusal('snapshots', ['--json\n--repo=/x'])).toMatchObject({ field: 'commandFlags' });
  });

  it('a flag is allowed only for the sub-commands that have it', () => {
    expect(refusal('version', ['--long'])).toEqual({
      field: 'commandFlags',
      message: T.flagNotAllowed('--long', 'version'),
    });
    expect(refusal('unlock', ['--remove-all'])).toMatchObject({ field: 'commandFlags' });
  });

  it('lets the diagnostic forms pass', () => {
    for (const [base, flags, args] of [
      ['snapshots', ['--json'], []],
      ['snapshots', ['-vv', '-q', '--no-lock', '--limit-download', '100', '-c', '--group-by', 'host,paths'], []],
      ['snapshots', ['--verbose=2', '-v=1', '--latest=3', '--tag', 'a,b', '--path', '/home'], ['latest']],
      ['ls', ['--long'], ['latest']],
      ['ls', ['-l', '--recursive'], ['latest', '/home']],
      ['cat', [], ['config']],
      ['cat', ['--json'], ['snapshot', 'abc123']],
      ['find', [], ['somename']],
      ['find', ['-il', '-s', 'latest', '--newest', '2026-01-01'], ['*.txt']],
      ['stats', ['--mode', 'raw-data'], []],
      ['check', ['--read-data-subset', '1/10'], []],
      ['check', ['--read-data-subset=2.5%'], []],
      ['check', ['--read-data', '--limit-download', '1'], []],
      ['diff', ['--metadata'], ['abc', 'def']],
      ['list', [], ['keys']],
      ['unlock', [], []],
      ['version', [], []],
    ] as const) {
      expect(refusal(base, [...flags], [...args]), `${base} ${flags.join(' ')}`).toBeNull();
    }
  });

  it('cat shows only config, snapshot, index, tree and blob: never key material', () => {
    expect(REALTIME_CAT_OBJECT_TYPES).toEqual(['config', 'snapshot', 'index', 'tree', 'blob']);
    for (const type of ['masterkey', 'key', 'pack', 'lock', 'other']) {
      expect(refusal('cat', [], [type, 'abc'])).toEqual({
        field: 'commandArguments',
        message: T.catObjectType(type, REALTIME_CAT_OBJECT_TYPES),
      });
    }
    expect(refusal('cat', [], [])).toMatchObject({ field: 'commandArguments' });
  });

  it('only known sub-commands in the given allow-list pass, with its message', () => {
    expect(refusal('forget', [], [])).toEqual({
      field: 'baseCommand',
      message: resticCommandNotAllowedText('forget', DEFAULT_REALTIME_ALLOW_LIST),
    });
    expect(realtimeCommandRefusal(command('check'), ['snapshots', 'forget'])).toEqual({
      field: 'baseCommand',
      message: resticCommandNotAllowedText('check', ['snapshots']),
    });
  });

  it('puts -- between the flags and the arguments', () => {
    expect(realtimeCommandArgv(command('ls', ['--long'], ['latest']))).toEqual(['ls', '--long', '--', 'latest']);
  });

  it('the allow-list holds no forbidden flag', () => {
    for (const base of DEFAULT_REALTIME_ALLOW_LIST) {
      for (const flag of realtimeFlagsOf(base)) {
        expect(FORBIDDEN_LONG).not.toContain(flag.long);
        if (flag.short) expect(FORBIDDEN_SHORT).not.toContain(flag.short);
      }
    }
  });

  it('the form schemas carry the rule onto the field it names', () => {
    const parsed = resticCommandSchema.safeParse({
      requestId: 'r',
      baseCommand: 'snapshots',
      commandArguments: [],
      commandFlags: ['-vr', 'sftp:x@127.0.0.1:/x', '-vo', 'sftp.command=/bin/sh -c id>proof'],
    });
    expect(parsed.error?.issues).toEqual([
      expect.objectContaining({ path: ['commandFlags'], message: T.flagNotAllowed('-r', 'snapshots', '-vr') }),
    ]);
    const form = resticCommandFormSchema.safeParse({ baseCommand: 'cat', commandArguments: 'masterkey' });
    expect(form.error?.issues[0]).toMatchObject({ path: ['commandArguments'] });
    // An unknown base command is the server's to answer, with its own allow-list.
    expect(resticCommandSchema.safeParse({ requestId: 'r', baseCommand: 'forget' }).success).toBe(true);
  });
});

/** Every flag restic 0.14 has for the allowed sub-commands, allowed or not, for the generators. */
const RESTIC_FLAGS: RealtimeFlag[] = [
  ...REALTIME_GLOBAL_FLAGS,
  ...Object.values(REALTIME_COMMANDS).flat(),
  { long: 'repo', short: 'r', value: 'text' },
  { long: 'option', short: 'o', value: 'text' },
  { long: 'password-file', short: 'p', value: 'text' },
  { long: 'help', short: 'h', value: null },
  ...FORBIDDEN_LONG.filter((l) => !['repo', 'option', 'password-file', 'help', 'remove-all'].includes(l)).map(
    (long): RealtimeFlag => ({ long, value: 'text' }),
  ),
  { long: 'remove-all', value: null },
  { long: 'insecure-tls', value: null },
];
const SHORTS = [...new Map(RESTIC_FLAGS.filter((f) => f.short).map((f) => [f.short as string, f])).values()];
const VALUES = [
  'latest',
  'host',
  'a,b',
  '/home',
  '1',
  '42',
  '1/10',
  '5%',
  'raw-data',
  'x=y',
  '-r',
  'sftp.command=/bin/sh',
  'abc123',
];

const arbBase = fc.constantFrom(...DEFAULT_REALTIME_ALLOW_LIST);
const arbValue = fc.oneof(
  fc.constantFrom(...VALUES),
  fc.string({ minLength: 1, maxLength: 6 }).filter((v) => !v.startsWith('=')),
);

/** One flag with a value if it takes one, written in one of the ways restic reads. */
const arbWritten = fc.tuple(fc.constantFrom(...RESTIC_FLAGS), arbValue, fc.nat(3)).map(([flag, value, style]) => {
  const read = { long: flag.long, value: flag.value === null ? null : value };
  if (flag.value === null) return { read, parts: flag.short && style % 2 ? [`-${flag.short}`] : [`--${flag.long}`] };
  if (!flag.short || style === 0) return { read, parts: [`--${flag.long}`, value] };
  if (style === 1) return { read, parts: [`--${flag.long}=${value}`] };
  return { read, parts: style === 2 ? [`-${flag.short}`, value] : [`-${flag.short}${value}`] };
});

/** A group of short switches, ended perhaps by one short flag that takes a value. */
const arbGroup = fc
  .tuple(
    fc.array(fc.constantFrom(...SHORTS.filter((f) => f.value === null)), { minLength: 1, maxLength: 4 }),
    fc.option(fc.tuple(fc.constantFrom(...SHORTS.filter((f) => f.value !== null)), arbValue)),
  )
  .map(([switches, last]) => {
    const read = switches.map((f) => ({ long: f.long, value: null as string | null }));
    let text = `-${switches.map((f) => f.short).join('')}`;
    if (last) {
      const [flag, value] = last;
      read.push({ long: flag.long, value });
      text += `${flag.short}${value}`;
    }
    return { read, parts: [text] };
  });

const allowedFor = (base: RealtimeCommandName, read: { long: string; value: string | null }) => {
  const flag = realtimeFlagsOf(base).find((f) => f.long === read.long);
  if (!flag) return false;
  return flag.value === null
    ? read.value === null
    : read.value !== null && realtimeFlagValueValid(flag.value, read.value);
};

describe('realtime command allow-list: properties (issue 29)', () => {
  it('flags written in every way restic reads pass exactly when each is allowed with a valid value', () => {
    fc.assert(
      fc.property(arbBase, fc.array(fc.oneof(arbWritten, arbGroup), { maxLength: 5 }), (base, written) => {
        const parts = written.flatMap((w) => w.parts);
        const intended = written.flatMap((w) => w.read);
        const read = readRealtimeFlags(base, parts);
        const allowed = intended.every((f) => allowedFor(base, f));
        if (allowed) expect(read).toEqual({ flags: intended });
        else expect(read).toMatchObject({ field: 'commandFlags' });
      }),
      { numRuns: 2000 },
    );
  });

  it('random text never passes with a forbidden flag, and what passes is allow-listed with valid values', () => {
    const arbPart = fc.oneof(
      fc.stringMatching(/^-[a-zA-Z=]{1,5}$/),
      fc.stringMatching(/^--[a-z-]{1,16}(=[a-z0-9/=.,-]{0,8})?$/),
      fc.constantFrom(...VALUES),
    );
    fc.assert(
      fc.property(
        arbBase,
        fc.array(arbPart, { maxLength: 6 }),
        fc.array(arbPart, { maxLength: 3 }),
        (base, flags, args) => {
          const why = realtimeCommandRefusal(command(base, flags, args));
          const read = readRealtimeFlags(base, flags);
          if (why !== null) return;
          if ('message' in read) throw new Error('accepted, yet its flags were refused');
          for (const flag of read.flags) {
            expect(FORBIDDEN_LONG).not.toContain(flag.long);
            expect(allowedFor(base, flag) || (flag.long === 'verbose' && /^[0-3]$/.test(flag.value ?? ''))).toBe(true);
          }
          for (const part of flags) {
            // No part names a forbidden flag: not as a long flag, nor as a short one before a letter that takes
            // the rest of its group as its value (walked with restic's whole table, not the allow-list).
            for (const long of FORBIDDEN_LONG)
              expect(part === `--${long}` || part.startsWith(`--${long}=`)).toBe(false);
            if (part.startsWith('--') || !part.startsWith('-')) continue;
            for (const letter of part.slice(1)) {
              expect(FORBIDDEN_SHORT).not.toContain(letter);
              if (SHORTS.find((f) => f.short === letter)?.value !== null) break;
            }
          }
          for (const arg of args) expect(arg.startsWith('-')).toBe(false);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
