// Any list at any depth (issue 33 item 6): the first, middle and last page of each list that is deep on the seeded
// benchmark database (bench/dashboard/seed.ts), over HTTP as a provider admin (the whole seed) and as the super admin
// of the largest customer, by several concurrent users back to back; beside each, the bare SQL of the same page on a
// pool of the server's size, and for the keyset lists what the OFFSET of the same depth costs (what the list did
// before). A keyset list's deep page is asked for as the web asks for it: with the cursor of the row before it,
// made here from that row (read once, unmeasured). Exits 1 when any HTTP p99 is over 100 ms; an answer that is not
// 2xx (or an error the server logs) fails the run, and no figures are printed.
//
//   npx tsx bench/lists/run.ts     (after bench/dashboard/seed.ts; BENCH_BUILD=0 to skip the build)
//   BENCH_LISTS_ITERATIONS=3 BENCH_LISTS_USERS=2 npx tsx bench/lists/run.ts    (the short form)

import { encodeCursor, LIST_COUNT_LIMIT, ROUTES, withQuery } from '@portal/domain';
import pg from 'pg';
import { Answers } from '../answers.js';
import { BENCH_ACCOUNTS, connect, cpuNote, ms, SETTINGS, summarise, table } from '../dashboard/common.js';
import { buildIfWanted, get, type Session, signIn, startServer } from '../dashboard/server.js';
import { loadAverages } from '../machine.js';

const TARGET_P99_MS = 100;
const USERS = Number(process.env.BENCH_LISTS_USERS ?? 5);
const ITERATIONS = Number(process.env.BENCH_LISTS_ITERATIONS ?? 20);
/** Rounds of the OFFSET baseline (one user). */
const OFFSET_ROUNDS = Number(process.env.BENCH_LISTS_OFFSET_ROUNDS ?? 3);
/** Audit records added once to the benchmark database (the seed has none); a fifth of them the large customer's. */
const AUDIT_RECORDS = Number(process.env.BENCH_LISTS_AUDIT_RECORDS ?? 1_000_000);
const AUDIT_MARK = 'bench.lists';
const POSITIONS = ['first', 'middle', 'last'] as const;
type Position = (typeof POSITIONS)[number];

interface Query {
  text: string;
  values: unknown[];
}

/** One deep list: how to ask for a page at a position over HTTP and in bare SQL. */
interface ListCase {
  name: string;
  who: 'provider' | 'customer';
  paging: 'keyset' | 'offset';
  size: number;
  /** Rows in the list (as the bare SQL counts them at the start). */
  total: number;
  /** The HTTP path of the page at a position. */
  path: (position: Position) => string;
  /** The bare SQL of the same page (and its count, run beside it as the server runs them). */
  bare: (position: Position) => Query[];
  /** Keyset lists: the OFFSET of the same depth, the cost of the list before (bare SQL). */
  offsetBare?: (position: Position) => Query[];
}

const depth = (total: number, size: number, position: Position) =>
  position === 'first' ? 0 : position === 'middle' ? Math.floor(total / size / 2) * size : Math.max(0, total - size);

/**
 * A keyset list: `from` (FROM and WHERE, $n placeholders after the keyset's two), its sort key and id columns (the
 * key a timestamp, or null: by id alone) and direction; `cursorOf` names the list and scope as the server does.
 */
