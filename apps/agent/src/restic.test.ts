/**
 * The backup engine against the real restic 0.14 (/usr/bin/restic) on real files and local repositories in a
 * temporary directory. restic must be installed: these tests fail, they do not skip, when it is missing.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentTask, agentToServerSchema, RUN_REPORT_TEXTS } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backupArgs,
  describeResticError,
  Redactor,
  ResticRunner,
  type ResticRunnerOptions,
  type RunEvent,
  uploadLimitKiB,
} from './restic.js';
import { dirItem, fileItem, makeTask } from './testing.js';

const PASSWORD = 'correct-horse-battery-staple';
let base = '';
let src = '';

function runner(overrides: Partial<ResticRunnerOptions> = {}, repo = join(base, 'repo')): ResticRunner {
  return new ResticRunner({
    repository: { repository: repo, password: PASSWORD },
    host: 'test-machine',
    cacheDir: null,
    platform: 'UNIX',
    ...overrides,
  });
}

async function run(r: ResticRunner, task: AgentTask, signal?: AbortSignal) {
  const events: RunEvent[] = [];
  const finished = await r.backup(task, `run-${task.id}-${Date.now()}`, (e) => events.push(e), signal);
  for (const event of [...events, finished]) expect(agentToServerSchema.safeParse(event).success).toBe(true);
  const messages = events.flatMap((e) => (e.type === 'messages' ? e.messages : []));
  const progress = events.filter((e) => e.type === 'runProgress');
  return { finished, events, messages, progress };
}

function resticJson(repo: string, args: string[]): unknown {
  const out = execFileSync('restic', ['--no-cache', ...args], {
    env: { ...process.env, RESTIC_REPOSITORY: repo, RESTIC_PASSWORD: PASSWORD },
    encoding: 'utf8',
  });
  return JSON.parse(out);
}

function lsPaths(repo: string, snapshot: string): string[] {
  const out = execFileSync('restic', ['--no-cache', 'ls', '--json', snapshot], {
    env: { ...process.env, RESTIC_REPOSITORY: repo, RESTIC_PASSWORD: PASSWORD },
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { struct_type: string; path?: string })
    .filter((n) => n.struct_type === 'node')
    .map((n) => n.path ?? '');
}

/** Processes whose command line mentions the test directory (a restic left running). */
function processesUsing(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(dir) && cmdline.includes('backup')) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'agent-restic-'));
  chmodSync(base, 0o755);
  src = join(base, 'src');
  mkdirSync(join(src, 'docs', 'sub'), { recursive: true });
  mkdirSync(join(src, 'cache'), { recursive: true });
  writeFileSync(join(src, 'docs', 'a.txt'), 'alpha\n');
  writeFileSync(join(src, 'docs', 'sub', 'b.txt'), 'bravo\n');
  writeFileSync(join(src, 'docs', 'sub', 'debug.log'), 'log\n');
  writeFileSync(join(src, 'cache', 'c.bin'), 'cache\n');
  writeFileSync(join(src, 'single.txt'), 'single file content\n');
});

afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

describe('pure mappings', () => {
  it('converts bandwidth units to KiB/s (portal units are binary; a megabit is 10^6 bits)', () => {
    expect(uploadLimitKiB(-1, 'KILO_BYTES_PER_SECOND')).toBeNull();
    expect(uploadLimitKiB(0, 'MEGA_BYTES_PER_SECOND')).toBeNull();
    expect(uploadLimitKiB(500, 'KILO_BYTES_PER_SECOND')).toBe(500);
    expect(uploadLimitKiB(2, 'MEGA_BYTES_PER_SECOND')).toBe(2048);
    expect(uploadLimitKiB(8, 'MEGA_BITS_PER_SECOND')).toBe(976);
    expect(uploadLimitKiB(1, 'MEGA_BITS_PER_SECOND')).toBe(122);
  });

  it('builds the backup command line: tag, host, limit, exclusions, paths after --', () => {
    const task = makeTask({
      id: 9,
      backupItems: [
        dirItem('/home/u'),
        fileItem('/etc/hosts'),
        { path: 'acct', name: 'acct', type: 'CPANEL_ACCOUNT', missing: false },
      ],
      exclusions: ['*.tmp'],
      uploadBandwidthLimit: 3,
      uploadBandwidthLimitUnit: 'MEGA_BYTES_PER_SECOND',
    });
    expect(backupArgs(task, 'pc-1', 'UNIX')).toEqual([
      'backup',
      '--json',
      '--host',
      'pc-1',
      '--tag',
      'task-9',
      '--limit-upload',
      '3072',
      '--exclude=*.tmp',
      '--',
      '/home/u',
      '/etc/hosts',
    ]);
  });

  it('redacts the password and the password of a repository URL', () => {
    const r = new Redactor({ repository: 'rest:https://12:s3cr%2Ft@host/restic/12/', password: 'hunter22' });
    expect(r.redact('bad hunter22 at rest:https://12:s3cr%2Ft@host and s3cr/t')).toBe(
      'bad *** at rest:https://12:***@host and ***',
    );
  });

  it("redacts the secret of the repository's environment (an S3 location's key), not its key id", () => {
    const r = new Redactor({
      repository: 's3:http://s3.test/bucket/12',
      password: 'hunter22',
      env: {
        AWS_ACCESS_KEY_ID: 'AKIDVISIBLE',
        AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG',
        AWS_DEFAULT_REGION: 'us',
      },
    });
    expect(r.redact('denied for AKIDVISIBLE with wJalrXUtnFEMI/K7MDENG')).toBe('denied for AKIDVISIBLE with ***');
  });

  it('describes restic JSON errors', () => {
    expect(
      describeResticError({
        message_type: 'error',
        error: { Op: 'open', Path: '/x/y', Err: 13 },
        during: 'archival',
        item: '/x/y',
      }),
    ).toBe('open /x/y: EACCES (errno 13) (during archival)');
  });
});

