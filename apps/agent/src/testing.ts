/** Helpers shared by the agent's tests (not bundled: nothing in main.ts imports it). */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

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
