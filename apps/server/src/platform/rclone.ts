import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { FolderAccess } from '../storage/provider.js';

/**
 * rclone as the migrations run it (DESIGN §7): a child process of the server, its log lines streamed one
 * at a time to `onLine` (never gathered), so memory does not grow with the repository's size.
 */

/** The environment rclone does not take: the platform's AWS_CA_BUNDLE breaks its S3 backend (PLATFORM.md). */
const DROPPED_ENV = ['AWS_CA_BUNDLE'];

/**
 * rclone's view of the two folders of a run. A folder's access names an on-the-fly remote (`:s3:bucket/dir`)
 * configured by environment variables (`RCLONE_S3_…`), which both folders would share in one process: two
 * buckets with two keys would clash. So each side becomes a named remote of its own, its options moved to
 * `RCLONE_CONFIG_{SIDE}_…` (rclone's configuration by environment); a plain local path stays as it is. The
 * folders' other variables (AWS_… for restic) are not rclone's and are left out.
 */
export function rcloneRemotes(
  source: FolderAccess,
  destination: FolderAccess,
): { sourcePath: string; destinationPath: string; env: NodeJS.ProcessEnv } {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of DROPPED_ENV) delete env[name];
  const named = (side: 'SRC' | 'DST', access: FolderAccess): string => {
    const match = /^:([a-z0-9]+):(.*)$/.exec(access.rclonePath);
    if (!match) return access.rclonePath;
    const [, backend = '', path = ''] = match;
    const prefix = `RCLONE_${backend.toUpperCase()}_`;
    env[`RCLONE_CONFIG_${side}_TYPE`] = backend;
    for (const [variable, value] of Object.entries(access.env)) {
      if (variable.startsWith(prefix)) env[`RCLONE_CONFIG_${side}_${variable.slice(prefix.length)}`] = value;
    }
    return `${side.toLowerCase()}:${path}`;
  };
  return { sourcePath: named('SRC', source), destinationPath: named('DST', destination), env };
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
