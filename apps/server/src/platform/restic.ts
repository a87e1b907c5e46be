import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** What a restic process printed and how it ended; `spawnError` when it could not be started. */
export interface ResticOutcome {
  code: number | null;
  cancelled: boolean;
  stdout: string[];
  stderr: string[];
  spawnError: NodeJS.ErrnoException | null;
}

/** The lines kept of each stream: a copy of a large seed prints little, but never without bound. */
const MAX_LINES = 2_000;

export interface ResticOptions {
  binary: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}

/**
 * The process environment without the server's own RESTIC_* and AWS_* variables, plus the repository's
 * (for a bucket, its location's AWS_* keys): restic reaches S3 with the key it is given and nothing else,
 * and the environment's AWS_CA_BUNDLE (PLATFORM.md) does not replace the system's certificates.
 */
function resticEnv(own: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('RESTIC_') && !key.startsWith('AWS_')) env[key] = value;
  }
  return Object.assign(env, own);
}

/**
 * Runs restic on the portal server (seed loading, issue #5). Spawned directly, never through a shell; the
 * repositories and passwords reach restic only through `env` (RESTIC_REPOSITORY, RESTIC_PASSWORD,
 * RESTIC_FROM_*), never its command line, and the server's own RESTIC_* variables are left out. Aborting
 * `signal` sends SIGINT (restic removes its locks and stops). Never rejects.
 */
export function runRestic(options: ResticOptions): Promise<ResticOutcome> {
  const env = resticEnv(options.env);
  return new Promise((resolve) => {
    const outcome: ResticOutcome = { code: null, cancelled: false, stdout: [], stderr: [], spawnError: null };
    const child = spawn(options.binary, options.args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const onAbort = () => {
      outcome.cancelled = true;
      child.kill('SIGINT');
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const streams = (['stdout', 'stderr'] as const).map((name) => {
      const lines = createInterface({ input: child[name], crlfDelay: Number.POSITIVE_INFINITY });
      lines.on('line', (line) => {
        if (line.trim() === '') return;
        const kept = outcome[name];
        kept.push(line);
        if (kept.length > MAX_LINES) kept.splice(0, kept.length - MAX_LINES);
      });
      return new Promise<void>((done) => lines.once('close', () => done()));
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      outcome.spawnError = error;
    });
    child.once('close', (code) => {
      options.signal?.removeEventListener('abort', onAbort);
      outcome.code = code;
      void Promise.all(streams).then(() => resolve(outcome));
    });
  });
}

/** The last lines restic wrote to standard error (or why it did not run), for a message. */
export function resticFailure(outcome: ResticOutcome): string {
  if (outcome.spawnError) return `restic could not be started: ${outcome.spawnError.message}`;
  const text = outcome.stderr.slice(-5).join(' / ').trim();
  return (text || `restic exited with code ${outcome.code}`).slice(0, 3000);
}

/** A restic process whose standard output is read as a stream (a dump, a long listing). */
export interface ResticStream {
  stdout: Readable;
  /** How it ended; the last lines of standard error are kept. Never rejects. */
  done: Promise<ResticOutcome>;
}

/**
 * Starts restic like runRestic, but hands its standard output over unread, so a dump reaches the client as
 * restic writes it and never sits whole in memory. Aborting `signal` sends SIGINT.
 */
export function streamRestic(options: ResticOptions): ResticStream {
  const child = spawn(options.binary, options.args, {
    env: resticEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const outcome: ResticOutcome = { code: null, cancelled: false, stdout: [], stderr: [], spawnError: null };
  const onAbort = () => {
    outcome.cancelled = true;
    child.kill('SIGINT');
  };
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const errors = createInterface({ input: child.stderr, crlfDelay: Number.POSITIVE_INFINITY });
  errors.on('line', (line) => {
    if (line.trim() === '') return;
    outcome.stderr.push(line);
    if (outcome.stderr.length > MAX_LINES) outcome.stderr.shift();
  });
  const stderrClosed = new Promise<void>((done) => errors.once('close', () => done()));
  const done = new Promise<ResticOutcome>((resolve) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      outcome.spawnError = error;
    });
    child.once('close', (code) => {
      options.signal?.removeEventListener('abort', onAbort);
      outcome.code = code;
      void stderrClosed.then(() => resolve(outcome));
    });
  });
  return { stdout: child.stdout, done };
}

const repairCommand = new Map<string, Promise<boolean>>();

/**
 * Whether the binary has `restic repair` (0.16 and later; Debian's 0.14 has not): the repair path offered after a
 * data check found damage depends on it. Asked once per binary.
 */
export function resticHasRepair(binary: string): Promise<boolean> {
  let known = repairCommand.get(binary);
  if (!known) {
    known = runRestic({ binary, args: ['help'], env: {} }).then(
      (help) => help.code === 0 && help.stdout.some((line) => /^\s*repair\s/.test(line)),
    );
    repairCommand.set(binary, known);
  }
  return known;
}
