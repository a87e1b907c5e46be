import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../dashboard/common.js';

// The missed-run benchmark's short form (run.ts --short: 1,000 overdue of 10,000 tasks, two instances, a 1 s
// interval), so that a regression of its targets fails the tests. It needs PostgreSQL (the benchmark seeds a
// database of its own there): skipped on the embedded database.
const base = process.env.DATABASE_URL;

describe.skipIf(!base)('missed-run benchmark, short form', () => {
  it('marks 1,000 overdue tasks with two instances within its targets, none twice', () => {
    const url = new URL(base as string);
    url.pathname = '/portal_missed_short';
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/missed-runs/run.ts', '--short'], {
      cwd: ROOT,
      env: { ...process.env, BENCH_MISSED_SHORT_DATABASE_URL: url.toString() },
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('All targets met.');
  }, 250_000);
});
