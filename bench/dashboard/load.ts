// The dashboard load test: 20 concurrent signed-in users open each tab's first page, sorted and
// filtered, and its pie counts, many times; p50/p95/p99 per call and audience, through the built server
// (HTTP) and as bare SQL of the same page over a pg pool of the server's size, in the same run.
//
//   npx tsx bench/dashboard/load.ts               build (unless BENCH_BUILD=0), start the server, measure
//   npx tsx bench/dashboard/load.ts --bare-only   only the bare SQL half (no server)
//   npx tsx bench/dashboard/short.ts              the short form: a small seed of its own, a few seconds of load
//
// Each user gets a fixed, seeded sequence of tab visits; the HTTP and the bare half replay the same
// sequences, and the HTTP answers' totals and row ids are compared with the bare query's. Every HTTP answer is
// counted by status: one that is not 2xx (or an error the server logs) fails the run, and no figures are printed.

import {
  CUSTOMER_SORT_COLUMNS,
  type CustomerStatusGroup,
  DASHBOARD_PAGE_SIZE,
  MACHINE_SORT_COLUMNS,
  ROUTES,
  TASK_SORT_COLUMNS,
} from '@portal/domain';
import pg from 'pg';
import { Random } from '../../apps/server/src/demo/random.js';
import { Answers } from '../answers.js';
import {
  BENCH_ACCOUNTS,
  BENCH_SEATS,
  connect,
  cpuNote,
  ms,
  SETTINGS,
  type Summary,
  summarise,
  table,
} from './common.js';
import { markerIsCurrent, readMarker } from './seed.js';
import { buildIfWanted, get, type Session, signIn, startServer } from './server.js';

type Audience = 'provider' | 'customer' | 'reseller';
type Tab = 'customers' | 'allMachines' | 'customerMachines' | 'ownMachines' | 'machineTasks';
type Kind = 'list' | 'counts';

/** Issue 33 item 5 (issue 14 asked 100 and 30 ms): p99 of each call through the server, 20 users back to back. */
const TARGET_P99: Record<Audience, number> = { provider: 50, customer: 20, reseller: 100 };
/**
 * `--short` (short.ts; the form the tests run on a small seed, on a machine shared with other tests): no p99 target,
 * and each call's HTTP median may be SHORT_MAX_HTTP_OVER_BARE_P50 times the bare SQL's. On 1,000 machines every bare
 * call takes a millisecond or two, so the server's fixed cost per request (HTTP, JSON, scheduling on a busy machine)
 * weighs several times what it does on the full seed, and more on CI, where the journeys run beside it (10x seen with
 * the machine 97 % busy): the margin catches gross regressions (a statement per row of a page), not the last 50 %:
 * the full seed's run measures the 1.5.
 */
const SHORT = process.argv.includes('--short');
const SHORT_MAX_HTTP_OVER_BARE_P50 = 20;
/** Issue 33 item 5: the median of each call through the server at most this many times the bare SQL's. */
const MAX_HTTP_OVER_BARE_P50 = SHORT ? SHORT_MAX_HTTP_OVER_BARE_P50 : 1.5;

/** One call of a tab visit: its URL and the bare SQL of the same answer. */
interface Call {
  tab: Tab;
  kind: Kind;
  path: string;
  /**
   * The bare SQL, run side by side on the pool as the server's repository does (page and total with
   * Promise.all): for a list, the page then the total; for counts, one grouped count of both pies.
   */
  sql: { text: string; values: unknown[] }[];
}

interface Visit {
  list: Call;
  counts: Call;
}

// --- What the dashboard asks for -------------------------------------------------------------------

const CUSTOMER_SORT_SQL: Record<(typeof CUSTOMER_SORT_COLUMNS)[number], string> = {
  name: 'lower(c.display_name)',
  superAdminEmail: 'lower(c.super_admin_email)',
  status: 'c.display_status',
  taskStatus: 'c.task_status',
};
const MACHINE_SORT_SQL: Record<(typeof MACHINE_SORT_COLUMNS)[number], string> = {
  name: 'lower(m.name)',
  user: 'lower(m.assigned_user_name)',
  os: 'm.os_family',
  softwareVersion: 'm.desktop_client_version',
  status: 'm.status',
  taskStatus: 'm.task_status',
};
const TASK_SORT_SQL: Record<(typeof TASK_SORT_COLUMNS)[number], string> = {
  name: 'lower(t.name)',
  schedule: 'lower(t.schedule_description)',
  status: 't.display_status',
};
const GROUP_STATUSES: Record<CustomerStatusGroup, string[]> = {
  ACTIVE: ['ACTIVE'],
  SUSPENDED_OR_BLOCKED: ['SUSPENDED', 'BLOCKED'],
  APPROVED: ['APPROVED'],
  NEW_SIGNUP: ['SIGNUP_REQUESTED'],
};

