// The built server (apps/server/dist/main.js, or another build) as a child process of a benchmark: a fresh data
// folder, started and awaited until /health answers, stopped with SIGTERM (SIGKILL after 10 s) and cleaned up; every
// error it logs counts as a failure of the benchmark.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Answers, watchServerLog } from './answers.js';

export interface RunningServer {
  url: string;
  /** The server's process id (to read its CPU time). */
  pid: number;
  stop(): Promise<void>;
}

export interface ServerStart {
  /** The server build to run. */
  entry: string;
  /** The repository root, the server's working folder. */
  cwd: string;
  /** The address the server answers on, as its env makes it listen. */
  url: string;
  /** The server's settings beside the inherited environment; DATA_DIR is the fresh data folder. */
  env: Record<string, string>;
  /** The data folder's name prefix in the temporary folder. */
  dataDirPrefix: string;
  /** Node options before the entry (e.g. to profile the server). */
  nodeArgs?: string[];
  /** A command that starts node with the arguments after it (e.g. `prlimit --nofile=… --`); none by default. */
  launcher?: string[];
  /** How long the server may take to answer /health. */
  startSeconds: number;
  /** How often /health is asked while starting. */
  pollMs: number;
  /** Where the errors the server logs are counted. */
  answers: Answers;
}

export async function startBuiltServer(start: ServerStart): Promise<RunningServer> {
  if (!existsSync(start.entry)) throw new Error(`${start.entry} missing: run npm run build`);
  const dataDir = mkdtempSync(join(tmpdir(), start.dataDirPrefix));
  const [command = process.execPath, ...prefix] = [...(start.launcher ?? []), process.execPath];
  const child: ChildProcess = spawn(command, [...prefix, ...(start.nodeArgs ?? []), start.entry], {
    cwd: start.cwd,
    env: { ...process.env, ...start.env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const logEnded = child.stdout ? watchServerLog(child.stdout, start.answers, 'the server') : Promise.resolve();
  let exited: number | null = null;
  child.on('exit', (code) => {
    exited = code ?? 1;
  });
  const stop = async () => {
    if (exited === null) {
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 10_000))]);
      if (exited === null) child.kill('SIGKILL');
    }
    // Every line it logged is counted before the benchmark gives its verdict.
    await Promise.race([logEnded, new Promise((r) => setTimeout(r, 5_000))]);
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + start.startSeconds * 1000;
  while (
    (await fetch(`${start.url}/health`).then(
      (r) => r.status,
      () => 0,
    )) !== 200
  ) {
    if (exited !== null) {
      await stop();
      throw new Error(`the server exited with code ${exited} while starting`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer /health within ${start.startSeconds} s`);
    }
    await new Promise((r) => setTimeout(r, start.pollMs));
  }
  return { url: start.url, pid: child.pid as number, stop };
}
