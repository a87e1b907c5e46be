// The fleet benchmark (issue #5), on this 2-core machine:
//   1. 20,000 concurrent agent connections on one server process, at most 20 KB resident memory each,
//      next to a bare `ws` server holding the same number of idle sockets from the same simulator;
//   2. command round trip browser → agent → browser, p99 under 50 ms at 1,000 commands/s, 5,000 agents.
//
//   npx tsx bench/fleet/run.ts        seed, build the server (unless BENCH_BUILD=0), both halves
//
// Processes: this orchestrator; the built server (apps/server/dist/main.js) or the bare server; simulator
// processes (agents.ts) holding the agents' sockets; one process of browsers (browsers.ts). Servers and
// simulators are started through `prlimit` with room for 65,536 descriptors each. Anything that went wrong on the way
// (a socket that did not connect, an ERROR frame, a failed or missing answer, an error the server logs such as a
// failed presence write) fails the run, and no figures are printed.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_CHANNEL } from '@portal/domain';
import { Answers, watchServerLog } from '../answers.js';
import { connect, ms, ROOT, summarise, table } from '../dashboard/common.js';
import { get, signIn } from '../dashboard/server.js';
import { BENCH_MASTER_KEY } from '../two-factor.js';
import type { AgentCommand, AgentReport, AgentStats } from './agents.js';
import type { BrowserCommand, BrowserReport, RoundTripResult } from './browsers.js';
import {
  allCpuSeconds,
  cpuSeconds,
  FLEET,
  inspectorOf,
  kb,
  machineTicks,
  mb,
  providerAdminEmail,
  residentBytes,
  sleep,
  sourceAddress,
  TARGETS,
} from './common.js';
import { seedFleet } from './seed.js';

const NOFILE = 65_536;
/**
 * Whether child processes get NOFILE descriptors, or else how many they may have: the hard limit cannot be
 * raised without CAP_SYS_RESOURCE, which this project's machines do not grant even to root.
 */
