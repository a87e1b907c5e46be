// Issue 33 item 3, run by run.ts when BENCH_FLEET_INSTANCES is more than 1: the fleet across several server
// instances on one PostgreSQL and one Redis. Every instance is the built server on a port of its own
// (BENCH_FLEET_PORT + i) sharing the live channel over Redis; the agents are dealt to the instances in blocks of
// consecutive machine ids, held by as many simulator processes as the descriptor limit needs. Then every agent must
// show online in the database, and browsers command agents connected to the last instance ("E"), open loop at
// BENCH_FLEET_RATE: first from browsers on that same instance (the baseline: the same command without the hop between
// instances), then from browsers on the first instance ("A"). Any failed, refused or missing answer, any error an
// instance logs refuses the figures; a p99 across instances over 20 ms misses the target.
import { cpus, loadavg } from 'node:os';
import { AGENT_CHANNEL } from '@portal/domain';
import type { Answers } from '../answers.js';
import { databaseName, ms, ROOT, summarise, table } from '../dashboard/common.js';
import { signIn } from '../dashboard/server.js';
import { type RunningServer, startBuiltServer } from '../server-process.js';
import { BENCH_MASTER_KEY } from '../two-factor.js';
import type { AgentCommand, AgentReport } from './agents.js';
import type { BrowserCommand, BrowserReport, BrowserSession, RoundTripResult } from './browsers.js';
import { cpuSeconds, FLEET, machineTicks, providerAdminEmail, sourceAddress, TARGETS } from './common.js';
import {
  awaitOnline,
  child,
  DESCRIPTORS,
  FD_RESERVE,
  LAUNCHER,
  ROUND_TRIP_RUN,
  SERVER_ENTRY,
  type Simulator,
  simulatorStats,
} from './processes.js';
import { seedFleet } from './seed.js';

/** Letters for the instances in what is printed: A, B, C, ... */
const letter = (index: number) => String.fromCharCode(65 + index);

interface Instance extends RunningServer {
  name: string;
  /** Machine ids first..last are connected to it. */
  first: number;
  last: number;
}

/**
 * The built server as one of several instances: `port`, the `databaseUrl` they share, and the shared Redis with a
 * live channel named after the database (so that benchmarks of other databases on the same Redis stay apart).
 */