describe('ResticRunner against real restic', () => {
  it('initialises the repository and backs up a tree: success, full snapshot id, progress, sizes', async () => {
    const repo = join(base, 'repo');
    expect(existsSync(repo)).toBe(false);
    const task = makeTask({ id: 1, backupItems: [dirItem(join(src, 'docs')), fileItem(join(src, 'single.txt'))] });
    const { finished, progress, messages, events } = await run(runner(), task);
    expect(finished.status).toBe('FINISHED_SUCCESS');
    expect(finished.exitCodeResult).toBe('SUCCESS');
    expect(finished.failureMessage).toBeNull();
    expect(finished.snapshotId).toMatch(/^[0-9a-f]{64}$/);
    expect(finished.bytesTotal).toBe(6 + 6 + 4 + 20);
    expect(finished.bytesAdded).toBeGreaterThan(0);
    expect(existsSync(join(repo, 'config'))).toBe(true);
    expect(progress.some((p) => p.phase === 'TRANSFERRING_FILES')).toBe(true);
    const last = progress.filter((p) => p.phase === 'TRANSFERRING_FILES').at(-1);
    expect(last?.percentage).toBe(100);
    expect(progress.at(-1)?.phase).toBe('FINALIZED');
    expect(messages.filter((m) => m.type === 'ERROR')).toEqual([]);
    expect(JSON.stringify(events)).not.toContain(PASSWORD);
    const snaps = resticJson(repo, ['snapshots', '--json', '--tag', 'task-1']) as { id: string; hostname: string }[];
    expect(snaps.map((s) => s.id)).toEqual([finished.snapshotId]);
    expect(snaps[0]?.hostname).toBe('test-machine');
  });

  it("reports what the backup did (issue 31): restic's summary on the run, a start and a summary line in its log", async () => {
    const tree = join(base, 'report');
    mkdirSync(join(tree, 'sub'), { recursive: true });
    writeFileSync(join(tree, 'kept.txt'), 'kept\n');
    writeFileSync(join(tree, 'edited.txt'), 'first\n');
    const task = makeTask({ id: 5, backupItems: [dirItem(tree)] });
    const first = await run(runner(), task);
    expect(first.finished.summary).toMatchObject({ filesNew: 2, filesChanged: 0, filesUnmodified: 0 });
    writeFileSync(join(tree, 'edited.txt'), 'second, longer\n');
    mkdirSync(join(tree, 'fresh'));
    writeFileSync(join(tree, 'fresh', 'added.txt'), 'added\n');
    const { finished, messages } = await run(runner(), task);
    expect(finished.status).toBe('FINISHED_SUCCESS');
    expect(finished.summary).toEqual({
      filesNew: 1,
      filesChanged: 1,
      filesUnmodified: 1,
      dirsNew: 1,
      dirsChanged: expect.any(Number),
      dirsUnmodified: expect.any(Number),
      durationSeconds: expect.any(Number),
    });
    expect(finished.summary?.durationSeconds).toBeGreaterThan(0);
    expect(finished.bytesTotal).toBe(5 + 15 + 6);
    // The log of a clean run says what happened: its start and its summary, with the snapshot named.
    const infos = messages.filter((m) => m.type === 'INFO').map((m) => m.text);
    expect(infos[0]).toBe(RUN_REPORT_TEXTS.started([tree]));
    const summaryLine = infos.find((t) => t.startsWith('Backup finished.'));
    expect(summaryLine).toContain('Files: 1 new, 1 changed, 1 unmodified.');
    expect(summaryLine).toContain(`(snapshot ${finished.snapshotId?.slice(0, 8)}).`);
  });

  it('reports bytes done, files done, speed and time left while restic runs (issue 31)', async () => {
    const slow = join(base, 'slow');
    mkdirSync(slow, { recursive: true });
    // 2 MiB of incompressible data at 256 KiB/s: about 8 s, of which the test waits for the first speed.
    writeFileSync(join(slow, 'blob'), randomBytes(2 * 1024 * 1024));
    const controller = new AbortController();
    const events: RunEvent[] = [];
    await runner({ cancelGraceMs: 5000 }).backup(
      makeTask({ id: 6, backupItems: [dirItem(slow)], uploadBandwidthLimit: 256 }),
      'run-speed',
      (e) => {
        events.push(e);
        if (e.type === 'runProgress' && e.bytesPerSecond !== undefined) controller.abort();
      },
      controller.signal,
    );
    const moving = events.find((e) => e.type === 'runProgress' && e.bytesPerSecond !== undefined);
    expect(moving).toMatchObject({ phase: 'TRANSFERRING_FILES', filesDone: expect.any(Number) });
    if (moving?.type !== 'runProgress') throw new Error('no progress with a speed');
    expect(moving.bytesDone).toBeGreaterThan(0);
    expect(moving.bytesPerSecond).toBeGreaterThan(0);
    expect(agentToServerSchema.safeParse(moving).success).toBe(true);
  });

  it('really excludes what the exclusions say (restic ls)', async () => {
    const repo = join(base, 'repo');
    const task = makeTask({ id: 2, backupItems: [dirItem(src)], exclusions: ['*.log', join(src, 'cache')] });
    const { finished } = await run(runner(), task);
    expect(finished.status).toBe('FINISHED_SUCCESS');
    const paths = lsPaths(repo, finished.snapshotId ?? 'none');
    expect(paths).toContain(join(src, 'docs', 'sub', 'b.txt'));
    expect(paths).toContain(join(src, 'single.txt'));
    expect(paths.filter((p) => p.endsWith('.log'))).toEqual([]);
    expect(paths.filter((p) => p.startsWith(join(src, 'cache')))).toEqual([]);
  });

  it('reports an unreadable file as FINISHED_WARNINGS with a WARNING (restic run as nobody via setpriv)', async () => {
    // Tests run as root, who can read any file: restic runs as nobody through a wrapper, on the same files.
    const dir = join(base, 'nobody');
    mkdirSync(join(dir, 'tree'), { recursive: true });
    chmodSync(dir, 0o777);
    writeFileSync(join(dir, 'tree', 'readable.txt'), 'ok\n');
    writeFileSync(join(dir, 'tree', 'locked.txt'), 'secret\n');
    chmodSync(join(dir, 'tree', 'locked.txt'), 0o000);
    const wrapper = join(dir, 'restic-as-nobody');
    writeFileSync(wrapper, '#!/bin/sh\nexec setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/restic "$@"\n');
    chmodSync(wrapper, 0o755);
    const r = runner({ binary: wrapper }, join(dir, 'repo'));
    const { finished, messages } = await run(r, makeTask({ id: 3, backupItems: [dirItem(join(dir, 'tree'))] }));
    expect(finished.status).toBe('FINISHED_WARNINGS');
    expect(finished.exitCodeResult).toBe('SOME_FILES_NOT_ACCESSIBLE');
    expect(finished.snapshotId).toMatch(/^[0-9a-f]{64}$/);
    const warnings = messages.filter((m) => m.type === 'WARNING').map((m) => m.text);
    expect(warnings.some((t) => t.includes('locked.txt') && t.includes('EACCES'))).toBe(true);
    // A run with warnings still has its summary (issue 31): the file it could not read is not counted.
    expect(finished.summary).toMatchObject({ filesNew: 1 });
  });

  it('cancels a running backup: SIGINT stops restic, CANCELLATION_REQUESTED, no process left', async () => {
    const big = join(base, 'big');
    mkdirSync(big, { recursive: true });
    // 8 MiB of incompressible data at 64 KiB/s would take two minutes.
    for (let i = 0; i < 8; i++)
      writeFileSync(join(big, `blob-${i}`), execFileSync('head', ['-c', '1048576', '/dev/urandom']));
    const controller = new AbortController();
    const events: RunEvent[] = [];
    const task = makeTask({ id: 4, backupItems: [dirItem(big)], uploadBandwidthLimit: 64 });
    const started = Date.now();
    const pending = runner({ cancelGraceMs: 5000 }).backup(
      task,
      'run-cancel',
      (e) => {
        events.push(e);
        if (e.type === 'runProgress' && e.phase === 'TRANSFERRING_FILES' && e.bytesDone > 0) controller.abort();
      },
      controller.signal,
    );
    const finished = await pending;
    expect(finished.status).toBe('FAILED');
    expect(finished.exitCodeResult).toBe('CANCELLATION_REQUESTED');
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(processesUsing(big)).toEqual([]);
    // The repository is not left locked: a following backup of the same task works.
    const after = await run(runner(), makeTask({ id: 4, backupItems: [fileItem(join(src, 'single.txt'))] }));
    expect(after.finished.status).toBe('FINISHED_SUCCESS');
  });

  it("hands the repository's environment to restic (an S3 location's AWS_* key), never its own RESTIC_* over", async () => {
    // A wrapper records the environment restic was started with, then runs the real restic.
    const wrapper = join(base, 'restic-env-recorder');
    const recorded = join(base, 'restic-env.txt');
    writeFileSync(wrapper, `#!/bin/sh\nenv > '${recorded}'\nexec /usr/bin/restic "$@"\n`, { mode: 0o755 });
    const env = {
      AWS_ACCESS_KEY_ID: 'AKIDMACHINE12',
      AWS_SECRET_ACCESS_KEY: 'machine-secret-12',
      AWS_DEFAULT_REGION: 'eu-1',
    };
    const r = new ResticRunner({
      repository: { repository: join(base, 'env-repo'), password: PASSWORD, env: { ...env, RESTIC_PASSWORD: 'x' } },
      host: 'test-machine',
      binary: wrapper,
      cacheDir: null,
      platform: 'UNIX',
    });
    const { finished, events } = await run(r, makeTask({ id: 9, backupItems: [fileItem(join(src, 'single.txt'))] }));
    expect(finished.status).toBe('FINISHED_SUCCESS');
    const seen = Object.fromEntries(
      readFileSync(recorded, 'utf8')
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(seen).toMatchObject({ ...env, RESTIC_PASSWORD: PASSWORD, RESTIC_REPOSITORY: join(base, 'env-repo') });
    expect(JSON.stringify(events)).not.toContain('machine-secret-12');
  });

  it('reports a missing restic as a FAILED run with a clear message', async () => {
    const task = makeTask({ id: 5, backupItems: [dirItem(src)] });
    const badPath = await run(runner({ binary: join(base, 'no-such-restic') }, join(base, 'other-repo')), task);
    expect(badPath.finished.status).toBe('FAILED');
    expect(badPath.finished.exitCodeResult).toBe('FATAL');
    expect(badPath.finished.failureMessage).toMatch(/restic was not found/);
    const noPath = await run(runner({ env: { PATH: join(base, 'empty-bin') } }, join(base, 'other-repo')), task);
    expect(noPath.finished.status).toBe('FAILED');
    expect(noPath.finished.failureMessage).toMatch(/restic was not found \(restic\)/);
    expect(noPath.messages.some((m) => m.type === 'ERROR')).toBe(true);
  });

  it('fails clearly on a wrong password and never initialises over an existing repository', async () => {
    const r = new ResticRunner({
      repository: { repository: join(base, 'repo'), password: 'wrong-password' },
      host: 'test-machine',
      cacheDir: null,
      platform: 'UNIX',
    });
    const { finished } = await run(r, makeTask({ id: 6, backupItems: [dirItem(src)] }));
    expect(finished.status).toBe('FAILED');
    expect(finished.failureMessage).toMatch(/could not be opened.*wrong password/);
    expect(finished.failureMessage).not.toContain('wrong-password');
  });

  it("never forgets or prunes, whatever the task keeps: retention is the portal's (issue 16)", async () => {
    const repo = join(base, 'repo');
    const r = runner();
    for (const time of ['2026-09-01 10:00:00', '2026-09-09 10:00:00', '2026-09-16 10:00:00']) {
      const exit = await r.call({
        args: ['backup', '--host', 'test-machine', '--tag', 'task-8', '--time', time, join(src, 'docs')],
      });
      expect(exit.code).toBe(0);
    }
    const task = makeTask({ id: 8, backupItems: [dirItem(join(src, 'docs'))], numberOfSnapshotsToKeep: 1 });
    const { finished, progress } = await run(r, task);
    expect(finished.status).toBe('FINISHED_SUCCESS');
    const kept = resticJson(repo, ['snapshots', '--json', '--tag', 'task-8']) as { id: string }[];
    // All four: the machine's key may not delete, so the agent does not try.
    expect(kept).toHaveLength(4);
    expect(kept.map((s) => s.id)).toContain(finished.snapshotId);
    expect(progress.map((p) => p.phase)).not.toContain('CLEANING_UP_REPOSITORY');
  });
});