const CUSTOMER_COLUMNS = `c.id, c.display_name, c.super_admin_email, c.display_status, c.task_status,
  c.tasks_in_progress > 0 as tasks_in_progress, c.parent_reseller_customer_id,
  coalesce(r.reseller_enabled, false) as reseller_enabled`;
const MACHINE_COLUMNS = `m.id, m.name, m.customer_id, m.backup_package_id, m.assigned_user_name, m.os_family,
  m.operating_system, m.desktop_client_version, m.status, m.task_status, m.tasks_in_progress > 0 as tasks_in_progress, m.online`;
const TASK_COLUMNS = `t.id, t.name, t.schedule_description, t.status, t.display_status, t.last_execution_missed,
  t.status_of_last_run, t.status_of_run_before_last`;

/** Which statuses a scope has, so a filter is always a pie slice the user could click. */
interface Scope {
  id: number;
  present: string[];
}

interface Universe {
  customerTaskStatuses: string[];
  customerGroups: string[];
  machineTaskStatuses: string[];
  machineStatuses: string[];
  /** Customers with machines (provider opens their machines tab). */
  customers: Scope[];
  /** Machines with tasks and their display statuses. */
  machines: Scope[];
  /** Per own customer (customer audience): its machine statuses and machines. */
  own: Map<number, { machineTaskStatuses: string[]; machineStatuses: string[]; machines: Scope[] }>;
  /** Per reseller: child customers with machines. */
  resellers: Map<number, { customers: Scope[]; taskStatuses: string[]; groups: string[] }>;
}

const ASC_DESC = ['asc', 'desc'] as const;

function customersVisit(rng: Random, u: Universe, parentId: number | null): Visit {
  const column = rng.pick(CUSTOMER_SORT_COLUMNS);
  const dir = rng.pick(ASC_DESC);
  const params = new URLSearchParams({ page: '0', size: String(DASHBOARD_PAGE_SIZE), sort: `${column},${dir}` });
  const where: string[] = [];
  const values: unknown[] = [];
  if (parentId !== null) {
    values.push(parentId);
    where.push(`c.parent_reseller_customer_id = $${values.length}`);
  }
  const scoped = parentId === null ? undefined : u.resellers.get(parentId);
  const filter = rng.pick(['none', 'none', 'taskStatus', 'statusGroup'] as const);
  if (filter === 'taskStatus') {
    const status = rng.pick(scoped?.taskStatuses ?? u.customerTaskStatuses);
    params.set('taskStatus', status);
    values.push(status);
    where.push(`c.task_status = $${values.length}`);
  } else if (filter === 'statusGroup') {
    const group = rng.pick(scoped?.groups ?? u.customerGroups) as CustomerStatusGroup;
    params.set('statusGroup', group);
    values.push(GROUP_STATUSES[group]);
    where.push(`c.display_status = any($${values.length}::customer_status[])`);
  }
  const whereSql = where.length > 0 ? `where ${where.join(' and ')}` : '';
  const scopeSql = parentId === null ? '' : 'where c.parent_reseller_customer_id = $1';
  const scopeValues = parentId === null ? [] : [parentId];
  return {
    list: {
      tab: 'customers',
      kind: 'list',
      path: `${ROUTES.dashboard.customers.build()}?${params}`,
      sql: [
        {
          text: `select ${CUSTOMER_COLUMNS} from customers c left join reseller_settings r on r.customer_id = c.id
                 ${whereSql} order by ${CUSTOMER_SORT_SQL[column]} ${dir}, c.id ${dir} limit ${DASHBOARD_PAGE_SIZE}`,
          values,
        },
        { text: `select count(*)::int as total from customers c ${whereSql}`, values },
      ],
    },
    counts: {
      tab: 'customers',
      kind: 'counts',
      path: ROUTES.dashboard.customerCounts.build(),
      sql: [
        {
          text: `select task_status, display_status, count(*)::int as n from customers c ${scopeSql} group by 1, 2`,
          values: scopeValues,
        },
      ],
    },
  };
}

