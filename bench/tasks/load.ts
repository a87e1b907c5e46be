// The task page under load (issue 14): one task with 10,000 runs and 100,000 messages on a machine of the
// seeded benchmark database; 20 concurrent signed-in provider admins open its first page back to back
// (the task, its runs' first page, its snapshots' first page, its storage, one call at a time per user)
// after 5 unmeasured pages each (warm-up); p50/p95/p99 per call and per whole page, and how busy the
// machine was before and after. BENCH_USERS=1 gives a request's time with nothing queued before it. An answer that
// is not 2xx (or an error the server logs) fails the run, and no figures are printed.
//
//   npx tsx bench/tasks/load.ts      (after bench/dashboard/seed.ts; BENCH_BUILD=0 to skip the build)

import { readdirSync, readFileSync } from 'node:fs';
import { ROUTES, withPaging, withQuery } from '@portal/domain';
import { Answers } from '../answers.js';
import {
  BENCH_ACCOUNTS,
  BENCH_SEATS,
  connect,
  cpuNote,
  databaseName,
  ms,
  SETTINGS,
  summarise,
  table,
} from '../dashboard/common.js';
import { buildIfWanted, get, signIn, startServer } from '../dashboard/server.js';
import { loadAverages } from '../machine.js';

const RUNS = 10_000;
const MESSAGES = 100_000;
const WARM_UP_PAGES = 5;
const TASK_NAME = 'bench task page';

/** Adds (once) the task with its runs, snapshots and messages; answers its path ids. */
async function seedTask() {
  const db = await connect();
  try {
    const existing = await db.query(
      `select t.id, t.backup_machine_id, m.customer_id, m.backup_package_id from backup_tasks t
       join backup_machines m on m.id = t.backup_machine_id where t.name = $1`,
      [TASK_NAME],
    );
    if (existing.rows[0]) return existing.rows[0] as Record<string, number>;
    const machine = (
      await db.query('select id, customer_id, backup_package_id from backup_machines order by id limit 1')
    ).rows[0] as { id: number; customer_id: number; backup_package_id: number };
    const task = (
      await db.query(
        `insert into backup_tasks (backup_machine_id, customer_id, backup_package_id, name, schedule_cron,
         schedule_description, status_of_last_run, display_status)
         values ($1, $2, $3, $4, '0 2 * * *', 'Daily at 02:00', 'FINISHED_SUCCESS', 'LAST_SUCCEEDED') returning id`,
        [machine.id, machine.customer_id, machine.backup_package_id, TASK_NAME],
      )
    ).rows[0] as { id: number };
    await db.query(
      `insert into task_actions (backup_task_id, backup_machine_id, type, status, time_started, time_finished,
       transfer_progress_percentage, restic_snapshot_id, bytes_total, snapshots_available)
       select $1, $2, 'BACKUP_RUN', 'FINISHED_SUCCESS', now() - (g || ' hours')::interval,
         now() - (g || ' hours')::interval + interval '5 minutes', 100, md5(g::text), 1000000, true
       from generate_series(1, $3) g`,
      [task.id, machine.id, RUNS],
    );
    await db.query(
      `insert into backup_snapshots (backup_task_id, task_action_id, restic_snapshot_id, status, size_bytes, created_at)
       select $1, a.id, a.restic_snapshot_id, 'FINISHED_SUCCESS', 500000, a.time_finished
       from task_actions a where a.backup_task_id = $1 order by a.time_started desc limit 52`,
      [task.id],
    );
    await db.query(
      `insert into machine_messages (backup_machine_id, backup_task_id, task_action_id, time, message_type, message)
       select $2, $1, a.id, a.time_started + (k || ' seconds')::interval, 'INFO', 'file ' || k || ' backed up'
       from task_actions a cross join generate_series(1, $3) k where a.backup_task_id = $1`,
      [task.id, machine.id, MESSAGES / RUNS],
    );
    await db.query('analyze task_actions; analyze backup_snapshots; analyze machine_messages');
    return {
      id: task.id,
      backup_machine_id: machine.id,
      customer_id: machine.customer_id,
      backup_package_id: machine.backup_package_id,
    };
  } finally {
    await db.end();
  }
}

