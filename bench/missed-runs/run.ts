// The missed-run benchmark (issue 33 item 7; bench/README.md): on a copy of the dashboard benchmark's data set of its
// own (1,000,000 tasks; it writes), N tasks are made overdue and two server instances, two processes running the
// missed-run job as the server does (instance.ts), mark them. Printed: the time to mark all (lag) and the statements
// issued, beside a bare baseline (one plain SQL UPDATE of the same rows, rolled back); each task's marks counted by a
// trigger (never twice); the CPU of each instance while nothing is due. Exits 1 when a target is missed or a pass
// failed.
//
//   npx tsx bench/missed-runs/run.ts           10,000 and 100,000 overdue of 1,000,000 tasks, the job's real interval
//   npx tsx bench/missed-runs/run.ts --short   1,000 of 10,000 (scale 0.01), a 1 s interval: seconds, for CI
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { MISSED_RUN_GRACE_MINUTES } from '@portal/domain';
import pg from 'pg';
import { Answers } from '../answers.js';
import { cpuNote, ROOT, seconds, table } from '../dashboard/common.js';
import { tsx } from '../suite.mjs';
import type { FromInstance, ToInstance } from './protocol.js';

const short = process.argv.includes('--short');
const env = (name: string, fallback: string) => process.env[name] || fallback;
const SETTINGS = short
  ? {
      databaseUrl: env('BENCH_MISSED_SHORT_DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/portal_missed_short'),
      scale: '0.01',
      sizes: [1_000],
      intervalMs: 1_000,
      idleMs: 5_000,
    }
  : {
      databaseUrl: env('BENCH_MISSED_DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/portal_missed_bench'),
      scale: '1',
      sizes: env('BENCH_MISSED_SIZES', '10000,100000').split(',').map(Number),
      intervalMs: Number(env('BENCH_MISSED_INTERVAL_MS', '60000')),
      idleMs: Number(env('BENCH_MISSED_IDLE_MS', '60000')),
    };
const INSTANCES = 2;

/** The targets. */
const TARGETS = { lagMs: 60_000, idleCpuPercent: 5 };

const answers = new Answers();

// --- The data set ------------------------------------------------------------------------------------------------
console.log(
  `Missed-run benchmark${short ? ' (short form)' : ''} on ${new URL(SETTINGS.databaseUrl).pathname.slice(1)}`,
);
if (
  (await tsx('bench/dashboard/seed.ts', ['--if-needed'], {
    BENCH_DATABASE_URL: SETTINGS.databaseUrl,
    BENCH_SCALE: SETTINGS.scale,
  })) !== 0
) {
  console.error('Seeding failed; the missed-run benchmark stops here.');
  process.exit(1);
}
const db = new pg.Client({ connectionString: SETTINGS.databaseUrl });
await db.connect();

// Each move of a task's expected next run forward is one mark (of a missed run, or of a task that may not run moved
// on), counted per task by a trigger: a task marked twice shows, whatever the outbox's deduplication hides. Making
// tasks overdue moves them back, and nothing else moves them while the benchmark runs.
await db.query(`
  create table if not exists bench_missed_marks (task_id int not null);
  create table if not exists bench_missed_pick (id int primary key);
  create or replace function bench_missed_mark() returns trigger language plpgsql as $$
    begin insert into bench_missed_marks values (new.id); return null; end $$;
  drop trigger if exists bench_missed_mark on backup_tasks;
  create trigger bench_missed_mark after update of next_run_at on backup_tasks for each row
    when (new.next_run_at is null or new.next_run_at > old.next_run_at)
    execute function bench_missed_mark();`);

// The instances' clock is moved back to an hour before the earliest expected run: nothing of the seed is due, and
// only the tasks made overdue below are.
const {
  rows: [earliest],
} = await db.query<{ at: Date | null }>('select min(next_run_at) as at from backup_tasks');
const offsetMs = earliest?.at ? Math.max(0, Date.now() - (earliest.at.getTime() - 3_600_000)) : 0;
const benchNow = () => new Date(Date.now() - offsetMs);
const cutoff = () => new Date(benchNow().getTime() - MISSED_RUN_GRACE_MINUTES * 60_000);

// --- The instances -----------------------------------------------------------------------------------------------
interface Instance {
  child: ChildProcess;
  passes: Extract<FromInstance, { kind: 'pass' }>[];
  /** How many passes have started (one under way when more than have ended). */
  started: () => number;
  /** Sends `message` (none: only waits) and resolves with the instance's next message of kind `answer`. */
  ask: (message: ToInstance | null, answer: FromInstance['kind']) => Promise<FromInstance>;
}