function machinesVisit(
  rng: Random,
  tab: 'allMachines' | 'customerMachines' | 'ownMachines',
  customerId: number | null,
  statuses: { taskStatuses: string[]; machineStatuses: string[] },
): Visit {
  const column = rng.pick(MACHINE_SORT_COLUMNS);
  const dir = rng.pick(ASC_DESC);
  const params = new URLSearchParams({ page: '0', size: String(DASHBOARD_PAGE_SIZE), sort: `${column},${dir}` });
  const where: string[] = [];
  const values: unknown[] = [];
  if (customerId !== null) {
    values.push(customerId);
    where.push(`m.customer_id = $${values.length}`);
  }
  const filter = rng.pick(['none', 'none', 'taskStatus', 'status'] as const);
  if (filter === 'taskStatus' && statuses.taskStatuses.length > 0) {
    const status = rng.pick(statuses.taskStatuses);
    params.set('taskStatus', status);
    values.push(status);
    where.push(`m.task_status = $${values.length}`);
  } else if (filter === 'status' && statuses.machineStatuses.length > 0) {
    const status = rng.pick(statuses.machineStatuses);
    params.set('status', status);
    values.push(status);
    where.push(`m.status = $${values.length}`);
  }
  const whereSql = where.length > 0 ? `where ${where.join(' and ')}` : '';
  const path =
    tab === 'ownMachines'
      ? ROUTES.dashboard.ownMachines.build()
      : ROUTES.dashboard.customerMachines.build({ customerId: tab === 'allMachines' ? -1 : (customerId ?? -1) });
  const countsPath =
    tab === 'ownMachines'
      ? ROUTES.dashboard.ownMachineCounts.build()
      : ROUTES.dashboard.customerMachineCounts.build({ customerId: tab === 'allMachines' ? -1 : (customerId ?? -1) });
  return {
    list: {
      tab,
      kind: 'list',
      path: `${path}?${params}`,
      sql: [
        {
          text: `select ${MACHINE_COLUMNS} from backup_machines m ${whereSql}
                 order by ${MACHINE_SORT_SQL[column]} ${dir}, m.id ${dir} limit ${DASHBOARD_PAGE_SIZE}`,
          values,
        },
        { text: `select count(*)::int as total from backup_machines m ${whereSql}`, values },
      ],
    },
    counts: {
      tab,
      kind: 'counts',
      path: countsPath,
      // Every machine's pies come from the summary the database keeps (machine_status_counts), as the server's do.
      sql: [
        customerId === null
          ? {
              text: 'select task_status, status, sum(n)::int as n from machine_status_counts group by 1, 2 having sum(n) <> 0',
              values: [],
            }
          : {
              text: 'select task_status, status, count(*)::int as n from backup_machines m where m.customer_id = $1 group by 1, 2',
              values: [customerId],
            },
      ],
    },
  };
}

function tasksVisit(rng: Random, machine: Scope): Visit {
  const column = rng.pick(TASK_SORT_COLUMNS);
  const dir = rng.pick(ASC_DESC);
  const params = new URLSearchParams({ page: '0', size: String(DASHBOARD_PAGE_SIZE), sort: `${column},${dir}` });
  const values: unknown[] = [machine.id];
  const where = ['t.backup_machine_id = $1'];
  if (rng.chance(0.5) && machine.present.length > 0) {
    const status = rng.pick(machine.present);
    params.set('taskStatus', status);
    values.push(status);
    where.push(`t.display_status = $${values.length}`);
  }
  const whereSql = `where ${where.join(' and ')}`;
  return {
    list: {
      tab: 'machineTasks',
      kind: 'list',
      path: `${ROUTES.dashboard.machineTasks.build({ machineId: machine.id })}?${params}`,
      sql: [
        {
          text: `select ${TASK_COLUMNS} from backup_tasks t ${whereSql} order by ${TASK_SORT_SQL[column]} ${dir}, t.id ${dir} limit ${DASHBOARD_PAGE_SIZE}`,
          values,
        },
        { text: `select count(*)::int as total from backup_tasks t ${whereSql}`, values },
      ],
    },
    counts: {
      tab: 'machineTasks',
      kind: 'counts',
      path: ROUTES.dashboard.machineTaskCounts.build({ machineId: machine.id }),
      sql: [
        {
          text: 'select display_status, count(*)::int as n from backup_tasks t where t.backup_machine_id = $1 group by 1',
          values: [machine.id],
        },
      ],
    },
  };
}

