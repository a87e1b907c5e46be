// The ingest benchmark (issue 33 item 8): agents reporting their runs as the real agent does (runStarted, progress,
// the run's messages, runFinished, each a SEND with a receipt that the portal gives once the event is stored) at an
// open-loop rate, first against a bare `ws` server that only answers receipts (the load generator's own ceiling),
// then against the built portal server on PostgreSQL. Prints events per second stored, receipt latency (an event
// is on the dashboard once its receipt is given: the portal writes before it answers), server CPU per event, and
// checks every event arrived: runs finished and messages stored equal those acknowledged. bench/README.md.
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { AGENT_CHANNEL, type AgentToServer } from '@portal/domain';
import { agentHello } from '@portal/domain/testing/agent-task';
import { WebSocket } from 'ws';
import { Answers } from '../answers.js';
import { connect, ms, ROOT, summarise, table } from '../dashboard/common.js';
import { verifyReadModel } from '../dashboard/seed.js';
import { startBuiltServer } from '../server-process.js';
import { BENCH_MASTER_KEY } from '../two-factor.js';

// The fleet's seeder, credentials and settings helpers, on this benchmark's own database (read when imported).
const databaseUrl = process.env.BENCH_INGEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/portal_ingest';
process.env.BENCH_FLEET_DATABASE_URL = databaseUrl;
const { seedFleet } = await import('../fleet/seed.js');
const { agentConnectFrame, count, cpuSeconds, sleep } = await import('../fleet/common.js');
const { readFrame, stompFrame } = await import('../fleet/stomp.js');

