// The soak (issue 33 item 9): BENCH_SOAK_AGENTS agents (5,000) running scheduled jobs through BENCH_SOAK_INSTANCES
// server instances (2) on one PostgreSQL and one Redis for BENCH_SOAK_SECONDS (an hour), while signed-in provider
// admins load the dashboard. Every BENCH_SOAK_SAMPLE_SECONDS (60) it samples each instance's resident memory and the
// dashboard's answer times; at the end it compares the first steady window with the last (after the warm-up, each a
// quarter of the steady samples): RSS and the dashboard's p99 must grow less than 10 %. Any answer that is not 2xx,
// any event refused or never acknowledged, a finished run missing from the database, any error an instance logs
// refuses the figures. bench/README.md.
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { AGENT_CHANNEL, ROUTES } from '@portal/domain';
import { Answers } from '../answers.js';
import { connect, ms, ROOT, summarise, table } from '../dashboard/common.js';
import type { RunningServer } from '../server-process.js';
import type { SoakAgentCommand, SoakAgentReport, SoakAgentStats } from './agents.js';
import { growth, MAX_GROWTH, steadyWindows } from './windows.js';

// The fleet's seeder, processes and settings on this benchmark's own database (read when they are imported).
const databaseUrl = process.env.BENCH_SOAK_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/portal_soak';
process.env.BENCH_FLEET_DATABASE_URL = databaseUrl;
const { count, cpuSeconds, mb, providerAdminEmail, residentBytes, sleep, sourceAddress } = await import(
  '../fleet/common.js'
);
const { awaitOnline, buildServer, child } = await import('../fleet/processes.js');
const { startInstance } = await import('../fleet/instances.js');
const { seedFleet } = await import('../fleet/seed.js');
const { get, signIn } = await import('../dashboard/server.js');

const SOAK = {
  port: count('BENCH_SOAK_PORT', 18310),
  instances: count('BENCH_SOAK_INSTANCES', 2),
  agents: count('BENCH_SOAK_AGENTS', 5_000),
  seconds: count('BENCH_SOAK_SECONDS', 3_600),
  sampleSeconds: count('BENCH_SOAK_SAMPLE_SECONDS', 60),
  /** Samples before this are printed, not compared: caches filling, the first runs, V8 growing its heap. */
  warmupSeconds: count('BENCH_SOAK_WARMUP_SECONDS', 600),
  /** Every task runs every this many minutes (each machine's at its own minute of the period). */
  everyMinutes: count('BENCH_SOAK_EVERY_MINUTES', 5),
  /** How long a run takes (a progress report every 5 s). */
  runSeconds: count('BENCH_SOAK_RUN_SECONDS', 30),
  /** Signed-in provider admins loading the dashboard, each one call after another with a pause. */
  browsers: count('BENCH_SOAK_BROWSERS', 10),
  thinkMs: count('BENCH_SOAK_THINK_MS', 1_000),
  workers: count('BENCH_SOAK_WORKERS', 2),
};
const answers = new Answers();

interface Sample {
  at: number;
  rss: number[];
  /** Each instance's CPU over the interval, in cores. */
  cores: number[];
  dashboard: number[];
  receipts: number[];
  runsFinished: number;
  runsSkipped: number;
  eventsAcknowledged: number;
}

/** The fleet's seed and one task a machine, each at its own minute of the period (task id = machine id). */
async function seed(): Promise<void> {
  await seedFleet(SOAK.agents, SOAK.browsers);
  const client = await connect(databaseUrl);
  try {
    await client.query(
      `insert into backup_tasks (id, backup_machine_id, customer_id, backup_package_id, name, schedule_cron)
       select id, id, customer_id, backup_package_id, 'Soak task', (id % $1::int) || '-59/' || $1::int || ' * * * *'
       from backup_machines`,
      [SOAK.everyMinutes],
    );
    await client.query(`select setval('backup_tasks_id_seq', (select max(id) from backup_tasks))`);
  } finally {
    await client.end();
  }
}