interface User {
  audience: Audience;
  email: string;
  /** The large customer's index (customer audience): 1 is the largest. */
  seat: number;
  visits: Visit[];
}

function visitsFor(audience: Audience, seat: number, u: Universe, customerId: number, count: number): Visit[] {
  const rng = new Random(1000 * seat + (audience === 'provider' ? 1 : audience === 'customer' ? 2 : 3));
  const visits: Visit[] = [];
  for (let i = 0; i < count; i++) {
    if (audience === 'provider') {
      const tab = (['customers', 'allMachines', 'customerMachines', 'machineTasks'] as const)[i % 4];
      if (tab === 'customers') visits.push(customersVisit(rng, u, null));
      else if (tab === 'allMachines') {
        visits.push(
          machinesVisit(rng, 'allMachines', null, {
            taskStatuses: u.machineTaskStatuses,
            machineStatuses: u.machineStatuses,
          }),
        );
      } else if (tab === 'customerMachines') {
        const c = rng.pick(u.customers);
        visits.push(machinesVisit(rng, 'customerMachines', c.id, splitPresent(c.present)));
      } else visits.push(tasksVisit(rng, rng.pick(u.machines)));
    } else if (audience === 'customer') {
      const own = u.own.get(customerId);
      if (!own) throw new Error(`no data for customer ${customerId}`);
      if (i % 2 === 0) {
        visits.push(
          machinesVisit(rng, 'ownMachines', customerId, {
            taskStatuses: own.machineTaskStatuses,
            machineStatuses: own.machineStatuses,
          }),
        );
      } else visits.push(tasksVisit(rng, rng.pick(own.machines)));
    } else {
      const mine = u.resellers.get(customerId);
      if (!mine) throw new Error(`no data for reseller ${customerId}`);
      if (i % 2 === 0 || mine.customers.length === 0) visits.push(customersVisit(rng, u, customerId));
      else {
        const c = rng.pick(mine.customers);
        visits.push(machinesVisit(rng, 'customerMachines', c.id, splitPresent(c.present)));
      }
    }
  }
  return visits;
}

/** `present` of a customer scope holds 'T:<task status>' and 'S:<machine status>' entries. */
function splitPresent(present: string[]): { taskStatuses: string[]; machineStatuses: string[] } {
  return {
    taskStatuses: present.filter((p) => p.startsWith('T:')).map((p) => p.slice(2)),
    machineStatuses: present.filter((p) => p.startsWith('S:')).map((p) => p.slice(2)),
  };
}

// --- The universe: ids and present statuses, read once before measuring ------------------------------

async function readUniverse(client: pg.Client, ownCustomerIds: number[], resellerIds: number[]): Promise<Universe> {
  const values = async (query: string, params: unknown[] = []) =>
    (await client.query<{ v: string }>(query, params)).rows.map((r) => r.v);
  const scopes = async (query: string, params: unknown[] = []) =>
    (await client.query<{ id: number; present: string[] }>(query, params)).rows;
  const customerScopes = (where: string, params: unknown[]) =>
    scopes(
      `select m.customer_id as id, array_agg(distinct 'T:' || m.task_status) || array_agg(distinct 'S:' || m.status) as present
         from backup_machines m where m.customer_id in (${where}) group by 1`,
      params,
    );
  const machineScopes = (where: string, params: unknown[]) =>
    scopes(
      `select t.backup_machine_id as id, array_agg(distinct t.display_status::text) as present
         from backup_tasks t where t.backup_machine_id in (${where}) group by 1`,
      params,
    );
  const universe: Universe = {
    customerTaskStatuses: await values('select distinct task_status::text as v from customers'),
    customerGroups: [],
    machineTaskStatuses: await values('select distinct task_status::text as v from backup_machines'),
    machineStatuses: await values('select distinct status::text as v from backup_machines'),
    customers: await customerScopes(
      'select customer_id from backup_machines group by 1 order by random() limit 2000',
      [],
    ),
    machines: await machineScopes('select id from backup_machines order by random() limit 5000', []),
    own: new Map(),
    resellers: new Map(),
  };
  const groupOf = (status: string) =>
    (Object.entries(GROUP_STATUSES).find(([, list]) => list.includes(status))?.[0] ?? 'ACTIVE') as CustomerStatusGroup;
  universe.customerGroups = [
    ...new Set((await values('select distinct display_status::text as v from customers')).map(groupOf)),
  ];
  for (const id of ownCustomerIds) {
    const [scope] = await customerScopes('$1', [id]);
    const split = splitPresent(scope?.present ?? []);
    universe.own.set(id, {
      machineTaskStatuses: split.taskStatuses,
      machineStatuses: split.machineStatuses,
      machines: await machineScopes('select id from backup_machines where customer_id = $1', [id]),
    });
  }
  for (const id of resellerIds) {
    universe.resellers.set(id, {
      customers: await customerScopes('select id from customers where parent_reseller_customer_id = $1', [id]),
      taskStatuses: await values(
        'select distinct task_status::text as v from customers where parent_reseller_customer_id = $1',
        [id],
      ),
      groups: [
        ...new Set(
          (
            await values(
              'select distinct display_status::text as v from customers where parent_reseller_customer_id = $1',
              [id],
            )
          ).map(groupOf),
        ),
      ],
    });
  }
  return universe;
}