export function startInstance(port: number, databaseUrl: string, answers: Answers): Promise<RunningServer> {
  return startBuiltServer({
    entry: SERVER_ENTRY,
    cwd: ROOT,
    url: `http://127.0.0.1:${port}`,
    launcher: LAUNCHER,
    nodeArgs: FLEET.serverNodeArgs,
    env: {
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      REDIS_URL: FLEET.redisUrl,
      REDIS_CHANNEL: `portal-bench-${databaseName(databaseUrl)}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      MASTER_KEY: BENCH_MASTER_KEY,
      LOG_LEVEL: FLEET.serverLogLevel,
      DEMO: 'false',
      DEMO_AGENTS: '0',
      ...(FLEET.handshakesMax ? { AGENT_HANDSHAKES_MAX: FLEET.handshakesMax } : {}),
    },
    dataDirPrefix: 'portal-bench-instance-',
    // Several instances starting on a busy two-core machine have taken over a minute each.
    startSeconds: 180,
    pollMs: 200,
    answers,
  });
}

/** Opens each instance's agents, dealt to the simulators by machine id, one instance after the other. */
async function openAgents(simulators: Simulator[], instances: Instance[], answers: Answers): Promise<number> {
  const started = performance.now();
  for (const instance of instances) {
    const url = `${instance.url.replace(/^http/, 'ws')}${AGENT_CHANNEL.endpoint}`;
    const reports = await Promise.all(
      simulators.map((s, i) => {
        const ids: number[] = [];
        for (let id = instance.first; id <= instance.last; id++) if (id % simulators.length === i) ids.push(id);
        const command: AgentCommand = {
          op: 'open',
          mode: 'agent',
          url,
          ids,
          concurrency: FLEET.concurrency,
          localAddress: sourceAddress(i),
          keep: 'retry',
        };
        return s.request(command, 'opened');
      }),
    );
    const ready = reports.reduce((n, r) => n + r.ready, 0);
    const failed = reports.reduce((n, r) => n + r.failed, 0);
    answers.error(`${instance.name}: agent socket connect`, reports.flatMap((r) => r.errors).join('; '), failed);
    console.log(
      `  ${instance.name}: ${ready} agents ready (machines ${instance.first}–${instance.last}) after ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  return (performance.now() - started) / 1000;
}

interface Leg {
  label: string;
  result: RoundTripResult;
  /** Share of the machine's CPU used during the leg, and each instance's, in cores. */
  machineCpu: number;
  instanceCores: number[];
}

/** Browsers connected to `via` send tree requests to the machines of their sessions; one open-loop run. */
async function roundTrip(
  label: string,
  via: Instance,
  localAddress: string,
  sessions: BrowserSession[],
  { instances, answers }: { instances: Instance[]; answers: Answers },
): Promise<Leg> {
  const browsers = child<BrowserCommand, BrowserReport>('browsers.ts');
  try {
    const connected = await browsers.request({ op: 'connect', base: via.url, sessions, localAddress }, 'connected');
    answers.error(
      `${label}: browser connect and subscribe`,
      connected.errors.slice(0, 5).join('; '),
      connected.errors.length,
    );
    console.log(
      `  ${label}: ${connected.browsers} browsers on ${via.name} subscribed to ${connected.subscriptions} machine queues; ${FLEET.rate}/s for ${FLEET.warmupSeconds} s warm-up + ${FLEET.seconds} s ...`,
    );
    const ticksBefore = machineTicks();
    const cpuBefore = instances.map((i) => cpuSeconds(i.pid));
    const started = performance.now();
    const result = await browsers.request(ROUND_TRIP_RUN, 'result');
    const elapsed = (performance.now() - started) / 1000;
    const ticksAfter = machineTicks();
    const texts = result.texts.slice(0, 5).join('; ');
    answers.error(`${label}: tree request answered with a failure`, texts, result.failed);
    answers.error(`${label}: tree request not answered within 20 s`, texts, result.timeouts);
    answers.error(`${label}: browser ERROR frame`, texts, result.errorFrames);
    answers.error(`${label}: browser socket closed`, texts, result.closes);
    answers.outcome(`${label}: tree request`, true, '', result.answered);
    return {
      label,
      result,
      machineCpu: (ticksAfter.busy - ticksBefore.busy) / Math.max(1, ticksAfter.total - ticksBefore.total),
      instanceCores: instances.map((i, k) => (cpuSeconds(i.pid) - (cpuBefore[k] ?? 0)) / elapsed),
    };
  } finally {
    await browsers.stop();
  }
}

function printLegs(legs: Leg[], instances: Instance[], agents: number): boolean {
  console.log(
    `\nRound trip browser → agent → browser (tree request) across ${instances.length} instances, ${agents} agents online, open loop at ${FLEET.rate}/s, ${FLEET.seconds} s measured after ${FLEET.warmupSeconds} s warm-up; ms`,
  );
  const rows = legs.map((leg) => {
    const s = summarise(leg.result.latencies);
    return [
      leg.label,
      String(leg.result.sent),
      (leg.result.sent / Math.max(0.001, leg.result.windowSeconds)).toFixed(0),
      String(leg.result.answered),
      ms(s.p50),
      ms(s.p95),
      ms(s.p99),
      ms(s.max),
      ms(leg.result.lagP99),
      `${(100 * leg.machineCpu).toFixed(0)}%`,
      leg.instanceCores.map((c) => c.toFixed(2)).join(' '),
    ];
  });
  console.log(
    table([
      [
        'browsers → agents',
        'commands',
        'sent/s',
        'answered',
        'p50',
        'p95',
        'p99',
        'max',
        'generator lag p99',
        `machine CPU (${cpus().length} cores)`,
        `cores ${instances.map((_, i) => letter(i)).join(' ')}`,
      ],
      ...rows,
    ]),
  );
  const across = legs[legs.length - 1];
  const p99 = across ? summarise(across.result.latencies).p99 : Number.POSITIVE_INFINITY;
  const ok = p99 <= TARGETS.acrossP99Ms;
  console.log(`across instances: p99 ${ms(p99)} ms (target <= ${TARGETS.acrossP99Ms} ms: ${ok ? 'ok' : 'MISSED'})`);
  return ok;
}

/**
 * The whole run; exit code 1 when a target was missed or an answer was an error (then no figures). Each instance
 * holds at most its descriptor limit's sockets, so a fleet larger than that is cut to it, and said so.
 */
export async function fleetAcrossInstances(answers: Answers): Promise<void> {
  const count = FLEET.instances;
  const room = DESCRIPTORS.limit - FD_RESERVE;
  const perInstance = Math.min(Math.floor(FLEET.agents / count), room);
  const agents = perInstance * count;
  if (agents < FLEET.agents) {
    console.log(
      `Note: ${FLEET.agents} agents asked for, ${agents} held: ${perInstance} per instance, the most one process can have with ${FD_RESERVE} of its ${DESCRIPTORS.limit} descriptors left for the server's own use.`,
    );
  }
  const workers = Math.max(FLEET.workers, Math.ceil(agents / room));
  const browsersWanted = Math.min(FLEET.browsers, perInstance, 999);
  await seedFleet(agents, browsersWanted);
  console.log(
    `\nAcross instances: ${count} instances × ${perInstance} agents, ${workers} simulator processes, one PostgreSQL, one Redis (${FLEET.redisUrl})`,
  );
  const instances: Instance[] = [];
  const simulators = Array.from({ length: workers }, () => child<AgentCommand, AgentReport>('agents.ts'));
  let legs: Leg[] = [];
  let online = 0;
  try {
    for (let i = 0; i < count; i++) {
      const server = await startInstance(FLEET.port + i, FLEET.databaseUrl, answers);
      instances.push({
        ...server,
        name: `instance ${letter(i)}`,
        first: i * perInstance + 1,
        last: (i + 1) * perInstance,
      });
    }
    const seconds = await openAgents(simulators, instances, answers);
    const stats = await simulatorStats(simulators);
    if (stats.open !== agents) answers.error('agent sockets open', `${stats.open} of ${agents}`, agents - stats.open);
    answers.error('agent ERROR frame', stats.errors.join('; '), stats.errorFrames);
    answers.error('agent socket closed by a server', stats.errors.join('; '), stats.unexpectedCloses);
    online = await awaitOnline(agents, 60_000);
    if (online !== agents) answers.error('machines online in the database', `${online} of ${agents}`, agents - online);
    console.log(
      `  ${stats.ready} agents ready in ${seconds.toFixed(1)} s (${stats.refused} upgrades answered 503 and retried); ${online} machines online in the database`,
    );

    const a = instances[0] as Instance;
    const e = instances[count - 1] as Instance;
    // Each browser subscribes to its own machines of instance E; sessions are signed in on A (they hold on every one).
    const perBrowser = Math.min(100, Math.ceil(perInstance / browsersWanted));
    const sessions: BrowserSession[] = [];
    for (let b = 0; b < browsersWanted && b * perBrowser < perInstance; b++) {
      const session = await signIn(a.url, providerAdminEmail(b + 1), FLEET.password, FLEET.databaseUrl);
      const from = e.first + b * perBrowser;
      const machineIds = Array.from({ length: perBrowser }, (_, j) => from + j).filter((id) => id <= e.last);
      sessions.push({ cookie: session.cookie, machineIds });
    }
    const browserAddress = sourceAddress(workers);
    const run = { instances, answers };
    legs = [
      await roundTrip(`same instance (${letter(count - 1)} → ${letter(count - 1)})`, e, browserAddress, sessions, run),
      await roundTrip(`across instances (A → ${letter(count - 1)})`, a, browserAddress, sessions, run),
    ];
  } finally {
    await Promise.all(simulators.map((s) => s.stop()));
    await Promise.all(instances.map((i) => i.stop()));
  }
  // After the instances stopped: every line they logged is counted.
  if (!answers.verdict('Fleet across instances')) return;
  console.log(`\nEvery agent online: ${online} of ${agents} machines online in the database (ok)`);
  const ok = printLegs(legs, instances, agents);
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(ok ? '\nAll fleet targets met.' : '\nA fleet target was missed.');
  if (!ok) process.exitCode = 1;
}
