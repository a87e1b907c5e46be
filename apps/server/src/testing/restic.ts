import { type ChildProcess, spawn } from 'node:child_process';

export interface ResticResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The real restic as a machine runs it against a repository (no cache, only PATH, HOME, the repository and its
 * password in its environment), without blocking the test's event loop: the app answering it runs in the same
 * process. `onStderr` sees each piece of its stderr as it arrives, with the child (to stop it).
 */
export function runRestic(
  args: string[],
  place: { repository: string; password: string; home: string },
  onStderr?: (text: string, child: ChildProcess) => void,
): Promise<ResticResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/restic', ['--no-cache', ...args], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: place.home,
        RESTIC_REPOSITORY: place.repository,
        RESTIC_PASSWORD: place.password,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      onStderr?.(String(chunk), child);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