/** Each browser: the dashboard's customer list and its counts, one call after the other, with a pause. */
function loadDashboard(instances: RunningServer[], cookies: string[], latencies: number[]): () => Promise<void> {
  let running = true;
  const paths = [ROUTES.dashboard.customers.build(), ROUTES.dashboard.customerCounts.build()];
  const loops = cookies.map(async (cookie, b) => {
    const base = (instances[b % instances.length] as RunningServer).url;
    for (let i = 0; running; i++) {
      const path = paths[i % paths.length] as string;
      const started = performance.now();
      const res = await get(`${base}${path}`, { accept: 'application/json', cookie }).catch((error: unknown) => {
        answers.error(`GET ${path}`, error);
        return null;
      });
      if (res && answers.http(`GET ${path}`, res.status, res.body)) latencies.push(performance.now() - started);
      if (i % paths.length === paths.length - 1) await sleep(SOAK.thinkMs * 2 * Math.random());
    }
  });
  return async () => {
    running = false;
    await Promise.all(loops);
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

function report(samples: Sample[], instances: number): boolean {
  console.log(
    `\nSamples every ${SOAK.sampleSeconds} s (dashboard: ${SOAK.browsers} provider admins, customer list and counts; receipts: agents' events stored):`,
  );
  const letters = Array.from({ length: instances }, (_, i) => String.fromCharCode(65 + i));
  console.log(
    table([
      [
        's',
        ...letters.map((l) => `RSS ${l} MB`),
        ...letters.map((l) => `cores ${l}`),
        'dashboard calls',
        'p50 ms',
        'p99 ms',
        'receipt p99 ms',
        'runs finished',
        'events/s',
      ],
      ...samples.map((s, i) => {
        const d = summarise(s.dashboard);
        const before = samples[i - 1]?.eventsAcknowledged ?? 0;
        return [
          String(s.at),
          ...s.rss.map(mb),
          ...s.cores.map((c) => c.toFixed(2)),
          String(s.dashboard.length),
          ms(d.p50),
          ms(d.p99),
          ms(summarise(s.receipts).p99),
          String(s.runsFinished),
          ((s.eventsAcknowledged - before) / SOAK.sampleSeconds).toFixed(0),
        ];
      }),
    ]),
  );
  const windows = steadyWindows(samples, SOAK.warmupSeconds);
  if (!windows) {
    console.log('Too few steady samples: the run must last two samples past the warm-up.');
    return false;
  }
  console.log(
    `\nFirst steady window: the ${windows.first.length} sample(s) from ${SOAK.warmupSeconds} s of ${windows.steady} after the warm-up; last window: the last ${windows.last.length} (medians of RSS, p99 of every dashboard call in the window)`,
  );
  const rows: string[][] = [];
  let ok = true;
  const judge = (what: string, figure: (window: Sample[]) => number, unit: (v: number) => string) => {
    const first = figure(windows.first);
    const last = figure(windows.last);
    const { grew, flat } = growth(first, last);
    ok &&= flat;
    rows.push([what, unit(first), unit(last), `${(100 * grew).toFixed(1)} %`, flat ? 'ok' : 'MISSED']);
  };
  for (let i = 0; i < instances; i++) {
    judge(`RSS instance ${letters[i]} MB`, (w) => median(w.map((s) => s.rss[i] ?? 0)), mb);
  }
  judge('dashboard p99 ms', (w) => summarise(w.flatMap((s) => s.dashboard)).p99, ms);
  console.log(table([['figure', 'first window', 'last window', 'growth', `< ${100 * MAX_GROWTH} %`], ...rows]));
  return ok;
}

async function main(): Promise<void> {
  console.log(
    `Soak: ${SOAK.agents} agents on ${SOAK.instances} instances for ${SOAK.seconds} s, a run every ${SOAK.everyMinutes} min per machine lasting ${SOAK.runSeconds} s; ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (the machine may be shared: other processes change every figure)`,
  );
  await buildServer();
  await seed();
  const instances: RunningServer[] = [];
  const simulators = Array.from({ length: SOAK.workers }, () =>
    child<SoakAgentCommand, SoakAgentReport>(join(ROOT, 'bench/soak/agents.ts')),
  );
  const samples: Sample[] = [];
  let totals: Pick<SoakAgentStats, 'runsFinished' | 'runsStarted'> = { runsFinished: 0, runsStarted: 0 };
  try {
    for (let i = 0; i < SOAK.instances; i++) instances.push(await startInstance(SOAK.port + i, databaseUrl, answers));
    // Signed in before the agents come: the sign-in is not what is measured.
    const cookies: string[] = [];
    for (let b = 0; b < SOAK.browsers; b++) {
      const base = (instances[b % instances.length] as RunningServer).url;
      cookies.push((await signIn(base, providerAdminEmail(b + 1), undefined, databaseUrl)).cookie);
    }
    // Machine id → instance (round robin) and simulator.
    const opened = await Promise.all(
      simulators.map((s, w) => {
        const agents: Array<{ id: number; url: string }> = [];
        for (let id = 1; id <= SOAK.agents; id++) {
          if (Math.floor((id - 1) / SOAK.instances) % SOAK.workers !== w) continue;
          const instance = instances[(id - 1) % SOAK.instances] as RunningServer;
          agents.push({ id, url: `${instance.url.replace(/^http/, 'ws')}${AGENT_CHANNEL.endpoint}` });
        }
        return s.request(
          { op: 'open', agents, concurrency: 16, localAddress: sourceAddress(w), runSeconds: SOAK.runSeconds },
          'opened',
        );
      }),
    );
    const online = await awaitOnline(SOAK.agents, 60_000, databaseUrl);
    if (online !== SOAK.agents) answers.error('machines online in the database', `${online} of ${SOAK.agents}`);
    console.log(
      `${opened.reduce((n, o) => n + o.ready, 0)} agents ready in ${Math.max(...opened.map((o) => o.seconds)).toFixed(1)} s; ${online} machines online`,
    );

    const latencies: number[] = [];
    const stopDashboard = loadDashboard(instances, cookies, latencies);
    const started = performance.now();
    let cpuBefore = instances.map((i) => cpuSeconds(i.pid));
    for (let n = 1; n * SOAK.sampleSeconds <= SOAK.seconds; n++) {
      await sleep(started + n * SOAK.sampleSeconds * 1000 - performance.now());
      const reports = await Promise.all(simulators.map((s) => s.request({ op: 'stats' }, 'stats')));
      const cpuNow = instances.map((i) => cpuSeconds(i.pid));
      const sum = (key: 'runsFinished' | 'runsSkipped' | 'eventsAcknowledged' | 'errorFrames' | 'unexpectedCloses') =>
        reports.reduce((t, r) => t + r[key], 0);
      answers.error(
        'agent event refused (ERROR frame)',
        reports.flatMap((r) => r.errors).join('; '),
        sum('errorFrames'),
      );
      answers.error(
        'agent socket closed by an instance',
        reports.flatMap((r) => r.errors).join('; '),
        sum('unexpectedCloses'),
      );
      const sample: Sample = {
        at: n * SOAK.sampleSeconds,
        rss: instances.map((i) => residentBytes(i.pid)),
        cores: cpuNow.map((c, i) => (c - (cpuBefore[i] ?? 0)) / SOAK.sampleSeconds),
        dashboard: latencies.splice(0),
        receipts: reports.flatMap((r) => r.receiptMs),
        runsFinished: sum('runsFinished'),
        runsSkipped: sum('runsSkipped'),
        eventsAcknowledged: sum('eventsAcknowledged'),
      };
      cpuBefore = cpuNow;
      samples.push(sample);
      const d = summarise(sample.dashboard);
      console.log(
        `  ${sample.at} s: RSS ${sample.rss.map(mb).join(' / ')} MB; dashboard ${sample.dashboard.length} calls p99 ${ms(d.p99)} ms; ${sample.runsFinished} runs finished, ${sample.runsSkipped} skipped`,
      );
    }
    await stopDashboard();
    // The runs going now finish and every event is acknowledged before the counts are compared.
    const drained = await Promise.all(
      simulators.map((s) => s.request({ op: 'drain', timeoutMs: SOAK.runSeconds * 1000 + 60_000 }, 'drained')),
    );
    const waiting = drained.reduce((n, d) => n + d.eventsWaiting, 0);
    answers.outcome('every event acknowledged after the last runs', waiting === 0, `${waiting} not acknowledged`);
    const last = await Promise.all(simulators.map((s) => s.request({ op: 'stats' }, 'stats')));
    totals = {
      runsFinished: last.reduce((n, r) => n + r.runsFinished, 0),
      runsStarted: last.reduce((n, r) => n + r.runsStarted, 0),
    };
    const skipped = last.reduce((n, r) => n + r.runsSkipped, 0);
    answers.outcome(
      'scheduled runs started on time (none skipped as still running)',
      skipped === 0,
      `${skipped} skipped`,
    );
    answers.outcome('runs finished', totals.runsFinished > 0, 'no run finished: the schedules never ran');
    answers.outcome(
      'every run started finished',
      totals.runsStarted === totals.runsFinished,
      `${totals.runsStarted} started, ${totals.runsFinished} finished`,
    );
    const client = await connect(databaseUrl);
    try {
      const { rows } = await client.query<{ n: string }>(
        `select count(*) as n from task_actions where status = 'FINISHED_SUCCESS'`,
      );
      const stored = Number(rows[0]?.n);
      answers.outcome(
        'finished runs stored',
        stored === totals.runsFinished,
        `${stored} stored, ${totals.runsFinished} acknowledged`,
      );
    } finally {
      await client.end();
    }
  } finally {
    await Promise.all(simulators.map((s) => s.stop()));
    await Promise.all(instances.map((i) => i.stop()));
  }
  // After the instances stopped: every error line they logged is counted.
  if (!answers.verdict('Soak')) return;
  console.log(
    `\n${totals.runsStarted} runs started, ${totals.runsFinished} finished and stored; ${answers.statusLine()}; no error logged by any instance`,
  );
  const ok = report(samples, SOAK.instances);
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(ok ? '\nSoak: RSS and dashboard p99 flat.' : '\nSoak: a target was missed.');
  if (!ok) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