// --- Running ----------------------------------------------------------------------------------------

interface Sample {
  audience: Audience;
  seat: number;
  tab: Tab;
  kind: Kind;
  path: string;
  ms: number;
}

/** What a call answered, to compare the HTTP answer with the bare query's. */
interface Answer {
  total: number;
  ids: number[];
}

type Executor = (user: User, call: Call, index: number) => Promise<Answer | null>;

async function runUsers(users: User[], execute: Executor): Promise<{ samples: Sample[]; seconds: number }> {
  const samples: Sample[] = [];
  const started = performance.now();
  await Promise.all(
    users.map(async (user) => {
      const thinkRng = new Random(user.seat);
      // With pauses, users start at random moments of the first pause rather than all at once.
      if (SETTINGS.thinkMs > 0) await new Promise((r) => setTimeout(r, 2 * SETTINGS.thinkMs * thinkRng.next()));
      for (let i = 0; i < user.visits.length; i++) {
        const visit = user.visits[i] as Visit;
        for (const call of [visit.list, visit.counts]) {
          const t0 = performance.now();
          await execute(user, call, i);
          samples.push({
            audience: user.audience,
            seat: user.seat,
            tab: call.tab,
            kind: call.kind,
            path: call.path,
            ms: performance.now() - t0,
          });
        }
        // A user reads the page before the next tab (BENCH_THINK_MS: mean pause; 0 = back to back).
        if (SETTINGS.thinkMs > 0) await new Promise((r) => setTimeout(r, 2 * SETTINGS.thinkMs * thinkRng.next()));
      }
    }),
  );
  return { samples, seconds: (performance.now() - started) / 1000 };
}

/**
 * BENCH_BARE_LIKE_SERVER=1 (a diagnosis, not the default): before each call, the bare half also makes the
 * round trips the server makes around the page: the session, then its user (auth repo), and for a tasks
 * call the machine (dashboard repo's visibility check). The gap left to HTTP is then Node's own work.
 */
const LIKE_SERVER = process.env.BENCH_BARE_LIKE_SERVER === '1';
const SESSION_SQL = 'select * from sessions where id = $1';
const USER_SQL = `select u.id, u.email, u.first_name, u.surname, u.contact_number, u.password_hash, u.role, u.status,
  u.read_only, u.customer_id, c.company_name, c.status, c.being_deleted, c.parent_reseller_customer_id, c.unpaid_invoices,
  r.reseller_enabled from users u left join customers c on c.id = u.customer_id
  left join reseller_settings r on r.customer_id = u.customer_id where u.id = $1`;
const MACHINE_SQL = `select m.id, m.customer_id, m.backup_package_id, m.assigned_user_id, c.parent_reseller_customer_id,
  m.status, p.status, c.status from backup_machines m join customers c on c.id = m.customer_id
  join backup_packages p on p.id = m.backup_package_id where m.id = $1`;

function bareExecutor(pool: pg.Pool, answers?: Map<string, Answer>, userIds?: Map<string, number>): Executor {
  return async (user, call, index) => {
    if (LIKE_SERVER && userIds) {
      await pool.query(SESSION_SQL, ['0'.repeat(64)]);
      await pool.query(USER_SQL, [userIds.get(user.email) ?? 0]);
      if (call.tab === 'machineTasks') await pool.query(MACHINE_SQL, [call.sql[0]?.values[0]]);
    }
    const results = await Promise.all(call.sql.map((statement) => pool.query(statement.text, statement.values)));
    const [first, second] = results;
    const answer: Answer =
      call.kind === 'list'
        ? {
            ids: (first?.rows ?? []).map((r: { id: number }) => r.id),
            total: Number((second?.rows[0] as { total?: number } | undefined)?.total ?? 0),
          }
        : { ids: [], total: (first?.rows ?? []).reduce((sum: number, r: { n: number }) => sum + r.n, 0) };
    answers?.set(`${user.audience}:${user.seat}:${index}:${call.kind}`, answer);
    return answer;
  };
}

