import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { FolderAccess } from '../../storage/provider.js';

/**
 * rclone as the migrations run it (DESIGN §7): a child process of the server, its log lines streamed one
 * at a time to `onLine` (never gathered), so memory does not grow with the repository's size.
 */

/** The environment rclone does not take: the platform's AWS_CA_BUNDLE breaks its S3 backend (PLATFORM.md). */
const DROPPED_ENV = ['AWS_CA_BUNDLE'];

/**
 * One environment for an rclone run over two folders: both sides' variables together. Two sides that need
 * different values for one variable (two S3 accounts on the same on-the-fly remote) cannot share a process.
 */
export function rcloneEnv(...sides: FolderAccess[]): NodeJS.ProcessEnv {
  const merged: Record<string, string> = {};
  for (const side of sides) {
    for (const [name, value] of Object.entries(side.env)) {
      if (name in merged && merged[name] !== value) {
        throw new Error(`the two storage folders need different values of ${name}; rclone cannot reach both at once`);
      }
      merged[name] = value;
    }
  }
  const env: NodeJS.ProcessEnv = { ...process.env, ...merged };
  for (const name of DROPPED_ENV) delete env[name];
  return env;
}

/**
 * Flags of every run: no config file (the remotes come from the folders' environment, and a stray
 * rclone.conf on the server must not change them), and as log a one-line progress summary every few seconds
 * and every error, no line per file.
 */
export const RCLONE_FLAGS = [
  '--config',
  '',
  '--stats',
  '5s',
  '--stats-one-line',
  '--stats-log-level',
  'NOTICE',
] as const;

/** Only these folders (the package's machines' repositories) of the location's folder take part. */
export const machineFilters = (machineIds: readonly number[]) => machineIds.flatMap((id) => ['--include', `/${id}/**`]);

export interface RcloneRun {
  /** Resolves with rclone's exit code (null when it was killed by a signal). */
  done: Promise<number | null>;
  kill(): void;
}

export function runRclone(
  rclonePath: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  onLine: (line: string) => void,
): RcloneRun {
  const child = spawn(rclonePath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const streams = [child.stdout, child.stderr].map(
    (stream) =>
      new Promise<void>((resolve) => {
        const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
        lines.on('line', (line) => {
          if (line.trim() !== '') onLine(line);
        });
        lines.on('close', () => resolve());
      }),
  );
  const done = new Promise<number | null>((resolve) => {
    child.on('error', (error) => {
      onLine(`rclone could not be started: ${error.message}`);
      resolve(null);
    });
    child.on('close', (code) => {
      void Promise.all(streams).then(() => resolve(code));
    });
  });
  return {
    done,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}