/** CPU time (ms, user + system) of a process, 0 once it is gone; /proc counts in ticks of 10 ms. */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** The PostgreSQL backends serving the benchmark database (the server's pool), by process id. */
function databaseBackends(): number[] {
  const name = databaseName(SETTINGS.databaseUrl);
  const serves = (pid: string) => {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return command.startsWith('postgres: ') && command.includes(` ${name} `);
    } catch {
      return false;
    }
  };
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && serves(entry))
    .map(Number);
}

/**
 * CPU the server and its database backends spend while `run` runs: what the pages cost the machine,
 * whatever else runs beside them (other processes' load shows in the latencies, not here).
 */
async function cpuOf(serverPid: number, run: () => Promise<unknown>) {
  const before = new Map([serverPid, ...databaseBackends()].map((pid) => [pid, cpuMs(pid)]));
  await run();
  let server = 0;
  let database = 0;
  for (const pid of new Set([...before.keys(), ...databaseBackends()])) {
    const used = cpuMs(pid) - (before.get(pid) ?? 0);
    if (pid === serverPid) server += used;
    else database += used;
  }
  return { server, database };
}

const seeded = await seedTask();
const ref = {
  customerId: seeded.customer_id as number,
  packageId: seeded.backup_package_id as number,
  machineId: seeded.backup_machine_id as number,
  taskId: seeded.id as number,
};
const r = ROUTES.tasks.provider;
const calls = {
  'task detail': r.detail.build(ref),
  'runs, first page': withPaging(withQuery(r.actions.build(ref), { type: 'BACKUP_RUN' }), { page: 0, size: 10 }),
  'snapshots, first page': withPaging(r.snapshots.build(ref), { page: 0, size: 10 }),
  'task storage': r.storage.build(ref),
};

await buildIfWanted();
const answers = new Answers();
const server = await startServer(answers);
try {
  const users = await Promise.all(
    Array.from({ length: Math.min(SETTINGS.users, BENCH_SEATS) }, (_, i) =>
      signIn(server.url, BENCH_ACCOUNTS.providerAdmin(i + 1)),
    ),
  );
  const samples = new Map<string, number[]>(Object.keys(calls).map((name) => [name, []]));
  const pageSamples: number[] = [];
  const openPages = (pages: number, measured: boolean) =>
    Promise.all(
      users.map(async (user) => {
        for (let i = 0; i < pages; i++) {
          const pageStart = performance.now();
          // One call at a time per user, as the dashboard benchmark measures (20 requests in flight).
          for (const [name, path] of Object.entries(calls)) {
            const started = performance.now();
            const res = await get(`${server.url}${path}`, { cookie: user.cookie, accept: 'application/json' });
            if (!answers.http(`${name} (GET ${path})`, res.status, res.body)) continue;
            if (measured) samples.get(name)?.push(performance.now() - started);
          }
          if (measured) pageSamples.push(performance.now() - pageStart);
        }
      }),
    );
  await openPages(WARM_UP_PAGES, false);
  console.log(await cpuNote());
  const cpu = await cpuOf(server.pid, () => openPages(SETTINGS.iterations, true));
  if (answers.verdict('Task page')) {
    const rows = [['call', 'n', 'p50', 'p95', 'p99', 'max']];
    for (const [name, values] of [...samples, ['whole first page', pageSamples] as const]) {
      const s = summarise(values);
      rows.push([name, String(values.length), ms(s.p50), ms(s.p95), ms(s.p99), ms(s.max)]);
    }
    console.log(
      `Task page: ${RUNS} runs, ${MESSAGES} messages; ${users.length} users back to back, ${SETTINGS.iterations} pages each`,
    );
    console.log(table(rows));
    console.log(`HTTP ${answers.statusLine()}`);
    const pages = pageSamples.length;
    console.log(
      `CPU per page: server ${ms(cpu.server / pages)} ms, its PostgreSQL backends ${ms(cpu.database / pages)} ms (${pages} pages)`,
    );
    console.log(`load average after the run ${loadAverages()}`);
  }
} finally {
  await server.stop();
}