const DESCRIPTORS = (() => {
  const raised = spawnSync('prlimit', [`--nofile=${NOFILE}:${NOFILE}`, '--', 'true']).status === 0;
  const hard = /^Max open files\s+\S+\s+(\S+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
  return { raised, limit: raised ? NOFILE : hard === 'unlimited' || hard === undefined ? NOFILE : Number(hard) };
})();
/** Descriptors a server process uses besides its sockets (stdio, epoll, pipes, database pool, inspector). */
const FD_RESERVE = 100;
const SERVER_ENTRY = FLEET.serverEntry ?? join(ROOT, 'apps/server/dist/main.js');
const HERE = join(ROOT, 'bench/fleet');
/** Sockets opened and closed before the "before" reading, so first-use code and caches are not counted. */
const WARM_UP_SOCKETS = 200;
const SETTLE_MS = 3_000;
/** Every answer and failure of the run: any failure refuses the figures. */
const answers = new Answers();

// --- Child processes ----------------------------------------------------------------------------------

interface Child<Command, Report extends { op: string }> {
  process: ChildProcess;
  pid: number;
  request<Op extends Report['op']>(command: Command, answer: Op): Promise<Extract<Report, { op: Op }>>;
  stop(): Promise<void>;
}

/**
 * Node with room for 65,536 descriptors through `prlimit` where this machine allows raising the hard limit
 * (CAP_SYS_RESOURCE); otherwise with the limit this process has. Optionally with an IPC channel.
 */
function spawnNode(
  args: string[],
  options: { ipc?: boolean; env?: NodeJS.ProcessEnv; pipeOutput?: boolean } = {},
): ChildProcess {
  const [command, prefix] = DESCRIPTORS.raised
    ? ['prlimit', [`--nofile=${NOFILE}:${NOFILE}`, '--', process.execPath]]
    : [process.execPath, []];
  return spawn(command, [...prefix, ...args], {
    cwd: ROOT,
    env: options.env ?? process.env,
    stdio: ['ignore', options.pipeOutput ? 'pipe' : 'inherit', 'inherit', ...(options.ipc ? ['ipc' as const] : [])],
  });
}

function child<Command, Report extends { op: string }>(script: string): Child<Command, Report> {
  const proc = spawnNode(['--import', 'tsx', join(HERE, script)], { ipc: true });
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

type Simulator = Child<AgentCommand, AgentReport>;

interface Server {
  name: string;
  pid: number;
  url: string;
  inspectorPort: number;
  stop(): Promise<void>;
}

async function waitForHttp(url: string, proc: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (proc.exitCode === null) {
    const status = await get(url)
      .then((r) => r.status)
      .catch(() => 0);
    if (status > 0) return;
    if (Date.now() > deadline) break;
    await sleep(200);
  }
  proc.kill('SIGKILL');
  throw new Error(`${what} did not start (exit code ${proc.exitCode})`);
}

function stopper(proc: ChildProcess, cleanup: () => void | Promise<void> = () => {}): () => Promise<void> {
  return async () => {
    if (proc.exitCode === null) {
      const gone = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGTERM');
      await Promise.race([gone, sleep(15_000)]);
      if (proc.exitCode === null) proc.kill('SIGKILL');
    }
    await cleanup();
  };
}

const inspectArgs = (port: number) => (FLEET.forceGc ? [`--inspect=127.0.0.1:${port}`] : []);

async function startPortal(): Promise<Server> {
  if (!existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} missing: run npm run build -w apps/server`);
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-fleet-'));
  const port = FLEET.port;
  const proc = spawnNode([...inspectArgs(port + 2), ...FLEET.serverNodeArgs, SERVER_ENTRY], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: FLEET.databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      MASTER_KEY: BENCH_MASTER_KEY,
      LOG_LEVEL: FLEET.serverLogLevel,
      DEMO: 'false',
      DEMO_AGENTS: '0',
    },
    pipeOutput: true,
  });
  const logEnded = proc.stdout ? watchServerLog(proc.stdout, answers, 'the portal server') : Promise.resolve();
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/health`, proc, 'the portal server');
  return {
    name: 'portal server',
    pid: proc.pid ?? 0,
    url,
    inspectorPort: port + 2,
    stop: stopper(proc, async () => {
      // Every line it logged is counted before the verdict.
      await Promise.race([logEnded, sleep(5_000)]);
      rmSync(dataDir, { recursive: true, force: true });
    }),
  };
}

async function startBare(): Promise<Server> {
  const port = FLEET.port + 1;
  const proc = spawnNode([...inspectArgs(port + 2), join(HERE, 'bare-server.mjs'), String(port)]);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(url, proc, 'the bare ws server');
  return { name: 'bare ws server', pid: proc.pid ?? 0, url, inspectorPort: port + 2, stop: stopper(proc) };
}

// --- Memory -------------------------------------------------------------------------------------------

interface MemoryReading {
  /** Median of samples after settling and, unless BENCH_FLEET_GC=0, a forced full GC. */
  rss: number;
  /** Median of samples after settling, before the forced GC. */
  rssBeforeGc: number;
  /** V8 heap in use after the GC (NaN without the inspector). */
  heap: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function sampleRss(pid: number, count: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    if (i > 0) await sleep(300);
    samples.push(residentBytes(pid));
  }
  return median(samples);
}

async function readMemory(server: Server, label: 'before' | 'after'): Promise<MemoryReading> {
  await sleep(SETTLE_MS);
  const rssBeforeGc = await sampleRss(server.pid, 5);
  if (!FLEET.forceGc) return { rss: rssBeforeGc, rssBeforeGc, heap: Number.NaN };
  const inspector = await inspectorOf(server.inspectorPort);
  try {
    await inspector.collectGarbage();
    await sleep(500);
    await inspector.collectGarbage();
    await sleep(1_000);
    const reading = { rss: await sampleRss(server.pid, 5), rssBeforeGc, heap: await inspector.heapUsed() };
    if (FLEET.heapSnapshots) {
      const path = join(FLEET.heapSnapshots, `${server.name.replace(/\W+/g, '-')}-${label}.heapsnapshot`);
      await inspector.heapSnapshot(path);
      console.log(`  heap snapshot: ${path}`);
    }
    return reading;
  } finally {
    inspector.close();
  }
}

/** Machine ids 1..count, dealt to the simulators by id modulo their number. */
function share(count: number, index: number): number[] {
  const ids: number[] = [];
  for (let id = 1; id <= count; id++) if (id % FLEET.workers === index) ids.push(id);
  return ids;
}

async function openOn(
  simulators: Simulator[],
  mode: 'agent' | 'bare',
  server: Server,
  count: number,
): Promise<{ ready: number; failed: number; seconds: number; errors: string[] }> {
  const started = performance.now();
  const url = `${server.url.replace(/^http/, 'ws')}${mode === 'agent' ? AGENT_CHANNEL.endpoint : '/'}`;
  const reports = await Promise.all(
    simulators.map((s, i) =>
      s.request(
        {
          op: 'open',
          mode,
          url,
          ids: share(count, i),
          concurrency: FLEET.concurrency,
          localAddress: sourceAddress(i),
        },
        'opened',
      ),
    ),
  );
  return {
    ready: reports.reduce((n, r) => n + r.ready, 0),
    failed: reports.reduce((n, r) => n + r.failed, 0),
    seconds: (performance.now() - started) / 1000,
    errors: reports.flatMap((r) => r.errors).slice(0, 10),
  };
}

async function closeAbove(simulators: Simulator[], above: number): Promise<number> {
  const reports = await Promise.all(simulators.map((s) => s.request({ op: 'close', above }, 'closed')));
  return reports.reduce((n, r) => n + r.open, 0);
}

async function simulatorStats(simulators: Simulator[]): Promise<AgentStats> {
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
    errors: reports.flatMap((r) => r.errors).slice(0, 10),
  };
}