function start(n: number): Instance {
  const child = fork(join(ROOT, 'bench/missed-runs/instance.ts'), [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      BENCH_DATABASE_URL: SETTINGS.databaseUrl,
      BENCH_CLOCK_OFFSET_MS: String(offsetMs),
      BENCH_MISSED_INTERVAL_MS: String(SETTINGS.intervalMs),
    },
  });
  const passes: Instance['passes'] = [];
  let started = 0;
  const waiting = new Map<string, (m: FromInstance) => void>();
  child.on('message', (message: FromInstance) => {
    if (message.kind === 'started') started += 1;
    else if (message.kind === 'pass') passes.push(message);
    else if (message.kind === 'failed') answers.error(`instance ${n}: a pass of the job`, message.error);
    waiting.get(message.kind)?.(message);
    waiting.delete(message.kind);
  });
  child.on('exit', (code) => {
    if (code !== 0) answers.error(`instance ${n} exited`, `code ${code}`);
  });
  return {
    child,
    passes,
    started: () => started,
    ask: (message, answer) =>
      new Promise((resolve) => {
        waiting.set(answer, resolve);
        if (message) child.send(message);
      }),
  };
}

console.log(await cpuNote());
const instances = Array.from({ length: INSTANCES }, (_, i) => start(i + 1));
await Promise.all(instances.map((i) => i.ask(null, 'ready')));
const reports = () =>
  Promise.all(instances.map((i) => i.ask({ kind: 'report' }, 'report'))) as Promise<
    Extract<FromInstance, { kind: 'report' }>[]
  >;
const reset = () => Promise.all(instances.map((i) => i.ask({ kind: 'reset' }, 'reset')));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// --- Idle: nothing due -------------------------------------------------------------------------------------------
// The runs at start have passed (a probe each); then each instance's CPU over the window, at the interval.
await sleep(1_000);
await reset();
await sleep(SETTINGS.idleMs);
const idle = await reports();
const idleRows = idle.map((r, i) => [
  `instance ${i + 1}`,
  `${((100 * r.cpuMs) / r.wallMs).toFixed(2)} %`,
  String(r.statements),
  seconds(r.wallMs),
]);
const idleCpu = Math.max(...idle.map((r) => (100 * r.cpuMs) / r.wallMs));

// --- Bursts: N overdue -------------------------------------------------------------------------------------------
interface Burst {
  n: number;
  bareMs: number;
  lagMs: number;
  endToEndMs: number;
  statements: number;
  marks: number;
  twice: number;
  unmarked: number;
  alerts: number;
  alertedTwice: number;
  mails: number;
  /** What each instance's passes marked. */
  byInstance: number[];
}
const bursts: Burst[] = [];

for (const n of SETTINGS.sizes) {
  await db.query('truncate bench_missed_pick, bench_missed_marks');
  await db.query('delete from mail_outbox where event_key like $1', ['missed:%']);
  await db.query(
    'insert into bench_missed_pick select id from backup_tasks where next_run_at is not null order by random() limit $1',
    [n],
  );
  const overdue = `update backup_tasks set next_run_at = $1::timestamptz - random() * interval '1 hour'
                    where id in (select id from bench_missed_pick)`;
  const due = () => new Date(cutoff().getTime() - 60_000);

  // The bare baseline: the same rows overdue and marked by one plain UPDATE, inside a transaction rolled back (the
  // instances never see it).
  await db.query('begin');
  await db.query(overdue, [due()]);
  const bareStarted = performance.now();
  await db.query(
    `update backup_tasks set last_execution_missed = true, next_run_at = next_run_at + interval '1 day'
      where next_run_at <= $1`,
    [cutoff()],
  );
  const bareMs = performance.now() - bareStarted;
  await db.query('rollback');
  await db.query('truncate bench_missed_marks');

  // Made overdue shortly before the first instance's next pass, so the wait for it stays short.
  const last = instances[0]?.passes.at(-1);
  if (last) await sleep(Math.max(0, last.startedAt + SETTINGS.intervalMs - Date.now() - 1_000));
  await reset();
  const passesBefore = instances.map((i) => i.passes.length);
  await db.query(overdue, [due()]);
  const overdueAt = Date.now();
  const giveUp = overdueAt + SETTINGS.intervalMs + 10 * 60_000;
  // Polled on the trigger's table (cheap); the tasks still due are counted once at the end.
  let marked = 0;
  while (marked < n && Date.now() < giveUp) {
    await sleep(short ? 50 : 250);
    const { rows } = await db.query<{ n: number }>('select count(distinct task_id)::int as n from bench_missed_marks');
    marked = rows[0]?.n ?? 0;
  }
  const doneAt = Date.now();
  // Let the passes under way end (each ends with a batch that claims nothing), so their statements and alerts count.
  const settle = Date.now() + 30_000;
  while (Date.now() < settle && instances.some((i) => i.started() > i.passes.length)) await sleep(50);
  const report = await reports();
  const {
    rows: [still],
  } = await db.query<{ n: number }>(
    'select count(*)::int as n from backup_tasks where id in (select id from bench_missed_pick) and next_run_at <= $1',
    [cutoff()],
  );
  const left = still?.n ?? n;
  const firstPass = Math.min(
    ...instances.flatMap((i, k) =>
      i.passes
        .slice(passesBefore[k])
        .filter((p) => p.marked > 0)
        .map((p) => p.startedAt),
    ),
  );
  const {
    rows: [marks],
  } = await db.query<{ marks: number; twice: number }>(
    `select count(*)::int as marks, count(*) filter (where times > 1)::int as twice
       from (select task_id, count(*) as times from bench_missed_marks group by task_id) m`,
  );
  const alerted = report.flatMap((r) => r.alerted);
  const {
    rows: [mails],
  } = await db.query<{ n: number }>('select count(*)::int as n from mail_outbox where event_key like $1', ['missed:%']);
  bursts.push({
    n,
    bareMs,
    lagMs: doneAt - (Number.isFinite(firstPass) ? firstPass : overdueAt),
    endToEndMs: doneAt - overdueAt,
    statements: report.reduce((a, r) => a + r.statements, 0),
    marks: marks?.marks ?? 0,
    twice: marks?.twice ?? 0,
    unmarked: left,
    alerts: alerted.length,
    alertedTwice: alerted.length - new Set(alerted).size,
    mails: mails?.n ?? 0,
    byInstance: instances.map((i, k) => i.passes.slice(passesBefore[k]).reduce((a, p) => a + p.marked, 0)),
  });
  answers.outcome('marking every overdue task', left === 0, `${left} of ${n} still due`);
}

