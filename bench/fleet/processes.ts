// The fleet benchmark's child processes (run.ts, instances.ts, and the soak's run.ts): node processes with as many
// descriptors as this machine lets them have, told what to do over IPC (simulators, browsers), and the counts read
// back from the simulators and the database.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { connect, ROOT } from '../dashboard/common.js';
import type { AgentCommand, AgentReport, AgentStats } from './agents.js';
import type { BrowserCommand } from './browsers.js';
import { FLEET, sleep } from './common.js';

const NOFILE = 65_536;
const HERE = resolve(ROOT, 'bench/fleet');
/** The server build the fleet's benchmarks run. */
export const SERVER_ENTRY = FLEET.serverEntry ?? resolve(ROOT, 'apps/server/dist/main.js');
/**
 * Whether child processes get NOFILE descriptors, or else how many they may have: the hard limit cannot be
 * raised without CAP_SYS_RESOURCE, which this project's machines do not grant even to root.
 */
export const DESCRIPTORS = (() => {
  const raised = spawnSync('prlimit', [`--nofile=${NOFILE}:${NOFILE}`, '--', 'true']).status === 0;
  const hard = /^Max open files\s+\S+\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
  return { raised, limit: raised ? NOFILE : hard === 'unlimited' || hard === undefined ? NOFILE : Number(hard) };
})();
/** Descriptors a server process uses besides its sockets (stdio, epoll, pipes, database pool, inspector). */
export const FD_RESERVE = 100;

/** What starts node with DESCRIPTORS.limit descriptors: `prlimit` where it may raise the limit, else nothing. */
export const LAUNCHER = DESCRIPTORS.raised ? ['prlimit', `--nofile=${NOFILE}:${NOFILE}`, '--'] : [];

export interface Child<Command, Report extends { op: string }> {
  process: ChildProcess;
  pid: number;
  request<Op extends Report['op']>(command: Command, answer: Op): Promise<Extract<Report, { op: Op }>>;
  stop(): Promise<void>;
}

/**
 * Node with room for 65,536 descriptors through `prlimit` where this machine allows raising the hard limit
 * (CAP_SYS_RESOURCE); otherwise with the limit this process has. Optionally with an IPC channel.
 */
export function spawnNode(
  args: string[],
  options: { ipc?: boolean; env?: NodeJS.ProcessEnv; pipeOutput?: boolean } = {},
): ChildProcess {
  const [command = process.execPath, ...prefix] = [...LAUNCHER, process.execPath];
  return spawn(command, [...prefix, ...args], {
    cwd: ROOT,
    env: options.env ?? process.env,
    stdio: ['ignore', options.pipeOutput ? 'pipe' : 'inherit', 'inherit', ...(options.ipc ? ['ipc' as const] : [])],
  });
}

/** A script under tsx (a path relative to bench/fleet, or absolute) answering commands over IPC. */
export function child<Command, Report extends { op: string }>(script: string): Child<Command, Report> {
  const proc = spawnNode(['--import', 'tsx', resolve(HERE, script)], { ipc: true });
  const waiting = new Map<string, Array<(report: Report) => void>>();
  const failures = new Set<(error: Error) => void>();
  proc.on('message', (report: Report) => waiting.get(report.op)?.shift()?.(report));
  const exited = new Promise<void>((resolve) =>
    proc.once('exit', (code) => {
      for (const fail of failures) fail(new Error(`${script} exited (${code}) before answering`));
      resolve();
    }),
  );
  return {
    process: proc,
    pid: proc.pid ?? 0,
    request(command, answer) {
      return new Promise((resolve, reject) => {
        const list = waiting.get(answer) ?? [];
        list.push((report) => {
          failures.delete(reject);
          resolve(report as Extract<Report, { op: typeof answer }>);
        });
        waiting.set(answer, list);
        failures.add(reject);
        proc.send(command as object);
      });
    },
    async stop() {
      if (proc.exitCode === null) proc.send({ op: 'exit' });
      await Promise.race([exited, sleep(5_000)]);
      if (proc.exitCode === null) proc.kill('SIGKILL');
    },
  };
}

export type Simulator = Child<AgentCommand, AgentReport>;

/** The round trip's open-loop run as the settings ask for it, each command awaited as long as a browser would (20 s). */
export const ROUND_TRIP_RUN: Extract<BrowserCommand, { op: 'run' }> = {
  op: 'run',
  rate: FLEET.rate,
  warmupMs: FLEET.warmupSeconds * 1000,
  durationMs: FLEET.seconds * 1000,
  timeoutMs: 20_000,
};

export async function simulatorStats(simulators: Simulator[]): Promise<AgentStats> {
  const reports = await Promise.all(simulators.map((s) => s.request({ op: 'stats' }, 'stats')));
  const sum = (key: Exclude<keyof AgentStats, 'errors'>) => reports.reduce((n, r) => n + r[key], 0);
  return {
    open: sum('open'),
    ready: sum('ready'),
    tasks: sum('tasks'),
    repositories: sum('repositories'),
    treeRequests: sum('treeRequests'),
    receipts: sum('receipts'),
    errorFrames: sum('errorFrames'),
    unexpectedCloses: sum('unexpectedCloses'),
    refused: sum('refused'),
    retried: sum('retried'),
    errors: reports.flatMap((r) => r.errors).slice(0, 10),
  };
}

/** `npm run build -w apps/server` (under a second), unless BENCH_BUILD=0 finds a build or another build is named. */
export async function buildServer(): Promise<void> {
  if ((!FLEET.build && existsSync(SERVER_ENTRY)) || FLEET.serverEntry) return;
  console.log('Building the server (npm run build -w apps/server) ...');
  const code = await new Promise<number>((resolve) => {
    const build = spawn('npm', ['run', 'build', '-w', 'apps/server'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    build.on('exit', (c) => resolve(c ?? 1));
  });
  if (code !== 0) throw new Error(`npm run build -w apps/server failed (exit code ${code})`);
}

/** Machines the benchmark database shows online. */
export async function onlineMachines(databaseUrl = FLEET.databaseUrl): Promise<number> {
  const client = await connect(databaseUrl);
  try {
    const { rows } = await client.query<{ n: string }>('select count(*) as n from backup_machines where online');
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/** Waits up to `ms` until the database shows `expected` machines online; the count it showed last. */
export async function awaitOnline(expected: number, ms: number, databaseUrl = FLEET.databaseUrl): Promise<number> {
  const deadline = Date.now() + ms;
  let online = await onlineMachines(databaseUrl);
  while (online !== expected && Date.now() < deadline) {
    await sleep(500);
    online = await onlineMachines(databaseUrl);
  }
  return online;
}
