import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from './common.js';

// The dashboard benchmark's short form (short.ts: 1,000 machines, 20 users per audience for a few seconds, HTTP
// beside bare SQL), so that an error answer or a call far slower through the server than its bare SQL fails the
// tests. It needs PostgreSQL (the benchmark seeds a database of its own there) and the build the tests make first:
// skipped on the embedded database.
const base = process.env.DATABASE_URL;

describe.skipIf(!base)('dashboard benchmark, short form', () => {
  it('answers every call of 20 users per audience, each within its margin over the bare SQL', () => {
    const url = new URL(base as string);
    url.pathname = '/portal_dashboard_short';
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/dashboard/short.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        BENCH_DASHBOARD_SHORT_DATABASE_URL: process.env.BENCH_DASHBOARD_SHORT_DATABASE_URL || url.toString(),
      },
      encoding: 'utf8',
      timeout: 170_000,
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('All targets met');
  }, 180_000);
});
