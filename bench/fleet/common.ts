// Shared by the fleet benchmark's seeder, orchestrator and simulator processes: settings, the seeded
// accounts and machine credentials, and what is read about a process (resident memory, CPU, V8 heap).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { WebSocket } from 'ws';
import { AGENT_HANDSHAKES_DEFAULT } from '../../apps/server/src/features/live/admission.js';
import { stompFrame } from './stomp.js';

const WORKERS_DEFAULT = 4;

/** A whole number from the environment, at least 1; anything else stops the benchmark at once. */
export function count(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  if (!/^[1-9][0-9]*$/.test(raw)) throw new Error(`${name} must be a whole number of at least 1, not '${raw}'`);
  return Number(raw);
}

/**
 * `run.ts --short` (CI, through short.db.test.ts): connect and leave, then the restart storm, 500 agents each, on a
 * database of its own, in about a minute and a half.
 */
const SHORT = process.argv.includes('--short');

/** Every setting of the fleet benchmark, from the environment (bench/README.md lists them). */
/** Server instances (issue 33 item 3): more than one runs the fleet across instances (instances.ts) instead. */
const instances = count('BENCH_FLEET_INSTANCES', 1);

export const FLEET = {
  short: SHORT,
  instances,
  /** The Redis the instances share (their live channel: a pub/sub channel named after the database). */
  redisUrl: process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379',
  databaseUrl: SHORT
    ? process.env.BENCH_FLEET_SHORT_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/portal_fleet_short'
    : process.env.BENCH_FLEET_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/portal_fleet',
  password: process.env.BENCH_PASSWORD || 'bench-password',
  /** The portal server's port; the bare server takes the next one, their inspectors the two after. */
  port: count('BENCH_FLEET_PORT', 18290),
  /** Agents held at once in the memory half (target 1), or connecting and leaving (phase `leave`); with several instances, across them all. */
  agents: count('BENCH_FLEET_AGENTS', SHORT ? 500 : instances > 1 ? 100_000 : 20_000),
  /** Agents connected during the round trip half (target 2). */
  roundTripAgents: count('BENCH_FLEET_RT_AGENTS', 5_000),
  /** Commands per second, open loop. */
  rate: count('BENCH_FLEET_RATE', instances > 1 ? 5_000 : 1_000),
  /** Measured seconds of the round trip half, after the warm-up. */
  seconds: count('BENCH_FLEET_SECONDS', 20),
  warmupSeconds: count('BENCH_FLEET_WARMUP', 5),
  /** Signed-in provider admin browsers sending the commands (each subscribed to its own machines). */
  browsers: count('BENCH_FLEET_BROWSERS', 50),
  /** Simulator processes holding the agents' sockets. */
  workers: count('BENCH_FLEET_WORKERS', WORKERS_DEFAULT),
  /**
   * Connection attempts in flight per simulator process; by default all simulators together stay within the
   * server's admission limit of agent handshakes, so the memory half's CPU per connect counts connects, not 503s
   * and the heart-beats of agents waiting out their back-off (the restart storm is where refusals are measured).
   */
  concurrency: count(
    'BENCH_FLEET_CONCURRENCY',
    Math.max(
      1,
      Math.floor(
        count('BENCH_FLEET_HANDSHAKES_MAX', AGENT_HANDSHAKES_DEFAULT) / count('BENCH_FLEET_WORKERS', WORKERS_DEFAULT),
      ),
    ),
  ),
  /** Agents per seeded customer (one package each). */
  machinesPerCustomer: count('BENCH_FLEET_MACHINES_PER_CUSTOMER', SHORT ? 10 : 100),
  /** Agents connected while the server restarts (the restart phase; one instance, the short form). */
  restartAgents: count('BENCH_FLEET_RESTART_AGENTS', SHORT ? 500 : 5_000),
  /** How long each of the restart storm's runs takes (the first starts just before the restart). */
  runSeconds: count('BENCH_FLEET_RUN_SECONDS', SHORT ? 30 : 60),
  /** The portal's AGENT_HANDSHAKES_MAX during the run (unset: the server's default). */
  handshakesMax: process.env.BENCH_FLEET_HANDSHAKES_MAX || undefined,
  phases: new Set(
    (process.env.BENCH_FLEET_PHASES || (SHORT ? 'leave,restart' : 'memory,roundtrip')).split(',').map((p) => p.trim()),
  ),
  /** 0: no forced full GC through the inspector before reading memory (only settling and sampling). */
  forceGc: process.env.BENCH_FLEET_GC ? process.env.BENCH_FLEET_GC !== '0' : !SHORT,
  /** A folder: heap snapshots of each server before and after its sockets open (see heap-summary.ts). */
  heapSnapshots: process.env.BENCH_FLEET_HEAP_SNAPSHOTS || undefined,
  serverNodeArgs: (process.env.BENCH_FLEET_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
  serverLogLevel: process.env.BENCH_SERVER_LOG_LEVEL || 'warn',
  build: process.env.BENCH_BUILD !== '0',
  /** Another build of the server to run (no build then), e.g. one of another commit to compare. */
  serverEntry: process.env.BENCH_FLEET_SERVER_ENTRY || undefined,
};

/** The targets. */
export const TARGETS = {
  bytesPerConnection: 20 * 1024,
  p99Ms: 50,
  /** Issue 33 item 3: a browser on the first instance commands an agent on the last, at 5,000 commands/s. */
  acrossP99Ms: 20,
  /** Issue 33 item 2: server CPU per agent connect, and resident memory per agent against a bare `ws` socket. */
  cpuMsPerConnect: 1,
  /** Issue 33 item 2: one statement (or none) per agent connect: CONNECT, SUBSCRIBE and hello together. */
  transactionsPerConnect: 1,
  timesBare: 1.5,
  /** Issue 33 item 4 (its full size: 100,000 agents across five instances): all back within, dashboard p99. */
  restartSeconds: 300,
  stormP99Ms: 200,
} as const;

export const providerAdminEmail = (n: number) => `fleet-provider-${String(n).padStart(3, '0')}@bench.test`;

/**
 * The credential token of seeded machine `id`. Derived, so simulator processes need no list: only the
 * benchmark database (which stores the SHA-256 of it, as the server does) ever accepts it.
 */
export const machineToken = (id: number) => createHash('sha256').update(`portal-fleet-bench:${id}`).digest('base64url');

/** A simulated agent's CONNECT, with seeded machine `id`'s credential, beating every `heartBeatMs` both ways (0: none). */
export const agentConnectFrame = (id: number, heartBeatMs: number) =>
  stompFrame('CONNECT', {
    'accept-version': '1.2',
    host: 'portal',
    login: String(id),
    passcode: machineToken(id),
    'heart-beat': `${heartBeatMs},${heartBeatMs}`,
  });

/** The loopback source address of simulator process `index`, so no address runs out of ephemeral ports. */
export const sourceAddress = (index: number) => `127.0.0.${2 + (index % 250)}`;

// --- Processes -----------------------------------------------------------------------------------------

/** Resident memory of a process in bytes (VmRSS of /proc/<pid>/status). */
export function residentBytes(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!line) throw new Error(`no VmRSS for process ${pid}`);
  return Number(line[1]) * 1024;
}