const INGEST = {
  databaseUrl,
  port: count('BENCH_INGEST_PORT', 18296),
  agents: count('BENCH_INGEST_AGENTS', 1_000),
  /** Events per second offered, across all agents. */
  rate: count('BENCH_INGEST_RATE', 5_000),
  seconds: count('BENCH_INGEST_SECONDS', 20),
  warmupSeconds: count('BENCH_INGEST_WARMUP', 5),
  build: process.env.BENCH_BUILD !== '0',
  serverEntry: process.env.BENCH_INGEST_SERVER_ENTRY || join(ROOT, 'apps/server/dist/main.js'),
  /** e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the server under the load. */
  serverNodeArgs: (process.env.BENCH_INGEST_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
};
/**
 * The issue's targets: events stored per second, and the dashboard current within 2 s: p99 of the receipts, and of
 * the run ends' in particular (a run end's receipt comes once the task's status and the dashboard counts moved).
 */
const TARGETS = { eventsPerSecond: 5_000, receiptP99Ms: 2_000 } as const;
/** Progress reports per run between its start and its messages and end, as restic's status lines arrive. */
const PROGRESS_PER_RUN = 8;
/** Agents connecting at once. */
const OPEN_AT_ONCE = 25;
const answers = new Answers();

/** The fleet's seed and one task a machine (task id = machine id), which its runs report on. */
async function seed(): Promise<void> {
  await seedFleet(INGEST.agents, 1);
  const client = await connect(INGEST.databaseUrl);
  try {
    await client.query(`insert into backup_tasks (id, backup_machine_id, customer_id, backup_package_id, name, schedule_cron)
      select id, id, customer_id, backup_package_id, 'Ingest task', '0 3 * * *' from backup_machines`);
    await client.query(`select setval('backup_tasks_id_seq', (select max(id) from backup_tasks))`);
    // The dashboard read model of the new tasks (never run), as the portal would have kept it: verified after the run.
    for (const owner of ['backup_machines', 'customers']) {
      const ownerColumn = owner === 'customers' ? 'customer_id' : 'backup_machine_id';
      await client.query(
        `update ${owner} o set tasks_never_run = (select count(*) from backup_tasks t where t.${ownerColumn} = o.id)`,
      );
    }
  } finally {
    await client.end();
  }
}

interface Totals {
  sent: number;
  acknowledged: number;
  runsFinished: number;
  messages: number;
  latencies: number[];
  /** The run ends' receipts (ms): how late the dashboard learns of a finished run at worst. */
  runEndLatencies: number[];
  measuring: boolean;
}

/** One simulated agent: one event in flight at a time, as the agent's outbox sends them. */
class Agent {
  private step = 0;
  private run = 0;
  busy = true;
  private sentAt = 0;
  private kind: AgentToServer['type'] = 'hello';
  /** Set before the benchmark closes the socket: a close then is no failure. */
  closing = false;
  ready: Promise<void>;

  constructor(
    readonly socket: WebSocket,
    private readonly id: number,
    private readonly totals: Totals,
    private readonly idle: Agent[],
  ) {
    this.ready = new Promise((resolve, reject) => {
      socket.on('error', reject);
      socket.on('close', (code, reason) => {
        if (!this.closing) answers.error('an agent socket closed by the server', `${code} ${reason.toString()}`);
      });
      socket.on('message', (data: Buffer) => {
        const frame = readFrame(data);
        if (!frame) return;
        if (frame.command === 'CONNECTED') {
          socket.send(stompFrame('SUBSCRIBE', { id: 'sub-0', destination: AGENT_CHANNEL.commands, ack: 'auto' }));
          this.sendEvent({ ...agentHello(this.id), name: `ingest-machine-${this.id}` });
        } else if (frame.command === 'RECEIPT') {
          if (this.kind === 'hello') resolve();
          else this.acknowledged();
          this.busy = false;
          this.idle.push(this);
        } else if (frame.command === 'ERROR') {
          answers.error(`an agent's ${this.kind} refused`, frame.headers.get('message') ?? frame.body);
          reject(new Error(frame.headers.get('message') ?? 'ERROR frame'));
        }
      });
      socket.on('open', () => socket.send(agentConnectFrame(id, 0)));
    });
  }

  private sendEvent(event: AgentToServer): void {
    this.busy = true;
    this.kind = event.type;
    this.sentAt = performance.now();
    this.socket.send(
      stompFrame(
        'SEND',
        { destination: AGENT_CHANNEL.events, receipt: `e-${this.run}-${this.step}` },
        JSON.stringify(event),
      ),
    );
  }

  private acknowledged(): void {
    const t = this.totals;
    t.acknowledged += 1;
    const latency = performance.now() - this.sentAt;
    if (t.measuring) t.latencies.push(latency);
    if (t.measuring && this.kind === 'runFinished') t.runEndLatencies.push(latency);
    if (this.kind === 'runFinished') t.runsFinished += 1;
    if (this.kind === 'messages') t.messages += 2;
  }

  /** The next event of the agent's current run. */
  next(): void {
    const runKey = `ingest-${this.id}-${this.run}`;
    const now = new Date().toISOString();
    const step = this.step;
    this.step = step === PROGRESS_PER_RUN + 2 ? 0 : step + 1;
    if (step === 0) {
      this.sendEvent({ type: 'runStarted', runKey, taskId: this.id, startedAt: now, manual: false });
    } else if (step <= PROGRESS_PER_RUN) {
      this.sendEvent({
        type: 'runProgress',
        runKey,
        phase: 'TRANSFERRING_FILES',
        percentage: Math.round((step / PROGRESS_PER_RUN) * 100),
        currentItem: step * 100,
        totalItems: PROGRESS_PER_RUN * 100,
        bytesDone: step * 1_048_576,
        bytesTotal: PROGRESS_PER_RUN * 1_048_576,
        filesDone: step * 100,
        bytesPerSecond: 1_048_576,
        secondsRemaining: PROGRESS_PER_RUN - step,
      });
    } else if (step === PROGRESS_PER_RUN + 1) {
      this.sendEvent({
        type: 'messages',
        runKey,
        taskId: this.id,
        messages: [
          { type: 'INFO', text: 'Backup started', time: now },
          { type: 'WARNING', text: 'could not read /home/user/locked.db: permission denied', time: now },
        ],
      });
    } else {
      this.run += 1;
      this.sendEvent({
        type: 'runFinished',
        runKey,
        status: 'FINISHED_WARNINGS',
        finishedAt: now,
        exitCodeResult: 'SOME_FILES_NOT_ACCESSIBLE',
        failureMessage: null,
        snapshotId: null,
        bytesAdded: PROGRESS_PER_RUN * 1_048_576,
        bytesTotal: PROGRESS_PER_RUN * 1_048_576,
      });
    }
  }
}

interface Result {
  perSecond: number;
  latency: ReturnType<typeof summarise>;
  runEndLatency: ReturnType<typeof summarise>;
  cpuMsPerEvent: number;
  /** Database transactions committed per event stored (the portal only; 0 for the bare server). */
  transactionsPerEvent: number;
  totals: Totals;
}

/** Opens the agents against `url`, offers INGEST.rate events a second, and measures the window after the warm-up. */
async function drive(url: string, pid: number, commits: () => Promise<number> = async () => 0): Promise<Result> {
  const totals: Totals = {
    sent: 0,
    acknowledged: 0,
    runsFinished: 0,
    messages: 0,
    latencies: [],
    runEndLatencies: [],
    measuring: false,
  };
  const idle: Agent[] = [];
  const agents: Agent[] = [];
  for (let id = 1; id <= INGEST.agents; id += 1) {
    const socket = new WebSocket(`${url.replace('http', 'ws')}${AGENT_CHANNEL.endpoint}`, ['v12.stomp'], {
      perMessageDeflate: false,
    });
    agents.push(new Agent(socket, id, totals, idle));
    // Under the server's limit of agent handshakes at once (AGENT_HANDSHAKES_MAX, 32): what is measured is the
    // events, not the connects.
    if (id % OPEN_AT_ONCE === 0) await Promise.all(agents.slice(-OPEN_AT_ONCE).map((a) => a.ready));
  }
  await Promise.all(agents.map((a) => a.ready));

  // Open loop: every 5 ms, the events due by now go out through agents with nothing in flight.
  const started = performance.now();
  let offered = 0;
  let windowStart = { at: 0, acknowledged: 0, cpu: 0, commits: 0 };
  const total = INGEST.warmupSeconds + INGEST.seconds;
  while (performance.now() - started < total * 1000) {
    const elapsed = (performance.now() - started) / 1000;
    if (!totals.measuring && elapsed >= INGEST.warmupSeconds) {
      totals.measuring = true;
      windowStart = {
        at: performance.now(),
        acknowledged: totals.acknowledged,
        cpu: cpuSeconds(pid),
        commits: await commits(),
      };
    }
    const due = Math.floor(elapsed * INGEST.rate) - offered;
    for (let i = 0; i < due; i++) {
      const agent = idle.shift();
      // Every agent waits for its last receipt: the portal is behind, and the rate reached shows it.
      if (!agent) break;
      agent.next();
      offered += 1;
      totals.sent += 1;
    }
    await sleep(5);
  }
  const windowSeconds = (performance.now() - windowStart.at) / 1000;
  const acknowledged = totals.acknowledged - windowStart.acknowledged;
  const cpu = cpuSeconds(pid) - windowStart.cpu;
  const committed = (await commits()) - windowStart.commits;
  totals.measuring = false;
  // The events in flight are acknowledged before the counts are compared.
  const deadline = Date.now() + 30_000;
  while (agents.some((a) => a.busy) && Date.now() < deadline) await sleep(50);
  const inFlight = agents.filter((a) => a.busy).length;
  answers.outcome('every event acknowledged within 30 s of the end', inFlight === 0, `${inFlight} still in flight`);
  for (const agent of agents) agent.closing = true;
  await Promise.all(
    agents.map(
      (a) =>
        new Promise<void>((resolve) => {
          a.socket.once('close', () => resolve());
          a.socket.close();
        }),
    ),
  );
  return {
    perSecond: acknowledged / windowSeconds,
    latency: summarise(totals.latencies),
    runEndLatency: summarise(totals.runEndLatencies),
    cpuMsPerEvent: (cpu * 1000) / Math.max(1, acknowledged),
    transactionsPerEvent: committed / Math.max(1, acknowledged),
    totals,
  };
}

async function bare(): Promise<Result> {
  const port = INGEST.port + 1;
  const proc = spawn(process.execPath, [join(ROOT, 'bench/ingest/bare-receipts.mjs'), String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => proc.stdout?.once('data', () => resolve()));
  try {
    return await drive(`http://127.0.0.1:${port}`, proc.pid ?? 0);
  } finally {
    proc.kill('SIGTERM');
  }
}

async function portal(): Promise<Result> {
  const url = `http://127.0.0.1:${INGEST.port}`;
  const server = await startBuiltServer({
    entry: INGEST.serverEntry,
    cwd: ROOT,
    url,
    env: {
      NODE_ENV: 'production',
      DATABASE_URL: INGEST.databaseUrl,
      PORT: String(INGEST.port),
      HOST: '127.0.0.1',
      MASTER_KEY: BENCH_MASTER_KEY,
      LOG_LEVEL: process.env.BENCH_SERVER_LOG_LEVEL || 'warn',
      DEMO: 'false',
      DEMO_AGENTS: '0',
    },
    dataDirPrefix: 'portal-ingest-',
    nodeArgs: INGEST.serverNodeArgs,
    startSeconds: 60,
    pollMs: 200,
    answers,
  });
  const stats = await connect(INGEST.databaseUrl);
  // Transactions the server's database committed (the statistics lag by up to half a second: read after a pause).
  const commits = async () => {
    await stats.query('select pg_stat_clear_snapshot()');
    const { rows } = await stats.query<{ n: string }>(
      'select xact_commit as n from pg_stat_database where datname = current_database()',
    );
    return Number(rows[0]?.n);
  };
  try {
    const result = await drive(url, server.pid, commits);
    // Nothing acknowledged was lost: the finished runs and the messages are in the database.
    const client = await connect(INGEST.databaseUrl);
    try {
      const runs = await client.query<{ n: string }>(
        `select count(*) as n from task_actions where status = 'FINISHED_WARNINGS'`,
      );
      const messages = await client.query<{ n: string }>(`select count(*) as n from machine_messages`);
      const storedRuns = Number(runs.rows[0]?.n);
      const storedMessages = Number(messages.rows[0]?.n);
      answers.outcome(
        'finished runs stored',
        storedRuns === result.totals.runsFinished,
        `${storedRuns} stored, ${result.totals.runsFinished} acknowledged`,
      );
      answers.outcome(
        'messages stored',
        storedMessages === result.totals.messages,
        `${storedMessages} stored, ${result.totals.messages} acknowledged`,
      );
      // The dashboard's read model (each task's status, each machine's and customer's counts) is exactly right.
      const problems = await verifyReadModel(client, { full: true });
      answers.outcome('read model equal to its recomputation', problems.length === 0, problems.slice(0, 5).join('; '));
    } finally {
      await client.end();
    }
    return result;
  } finally {
    await stats.end();
    await server.stop();
  }
}

console.log(
  `Ingest: ${INGEST.agents.toLocaleString('en')} agents offering ${INGEST.rate.toLocaleString('en')} events/s for ` +
    `${INGEST.seconds} s after ${INGEST.warmupSeconds} s of warm-up; ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
);
if (INGEST.build) {
  const built = spawn('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  const code = await new Promise<number | null>((resolve) => built.on('exit', resolve));
  if (code !== 0) throw new Error('npm run build failed');
}
await seed();
const baseline = await bare();
const measured = await portal();
if (answers.verdict('Ingest')) {
  const row = (name: string, r: Result) => [
    name,
    Math.round(r.perSecond).toLocaleString('en'),
    ms(r.latency.p50),
    ms(r.latency.p99),
    ms(r.latency.max),
    ms(r.runEndLatency.p99),
    r.cpuMsPerEvent.toFixed(3),
    r.transactionsPerEvent.toFixed(3),
  ];
  console.log(
    table([
      [
        'server',
        'events/s stored',
        'receipt p50 ms',
        'p99 ms',
        'max ms',
        'run ends p99 ms',
        'server CPU ms/event',
        'transactions/event',
      ],
      row('bare ws (receipts only)', baseline),
      row('portal (PostgreSQL)', measured),
    ]),
  );
  console.log(`${answers.statusLine() || 'no HTTP answers'}; load after: ${loadavg()[0]?.toFixed(1)}`);
  const misses: string[] = [];
  if (measured.perSecond < TARGETS.eventsPerSecond) misses.push(`events/s below ${TARGETS.eventsPerSecond}`);
  if (measured.latency.p99 > TARGETS.receiptP99Ms) misses.push(`receipt p99 above ${TARGETS.receiptP99Ms} ms`);
  if (measured.runEndLatency.p99 > TARGETS.receiptP99Ms) {
    misses.push(`run ends' receipt p99 above ${TARGETS.receiptP99Ms} ms (the dashboard later than 2 s)`);
  }
  if (misses.length > 0) {
    console.log(`Target missed: ${misses.join('; ')}.`);
    process.exitCode = 1;
  } else console.log('Targets met.');
}
