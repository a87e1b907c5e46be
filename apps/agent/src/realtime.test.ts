/** Realtime restic commands against the real restic (/usr/bin/restic) and a local repository (issue #5). */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentToServerSchema, REALTIME_CAT_OBJECT_TYPES, REALTIME_COMMAND_TEXTS } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  LineBatcher,
  type RealtimeEvent,
  realtimeExitCodeResult,
  refusedRealtimeCommand,
  runRealtimeCommand,
} from './realtime.js';
import { ResticRunner } from './restic.js';
import { leaveStaleCheckLock } from './testing.js';

const PASSWORD = 'realtime-secret-password';
let base = '';
let repo = '';

const runner = () =>
  new ResticRunner({ repository: { repository: repo, password: PASSWORD }, host: 'test-machine', cacheDir: null });

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'agent-realtime-'));
  repo = join(base, 'repo');
  execFileSync('restic', ['--no-cache', 'init'], {
    env: { ...process.env, RESTIC_REPOSITORY: repo, RESTIC_PASSWORD: PASSWORD },
    stdio: 'ignore',
  });
  execFileSync('restic', ['--no-cache', 'backup', '--host', 'test-machine', import.meta.dirname], {
    env: { ...process.env, RESTIC_REPOSITORY: repo, RESTIC_PASSWORD: PASSWORD },
    stdio: 'ignore',
  });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

async function run(command: { baseCommand: string; commandArguments?: string[]; commandFlags?: string[] }) {
  const events: RealtimeEvent[] = [];
  const finished = await runRealtimeCommand(
    runner(),
    { commandId: 7, commandArguments: [], commandFlags: [], ...command },
    (e) => events.push(e),
  );
  for (const event of events) expect(agentToServerSchema.safeParse(event).success).toBe(true);
  const lines = events.flatMap((e) => (e.type === 'realtimeOutput' ? e.lines : []));
  return { events, finished, lines };
}

describe('realtime restic commands (issue #5)', () => {
  it('runs restic version and streams its line, then the finish', async () => {
    const { events, finished, lines } = await run({ baseCommand: 'version' });
    expect(lines.join('\n')).toMatch(/^restic 0\.\d+/);
    expect(events.at(-1)).toEqual(finished);
    expect(finished).toMatchObject({ type: 'realtimeFinished', commandId: 7, exitCodeResult: 'SUCCESS' });
  });

  it('runs restic snapshots --json against the machine repository', async () => {
    const { finished, lines } = await run({ baseCommand: 'snapshots', commandFlags: ['--json'] });
    expect(finished.exitCodeResult).toBe('SUCCESS');
    const snapshots = JSON.parse(lines.join('\n')) as Array<{ hostname: string }>;
    expect(snapshots).toHaveLength(1);
    expect(snapshots[0]?.hostname).toBe('test-machine');
    expect(lines.join('\n')).not.toContain(PASSWORD);
  });

  it('streams many lines in batches of at most 500', async () => {
    const { events, lines, finished } = await run({ baseCommand: 'ls', commandArguments: ['latest'] });
    expect(finished.exitCodeResult).toBe('SUCCESS');
    expect(lines.length).toBeGreaterThan(10);
    for (const e of events) if (e.type === 'realtimeOutput') expect(e.lines.length).toBeLessThanOrEqual(500);
  });

  it('reports a failing command as FATAL with restic’s error text', async () => {
    const { finished, lines } = await run({ baseCommand: 'cat', commandArguments: ['snapshot', 'deadbeef'] });
    expect(finished.exitCodeResult).toBe('FATAL');
    expect(lines.length).toBeGreaterThan(0);
  });

  it('a stopped command finishes as CANCELLATION_REQUESTED', async () => {
    const stop = new AbortController();
    const events: RealtimeEvent[] = [];
    const pending = runRealtimeCommand(
      runner(),
      // `restic check --read-data` on the repository takes a moment; stopped right away.
      { commandId: 9, baseCommand: 'check', commandArguments: [], commandFlags: ['--read-data'] },
      (e) => events.push(e),
      { signal: stop.signal },
    );
    stop.abort();
    const finished = await pending;
    expect(finished.exitCodeResult).toBe('CANCELLATION_REQUESTED');
  });

  it('a stopped command leaves no stale lock behind, so the next command that locks runs', async () => {
    // The lock of a restic killed after the grace period; the stopped command's own lock-free reading runs past it.
    await leaveStaleCheckLock(repo, PASSWORD);
    const stop = new AbortController();
    const pending = runRealtimeCommand(
      runner(),
      { commandId: 10, baseCommand: 'check', commandArguments: [], commandFlags: ['--no-lock', '--read-data'] },
      () => {},
      { signal: stop.signal },
    );
    stop.abort();
    expect((await pending).exitCodeResult).toBe('CANCELLATION_REQUESTED');
    expect(readdirSync(join(repo, 'locks'))).toEqual([]);
    expect((await run({ baseCommand: 'check' })).finished.exitCodeResult).toBe('SUCCESS');
  });

  it('a missing restic is a FATAL finish with a clear line', async () => {
    const events: RealtimeEvent[] = [];
    const missing = new ResticRunner({
      repository: { repository: repo, password: PASSWORD },
      host: 'h',
      binary: '/nonexistent/restic',
    });
    const finished = await runRealtimeCommand(
      missing,
      { commandId: 1, baseCommand: 'version', commandArguments: [], commandFlags: [] },
      (e) => events.push(e),
    );
    expect(finished.exitCodeResult).toBe('FATAL');
    expect(events[0]).toMatchObject({
      type: 'realtimeOutput',
      lines: ['restic could not be started: restic was not found on this machine'],
    });
  });
});