interface MemoryResult {
  server: string;
  connections: number;
  before: MemoryReading;
  after: MemoryReading;
  connectSeconds: number;
}

/** Opens `count` sockets of `mode` on the server and reads its memory before and after. */
async function measureMemory(
  simulators: Simulator[],
  server: Server,
  mode: 'agent' | 'bare',
  count: number,
): Promise<MemoryResult> {
  const warm = await openOn(simulators, mode, server, Math.min(WARM_UP_SOCKETS, count));
  if (warm.failed > 0) answers.error(`${server.name}: warm-up socket connect`, warm.errors.join('; '), warm.failed);
  await closeAbove(simulators, 0);
  const before = await readMemory(server, 'before');
  console.log(`  ${server.name}: before ${mb(before.rss)} MB resident; opening ${count} ${mode} sockets ...`);
  const cpuBefore = cpuSeconds(server.pid);
  const ticksBefore = machineTicks();
  const opened = await openOn(simulators, mode, server, count);
  const cpu = cpuSeconds(server.pid) - cpuBefore;
  const ticksAfter = machineTicks();
  const machineBusy = (ticksAfter.busy - ticksBefore.busy) / Math.max(1, ticksAfter.total - ticksBefore.total);
  if (opened.failed > 0)
    answers.error(`${server.name}: ${mode} socket connect`, opened.errors.join('; '), opened.failed);
  const after = await readMemory(server, 'after');
  const stats = await simulatorStats(simulators);
  if (stats.open !== count) answers.error(`${server.name}: sockets open after settling`, `${stats.open} of ${count}`);
  if (mode === 'agent' && (stats.tasks < count || stats.repositories < count)) {
    answers.error(
      `${server.name}: hello without its task list or repository`,
      `${stats.tasks} task lists and ${stats.repositories} repositories for ${count} agents`,
      count - Math.min(stats.tasks, stats.repositories),
    );
  }
  if (stats.errorFrames > 0)
    answers.error(`${server.name}: agent ERROR frame`, stats.errors.join('; '), stats.errorFrames);
  if (stats.unexpectedCloses > 0) {
    answers.error(`${server.name}: agent socket closed`, stats.errors.join('; '), stats.unexpectedCloses);
  }
  console.log(
    `  ${server.name}: ${opened.ready} ${mode} sockets ready in ${opened.seconds.toFixed(1)} s (${Math.round(opened.ready / opened.seconds)}/s; server CPU ${cpu.toFixed(1)} s, machine ${(100 * machineBusy).toFixed(0)}% busy); after ${mb(after.rss)} MB resident`,
  );
  return { server: server.name, connections: count, before, after, connectSeconds: opened.seconds };
}

const perConnection = (r: MemoryResult, key: 'rss' | 'rssBeforeGc' | 'heap') =>
  (r.after[key] - r.before[key]) / r.connections;

// --- Round trip ---------------------------------------------------------------------------------------