interface HttpCheck {
  totalMismatches: number;
  pageMismatches: number;
  compared: number;
  examples: string[];
}

function httpExecutor(
  sessions: Map<string, Session>,
  url: string,
  bare: Map<string, Answer>,
  check: HttpCheck,
  answers: Answers,
): Executor {
  return async (user, call, index) => {
    const session = sessions.get(user.email);
    if (!session) throw new Error(`no session for ${user.email}`);
    const res = await get(`${url}${call.path}`, { cookie: session.cookie, accept: 'application/json' });
    const name = `${user.audience} ${ENDPOINT_NAMES[call.tab]} ${call.kind}`;
    if (!answers.http(name, res.status, `GET ${call.path}: ${res.body}`)) return null;
    const result = (JSON.parse(res.body) as { result?: unknown }).result;
    const expected = bare.get(`${user.audience}:${user.seat}:${index}:${call.kind}`);
    if (!expected) return null;
    check.compared++;
    if (call.kind === 'list') {
      const page = result as { elements?: { id: number }[]; totalElements?: number };
      const ids = (page.elements ?? []).map((e) => e.id);
      if (page.totalElements !== expected.total) {
        check.totalMismatches++;
        if (check.examples.length < 5) {
          check.examples.push(`${call.path}: totalElements ${page.totalElements}, bare ${expected.total}`);
        }
      } else if (ids.join(',') !== expected.ids.join(',')) {
        check.pageMismatches++;
        if (check.examples.length < 5)
          check.examples.push(`${call.path}: ids ${ids.join(',')} vs bare ${expected.ids}`);
      }
      return { total: page.totalElements ?? -1, ids };
    }
    const counts = result as { total?: number };
    if (counts.total !== undefined && counts.total !== expected.total) {
      check.totalMismatches++;
      if (check.examples.length < 5) check.examples.push(`${call.path}: total ${counts.total}, bare ${expected.total}`);
    }
    return { total: counts.total ?? -1, ids: [] };
  };
}

// --- Report -----------------------------------------------------------------------------------------

const ENDPOINT_NAMES: Record<Tab, string> = {
  customers: 'customers tab',
  allMachines: 'all machines tab (-1)',
  customerMachines: "a customer's machines tab",
  ownMachines: 'own machines tab',
  machineTasks: "a machine's tasks tab",
};

interface Row {
  audience: Audience;
  tab: Tab;
  kind: Kind;
  http: Summary | null;
  bare: Summary;
}

function rows(bare: Sample[], http: Sample[] | null, filter: (s: Sample) => boolean = () => true): Row[] {
  const keys = [...new Set(bare.filter(filter).map((s) => `${s.audience}|${s.tab}|${s.kind}`))];
  return keys.map((key) => {
    const [audience, tab, kind] = key.split('|') as [Audience, Tab, Kind];
    const pick = (list: Sample[]) =>
      list.filter((s) => filter(s) && s.audience === audience && s.tab === tab && s.kind === kind).map((s) => s.ms);
    return { audience, tab, kind, bare: summarise(pick(bare)), http: http ? summarise(pick(http)) : null };
  });
}

