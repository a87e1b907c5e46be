/** File search (issue 31 item 2) against the real restic and a local repository of several snapshots. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentToServerSchema, exactPathPattern, type FileMatch, resticTaskTag } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FileSearchEvent, type FileSearchMessage, FindOutputReader, runFileSearch } from './file-search.js';
import { ResticRunner } from './restic.js';
import { fileSearchMessage } from './testing.js';

const PASSWORD = 'file-search-secret';
let base = '';
let repo = '';
let data = '';

const runner = () =>
  new ResticRunner({ repository: { repository: repo, password: PASSWORD }, host: 'test-machine', cacheDir: null });

function backup(taskId: number) {
  execFileSync('restic', ['--no-cache', 'backup', '--host', 'test-machine', '--tag', resticTaskTag(taskId), data], {
    env: { ...process.env, RESTIC_REPOSITORY: repo, RESTIC_PASSWORD: PASSWORD },
    stdio: 'ignore',
  });
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'agent-file-search-'));
  repo = join(base, 'repo');
  data = join(base, 'data');
  mkdirSync(join(data, 'docs', 'old [1]'), { recursive: true });
  execFileSync('restic', ['--no-cache', 'init'], {
    env: { ...process.env, RESTIC_REPOSITORY: repo, RESTIC_PASSWORD: PASSWORD },
    stdio: 'ignore',
  });
  writeFileSync(join(data, 'docs', 'Report.txt'), 'first');
  writeFileSync(join(data, 'docs', 'old [1]', 'report*.txt'), 'bracketed');
  for (let i = 0; i < 30; i += 1) writeFileSync(join(data, `note-${i}.md`), `note ${i}`);
  backup(1);
  writeFileSync(join(data, 'docs', 'Report.txt'), 'second, longer');
  backup(1);
  backup(2); // another task's snapshot: not searched for task 1
}, 60_000);
afterAll(() => rmSync(base, { recursive: true, force: true }));

const search = fileSearchMessage;

async function run(message: FileSearchMessage, options: Parameters<typeof runFileSearch>[3] = {}) {
  const events: FileSearchEvent[] = [];
  const finished = await runFileSearch(runner(), message, (e) => events.push(e), options);
  for (const event of events) expect(agentToServerSchema.safeParse(event).success).toBe(true);
  const matches: FileMatch[] = events.flatMap((e) => (e.type === 'fileSearchMatches' ? e.matches : []));
  return { events, finished, matches };
}

describe('file search with restic find (issue 31)', () => {
  it('finds a name in every snapshot of the task, newest first, with size and time', async () => {
    const { finished, matches, events } = await run(search());
    expect(finished).toMatchObject({ type: 'fileSearchFinished', outcome: 'COMPLETE', message: null });
    expect(events.at(-1)).toEqual(finished);
    const reports = matches.filter((m) => m.path.endsWith('/docs/Report.txt'));
    expect(reports.map((m) => m.size)).toEqual([14, 5]);
    expect(reports[0]?.snapshotTime.localeCompare(reports[1]?.snapshotTime ?? '')).toBe(1);
    expect(new Set(matches.map((m) => m.taskId))).toEqual(new Set([1]));
    expect(reports[0]).toMatchObject({ type: 'FILE', modifiedAt: expect.stringMatching(/Z$/) });
    // Case matters when told so: Report.txt is no '*report*' then.
    const exact = await run(search({ ignoreCase: false }));
    expect(exact.matches.every((m) => m.path.endsWith('report*.txt'))).toBe(true);
  });

  it('searches the snapshots of every task named, each match with its task', async () => {
    const { matches } = await run(search({ taskIds: [1, 2], pattern: 'Report.txt' }));
    expect(matches.map((m) => m.taskId).sort()).toEqual([1, 1, 2]);
  });

  it('gives a file’s history with its exact path, wildcards in it taken literally', async () => {
    const path = join(data, 'docs', 'old [1]', 'report*.txt');
    const { matches, finished } = await run(search({ pattern: exactPathPattern(path), ignoreCase: false }));
    expect(finished.outcome).toBe('COMPLETE');
    expect(matches.map((m) => m.path)).toEqual([path, path]);
  });

  it('stops at the limit and says so', async () => {
    const { matches, finished } = await run(search({ pattern: 'note-*', limit: 7 }));
    expect(matches).toHaveLength(7);
    expect(finished.outcome).toBe('LIMIT_REACHED');
  });

  it('sends matches in batches as they come, and stops when cancelled', async () => {
    const stop = new AbortController();
    const events: FileSearchEvent[] = [];
    const finished = await runFileSearch(
      runner(),
      search({ pattern: 'note-*' }),
      (event) => {
        events.push(event);
        if (event.type === 'fileSearchMatches') stop.abort();
      },
      { signal: stop.signal },
    );
    expect(finished.outcome).toBe('CANCELLED');
    expect(events.filter((e) => e.type === 'fileSearchMatches').length).toBeGreaterThanOrEqual(1);
  });

  it('stops at the time limit', async () => {
    const { finished } = await run(search({ pattern: 'note-*' }), { timeLimitMs: 1 });
    expect(finished.outcome).toBe('TIMED_OUT');
  });

  it('refuses a pattern the allow-list refuses, without running restic', async () => {
    const { finished, matches } = await run(search({ pattern: '--password-command=sh' }));
    expect(finished.outcome).toBe('FAILED');
    expect(finished.message).toMatch(/--password-command/);
    expect(matches).toEqual([]);
  });
});

describe('reading find --json as it arrives', () => {
  it('hands on each match however the output is cut, strings with brackets and quotes included', () => {
    const output = JSON.stringify([
      { matches: [{ path: '/a/{x}"[y]', size: 1 }, { path: '/b' }], hits: 2, snapshot: 'c'.repeat(64) },
      { matches: [{ path: '/c\\d' }], hits: 1, snapshot: 'd'.repeat(64) },
    ]);
    for (const size of [1, 3, 7, output.length]) {
      const seen: unknown[] = [];
      const reader = new FindOutputReader((m) => seen.push(m.path));
      for (let i = 0; i < output.length; i += size) reader.push(output.slice(i, i + size));
      expect(seen).toEqual(['/a/{x}"[y]', '/b', '/c\\d']);
    }
  });
});