async function keysetCase(
  db: pg.Client,
  options: {
    name: string;
    who: 'provider' | 'customer';
    size: number;
    route: string;
    select: string;
    from: string;
    countFrom: string;
    values: unknown[];
    key: string | null;
    id: string;
    direction: 'asc' | 'desc';
    /** As the list's index says it (`DESC NULLS LAST`), so the bare SQL reads the index in order as the server does. */
    nullsLast?: boolean;
    list: string;
    scope: string;
  },
): Promise<ListCase> {
  const { size, key, id, direction } = options;
  const order = (key ? [key, id] : [id])
    .map((column) => `${column} ${direction}${options.nullsLast ? ' nulls last' : ''}`)
    .join(', ');
  const n = options.values.length;
  const count: Query = {
    text: `select count(*) from (select 1 ${options.countFrom} limit ${LIST_COUNT_LIMIT}) capped`,
    values: options.values,
  };
  const total = Number((await db.query(`select count(*) as n ${options.countFrom}`, options.values)).rows[0].n);
  // The row before each position's page, whose key and id make its cursor.
  const anchors = new Map<Position, { key: string | null; id: number }>();
  for (const position of POSITIONS) {
    const skip = depth(total, size, position);
    if (skip === 0) continue;
    const row = (
      await db.query(
        `select ${key ? `${key}::text` : 'null'} as key, ${id} as id ${options.from} order by ${order} offset ${skip - 1} limit 1`,
        options.values,
      )
    ).rows[0] as { key: string | null; id: number };
    anchors.set(position, { key: row.key, id: Number(row.id) });
  }
  const beyond = direction === 'asc' ? '>' : '<';
  return {
    name: options.name,
    who: options.who,
    paging: 'keyset',
    size,
    total,
    path(position) {
      const anchor = anchors.get(position);
      const cursor = anchor ? encodeCursor({ list: options.list, scope: options.scope, ...anchor }) : undefined;
      return withQuery(options.route, { size, ...(cursor ? { cursor } : {}) });
    },
    bare(position) {
      const anchor = anchors.get(position);
      const after = anchor
        ? key
          ? ` and (${key}, ${id}) ${beyond} ($${n + 1}::timestamptz, $${n + 2})`
          : ` and ${id} ${beyond} $${n + 1}`
        : '';
      const values = anchor ? [...options.values, ...(key ? [anchor.key, anchor.id] : [anchor.id])] : options.values;
      const page = {
        text: `select ${options.select} ${options.from}${after} order by ${order} limit ${size + 1}`,
        values,
      };
      return anchor || total > size ? [page, count] : [page];
    },
    offsetBare(position) {
      const skip = depth(total, size, position);
      return [
        {
          text: `select ${options.select} ${options.from} order by ${order} limit ${size} offset ${skip}`,
          values: options.values,
        },
        { text: `select count(*) ${options.countFrom}`, values: options.values },
      ];
    },
  };
}

/** A list whose page numbers the specification fixes (000 §7): OFFSET at the page's depth, and its count. */
async function offsetCase(
  db: pg.Client,
  options: {
    name: string;
    who: 'provider' | 'customer';
    size: number;
    route: string;
    select: string;
    from: string;
    order: string;
    values: unknown[];
  },
): Promise<ListCase> {
  const { size } = options;
  const total = Number((await db.query(`select count(*) as n ${options.from}`, options.values)).rows[0].n);
  return {
    name: options.name,
    who: options.who,
    paging: 'offset',
    size,
    total,
    path: (position) => withQuery(options.route, { size, page: depth(total, size, position) / size }),
    bare: (position) => [
      {
        text: `select ${options.select} ${options.from} order by ${options.order} limit ${size} offset ${depth(total, size, position)}`,
        values: options.values,
      },
      { text: `select count(*) ${options.from}`, values: options.values },
    ],
  };
}