/** CPU time a process has used so far, in seconds (utime + stime of /proc/<pid>/stat, 100 ticks/s). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds of every process now, with its command name (processes that end meanwhile are skipped). */
export function allCpuSeconds(): Map<number, { name: string; seconds: number }> {
  const out = new Map<number, { name: string; seconds: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      out.set(Number(entry), { name, seconds: cpuSeconds(Number(entry)) });
    } catch {
      // gone
    }
  }
  return out;
}

/** The whole machine's busy and total jiffies (first line of /proc/stat). */
export function machineTicks(): { busy: number; total: number } {
  const [, ...fields] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/);
  const values = fields.map(Number);
  const total = values.reduce((a, b) => a + b, 0);
  return { busy: total - (values[3] ?? 0) - (values[4] ?? 0), total };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A DevTools session with a process started with `--inspect=127.0.0.1:<port>`: a full garbage collection
 * and the V8 heap's size, without any code in the process itself.
 */
export async function inspectorOf(port: number): Promise<{
  collectGarbage(): Promise<void>;
  heapUsed(): Promise<number>;
  /** Writes a heap snapshot (for Chrome DevTools' Memory tab, or heap-summary.ts). */
  heapSnapshot(path: string): Promise<void>;
  /** Evaluates an expression in the process (awaited); its value as JSON. */
  evaluate(expression: string): Promise<unknown>;
  close(): void;
}> {
  const list = await new Promise<string>((resolve, reject) => {
    http
      .get(`http://127.0.0.1:${port}/json/list`, (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
  const target = (JSON.parse(list) as Array<{ webSocketDebuggerUrl?: string }>)[0]?.webSocketDebuggerUrl;
  if (!target) throw new Error(`no inspector target on port ${port}`);
  const socket = new WebSocket(target, { perMessageDeflate: false });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let next = 0;
  const waiting = new Map<number, (result: Record<string, unknown>) => void>();
  let chunks: string[] = [];
  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString('utf8')) as {
      id?: number;
      method?: string;
      params?: { chunk?: string };
      result?: Record<string, unknown>;
    };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result ?? {});
    else if (message.method === 'HeapProfiler.addHeapSnapshotChunk') chunks.push(message.params?.chunk ?? '');
  });
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Record<string, unknown>>((resolve) => {
      next += 1;
      waiting.set(next, resolve);
      socket.send(JSON.stringify({ id: next, method, params }));
    });
  return {
    async collectGarbage() {
      await call('HeapProfiler.collectGarbage');
    },
    async heapUsed() {
      return Number((await call('Runtime.getHeapUsage')).usedSize);
    },
    async heapSnapshot(path) {
      chunks = [];
      await call('HeapProfiler.takeHeapSnapshot');
      writeFileSync(path, chunks.join(''));
      chunks = [];
    },
    async evaluate(expression) {
      const answer = await call('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
      const failed = answer.exceptionDetails as { text?: string } | undefined;
      if (failed) throw new Error(`evaluate failed: ${failed.text ?? 'exception'}`);
      return (answer.result as { value?: unknown } | undefined)?.value;
    },
    close: () => socket.close(),
  };
}

export const kb = (bytes: number) => (bytes / 1024).toFixed(1);
export const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