function printRows(title: string, list: Row[]): boolean {
  let ok = true;
  const body = list.map((r) => {
    const target = TARGET_P99[r.audience];
    const p99 = r.http?.p99 ?? Number.NaN;
    const ratio = r.http ? r.http.p50 / r.bare.p50 : Number.NaN;
    const misses = [
      ...(p99 > target && !SHORT ? ['p99'] : []),
      ...(ratio > MAX_HTTP_OVER_BARE_P50 ? [`${MAX_HTTP_OVER_BARE_P50}x`] : []),
    ];
    const pass = r.http ? (misses.length === 0 ? 'ok' : `MISSED ${misses.join(', ')}`) : '-';
    if (r.http && misses.length > 0) ok = false;
    return [
      `${r.audience} ${ENDPOINT_NAMES[r.tab]} ${r.kind}`,
      String(r.http?.n ?? r.bare.n),
      ms(r.http?.p50 ?? Number.NaN),
      ms(r.http?.p95 ?? Number.NaN),
      ms(p99),
      ms(r.http?.max ?? Number.NaN),
      ms(r.bare.p50),
      ms(r.bare.p95),
      ms(r.bare.p99),
      ms(r.bare.max),
      Number.isNaN(ratio) ? '-' : `${ratio.toFixed(2)}x`,
      SHORT ? '-' : `${target}`,
      pass,
    ];
  });
  console.log(`\n${title}`);
  console.log(
    table([
      [
        'call',
        'n',
        'http p50',
        'p95',
        'p99',
        'max',
        'bare p50',
        'p95',
        'p99',
        'max',
        'http/bare p50',
        'p99 target',
        '',
      ],
      ...body,
    ]),
  );
  return ok;
}

/** A list call's shape: its tab, sort and which filter (not its value); counts calls by tab. */
function shapeOf(sample: Sample): string {
  const url = new URL(sample.path, 'http://bench');
  const filter = ['taskStatus', 'status', 'statusGroup'].find((name) => url.searchParams.has(name)) ?? 'no filter';
  const sort = url.searchParams.get('sort');
  return `${sample.audience} ${sample.tab} ${sample.kind}${sort ? ` sort=${sort}` : ''}${sample.kind === 'list' ? ` ${filter}` : ''}`;
}

/** The slowest call shapes by p99, with the slowest call of each (to EXPLAIN ANALYZE it). */
function printSlowest(title: string, samples: Sample[], count = 10): void {
  const groups = new Map<string, Sample[]>();
  for (const sample of samples) {
    const key = shapeOf(sample);
    groups.set(key, [...(groups.get(key) ?? []), sample]);
  }
  const ranked = [...groups]
    .map(([shape, list]) => {
      const worst = list.reduce((a, b) => (b.ms > a.ms ? b : a));
      return { shape, summary: summarise(list.map((s) => s.ms)), worst: worst.path };
    })
    .sort((a, b) => b.summary.p99 - a.summary.p99)
    .slice(0, count);
  console.log(`\n${title}`);
  console.log(
    table([
      ['shape', 'n', 'p50', 'p99', 'max', 'slowest call'],
      ...ranked.map((r) => [
        r.shape,
        String(r.summary.n),
        ms(r.summary.p50),
        ms(r.summary.p99),
        ms(r.summary.max),
        r.worst,
      ]),
    ]),
  );
}