/** Adds the audit records once (the seed has none): a year of them, a fifth the large customer's own. */
async function seedAudit(db: pg.Client, largeCustomer: number) {
  const marked = await db.query('select 1 from audit_events where type = $1 limit 1', [AUDIT_MARK]);
  if (marked.rowCount) return;
  const started = performance.now();
  await db.query(
    `insert into audit_events (at, type, user_id, customer_id, actor_customer_id, account_customer_id, email, name,
                               ip_address, subject_type, subject_id, outcome, http_status)
     select now() - (g % 525600) * interval '1 minute' - (g % 997) * interval '1 microsecond', $1, null,
            c, c, c, 'person' || (g % 20000) || '@example.test', 'Person ' || (g % 20000), '10.0.' || (g % 250) || '.1',
            'machine', g % 50000, 'succeeded', 200
       from (select g, case when g % 5 = 0 then $2::int else 1 + g % 9000 end as c
               from generate_series(1, $3::int) as g) s`,
    [AUDIT_MARK, largeCustomer, AUDIT_RECORDS],
  );
  await db.query('analyze audit_events');
  console.log(
    `audit records added: ${AUDIT_RECORDS.toLocaleString('en')} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

async function timeBare(pool: pg.Pool, queries: Query[]): Promise<number> {
  const started = performance.now();
  await Promise.all(queries.map((query) => pool.query(query.text, query.values)));
  return performance.now() - started;
}

// --- the run ------------------------------------------------------------------------------------------------------

const db = await connect();
const large = (await db.query('select id, customer_id from users where email = $1', [BENCH_ACCOUNTS.customerAdmin(1)]))
  .rows[0] as { id: number; customer_id: number };
await seedAudit(db, large.customer_id);
await db.query('vacuum analyze audit_events');

const NEXT_PERIOD = `from backup_tasks t join backup_machines m on m.id = t.backup_machine_id
  where t.status = 'ACTIVE' and t.display_status <> 'NOT_RUNNABLE'
    and t.next_run_at >= now() and t.next_run_at < now() + interval '1 hour'`;
const RUNNING = `from task_actions a join backup_tasks t on t.id = a.backup_task_id
  join backup_machines m on m.id = t.backup_machine_id
  where a.status in ('INITIATED', 'IN_PROGRESS') and a.stalled_at is null`;
const DELETING = `from backup_tasks t join backup_machines m on m.id = t.backup_machine_id where t.status = 'BEING_DELETED'`;
const TASK_SELECT = 't.id, t.name, t.display_status, t.schedule_description, t.next_run_at, m.name, m.time_zone';
const r = ROUTES.taskOverview;
const cases: ListCase[] = [
  await keysetCase(db, {
    name: 'tasks in the next hour',
    who: 'provider',
    size: 10,
    route: r.nextPeriod.build(),
    select: TASK_SELECT,
    from: NEXT_PERIOD,
    countFrom: `from backup_tasks t where t.status = 'ACTIVE' and t.display_status <> 'NOT_RUNNABLE'
      and t.next_run_at >= now() and t.next_run_at < now() + interval '1 hour'`,
    values: [],
    key: 't.next_run_at',
    id: 't.id',
    direction: 'asc',
    list: 'taskOverview.nextPeriod',
    scope: 'provider',
  }),
  await keysetCase(db, {
    name: 'running tasks',
    who: 'provider',
    size: 10,
    route: r.running.build(),
    select: `${TASK_SELECT}, a.id, a.type`,
    from: RUNNING,
    countFrom: `from task_actions a where a.status in ('INITIATED', 'IN_PROGRESS') and a.stalled_at is null`,
    values: [],
    key: 'a.time_started',
    id: 'a.id',
    direction: 'desc',
    nullsLast: true,
    list: 'taskOverview.running',
    scope: 'provider',
  }),
  await keysetCase(db, {
    name: 'tasks being deleted',
    who: 'provider',
    size: 10,
    route: r.beingDeleted.build(),
    select: TASK_SELECT,
    from: DELETING,
    countFrom: `from backup_tasks t where t.status = 'BEING_DELETED'`,
    values: [],
    key: null,
    id: 't.id',
    direction: 'asc',
    list: 'taskOverview.beingDeleted',
    scope: 'provider',
  }),
  await keysetCase(db, {
    name: 'audit trail, every tenant',
    who: 'provider',
    size: 25,
    route: ROUTES.audit.provider.path,
    select: '*',
    from: 'from audit_events e where true',
    countFrom: 'from audit_events e',
    values: [],
    key: 'e.at',
    id: 'e.id',
    direction: 'desc',
    list: 'audit',
    scope: 'all',
  }),
  await keysetCase(db, {
    name: 'audit trail, the large customer',
    who: 'customer',
    size: 25,
    route: ROUTES.audit.account.path,
    select: '*',
    from: 'from audit_events e where e.customer_id = $1',
    countFrom: 'from audit_events e where e.customer_id = $1',
    values: [large.customer_id],
    key: 'e.at',
    id: 'e.id',
    direction: 'desc',
    list: 'audit',
    scope: `customer:${large.customer_id}`,
  }),
  await offsetCase(db, {
    name: 'customers (page numbers: 002 §2.5)',
    who: 'provider',
    size: 10,
    route: ROUTES.customers.lists.customers.build(),
    select: 'c.id',
    from: 'from customers c left join reseller_settings s on s.customer_id = c.id',
    order: 'lower(c.display_name), c.id',
    values: [],
  }),
  await offsetCase(db, {
    name: "the large customer's machines (page numbers)",
    who: 'customer',
    size: 10,
    route: ROUTES.machines.own.build(),
    select: 'm.*',
    from: 'from backup_machines m where m.customer_id = $1 and not m.being_deleted',
    order: 'lower(m.name), m.id',
    values: [large.customer_id],
  }),
];
await db.end();

await buildIfWanted();
const answers = new Answers();
const server = await startServer(answers);
const pool = new pg.Pool({ connectionString: SETTINGS.databaseUrl, max: SETTINGS.barePool });
let missed = false;
try {
  const sessions: Record<'provider' | 'customer', Session[]> = { provider: [], customer: [] };
  for (let i = 0; i < USERS; i++) {
    sessions.provider.push(await signIn(server.url, BENCH_ACCOUNTS.providerAdmin(i + 1)));
    sessions.customer.push(await signIn(server.url, BENCH_ACCOUNTS.customerAdmin(1)));
  }
  const calls = cases.flatMap((list) => POSITIONS.map((position) => ({ list, position })));
  const label = (call: (typeof calls)[number]) => `${call.list.name}: ${call.position}`;
  const samples = new Map(
    calls.map((call) => [label(call), { http: [] as number[], bare: [] as number[], offset: [] as number[] }]),
  );

  /** Every user asks for every call in turn, ITERATIONS times, back to back (the calls in a user's own order). */
  async function round(measured: boolean, iterations: number) {
    await Promise.all(
      Array.from({ length: USERS }, async (_, user) => {
        for (let i = 0; i < iterations; i++) {
          for (let c = 0; c < calls.length; c++) {
            const call = calls[(c + user * 3 + i) % calls.length];
            if (!call) continue;
            const session = sessions[call.list.who][user];
            if (!session) continue;
            const path = call.list.path(call.position);
            const started = performance.now();
            const res = await get(`${server.url}${path}`, { cookie: session.cookie, accept: 'application/json' });
            const took = performance.now() - started;
            if (!answers.http(`${label(call)} (GET ${path})`, res.status, res.body)) continue;
            if (measured) samples.get(label(call))?.http.push(took);
          }
        }
      }),
    );
  }
  /**
   * The bare SQL of every call, the same number of times and users; then the OFFSET of the keyset lists' depth,
   * OFFSET_ROUNDS times by one user (at a second or more a call, the full load of them would take the run's hour).
   */
  async function bareRound(iterations: number) {
    await Promise.all(
      Array.from({ length: USERS }, async () => {
        for (let i = 0; i < iterations; i++) {
          for (const call of calls)
            samples.get(label(call))?.bare.push(await timeBare(pool, call.list.bare(call.position)));
        }
      }),
    );
    for (let i = 0; i < OFFSET_ROUNDS; i++) {
      for (const call of calls) {
        const offset = call.list.offsetBare?.(call.position);
        if (offset) samples.get(label(call))?.offset.push(await timeBare(pool, offset));
      }
    }
  }

  await round(false, 2);
  console.log(await cpuNote());
  console.log(`load average before ${loadAverages()}`);
  await bareRound(ITERATIONS);
  await round(true, ITERATIONS);
  console.log(`load average after ${loadAverages()}`);
  if (answers.verdict('Lists')) {
    const rows = [
      [
        'list',
        'paging',
        'rows',
        'page',
        'HTTP p50',
        'HTTP p99',
        'bare p50',
        'bare p99',
        'offset p50',
        'offset p99',
        '',
      ],
    ];
    for (const call of calls) {
      const entry = samples.get(label(call));
      if (!entry) continue;
      const http = summarise(entry.http);
      const bare = summarise(entry.bare);
      const offset = summarise(entry.offset);
      const over = http.p99 > TARGET_P99_MS;
      if (over) missed = true;
      rows.push([
        `${call.list.name} (${call.list.who})`,
        call.list.paging,
        call.list.total.toLocaleString('en'),
        `${call.position} (row ${(depth(call.list.total, call.list.size, call.position) + 1).toLocaleString('en')})`,
        ms(http.p50),
        ms(http.p99),
        ms(bare.p50),
        ms(bare.p99),
        entry.offset.length ? ms(offset.p50) : '',
        entry.offset.length ? ms(offset.p99) : '',
        over ? `p99 over ${TARGET_P99_MS} ms` : '',
      ]);
    }
    console.log(
      `Lists: ${USERS} concurrent users per audience, ${ITERATIONS} rounds of every page each, back to back (ms; offset: the OFFSET of the same depth, bare, ${OFFSET_ROUNDS} rounds by one user)`,
    );
    console.log(table(rows));
    console.log(`HTTP ${answers.statusLine()}`);
    console.log(missed ? `Target missed: a p99 over ${TARGET_P99_MS} ms.` : `Every p99 within ${TARGET_P99_MS} ms.`);
  } else {
    missed = true;
  }
} finally {
  await pool.end();
  await server.stop();
}
if (missed) process.exitCode = 1;
