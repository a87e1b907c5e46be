/** Helpers shared by the agent's tests (not bundled: nothing in main.ts imports it). */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerToAgent } from '@portal/domain';

/** Runs `portal-agent ARGS` from source (tsx) with `input` on standard input; resolves with its exit and output. */
export function cli(args: string[], input = '', env: Record<string, string> = {}) {
  const tsx = join(import.meta.dirname, '../../../node_modules/.bin/tsx');
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(tsx, [join(import.meta.dirname, 'main.ts'), ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** The task builder is shared with the domain's protocol tests. */
export { makeTask } from '@portal/domain/testing/agent-task';

export const dirItem = (path: string) => ({
  path,
  name: path.split('/').pop() ?? path,
  type: 'DIRECTORY' as const,
  missing: false,
});
export const fileItem = (path: string) => ({
  path,
  name: path.split('/').pop() ?? path,
  type: 'FILE' as const,
  missing: false,
});

/**
 * Leaves the stale exclusive lock of a killed `restic check` in a local repository (what a restic killed after
 * the cancel grace period leaves behind): every later command that locks fails until `restic unlock`.
 */
export async function leaveStaleCheckLock(repository: string, password: string): Promise<void> {
  const locks = join(repository, 'locks');
  const check = spawn('restic', ['--no-cache', 'check', '--read-data'], {
    env: { ...process.env, RESTIC_REPOSITORY: repository, RESTIC_PASSWORD: password },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => check.on('exit', resolve));
  const until = Date.now() + 10_000;
  // The local backend writes a `…-tmp-…` file and renames it: only the renamed one is a lock.
  const written = () => readdirSync(locks).filter((name) => !name.includes('-tmp-'));
  while (written().length === 0) {
    if (Date.now() > until) throw new Error('restic check took no lock');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  check.kill('SIGKILL');
  await exited;
  if (written().length === 0) throw new Error('the killed check left no lock');
}

/** A file search as the portal sends it (file-search tests), with the fields a test changes. */
export const fileSearchMessage = (
  overrides: Partial<Extract<ServerToAgent, { type: 'fileSearch' }>> = {},
): Extract<ServerToAgent, { type: 'fileSearch' }> => ({
  type: 'fileSearch',
  requestId: 'r1',
  searchKey: 'search:1:customer:abcdefgh',
  taskIds: [1],
  pattern: '*report*',
  ignoreCase: true,
  limit: 1000,
  ...overrides,
});
