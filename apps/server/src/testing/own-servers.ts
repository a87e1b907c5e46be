import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './rgw-cluster.js';

/**
 * A PostgreSQL cluster and a Redis server of the test's own, on free ports, that the test may stop and start:
 * the machine's shared ones serve other tests and are never touched. `missing` names the absent binaries
 * (the test skips with it).
 */
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const REDIS_SERVER = '/usr/bin/redis-server';

export function missingServerBinaries(): string | null {
  const needed = [join(PG_BIN, 'initdb'), join(PG_BIN, 'pg_ctl'), REDIS_SERVER];
  const missing = needed.filter((path) => !existsSync(path));
  return missing.length ? `not installed: ${missing.join(', ')}` : null;
}

/** initdb refuses root: the cluster then belongs to the postgres user and its commands run as that user. */
async function runAsOwner(command: string, args: string[]): Promise<void> {
  const line = [command, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  if (process.getuid?.() === 0) await run('su', ['postgres', '-s', '/bin/sh', '-c', line]);
  else await run(command, args);
}
const run = promisify(execFile);

export interface OwnPostgres {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  remove(): Promise<void>;
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'portal-pg-'));
  const data = join(dir, 'data');
  if (process.getuid?.() === 0) await run('chown', ['postgres', dir]);
  const port = await freePort();
  await runAsOwner(join(PG_BIN, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const pgCtl = join(PG_BIN, 'pg_ctl');
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () => runAsOwner(pgCtl, ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => runAsOwner(pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop']),
    start,
    async remove() {
      try {
        await runAsOwner(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface OwnRedis {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    const started = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    child = started;
    await new Promise<void>((resolve, reject) => {
      started.once('exit', (code) => reject(new Error(`redis-server exited (${code})`)));
      started.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Ready to accept connections')) resolve();
      });
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        running.once('exit', () => resolve());
        running.kill('SIGTERM');
      });
    },
    start,
  };
}