// --- Main -------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const bareOnly = process.argv.includes('--bare-only');
  const audiences = (process.env.BENCH_AUDIENCES || 'provider,customer').split(',') as Audience[];
  const marker = await readMarker().catch(() => null);
  if (!marker) throw new Error('the benchmark database is not seeded: run npx tsx bench/dashboard/seed.ts');
  if (!markerIsCurrent(marker)) console.warn('Note: the database was seeded by another seed version or migration set.');

  const client = await connect();
  const accountIds = async (emails: string[]) =>
    (
      await client.query<{ email: string; customer_id: number }>(
        'select email, customer_id from users where email = any($1)',
        [emails],
      )
    ).rows;
  const seats = Array.from({ length: Math.min(SETTINGS.users, BENCH_SEATS) }, (_, i) => i + 1);
  const customerAccounts = await accountIds(seats.map(BENCH_ACCOUNTS.customerAdmin));
  const userIds = new Map(
    (
      await client.query<{ email: string; id: number }>('select email, id from users where email like $1', [
        'bench-%@bench.test',
      ])
    ).rows.map((r) => [r.email, r.id]),
  );
  const resellerAccounts = await accountIds([BENCH_ACCOUNTS.resellerAdmin]);
  const customerOf = new Map(customerAccounts.map((a) => [a.email, a.customer_id]));
  const resellerId = resellerAccounts[0]?.customer_id ?? 0;
  const universe = await readUniverse(client, [...customerOf.values()], resellerId ? [resellerId] : []);
  await client.end();

  const users: User[] = [];
  for (const audience of audiences) {
    for (const seat of seats) {
      const email =
        audience === 'provider'
          ? BENCH_ACCOUNTS.providerAdmin(seat)
          : audience === 'customer'
            ? BENCH_ACCOUNTS.customerAdmin(seat)
            : BENCH_ACCOUNTS.resellerAdmin;
      const customerId = audience === 'customer' ? (customerOf.get(email) ?? 0) : resellerId;
      users.push({
        audience,
        email,
        seat,
        visits: visitsFor(audience, seat, universe, customerId, SETTINGS.iterations),
      });
    }
  }
  console.log(
    `Dashboard load: ${seats.length} concurrent users per audience (${audiences.join(', ')}), ${SETTINGS.iterations} tab visits each (list + counts), ${SETTINGS.thinkMs > 0 ? `pause of ${SETTINGS.thinkMs} ms on average after each visit` : 'no pause between calls'}, bare pool ${SETTINGS.barePool} connections`,
  );
  console.log(await cpuNote());
  if (LIKE_SERVER)
    console.log("Bare calls include the server's session, user and machine look-ups (BENCH_BARE_LIKE_SERVER=1).");

  // Bare SQL first (it also records the answers the HTTP half is compared with).
  const pool = new pg.Pool({ connectionString: SETTINGS.databaseUrl, max: SETTINGS.barePool });
  const bareAnswers = new Map<string, Answer>();
  const bareSamples: Sample[] = [];
  for (const audience of audiences) {
    const group = users.filter((u) => u.audience === audience);
    await runUsers(
      group.map((u) => ({ ...u, visits: u.visits.slice(0, 5) })),
      bareExecutor(pool),
    ); // warm-up
    const run = await runUsers(group, bareExecutor(pool, bareAnswers, userIds));
    bareSamples.push(...run.samples);
    console.log(`  bare ${audience}: ${run.samples.length} calls in ${run.seconds.toFixed(1)} s`);
  }
  await pool.end();

  let httpSamples: Sample[] | null = null;
  const check: HttpCheck = { totalMismatches: 0, pageMismatches: 0, compared: 0, examples: [] };
  const answers = new Answers();
  if (!bareOnly) {
    await buildIfWanted();
    const server = await startServer(answers);
    try {
      const sessions = new Map<string, Session>();
      for (const u of users) if (!sessions.has(u.email)) sessions.set(u.email, await signIn(server.url, u.email));
      httpSamples = [];
      for (const audience of audiences) {
        const group = users.filter((u) => u.audience === audience);
        const throwaway: HttpCheck = { ...check, examples: [] };
        await runUsers(
          group.map((u) => ({ ...u, visits: u.visits.slice(0, 5) })),
          httpExecutor(sessions, server.url, new Map(), throwaway, answers),
        ); // warm-up
        const run = await runUsers(group, httpExecutor(sessions, server.url, bareAnswers, check, answers));
        httpSamples.push(...run.samples);
        console.log(
          `  http ${audience}: ${run.samples.length} calls in ${run.seconds.toFixed(1)} s (${(run.samples.length / run.seconds).toFixed(0)} req/s)`,
        );
      }
    } finally {
      await server.stop();
    }
  }
  if (!answers.verdict('Dashboard load')) return;

  const ok = printRows(
    'Latency in ms per call (20 concurrent users; http = through the server, bare = pg pool):',
    rows(bareSamples, httpSamples),
  );
  if (audiences.includes('customer') && !SHORT) {
    printRows(
      'Largest customer only (bench-customer-01, 2,000 machines):',
      rows(bareSamples, httpSamples, (s) => s.audience === 'customer' && s.seat === 1),
    );
  }
  if (process.env.BENCH_SLOWEST !== '0') {
    printSlowest('Slowest call shapes, bare SQL:', bareSamples);
    if (httpSamples) printSlowest('Slowest call shapes, HTTP:', httpSamples);
  }
  if (httpSamples) {
    console.log(
      `\nHTTP answers compared with the bare query: ${check.compared}; total differs ${check.totalMismatches}, same total but other page ${check.pageMismatches}`,
    );
    for (const e of check.examples) console.log(`  e.g. ${e}`);
    console.log(`HTTP ${answers.statusLine()}`);
    console.log(
      ok
        ? `\nAll targets met: ${SHORT ? '' : 'every p99 under its target, '}every call's HTTP median within ${MAX_HTTP_OVER_BARE_P50}x the bare SQL's.`
        : `\nSome targets MISSED (see above: ${SHORT ? '' : 'p99 over its target, or '}the HTTP median over ${MAX_HTTP_OVER_BARE_P50}x the bare SQL's).`,
    );
    if (!ok) process.exitCode = 1;
  }
}

main()
  .then(() => process.exit(process.exitCode ?? 0))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