async function onlineMachines(): Promise<number> {
  const client = await connect(FLEET.databaseUrl);
  try {
    const { rows } = await client.query<{ n: string }>('select count(*) as n from backup_machines where online');
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

interface RoundTrip {
  result: RoundTripResult;
  browsers: number;
  subscriptions: number;
  /** Answer times of an HTTP request that touches no database, sent every 20 ms during the run. */
  probes: number[];
  /** Cores used during the run: server, postgres, simulators, browsers, other. */
  cpu: Map<string, number>;
  /** The three other processes (by command name) that used the most, in cores. */
  busiestOthers: Array<[string, number]>;
  machineCpu: number;
  agentStats: AgentStats;
  /** Findings that are no target's: printed, not failed. */
  notes: string[];
}

async function roundTrip(simulators: Simulator[], server: Server, agents: number): Promise<RoundTrip> {
  const notes: string[] = [];
  // Presence is written when a socket closes: wait until the database agrees on who is connected. Not a
  // target: a disagreement is reported, and the commands go to connected agents only either way.
  const deadline = Date.now() + 60_000;
  while ((await onlineMachines()) !== agents && Date.now() < deadline) await sleep(500);
  const online = await onlineMachines();
  if (online !== agents) {
    notes.push(
      `presence: ${online} machines marked online in the database 60 s after the others' agents closed, ${agents} connected`,
    );
  }

  const count = Math.min(FLEET.browsers, agents);
  const perBrowser = Math.min(100, Math.ceil(agents / count));
  const sessions: Array<{ cookie: string; machineIds: number[] }> = [];
  for (let b = 0; b < count; b += 10) {
    const batch = Array.from({ length: Math.min(10, count - b) }, (_, i) => b + i);
    const signed = await Promise.all(
      batch.map((i) => signIn(server.url, providerAdminEmail(i + 1), FLEET.password, FLEET.databaseUrl)),
    );
    batch.forEach((i, k) => {
      const first = i * perBrowser + 1;
      const machineIds = Array.from({ length: perBrowser }, (_, j) => first + j).filter((id) => id <= agents);
      sessions.push({ cookie: (signed[k] as { cookie: string }).cookie, machineIds });
    });
  }
  const browsers = child<BrowserCommand, BrowserReport>('browsers.ts');
  try {
    const connected = await browsers.request(
      { op: 'connect', base: server.url, sessions, localAddress: sourceAddress(FLEET.workers) },
      'connected',
    );
    if (connected.errors.length > 0) {
      answers.error('browser connect and subscribe', connected.errors.slice(0, 5).join('; '), connected.errors.length);
    }
    console.log(
      `  ${connected.browsers} provider admin browsers subscribed to ${connected.subscriptions} machine queues in ${connected.seconds.toFixed(1)} s; sending ${FLEET.rate}/s for ${FLEET.warmupSeconds} s warm-up + ${FLEET.seconds} s ...`,
    );
    const treeBefore = (await simulatorStats(simulators)).treeRequests;
    const probe = probeServer(server.url);
    const processesBefore = allCpuSeconds();
    const ticksBefore = machineTicks();
    const runStarted = performance.now();
    const result = await browsers.request(
      {
        op: 'run',
        rate: FLEET.rate,
        warmupMs: FLEET.warmupSeconds * 1000,
        durationMs: FLEET.seconds * 1000,
        timeoutMs: 20_000,
      },
      'result',
    );
    const elapsed = (performance.now() - runStarted) / 1000;
    const probes = await probe.stop();
    const ticksAfter = machineTicks();
    const machineCpu = (ticksAfter.busy - ticksBefore.busy) / Math.max(1, ticksAfter.total - ticksBefore.total);
    // Where the machine's CPU went during the run, in cores.
    const roleOf = (pid: number, name: string) =>
      pid === server.pid
        ? 'server'
        : pid === browsers.pid
          ? 'browsers'
          : simulators.some((s) => s.pid === pid)
            ? 'simulators'
            : name === 'postgres'
              ? 'postgres'
              : 'other';
    const cpu = new Map<string, number>();
    const others = new Map<string, number>();
    for (const [pid, after] of allCpuSeconds()) {
      const used = (after.seconds - (processesBefore.get(pid)?.seconds ?? 0)) / elapsed;
      const role = roleOf(pid, after.name);
      cpu.set(role, (cpu.get(role) ?? 0) + used);
      if (role === 'other') others.set(after.name, (others.get(after.name) ?? 0) + used);
    }
    const busiestOthers = [...others].sort((a, b) => b[1] - a[1]).slice(0, 3);
    const agentStats = await simulatorStats(simulators);
    agentStats.treeRequests -= treeBefore;
    const texts = result.texts.slice(0, 5).join('; ');
    answers.error('tree request (localtreeitems) answered with a failure', texts, result.failed);
    answers.error('tree request (localtreeitems) not answered within 20 s', texts, result.timeouts);
    answers.error('browser ERROR frame', texts, result.errorFrames);
    answers.error('browser socket closed', texts, result.closes);
    answers.outcome('tree request (localtreeitems)', true, '', result.answered);
    return {
      result,
      browsers: connected.browsers,
      subscriptions: connected.subscriptions,
      probes,
      cpu,
      busiestOthers,
      machineCpu,
      agentStats,
      notes,
    };
  } finally {
    await browsers.stop();
  }
}

/**
 * The server's responsiveness during the round trip, from outside: a request every 20 ms to a path that
 * only Fastify's routing answers (404, no database), one at a time; a stalled event loop shows here.
 */
function probeServer(base: string): { stop(): Promise<number[]> } {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await get(`${base}/fleet-probe`, { accept: 'application/json' }).catch(() => null);
      times.push(performance.now() - started);
      await sleep(20);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return times;
    },
  };
}