// --- Clean up and report -----------------------------------------------------------------------------------------
await Promise.all(
  instances.map((i) => {
    const exited = once(i.child, 'exit');
    i.child.send({ kind: 'stop' });
    return exited;
  }),
);
await db.query(`drop trigger if exists bench_missed_mark on backup_tasks; drop function if exists bench_missed_mark();
  drop table if exists bench_missed_marks, bench_missed_pick; delete from mail_outbox where event_key like 'missed:%'`);
await db.end();

if (!answers.verdict('Missed-run benchmark')) process.exit(1);
console.log(
  `\n${INSTANCES} instances, the job every ${seconds(SETTINGS.intervalMs)}; their clock ${seconds(offsetMs)} behind (nothing of the seed due)`,
);
console.log(`\nNothing due, over ${seconds(SETTINGS.idleMs)} (target ≤ ${TARGETS.idleCpuPercent} % of a core each):`);
console.log(table([['', 'CPU', 'statements', 'window'], ...idleRows]));
console.log(`\nN overdue, two instances at once (target: lag ≤ ${seconds(TARGETS.lagMs)}, no task marked twice):`);
console.log(
  table([
    [
      'N',
      'lag (first pass → all marked)',
      'overdue → all marked',
      'bare UPDATE',
      'statements',
      'per 1,000',
      'marked',
      'by instance',
      'twice',
      'alerts',
      'alerted twice',
      'mails queued',
    ],
    ...bursts.map((b) => [
      b.n.toLocaleString('en'),
      seconds(b.lagMs),
      seconds(b.endToEndMs),
      seconds(b.bareMs),
      b.statements.toLocaleString('en'),
      ((1_000 * b.statements) / b.n).toFixed(0),
      b.marks.toLocaleString('en'),
      b.byInstance.map((m) => m.toLocaleString('en')).join(' + '),
      String(b.twice),
      b.alerts.toLocaleString('en'),
      String(b.alertedTwice),
      b.mails.toLocaleString('en'),
    ]),
  ]),
);
console.log(
  'lag: from the start of the first pass that found them; "overdue → all marked" adds the wait for that pass (≤ the interval).',
);

const missed = [
  ...(idleCpu > TARGETS.idleCpuPercent ? [`idle CPU ${idleCpu.toFixed(2)} % > ${TARGETS.idleCpuPercent} %`] : []),
  ...bursts.flatMap((b) => [
    ...(b.lagMs > TARGETS.lagMs ? [`N=${b.n}: lag ${seconds(b.lagMs)} > ${seconds(TARGETS.lagMs)}`] : []),
    ...(b.twice > 0 || b.alertedTwice > 0
      ? [`N=${b.n}: ${b.twice} tasks marked twice, ${b.alertedTwice} alerted twice`]
      : []),
    ...(b.marks !== b.n ? [`N=${b.n}: ${b.marks} tasks marked, not ${b.n}`] : []),
  ]),
];
if (missed.length > 0) {
  console.error(`\nTargets missed: ${missed.join('; ')}`);
  process.exit(1);
}
console.log('\nAll targets met.');