describe('realtime command checks (issue 29)', () => {
  it('refuses with the domain’s reason, naming the offending part', () => {
    const cmd = (commandFlags: string[]) => ({ baseCommand: 'snapshots', commandArguments: [], commandFlags });
    expect(refusedRealtimeCommand(cmd(['--json']))).toBeNull();
    expect(refusedRealtimeCommand(cmd(['-vr', '/tmp/x']))).toBe(
      REALTIME_COMMAND_TEXTS.flagNotAllowed('-r', 'snapshots', '-vr'),
    );
    expect(refusedRealtimeCommand({ ...cmd([]), baseCommand: 'forget' })).toMatch(/'forget' is not allowed/);
  });

  it('maps exit codes', () => {
    expect(realtimeExitCodeResult(0, false)).toBe('SUCCESS');
    expect(realtimeExitCodeResult(3, false)).toBe('SOME_FILES_NOT_ACCESSIBLE');
    expect(realtimeExitCodeResult(1, false)).toBe('FATAL');
    expect(realtimeExitCodeResult(null, false)).toBe('FATAL');
    expect(realtimeExitCodeResult(0, true)).toBe('CANCELLATION_REQUESTED');
  });

  it('batches lines by count and by time', () => {
    vi.useFakeTimers();
    try {
      const sent: string[][] = [];
      const batcher = new LineBatcher((lines) => sent.push(lines), 3, 250);
      for (let i = 0; i < 7; i += 1) batcher.add(`line ${i}`);
      expect(sent.map((b) => b.length)).toEqual([3, 3]);
      vi.advanceTimersByTime(249);
      expect(sent).toHaveLength(2);
      vi.advanceTimersByTime(1);
      expect(sent.at(-1)).toEqual(['line 6']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('realtime commands against real restic: the allow-list (issue 29)', () => {
  /** The file a program started through restic would create: its absence proves nothing ran. */
  const proof = () => join(base, 'proof');
  const touch = () => `/usr/bin/touch ${proof()}`;

  it('the issue’s forms would start a program without the allow-list: restic itself runs them', () => {
    // The control: restic 0.14 given `-v -r sftp:… -v -o sftp.command=…` does start the program.
    spawnSync('restic', ['snapshots', '-vr', 'sftp:x@127.0.0.1:/x', '-vo', `sftp.command=${touch()}`], {
      env: { ...process.env, RESTIC_PASSWORD: PASSWORD },
      stdio: 'ignore',
    });
    expect(existsSync(proof())).toBe(true);
    rmSync(proof());
  });

  it.each([
    [['-vr', 'sftp:x@127.0.0.1:/x', '-vo', 'sftp.command=PROGRAM'], [], '-r'],
    [['-vo', 'sftp.command=PROGRAM', '-vr', 'sftp:x@127.0.0.1:/x'], [], '-o'],
    [['-qvr', 'rclone:x:y', '-o', 'rclone.program=PROGRAM'], [], '-r'],
    [['--option=sftp.command=PROGRAM', '--repo=sftp:x@127.0.0.1:/x'], [], '--option'],
    [['-osftp.command=PROGRAM'], [], '-o'],
    [['--password-command', 'PROGRAM'], [], '--password-command'],
    [['-vp', '/etc/hostname'], [], '-p'],
    [['--repo=/tmp'], [], '--repo'],
    [['--cache-dir', '/tmp'], [], '--cache-dir'],
    [[], ['--password-command=PROGRAM'], "The argument '--password-command="],
  ])('refuses flags %j arguments %j, naming %s: FATAL with the reason, nothing runs', async (flags, args, named) => {
    const fill = (parts: string[]) => parts.map((p) => p.replace('PROGRAM', touch()));
    const command = { baseCommand: 'snapshots', commandFlags: fill(flags), commandArguments: fill(args) };
    const { finished, lines } = await run(command);
    expect(finished.exitCodeResult).toBe('FATAL');
    expect(lines).toEqual([refusedRealtimeCommand(command)]);
    expect(lines[0]).toContain(named);
    expect(existsSync(proof())).toBe(false);
  });

  it('runs cat snapshot, index and blob by id to SUCCESS', async () => {
    const snapshots = await run({ baseCommand: 'snapshots', commandFlags: ['--json'] });
    const [snapshot] = JSON.parse(snapshots.lines.join('\n')) as Array<{ id: string; tree: string }>;
    if (!snapshot) throw new Error('no snapshot');
    const index = (await run({ baseCommand: 'list', commandArguments: ['index'] })).lines[0] ?? '';
    for (const commandArguments of [
      ['snapshot', snapshot.id],
      ['index', index],
      ['blob', snapshot.tree],
    ]) {
      const { finished, lines } = await run({ baseCommand: 'cat', commandArguments });
      expect(finished.exitCodeResult, lines.join('\n')).toBe('SUCCESS');
    }
  });

  it.each(['masterkey', 'key'])('refuses cat %s: no key material is shown', async (type) => {
    const { finished, lines } = await run({ baseCommand: 'cat', commandArguments: [type, 'abc'] });
    expect(finished.exitCodeResult).toBe('FATAL');
    expect(lines).toEqual([REALTIME_COMMAND_TEXTS.catObjectType(type, REALTIME_CAT_OBJECT_TYPES)]);
  });

  it.each([
    ['snapshots', ['--json'], []],
    ['ls', ['--long'], ['latest']],
    ['ls', ['-l', '--recursive', '-q'], ['latest']],
    ['cat', [], ['config']],
    ['find', [], ['somename']],
    ['find', ['-il', '--host=test-machine'], ['realtime.test.ts']],
    ['stats', ['--mode', 'raw-data'], []],
    ['check', ['--read-data-subset', '1/10'], []],
    ['snapshots', ['-vv', '--no-lock', '-cH', 'test-machine', '--limit-download', '1000'], []],
    ['list', [], ['keys']],
    ['unlock', [], []],
    ['version', [], []],
  ])('runs restic %s %j -- %j to SUCCESS', async (baseCommand, commandFlags, commandArguments) => {
    const { finished, lines } = await run({ baseCommand, commandFlags, commandArguments });
    expect(finished.exitCodeResult, lines.join('\n')).toBe('SUCCESS');
  });
});