// --- Main ---------------------------------------------------------------------------------------------

async function cpuBusyNote(): Promise<string> {
  const before = machineTicks();
  await sleep(2_000);
  const after = machineTicks();
  const busy = (after.busy - before.busy) / Math.max(1, after.total - before.total);
  return `CPU busy before the run (other processes): ${(100 * busy).toFixed(0)}% of ${cpus().length} cores; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;
}

async function buildServer(): Promise<void> {
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

function printMemory(bare: MemoryResult, portal: MemoryResult): boolean {
  const row = (r: MemoryResult) => [
    r.server,
    r.connections.toLocaleString('en'),
    mb(r.before.rss),
    mb(r.after.rss),
    kb(perConnection(r, 'rss')),
    kb(perConnection(r, 'rssBeforeGc')),
    kb(perConnection(r, 'heap')),
    r.connectSeconds.toFixed(1),
  ];
  console.log(
    `\nMemory: resident set (VmRSS) of each server process before and after its sockets opened; ${FLEET.forceGc ? 'read after a forced full GC (inspector), medians of 5 samples' : 'medians of 5 samples after settling (no forced GC)'}`,
  );
  console.log(
    table([
      [
        'server',
        'sockets',
        'RSS before MB',
        'RSS after MB',
        'KB/socket',
        'KB/socket no GC',
        'heap KB/socket',
        'open s',
      ],
      row(bare),
      row(portal),
    ]),
  );
  const portalKb = perConnection(portal, 'rss');
  const ratio = portalKb / perConnection(bare, 'rss');
  const ok = portalKb <= TARGETS.bytesPerConnection;
  console.log(
    `portal server / bare ws per socket: ${ratio.toFixed(2)}x; target <= ${kb(TARGETS.bytesPerConnection)} KB per agent connection: ${portalKb <= TARGETS.bytesPerConnection ? 'ok' : 'MISSED'} (${kb(portalKb)} KB)`,
  );
  return ok;
}

function printRoundTrip(rt: RoundTrip, agents: number): boolean {
  const s = summarise(rt.result.latencies);
  console.log(
    `\nRound trip browser → agent → browser (tree request), ${agents} agents connected, ${rt.browsers} browsers, open loop at ${FLEET.rate}/s, ${FLEET.seconds} s measured after ${FLEET.warmupSeconds} s warm-up; ms`,
  );
  console.log(
    table([
      ['commands', 'sent/s', 'answered', 'failed', 'timeouts', 'p50', 'p95', 'p99', 'max', `p99 < ${TARGETS.p99Ms}`],
      [
        String(rt.result.sent),
        (rt.result.sent / Math.max(0.001, rt.result.windowSeconds)).toFixed(0),
        String(rt.result.answered),
        String(rt.result.failed),
        String(rt.result.timeouts),
        ms(s.p50),
        ms(s.p95),
        ms(s.p99),
        ms(s.max),
        s.p99 < TARGETS.p99Ms ? 'ok' : 'MISSED',
      ],
    ]),
  );
  console.log(
    `generator lag behind schedule: p99 ${ms(rt.result.lagP99)} ms, max ${ms(rt.result.lagMax)} ms; tree requests answered by agents ${rt.agentStats.treeRequests} (of ${rt.result.sentTotal} sent); CPU during the run: machine ${(100 * rt.machineCpu).toFixed(0)}% of ${cpus().length} cores; in cores: ${['server', 'postgres', 'simulators', 'browsers', 'other'].map((role) => `${role} ${(rt.cpu.get(role) ?? 0).toFixed(2)}`).join(', ')} (busiest others: ${rt.busiestOthers.map(([name, used]) => `${name} ${used.toFixed(2)}`).join(', ')})`,
  );
  const probe = summarise(rt.probes);
  console.log(
    `server responsiveness (GET of an unknown path every 20 ms during the run, ms): p50 ${ms(probe.p50)}, p99 ${ms(probe.p99)}, max ${ms(probe.max)}`,
  );
  const slow = rt.result.slowestBySecond
    .map((worst, second) => ({ second, worst }))
    .sort((a, b) => b.worst - a.worst)
    .slice(0, 5)
    .sort((a, b) => a.second - b.second);
  console.log(
    `slowest answers by second of the window: ${slow.map((x) => `${x.second} s: ${ms(x.worst)}`).join(', ')}`,
  );
  for (const n of rt.notes) console.log(`  note: ${n}`);
  return s.p99 < TARGETS.p99Ms;
}

async function main(): Promise<void> {
  const memory = FLEET.phases.has('memory');
  const trip = FLEET.phases.has('roundtrip');
  // One process cannot hold more sockets than its descriptor limit allows.
  const agents = Math.min(FLEET.agents, DESCRIPTORS.limit - FD_RESERVE);
  const machines = Math.max(memory ? agents : 0, trip ? FLEET.roundTripAgents : 0);
  console.log(await cpuBusyNote());
  console.log(
    `Descriptors per process: ${DESCRIPTORS.limit}${DESCRIPTORS.raised ? ' (raised with prlimit)' : ' (hard limit; raising it needs CAP_SYS_RESOURCE, which this machine does not grant)'}`,
  );
  if (memory && agents < FLEET.agents) {
    console.log(
      `Note: ${FLEET.agents} agents asked for, ${agents} held: the most one process can have with ${FD_RESERVE} descriptors left for the server's own use.`,
    );
  }
  await seedFleet(machines, Math.min(FLEET.browsers, 999));
  await buildServer();

  const simulators = Array.from({ length: FLEET.workers }, () => child<AgentCommand, AgentReport>('agents.ts'));
  let portal: Server | null = null;
  let ok = true;
  let bareResult: MemoryResult | null = null;
  let portalResult: MemoryResult | null = null;
  let rt: RoundTrip | null = null;
  try {
    let connected = 0;
    if (memory) {
      console.log(`\nMemory half: ${agents} sockets on each server, ${FLEET.workers} simulator processes`);
      const bare = await startBare();
      try {
        bareResult = await measureMemory(simulators, bare, 'bare', agents);
        await closeAbove(simulators, 0);
      } finally {
        await bare.stop();
      }
      portal = await startPortal();
      portalResult = await measureMemory(simulators, portal, 'agent', agents);
      connected = agents;
    }
    if (trip) {
      console.log(`\nRound trip half: ${FLEET.roundTripAgents} agents`);
      if (!portal) portal = await startPortal();
      if (connected > FLEET.roundTripAgents) await closeAbove(simulators, FLEET.roundTripAgents);
      else if (connected < FLEET.roundTripAgents) {
        const opened = await openOn(simulators, 'agent', portal, FLEET.roundTripAgents);
        if (opened.failed > 0)
          answers.error('portal server: agent socket connect', opened.errors.join('; '), opened.failed);
      }
      rt = await roundTrip(simulators, portal, FLEET.roundTripAgents);
    }
  } finally {
    await Promise.all(simulators.map((s) => s.stop()));
    await portal?.stop();
  }
  // After the server stopped: its log until then (presence writes of the closing sockets) is counted.
  if (!answers.verdict('Fleet')) return;
  if (bareResult && portalResult) ok = printMemory(bareResult, portalResult) && ok;
  if (rt) ok = printRoundTrip(rt, FLEET.roundTripAgents) && ok;
  console.log(ok ? '\nAll fleet targets met.' : '\nA fleet target was missed.');
  if (!ok) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
