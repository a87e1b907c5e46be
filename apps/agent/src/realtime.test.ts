/** Realtime restic commands against the real restic (/usr/bin/restic) and a local repository (issue #5). */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentToServerSchema } from '@portal/domain';
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
    const { finished, lines } = await run({ baseCommand: 'cat', commandArguments: ['no-such-thing'] });
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

describe('realtime command checks', () => {
  it('refuses flags that run programs or swap the repository', () => {
    const cmd = (commandFlags: string[]) => ({ baseCommand: 'snapshots', commandArguments: [], commandFlags });
    expect(refusedRealtimeCommand(cmd(['--json']))).toBeNull();
    expect(refusedRealtimeCommand(cmd(['--password-command=sh -c x']))).toMatch(/--password-command/);
    expect(refusedRealtimeCommand(cmd(['-o', 'sftp.command=sh']))).toMatch(/-o/);
    expect(refusedRealtimeCommand(cmd(['-osftp.command=sh']))).toMatch(/-o/);
    expect(refusedRealtimeCommand(cmd(['--repo', '/tmp/x']))).toMatch(/--repo/);
    expect(refusedRealtimeCommand({ ...cmd([]), baseCommand: 'snap shots' })).toMatch(/not a restic command/);
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
