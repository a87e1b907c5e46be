import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

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

/**
 * Runs restic on the portal server (seed loading, issue #5). Spawned directly, never through a shell; the
 * repositories and passwords reach restic only through `env` (RESTIC_REPOSITORY, RESTIC_PASSWORD,
 * RESTIC_FROM_*), never its command line, and the server's own RESTIC_* variables are left out. Aborting
 * `signal` sends SIGINT (restic removes its locks and stops). Never rejects.
 */
export function runRestic(options: {
  binary: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}): Promise<ResticOutcome> {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('RESTIC_')) env[key] = value;
  Object.assign(env, options.env);
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
