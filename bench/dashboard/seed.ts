// Fills a fresh PostgreSQL database with the dashboard benchmark's data set (issue targets: 10,000
// customers, 100,000 machines, 1,000,000 tasks with run history spread over every status), in minutes.
//
//   npx tsx bench/dashboard/seed.ts              drop and re-create BENCH_DATABASE_URL, migrate, seed, verify
//   npx tsx bench/dashboard/seed.ts --if-needed  do nothing when that database already holds this seed
//   npx tsx bench/dashboard/seed.ts --verify     only verify (add --full to recompute the whole read model)
//
// The read model (task display status, per-machine and per-customer counters and aggregate status) is
// computed here with the domain rules (taskDisplayStatus, countsOfTask, addCounts, aggregateFromCounts)
// and written with the rows. Columns the database keeps by trigger (super admin e-mail and name,
// assigned user name, storage location count) are left to those triggers: customers, users, storage
// locations and machines are loaded with triggers on. Only backup_tasks and task_actions are loaded with
// session_replication_role = replica, which skips their foreign key checks and their triggers: what those
// triggers keep (each task's number of backup runs, the task status pie's counts) is written here too; the
// verification afterwards checks those references and the run counts with one query each.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type AggregateCounts,
  type AggregateTaskStatus,
  addCounts,
  aggregateFromCounts,
  type CustomerStatus,
  countsOfTask,
  DAY_MS,
  EMPTY_AGGREGATE_COUNTS,
  HOUR_MS,
  type MachineStatus,
  MINUTE_MS,
  nextRunAfter,
  type OsFamily,
  type PackageStatus,
  type PaymentMethod,
  type Role,
  type RunStatus,
  type TaskDisplayStatus,
  type TaskStatus,
  type TaskStatusInput,
  taskDisplayStatus,
} from '@portal/domain';
import type pg from 'pg';
import {
  CLIENT_VERSIONS,
  EXCLUSIONS,
  FIRST_NAMES,
  MB,
  OPERATING_SYSTEMS,
  type Recipe,
  SURNAMES,
  slug,
  TIME_ZONES,
} from '../../apps/server/src/demo/data.js';
import { machineName, machineStatusIn } from '../../apps/server/src/demo/generate.js';
import {
  bytesAdded,
  type Run,
  restoreRun,
  runOutcome,
  seedCreationRun,
  taskHistory,
  taskStatusOf,
} from '../../apps/server/src/demo/history.js';
import { Random } from '../../apps/server/src/demo/random.js';
import { DEMO_SCHEDULES } from '../../apps/server/src/demo/schedule.js';
import { hashPassword } from '../../apps/server/src/features/auth/passwords.js';
import { type RawCounterRow, storedCounts } from '../../apps/server/src/features/backup-state/repo.js';
import { enrolment } from '../two-factor.js';
import {
  BENCH_ACCOUNTS,
  BENCH_SEATS,
  CopyWriter,
  connect,
  copyInto,
  copyLine,
  databaseName,
  maintenanceUrl,
  phase,
  ROOT,
  recreateDatabase,
  SETTINGS,
  seconds,
  table,
} from './common.js';

/**
 * Bumped when the generated data changes, so `--if-needed` re-seeds. 2: run history from the demo's generator; 3: the
 * provider admins enrolled in two-factor sign-in.
 */
const SEED_VERSION = 3;
const GB = 1024;

// --- Sizes ------------------------------------------------------------------------------------------

const scaled = (n: number, min = 1) => Math.max(min, Math.round(n * SETTINGS.scale));

const SIZES = {
  customers: scaled(10_000, 60),
  resellers: scaled(50, 2),
  resellerChildren: scaled(2_500, 10),
  machines: scaled(100_000, 200),
  tasks: scaled(1_000_000, 2_000),
};

/** Machines of the large customers whose admins are the single-customer audience; the first is the largest. */
const BENCH_CUSTOMER_MACHINES = [
  2000, 1500, 1200, 1000, 900, 800, 700, 600, 500, 500, 400, 400, 300, 300, 250, 250, 200, 200, 150, 150,
].map((n) => scaled(n, 2));

// --- Plan types -------------------------------------------------------------------------------------

type Theme =
  | 'SUCCESSFUL_TASKS'
  | 'FAILED_TASKS'
  | 'MISSED_TASKS'
  | 'FAILED_AND_MISSED_TASKS'
  | 'NO_COMPLETED_TASKS'
  | 'NO_RUNNABLE_TASKS'
  | 'RANDOM';

interface CustomerPlan {
  id: number;
  companyName: string;
  status: CustomerStatus;
  parentId: number | null;
  /** 1-based index among resellers, 0 for others. */
  reseller: number;
  /** 1-based index among the large benchmark customers, 0 for others. */
  bench: number;
  theme: Theme | 'MIXED';
  createdAt: Date;
  users: UserPlan[];
  packages: PackagePlan[];
  locationId: number | null;
  machines: number;
  counts: AggregateCounts;
}

interface UserPlan {
  id: number;
  customerId: number | null;
  email: string;
  firstName: string;
  surname: string;
  role: Role;
  status: 'ACTIVE' | 'INACTIVE';
  readOnly: boolean;
  createdAt: Date;
}

interface TemplatePlan {
  id: number;
  ownerId: number | null;
  name: string;
  quota: number;
  unit: 'MB' | 'GB' | 'TB';
  quotaMb: number;
  machineLimit: number;
}

interface PackagePlan {
  id: number;
  customer: CustomerPlan;
  name: string;
  status: PackageStatus;
  template: TemplatePlan | null;
  perMachineMb: number;
  parentPackageId: number | null;
  machines: number;
  upgradeRequested: boolean;
  createdAt: Date;
}

interface MachinePlan {
  id: number;
  customer: CustomerPlan;
  pkg: PackagePlan;
  userId: number | null;
  name: string;
  description: string;
  status: MachineStatus;
  os: (typeof OPERATING_SYSTEMS)[number];
  version: string;
  timeZone: string;
  theme: Theme;
  tasks: number;
  createdAt: Date;
  counts: AggregateCounts;
}

// --- Word lists -------------------------------------------------------------------------------------

const COMPANY_FIRST = [
  'Blue',
  'Northern',
  'Silver',
  'Rapid',
  'Granite',
  'Harbor',
  'Summit',
  'Cedar',
  'Atlas',
  'Crescent',
  'Pioneer',
  'Redwood',
  'Lighthouse',
  'Sterling',
  'Evergreen',
  'Oakridge',
  'Riverside',
  'Bright',
  'Golden',
  'Coastal',
  'Alpine',
  'Meridian',
  'Keystone',
  'Horizon',
  'Orchard',
  'Falcon',
  'Beacon',
  'Willow',
  'Ironwood',
  'Sapphire',
];
const COMPANY_SECOND = [
  'Logistics',
  'Dental',
  'Legal',
  'Bakery',
  'Studios',
  'Engineering',
  'Consulting',
  'Foods',
  'Motors',
  'Analytics',
  'Architects',
  'Clinic',
  'Hotels',
  'Media',
  'Systems',
  'Pharmacy',
  'Farms',
  'Builders',
  'Travel',
  'Insurance',
  'Accounting',
  'Printing',
  'Robotics',
  'Veterinary',
  'Textiles',
];
const COMPANY_SUFFIX = ['Ltd', 'Inc', 'LLC', 'GmbH', 'BV', 'Pty Ltd', '& Co', 'Group', 'Partners', ''];
const TASK_NAMES = [
  'Documents',
  'Pictures',
  'Desktop',
  'Projects',
  'Mail archive',
  'Shared drives',
  'Finance',
  'SQL backups',
  'Web sites',
  'HR',
  'Home',
  'Config',
  'Databases',
  'Photos',
  'Source code',
  'Accounts',
  'Invoices',
  'Logs',
  'Media',
  'Archive',
];

const THEME_WEIGHTS: readonly (readonly [Theme | 'MIXED', number])[] = [
  ['SUCCESSFUL_TASKS', 40],
  ['MIXED', 30],
  ['FAILED_TASKS', 9],
  ['MISSED_TASKS', 8],
  ['FAILED_AND_MISSED_TASKS', 5],
  ['NO_COMPLETED_TASKS', 5],
  ['NO_RUNNABLE_TASKS', 3],
];
const MACHINE_THEMES: readonly (readonly [Theme, number])[] = [
  ['SUCCESSFUL_TASKS', 50],
  ['FAILED_TASKS', 12],
  ['MISSED_TASKS', 10],
  ['FAILED_AND_MISSED_TASKS', 6],
  ['NO_COMPLETED_TASKS', 8],
  ['NO_RUNNABLE_TASKS', 6],
  ['RANDOM', 8],
];
const OK_POOL: readonly (readonly [Recipe, number])[] = [
  ['success', 70],
  ['warnings', 15],
  ['inProgressAfterSuccess', 3],
  ['paused', 6],
  ['awaitingSeed', 3],
  ['beingDeleted', 1],
  ['deletionFailed', 1],
];
const RANDOM_POOL: readonly (readonly [Recipe, number])[] = [
  ['success', 50],
  ['warnings', 8],
  ['failed', 10],
  ['missed', 7],
  ['never', 6],
  ['inProgressAfterSuccess', 3],
  ['inProgressAfterFailure', 2],
  ['initiatedFirst', 1],
  ['paused', 6],
  ['awaitingSeed', 3],
  ['beingDeleted', 2],
  ['deletionFailed', 2],
];
const NEVER_POOL: readonly (readonly [Recipe, number])[] = [
  ['never', 85],
  ['initiatedFirst', 10],
  ['paused', 5],
];
const STOPPED_POOL: readonly (readonly [Recipe, number])[] = [
  ['paused', 60],
  ['awaitingSeed', 25],
  ['beingDeleted', 8],
  ['deletionFailed', 7],
];
/** Package status of an active customer's main package: most are fine, some over quota, few stopped. */
const ACTIVE_PACKAGE_STATUSES: readonly (readonly [PackageStatus, number])[] = [
  ['ACTIVE', 92],
  ['OVER_QUOTA', 4],
  ['SUSPENDED', 2.5],
  ['BLOCKED', 1.5],
];
const MACHINE_PACKAGE_STATUSES: readonly PackageStatus[] = ['ACTIVE', 'OVER_QUOTA', 'SUSPENDED', 'BLOCKED'];

// --- The plan: customers, users, templates, packages, machines ---------------------------------------

class Plan {
  readonly rng = new Random(20_261_101);
  readonly now = new Date();
  readonly customers: CustomerPlan[] = [];
  readonly users: UserPlan[] = [];
  readonly templates: TemplatePlan[] = [];
  readonly packages: PackagePlan[] = [];
  readonly machines: MachinePlan[] = [];
  private readonly providerTemplates: TemplatePlan[] = [];
  private readonly resellerTemplates = new Map<number, TemplatePlan[]>();

  ago(ms: number): Date {
    return new Date(this.now.getTime() - ms);
  }

  build(): void {
    this.makeCustomers();
    this.makeUsers();
    this.makeTemplates();
    this.makePackages();
    this.allocateMachines();
    this.chooseTemplates();
    this.makeMachines();
  }

  private companyName(): string {
    const rng = this.rng;
    const suffix = rng.pick(COMPANY_SUFFIX);
    return `${rng.pick(COMPANY_FIRST)} ${rng.pick(COMPANY_SECOND)}${suffix ? ` ${suffix}` : ''}`;
  }

  private makeCustomers(): void {
    const rng = this.rng;
    const add = (c: Omit<CustomerPlan, 'id' | 'users' | 'packages' | 'locationId' | 'machines' | 'counts'>) => {
      const customer: CustomerPlan = {
        ...c,
        id: this.customers.length + 1,
        users: [],
        packages: [],
        locationId: null,
        machines: 0,
        counts: { ...EMPTY_AGGREGATE_COUNTS },
      };
      this.customers.push(customer);
      return customer;
    };
    const status = (): CustomerStatus =>
      rng.weighted<CustomerStatus>([
        ['ACTIVE', 80],
        ['SIGNUP_REQUESTED', 8],
        ['APPROVED', 4],
        ['SUSPENDED', 5],
        ['BLOCKED', 3],
      ]);
    const since = (s: CustomerStatus) =>
      s === 'SIGNUP_REQUESTED'
        ? this.ago(rng.int(2, 240) * HOUR_MS)
        : s === 'APPROVED'
          ? this.ago(rng.int(3, 30) * DAY_MS)
          : this.ago(rng.int(60, 1500) * DAY_MS);
    const resellers: CustomerPlan[] = [];
    for (let i = 1; i <= SIZES.resellers; i++) {
      resellers.push(
        add({
          companyName: `${rng.pick(COMPANY_FIRST)} Backup Services ${i}`,
          status: 'ACTIVE',
          parentId: null,
          reseller: i,
          bench: 0,
          theme: 'MIXED',
          createdAt: this.ago((1600 + i) * DAY_MS),
        }),
      );
    }
    BENCH_CUSTOMER_MACHINES.forEach((_, i) => {
      add({
        companyName: `Bench Customer ${String(i + 1).padStart(2, '0')} ${this.companyName()}`.slice(0, 50),
        status: 'ACTIVE',
        parentId: null,
        reseller: 0,
        bench: i + 1,
        theme: 'MIXED',
        createdAt: this.ago(rng.int(400, 1500) * DAY_MS),
      });
    });
    // Children go to resellers by a Zipf law: reseller 1 (the reseller audience) has the most.
    const resellerWeights = resellers.map((r, i) => [r, 1 / (i + 1)] as const);
    const others = SIZES.customers - this.customers.length;
    for (let i = 0; i < others; i++) {
      const child = i < SIZES.resellerChildren;
      const s = status();
      add({
        // Some customers are individuals: no company name, so the name column shows the super admin.
        companyName: rng.chance(0.1) ? '' : this.companyName(),
        status: s,
        parentId: child ? rng.weighted(resellerWeights).id : null,
        reseller: 0,
        bench: 0,
        theme: rng.weighted(THEME_WEIGHTS),
        createdAt: since(s),
      });
    }
  }

  private makeUsers(): void {
    const rng = this.rng;
    const person = (customer: CustomerPlan | null, role: Role, email?: string): UserPlan => {
      const firstName = rng.pick(FIRST_NAMES);
      const surname = rng.pick(SURNAMES);
      const id = this.users.length + 1;
      const user: UserPlan = {
        id,
        customerId: customer?.id ?? null,
        email:
          email ??
          `${slug(firstName)}.${slug(surname)}.${id}@${customer ? `c${customer.id}.` : ''}bench.test`.slice(0, 100),
        firstName,
        surname,
        role,
        status: email || role === 'ROLE_CUSTOMER_SUPER_ADMIN_USER' || !rng.chance(0.04) ? 'ACTIVE' : 'INACTIVE',
        readOnly: !email && role !== 'ROLE_CUSTOMER_SUPER_ADMIN_USER' && rng.chance(0.15),
        createdAt: new Date(
          Math.min(
            this.now.getTime(),
            (customer?.createdAt ?? this.ago(1700 * DAY_MS)).getTime() + rng.int(0, 20) * DAY_MS,
          ),
        ),
      };
      this.users.push(user);
      customer?.users.push(user);
      return user;
    };
    for (let n = 1; n <= BENCH_SEATS; n++) person(null, 'ROLE_BOLT_ADMIN_USER', BENCH_ACCOUNTS.providerAdmin(n));
    for (const c of this.customers) {
      const email =
        c.bench > 0
          ? BENCH_ACCOUNTS.customerAdmin(c.bench)
          : c.reseller === 1
            ? BENCH_ACCOUNTS.resellerAdmin
            : undefined;
      person(c, 'ROLE_CUSTOMER_SUPER_ADMIN_USER', email);
      if (c.status === 'SIGNUP_REQUESTED') continue;
      const admins = c.bench > 0 ? 3 : rng.int(0, 2);
      // Large customers have a user per ten machines or so, for the machines' User column.
      const plain = c.bench > 0 ? Math.ceil((BENCH_CUSTOMER_MACHINES[c.bench - 1] ?? 10) / 10) : rng.int(0, 3);
      for (let i = 0; i < admins; i++) person(c, 'ROLE_CUSTOMER_ADMIN_USER');
      for (let i = 0; i < plain; i++) person(c, 'ROLE_CUSTOMER_USER');
    }
  }

  private makeTemplates(): void {
    const add = (
      ownerId: number | null,
      name: string,
      quota: number,
      unit: 'MB' | 'GB' | 'TB',
      machineLimit: number,
    ) => {
      const t: TemplatePlan = {
        id: this.templates.length + 1,
        ownerId,
        name,
        quota,
        unit,
        quotaMb: quota * (unit === 'MB' ? 1 : unit === 'GB' ? GB : GB * GB),
        machineLimit,
      };
      this.templates.push(t);
      return t;
    };
    this.providerTemplates.push(
      add(null, 'Trial 750 MB', 750, 'MB', 1),
      add(null, 'Starter 50 GB', 50, 'GB', 2),
      add(null, 'Business 500 GB', 500, 'GB', 10),
      add(null, 'Professional 2 TB', 2, 'TB', 25),
      add(null, 'Enterprise 10 TB', 10, 'TB', 0),
      add(null, 'Reseller 20 TB', 20, 'TB', 0),
    );
    for (const r of this.customers.filter((c) => c.reseller > 0)) {
      this.resellerTemplates.set(r.id, [
        add(r.id, 'Mini 500 MB', 500, 'MB', 1),
        add(r.id, 'Basic 100 GB', 100, 'GB', 5),
        add(r.id, 'Pro 1 TB', 1, 'TB', 20),
        add(r.id, 'Unlimited 5 TB', 5, 'TB', 0),
      ]);
    }
  }

  private makePackages(): void {
    const rng = this.rng;
    const add = (customer: CustomerPlan, name: string, status: PackageStatus) => {
      const p: PackagePlan = {
        id: this.packages.length + 1,
        customer,
        name,
        status,
        template: null,
        perMachineMb: 0,
        parentPackageId: null,
        machines: 0,
        upgradeRequested: false,
        createdAt: new Date(customer.createdAt.getTime() + rng.int(0, 3) * DAY_MS),
      };
      this.packages.push(p);
      customer.packages.push(p);
      return p;
    };
    const wholesale = new Map<number, PackagePlan>();
    let locationId = 0;
    let suspendedIndex = 0;
    for (const c of this.customers) {
      if (c.status !== 'SIGNUP_REQUESTED') c.locationId = ++locationId;
      if (c.reseller > 0) {
        wholesale.set(c.id, add(c, 'Wholesale storage', 'ACTIVE'));
        continue;
      }
      if (c.bench > 0) {
        add(c, 'Head office', 'ACTIVE');
        add(c, 'Servers', 'ACTIVE');
        continue;
      }
      switch (c.status) {
        case 'SIGNUP_REQUESTED':
          add(c, 'Requested package', 'REQUESTED');
          break;
        case 'APPROVED':
          add(c, 'Main', 'APPROVED');
          break;
        case 'BLOCKED':
          add(c, 'Main', 'BLOCKED');
          break;
        case 'SUSPENDED':
          add(c, 'Main', suspendedIndex++ % 2 === 0 ? 'ACTIVE' : 'SUSPENDED');
          break;
        case 'ACTIVE':
          add(c, 'Main', rng.weighted(ACTIVE_PACKAGE_STATUSES));
          if (rng.chance(0.3)) add(c, rng.pick(['Servers', 'Laptops', 'Branch office']), 'ACTIVE');
          if (rng.chance(0.1)) add(c, 'Extra storage', 'REQUESTED');
          break;
      }
    }
    for (const p of this.packages) {
      if (p.customer.parentId !== null && p.status !== 'REQUESTED') {
        p.parentPackageId = wholesale.get(p.customer.parentId)?.id ?? null;
      }
    }
  }

  /** Spreads the machines: fixed sizes for the large customers, a long-tailed draw for everyone else. */
  private allocateMachines(): void {
    const rng = this.rng;
    const machinePackages = (c: CustomerPlan) => c.packages.filter((p) => MACHINE_PACKAGE_STATUSES.includes(p.status));
    let remaining = SIZES.machines;
    for (const c of this.customers) {
      if (c.bench === 0) continue;
      c.machines = Math.min(remaining, BENCH_CUSTOMER_MACHINES[c.bench - 1] ?? 0);
      remaining -= c.machines;
    }
    const eligible = this.customers.filter((c) => c.bench === 0 && c.reseller === 0 && machinePackages(c).length > 0);
    const weights = eligible.map(() => Math.exp(1.1 * rng.gaussian()));
    const total = weights.reduce((a, b) => a + b, 0);
    let given = 0;
    eligible.forEach((c, i) => {
      c.machines = Math.max(1, Math.floor(((weights[i] ?? 0) / total) * remaining));
      given += c.machines;
    });
    while (given < remaining) {
      const c = rng.pick(eligible);
      c.machines++;
      given++;
    }
    while (given > remaining) {
      const c = rng.pick(eligible);
      if (c.machines > 1) {
        c.machines--;
        given--;
      }
    }
    for (const c of this.customers) {
      const pkgs = machinePackages(c);
      if (pkgs.length === 0) continue;
      // The main package takes most machines.
      for (let i = 0; i < c.machines; i++) {
        const p = pkgs.length > 1 && rng.chance(0.3) ? (pkgs[1] as PackagePlan) : (pkgs[0] as PackagePlan);
        p.machines++;
      }
    }
  }

  /** The smallest offered template whose machine limit fits the package's machines. */
  private chooseTemplates(): void {
    const rng = this.rng;
    for (const p of this.packages) {
      const c = p.customer;
      if (c.reseller > 0) {
        p.template = this.providerTemplates.find((t) => t.name === 'Reseller 20 TB') ?? null;
      } else {
        const offered =
          c.parentId === null
            ? this.providerTemplates.filter((t) => t.name !== 'Reseller 20 TB')
            : (this.resellerTemplates.get(c.parentId) ?? []);
        const fitting = offered.filter((t) => t.machineLimit === 0 || t.machineLimit >= Math.max(1, p.machines));
        // Not always the smallest: some customers buy more than they use.
        p.template = (rng.chance(0.7) ? fitting[0] : rng.pick(fitting)) ?? null;
      }
      const quotaMb = p.template?.quotaMb ?? 100 * GB;
      // About half the packages limit each machine to a share of the quota.
      p.perMachineMb =
        rng.chance(0.5) && quotaMb >= 4 * GB ? Math.max(GB, Math.floor(quotaMb / Math.max(2, p.machines))) : quotaMb;
      p.upgradeRequested = p.status === 'ACTIVE' && c.reseller === 0 && rng.chance(0.05);
    }
  }

  private makeMachines(): void {
    const rng = this.rng;
    const byCustomerUsers = (c: CustomerPlan) => c.users.filter((u) => u.role !== 'ROLE_CUSTOMER_ADMIN_USER');
    for (const p of this.packages) {
      if (p.machines === 0) continue;
      const c = p.customer;
      const users = byCustomerUsers(c);
      const prefix = (slug(c.companyName || 'pc').split('-')[0] ?? 'pc').toUpperCase().slice(0, 8) || 'PC';
      for (let i = 0; i < p.machines; i++) {
        const os = rng.weighted(OPERATING_SYSTEMS.map((o) => [o, o.weight] as const));
        const user = rng.chance(0.03) ? null : rng.pick(users);
        const number = String(rng.int(1, 9999)).padStart(4, '0');
        const name = machineName(rng, os, prefix, user?.firstName ?? 'Shared', number, [
          'web',
          'db',
          'app',
          'files',
          'mail',
        ]);
        const status = machineStatusIn(
          rng,
          { status: p.status, perMachineLimited: p.perMachineMb < (p.template?.quotaMb ?? 0) },
          [
            ['ACTIVE', 92],
            ['SUSPENDED', 2],
            ['OVER_PER_MACHINE_QUOTA', 5],
            ['BLOCKED', 1],
          ],
        );
        const theme = c.theme === 'MIXED' ? rng.weighted(MACHINE_THEMES) : c.theme;
        this.machines.push({
          id: this.machines.length + 1,
          customer: c,
          pkg: p,
          userId: user?.id ?? null,
          name,
          description: os.server ? `${rng.pick(['File', 'Application', 'Web', 'Database'])} server` : 'Workstation',
          status,
          os,
          version: rng.pick(CLIENT_VERSIONS),
          timeZone: rng.pick(TIME_ZONES),
          theme,
          tasks: 0,
          createdAt: new Date(
            Math.max(c.createdAt.getTime() + HOUR_MS, this.now.getTime() - rng.int(30, 900) * DAY_MS),
          ),
          counts: { ...EMPTY_AGGREGATE_COUNTS },
        });
      }
    }
    // Tasks per machine: 0 to 19 (a few machines have none yet), adjusted to the exact total.
    let total = 0;
    for (const m of this.machines) {
      m.tasks = rng.chance(0.03) ? 0 : rng.int(1, 19);
      total += m.tasks;
    }
    while (total < SIZES.tasks) {
      const m = rng.pick(this.machines);
      if (m.tasks > 0 && m.tasks < 30) {
        m.tasks++;
        total++;
      }
    }
    while (total > SIZES.tasks) {
      const m = rng.pick(this.machines);
      if (m.tasks > 1) {
        m.tasks--;
        total--;
      }
    }
  }
}

// --- Tasks and their runs ---------------------------------------------------------------------------

/** Tasks of a machine: recipes that give the machine its theme, in a shuffled order. */
function recipesFor(rng: Random, theme: Theme, n: number): Recipe[] {
  const from = (pool: readonly (readonly [Recipe, number])[]) => Array.from({ length: n }, () => rng.weighted(pool));
  if (n === 0) return [];
  let recipes: Recipe[];
  switch (theme) {
    case 'SUCCESSFUL_TASKS':
      return from(OK_POOL);
    case 'NO_COMPLETED_TASKS':
      return from(NEVER_POOL);
    case 'NO_RUNNABLE_TASKS':
      return from(STOPPED_POOL);
    case 'RANDOM':
      return from(RANDOM_POOL);
    case 'FAILED_TASKS':
      recipes = from(OK_POOL);
      for (let i = rng.int(1, Math.min(3, n)); i > 0; i--)
        recipes[i - 1] = rng.chance(0.2) ? 'inProgressAfterFailure' : 'failed';
      break;
    case 'MISSED_TASKS':
      recipes = from(OK_POOL);
      for (let i = rng.int(1, Math.min(2, n)); i > 0; i--) recipes[i - 1] = 'missed';
      break;
    case 'FAILED_AND_MISSED_TASKS':
      recipes = from(OK_POOL);
      recipes[0] = 'failed';
      if (n > 1) recipes[1] = 'missed';
      break;
  }
  for (let i = recipes.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [recipes[i], recipes[j]] = [recipes[j] as Recipe, recipes[i] as Recipe];
  }
  return recipes;
}

/** Cheap deterministic 64-hex-digit snapshot ids from the action id. */
function snapshotId(id: number): string {
  let out = '';
  let h = id >>> 0;
  for (let i = 0; i < 8; i++) {
    h = Math.imul(h ^ (h >>> 16), 0x45d9f3b) + i * 0x9e3779b9;
    h = Math.imul(h ^ (h >>> 13), 0x45d9f3b);
    h ^= h >>> 16;
    out += (h >>> 0).toString(16).padStart(8, '0');
  }
  return out;
}

const itemPath = (family: OsFamily, name: string) =>
  family === 'WINDOWS' ? `C:\\Data\\${name}` : family === 'MAC' ? `/Users/shared/${name}` : `/srv/${slug(name)}`;

// --- Loading ----------------------------------------------------------------------------------------

const CUSTOMER_COLUMNS = [
  'id',
  'company_name',
  'status',
  'parent_reseller_customer_id',
  'whmcs_server_id',
  'whmcs_client_id',
  'payment_method',
  'allow_provider_machine_control',
  'first_payment_required',
  'unpaid_invoices',
  'created_at',
];
const COUNTER_COLUMNS = [
  'tasks_failed',
  'tasks_missed',
  'tasks_successful',
  'tasks_never_run',
  'tasks_ignored',
  'tasks_in_progress',
  'task_status',
];
const counterValues = (c: AggregateCounts): (number | AggregateTaskStatus)[] => [
  c.failed,
  c.missed,
  c.successful,
  c.neverRun,
  c.ignored,
  c.inProgress,
  aggregateFromCounts(c),
];
const TASK_COLUMNS = [
  'id',
  'backup_machine_id',
  'customer_id',
  'backup_package_id',
  'name',
  'type',
  'status',
  'schedule_cron',
  'schedule_description',
  'snapshots_enabled',
  'number_of_snapshots_to_keep',
  'sync_deletions',
  'volume_snapshots_enabled',
  'backup_items',
  'exclusions',
  'create_seed',
  'path_to_seed_disk',
  'status_of_last_run',
  'status_of_run_before_last',
  'last_execution_missed',
  'next_run_at',
  'display_status',
  'number_of_backup_runs',
  'version',
  'created_at',
];
const ACTION_COLUMNS = [
  'id',
  'backup_task_id',
  'backup_machine_id',
  'type',
  'status',
  'time_started',
  'time_finished',
  'transfer_progress_percentage',
  'current_transfer',
  'total_transfers',
  'phase',
  'failure_message',
  'exit_code_result',
  'restic_snapshot_id',
  'bytes_added',
  'bytes_total',
  'snapshots_available',
];
const MACHINE_COLUMNS = [
  'id',
  'customer_id',
  'backup_package_id',
  'assigned_user_id',
  'name',
  'description',
  'status',
  'os_family',
  'operating_system',
  'desktop_client_version',
  'time_zone',
  'ip_address',
  'online',
  'last_seen_at',
  'used_space_bytes',
  'created_at',
  ...COUNTER_COLUMNS,
];

/** Tables whose rows are given explicit ids, whose sequences are moved past them afterwards. */
const ID_TABLES = [
  'billing_servers',
  'storage_accounts',
  'customers',
  'users',
  'package_templates',
  'buckets',
  'storage_locations',
  'backup_packages',
  'backup_machines',
  'backup_tasks',
  'task_actions',
];
const BULK_TABLES = ['backup_machines', 'backup_tasks', 'task_actions'];

async function loadBase(client: pg.Client, plan: Plan, passwordHash: string): Promise<void> {
  const rng = plan.rng;
  await client.query(`insert into billing_servers (id, description, whmcs_host, whmcs_identifier, whmcs_secret_encrypted)
    values (1, 'WHMCS billing (bench)', 'billing.bench.test', 'bench', 'not-a-secret')`);
  await client.query(`insert into storage_accounts (id, name, type, default_storage_account)
    values (1, 'Embedded storage', 'LOCAL', true)`);
  const payment: readonly PaymentMethod[] = ['stripe', 'payfast', 'banktransfer'];
  await copyInto(
    client,
    'customers',
    CUSTOMER_COLUMNS,
    plan.customers.map((c) => {
      const direct = c.parentId === null;
      return copyLine([
        c.id,
        c.companyName,
        c.status,
        c.parentId,
        direct ? 1 : null,
        direct ? 1000 + c.id : null,
        direct ? rng.pick(payment) : 'banktransfer',
        !direct && rng.chance(0.5),
        direct && (c.status === 'SIGNUP_REQUESTED' || c.status === 'APPROVED'),
        c.status === 'BLOCKED' ? rng.int(2, 4) : c.status === 'ACTIVE' && rng.chance(0.05) ? 1 : 0,
        c.createdAt,
      ]);
    }),
  );
  await copyInto(
    client,
    'users',
    [
      'id',
      'customer_id',
      'email',
      'first_name',
      'surname',
      'contact_number',
      'password_hash',
      'role',
      'status',
      'read_only',
      'created_at',
    ],
    plan.users.map((u) =>
      copyLine([
        u.id,
        u.customerId,
        u.email,
        u.firstName,
        u.surname,
        `+27 21 555 ${String(1000 + (u.id % 9000))}`,
        passwordHash,
        u.role,
        u.status,
        u.readOnly,
        u.createdAt,
      ]),
    ),
  );
  // Provider admins must use two-factor sign-in: enrolled with the key the benchmarks sign in with (two-factor.ts).
  await copyInto(
    client,
    'user_mfa',
    ['user_id', 'secret_sealed', 'enabled_at'],
    plan.users
      .filter((u) => u.role === 'ROLE_BOLT_ADMIN_USER')
      .map((u) => {
        const row = enrolment(u.id, u.email);
        return copyLine([row.userId, row.secretSealed, row.enabledAt]);
      }),
  );
  // The trigger copies each super admin's e-mail and name onto the customer.
  await client.query(`update customers c set super_admin_user_id = u.id from users u
    where u.customer_id = c.id and u.role = 'ROLE_CUSTOMER_SUPER_ADMIN_USER'`);
  const resellers = plan.customers.filter((c) => c.reseller > 0);
  await copyInto(
    client,
    'reseller_settings',
    ['customer_id', 'reseller_enabled', 'brand_name', 'custom_url', 'support_email_address', 'send_from_email_address'],
    resellers.map((r) =>
      copyLine([
        r.id,
        true,
        `Backup brand ${r.reseller}`,
        `backup-${r.reseller}.bench.test`,
        `support@r${r.reseller}.bench.test`,
        `no-reply@r${r.reseller}.bench.test`,
      ]),
    ),
  );
  await copyInto(
    client,
    'package_templates',
    ['id', 'owner_customer_id', 'name', 'storage_quota', 'storage_quota_unit', 'no_of_machines_limit', 'created_at'],
    plan.templates.map((t) =>
      copyLine([t.id, t.ownerId, t.name, t.quota, t.unit, t.machineLimit, plan.ago(1700 * DAY_MS)]),
    ),
  );
  const located = plan.customers.filter((c) => c.locationId !== null);
  await copyInto(
    client,
    'buckets',
    ['id', 'storage_account_id', 'name', 'managed', 'customer_id', 'created_at'],
    located.map((c) =>
      copyLine([
        c.locationId,
        1,
        `c${c.id}-${slug(c.companyName || 'customer')}`.slice(0, 63),
        true,
        c.id,
        c.createdAt,
      ]),
    ),
  );
  // The trigger counts each customer's locations.
  await copyInto(
    client,
    'storage_locations',
    ['id', 'customer_id', 'bucket_id', 'default_for_customer', 'created_at'],
    located.map((c) => copyLine([c.locationId, c.id, c.locationId, true, c.createdAt])),
  );
  let serviceId = 5000;
  await copyInto(
    client,
    'backup_packages',
    [
      'id',
      'customer_id',
      'name',
      'status',
      'template_id',
      'package_quota_size_in_bytes',
      'max_backup_size_per_machine_in_mbs',
      'no_of_machines_limit',
      'storage_location_id',
      'parent_reseller_package_id',
      'up_or_down_grade_requested',
      'whmcs_service_id',
      'created_at',
    ],
    plan.packages.map((p) =>
      copyLine([
        p.id,
        p.customer.id,
        p.name,
        p.status,
        p.template?.id ?? null,
        (p.template?.quotaMb ?? 0) * MB,
        p.perMachineMb,
        p.template?.machineLimit ?? 0,
        p.status === 'REQUESTED' ? null : p.customer.locationId,
        p.parentPackageId,
        p.upgradeRequested,
        p.customer.parentId === null && p.status !== 'REQUESTED' ? serviceId++ : null,
        p.createdAt,
      ]),
    ),
  );
  const requests: string[] = [];
  for (const c of plan.customers) {
    const superAdmin = c.users.find((u) => u.role === 'ROLE_CUSTOMER_SUPER_ADMIN_USER');
    c.packages.forEach((p, index) => {
      const first = index === 0 && c.reseller === 0;
      if (!first && p.status !== 'REQUESTED') return;
      const pending = p.status === 'REQUESTED';
      requests.push(
        copyLine([
          c.id,
          first ? 'NEW_SIGNUP' : 'ADDITIONAL_PACKAGE',
          pending ? 'PENDING' : 'APPROVED',
          p.id,
          p.template?.id ?? null,
          superAdmin?.id ?? null,
          first,
          c.createdAt,
          pending ? null : new Date(c.createdAt.getTime() + rng.int(1, 30) * HOUR_MS),
        ]),
      );
    });
  }
  await copyInto(
    client,
    'package_requests',
    [
      'customer_id',
      'request_type',
      'status',
      'backup_package_id',
      'requested_template_id',
      'requested_by_user_id',
      'first_approval_request',
      'created_at',
      'decided_at',
    ],
    requests,
  );
  const links: string[] = [];
  for (const c of plan.customers) {
    for (const u of c.users) {
      if (u.role === 'ROLE_CUSTOMER_SUPER_ADMIN_USER') continue;
      for (const p of c.packages) if (p.status !== 'REQUESTED') links.push(copyLine([u.id, p.id]));
    }
  }
  await copyInto(client, 'user_backup_packages', ['user_id', 'backup_package_id'], links);
}

interface Loaded {
  tasks: number;
  actions: number;
  displayStatuses: Map<TaskDisplayStatus, number>;
}

/**
 * Generates every machine's tasks and runs and copies them, while adding each task's counts (domain
 * countsOfTask) to its machine and customer. Two connections load tasks and actions side by side.
 */
async function loadTasks(plan: Plan, taskClient: pg.Client, actionClient: pg.Client): Promise<Loaded> {
  const rng = plan.rng;
  const now = plan.now.getTime();
  for (const client of [taskClient, actionClient]) {
    await client.query('set session_replication_role = replica');
    await client.query('set synchronous_commit = off');
  }
  const tasks = new CopyWriter(taskClient, 'backup_tasks', TASK_COLUMNS);
  const actions = new CopyWriter(actionClient, 'task_actions', ACTION_COLUMNS, 60_000);
  const displayStatuses = new Map<TaskDisplayStatus, number>();
  const nextRuns = new Map<string, Date | null>();
  const nextRun = (cron: string, zone: string) => {
    const key = `${cron}|${zone}`;
    if (!nextRuns.has(key)) nextRuns.set(key, nextRunAfter(cron, plan.now, zone));
    return nextRuns.get(key) ?? null;
  };
  let taskId = 0;
  let actionId = 0;
  for (const m of plan.machines) {
    const recipes = recipesFor(rng, m.theme, m.tasks);
    const family = m.os.family;
    for (let i = 0; i < recipes.length; i++) {
      const recipe = recipes[i] as Recipe;
      const schedule = rng.pick(DEMO_SCHEDULES);
      const { runs, createdAt } = taskHistory(rng, now, recipe, schedule, { kind: 'fast' });
      const status = taskStatusOf(recipe);
      const last = runs.at(-1);
      const beforeLast = runs.at(-2);
      const input: TaskStatusInput = {
        status,
        lastExecutionMissed: recipe === 'missed',
        statusOfLastRun: last?.status ?? null,
        statusOfRunBeforeLast: beforeLast?.status ?? null,
        machineStatus: m.status,
        packageStatus: m.pkg.status,
        customerStatus: m.customer.status,
      };
      const display = taskDisplayStatus(input);
      const counts = countsOfTask(input);
      m.counts = addCounts(m.counts, counts);
      displayStatuses.set(display, (displayStatuses.get(display) ?? 0) + 1);
      const baseName = TASK_NAMES[(i + m.id) % TASK_NAMES.length] as string;
      const name = i < TASK_NAMES.length ? baseName : `${baseName} ${Math.floor(i / TASK_NAMES.length) + 1}`;
      const snapshots = rng.chance(0.75);
      const id = ++taskId;
      await tasks.add([
        id,
        m.id,
        m.customer.id,
        m.pkg.id,
        name,
        'FILES_AND_FOLDERS',
        status,
        schedule.cron,
        schedule.description,
        snapshots,
        snapshots ? rng.pick([-1, -1, 4, 8, 12]) : 0,
        rng.chance(0.25),
        family === 'WINDOWS' && rng.chance(0.5),
        [{ path: itemPath(family, baseName), name: baseName, type: 'DIRECTORY', missing: rng.chance(0.02) }],
        rng.chance(0.5) ? EXCLUSIONS[family].slice(0, rng.int(1, 3)) : [],
        recipe === 'awaitingSeed',
        recipe === 'awaitingSeed' ? (family === 'WINDOWS' ? 'E:\\BackupSeed' : '/media/seed') : null,
        input.statusOfLastRun,
        input.statusOfRunBeforeLast,
        input.lastExecutionMissed,
        status === 'ACTIVE' ? nextRun(schedule.cron, m.timeZone) : null,
        display,
        runs.filter((run) => run.type === 'BACKUP_RUN').length, // the seed and restore runs come after
        rng.int(1, 4),
        new Date(createdAt),
      ]);
      const restore = restoreRun(rng, now, runs, 0.04);
      if (recipe === 'awaitingSeed') runs.push(seedCreationRun(rng, now));
      if (restore) runs.push(restore);
      const bytes = rng.int(50, 40_000) * MB;
      for (let r = 0; r < runs.length; r++) {
        const run = runs[r] as Run;
        const outcome = runOutcome(rng, run.status);
        const done = outcome.done;
        const aid = ++actionId;
        await actions.add([
          aid,
          id,
          m.id,
          run.type,
          run.status,
          new Date(run.start),
          run.finish === null ? null : new Date(run.finish),
          outcome.transferProgressPercentage,
          done ? 1 : 0,
          1,
          outcome.phase,
          outcome.failureMessage,
          outcome.exitCodeResult,
          run.type === 'BACKUP_RUN' && done ? snapshotId(aid) : null,
          done ? bytesAdded(rng, r === 0, bytes) : null,
          done ? bytes : null,
          run.type === 'BACKUP_RUN' && done && snapshots,
        ]);
      }
    }
    m.customer.counts = addCounts(m.customer.counts, m.counts);
  }
  await Promise.all([tasks.end(), actions.end()]);
  return { tasks: taskId, actions: actionId, displayStatuses };
}

async function loadMachines(client: pg.Client, plan: Plan): Promise<void> {
  const rng = plan.rng;
  const now = plan.now.getTime();
  // The triggers copy each assigned user's full name onto the machine and count it in machine_status_counts.
  await copyInto(
    client,
    'backup_machines',
    MACHINE_COLUMNS,
    plan.machines.map((m) =>
      copyLine([
        m.id,
        m.customer.id,
        m.pkg.id,
        m.userId,
        m.name,
        m.description,
        m.status,
        m.os.family,
        m.os.name,
        m.version,
        m.timeZone,
        `198.51.100.${rng.int(2, 254)}`,
        false,
        new Date(now - rng.int(0, 72 * 60) * MINUTE_MS),
        m.status === 'OVER_PER_MACHINE_QUOTA'
          ? Math.floor(m.pkg.perMachineMb * MB * 1.05)
          : Math.floor(m.pkg.perMachineMb * MB * (rng.int(1, 45) / 100)),
        m.createdAt,
        ...counterValues(m.counts),
      ]),
    ),
  );
  // Customers were copied before their tasks existed: now their counters.
  const cs = plan.customers;
  const column = (f: (c: CustomerPlan) => number | string) => cs.map(f);
  await client.query(
    `update customers c set tasks_failed = v.failed, tasks_missed = v.missed, tasks_successful = v.successful,
       tasks_never_run = v.never_run, tasks_ignored = v.ignored, tasks_in_progress = v.in_progress,
       task_status = v.task_status::aggregate_task_status
     from unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::int[], $6::int[], $7::int[], $8::text[])
       as v(id, failed, missed, successful, never_run, ignored, in_progress, task_status)
     where c.id = v.id`,
    [
      column((c) => c.id),
      column((c) => c.counts.failed),
      column((c) => c.counts.missed),
      column((c) => c.counts.successful),
      column((c) => c.counts.neverRun),
      column((c) => c.counts.ignored),
      column((c) => c.counts.inProgress),
      column((c) => aggregateFromCounts(c.counts)),
    ],
  );
}

/** Drops the tables' secondary indexes (not those behind constraints) and returns how to re-create them. */
async function dropSecondaryIndexes(client: pg.Client, tables: readonly string[]): Promise<string[]> {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
       from pg_index i join pg_class t on t.oid = i.indrelid
      where t.relname = any($1) and t.relnamespace = 'public'::regnamespace
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
      order by 1`,
    [tables],
  );
  for (const row of rows) await client.query(`drop index ${row.name}`);
  return rows.map((r) => r.definition);
}

// --- Marker: which seed a database holds ------------------------------------------------------------

interface SeedMarker {
  seedVersion: number;
  scale: number;
  migrations: string;
  seededAt: string;
  counts: Record<string, number>;
}

function migrationsHash(): string {
  const dir = join(ROOT, 'apps/server/drizzle');
  const hash = createHash('sha256');
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort())
    hash.update(readFileSync(join(dir, file)));
  return hash.digest('hex').slice(0, 16);
}

export async function readMarker(url = SETTINGS.databaseUrl): Promise<SeedMarker | null> {
  const admin = await connect(maintenanceUrl(url));
  try {
    const { rows } = await admin.query<{ comment: string | null }>(
      `select shobj_description(oid, 'pg_database') as comment from pg_database where datname = $1`,
      [databaseName(url)],
    );
    const comment = rows[0]?.comment;
    if (!comment) return null;
    try {
      return JSON.parse(comment) as SeedMarker;
    } catch {
      return null;
    }
  } finally {
    await admin.end();
  }
}

export function markerIsCurrent(marker: SeedMarker | null): boolean {
  return (
    marker !== null &&
    marker.seedVersion === SEED_VERSION &&
    marker.scale === SETTINGS.scale &&
    marker.migrations === migrationsHash()
  );
}

// --- Verification -----------------------------------------------------------------------------------

interface TaskRow {
  id: number;
  machine_id: number;
  customer_id: number;
  status: TaskStatus;
  last_execution_missed: boolean;
  status_of_last_run: RunStatus | null;
  status_of_run_before_last: RunStatus | null;
  display_status: TaskDisplayStatus;
  machine_status: MachineStatus;
  package_status: PackageStatus;
  customer_status: CustomerStatus;
}

interface CounterRow extends RawCounterRow {
  task_status: AggregateTaskStatus;
}

const TASK_INPUT_SQL = `select t.id, t.backup_machine_id as machine_id, m.customer_id, t.status, t.last_execution_missed,
    t.status_of_last_run, t.status_of_run_before_last, t.display_status,
    m.status as machine_status, p.status as package_status, c.status as customer_status
  from backup_tasks t
  join backup_machines m on m.id = t.backup_machine_id
  join backup_packages p on p.id = m.backup_package_id
  join customers c on c.id = m.customer_id`;

const sameCounts = (a: AggregateCounts, b: AggregateCounts) =>
  a.failed === b.failed &&
  a.missed === b.missed &&
  a.successful === b.successful &&
  a.neverRun === b.neverRun &&
  a.ignored === b.ignored &&
  a.inProgress === b.inProgress;

/** Recomputes the read model of the given tasks' owners with the domain rules and compares. */
function compare(
  tasks: readonly TaskRow[],
  owners: readonly CounterRow[],
  ownerOf: (t: TaskRow) => number,
  label: string,
): string[] {
  const problems: string[] = [];
  const computed = new Map<number, AggregateCounts>(owners.map((o) => [o.id, { ...EMPTY_AGGREGATE_COUNTS }]));
  for (const t of tasks) {
    const input: TaskStatusInput = {
      status: t.status,
      lastExecutionMissed: t.last_execution_missed,
      statusOfLastRun: t.status_of_last_run,
      statusOfRunBeforeLast: t.status_of_run_before_last,
      machineStatus: t.machine_status,
      packageStatus: t.package_status,
      customerStatus: t.customer_status,
    };
    const display = taskDisplayStatus(input);
    if (display !== t.display_status) problems.push(`task ${t.id}: stored ${t.display_status}, computed ${display}`);
    const owner = ownerOf(t);
    computed.set(owner, addCounts(computed.get(owner) ?? EMPTY_AGGREGATE_COUNTS, countsOfTask(input)));
  }
  for (const o of owners) {
    const counts = computed.get(o.id) ?? EMPTY_AGGREGATE_COUNTS;
    const status = aggregateFromCounts(counts);
    if (!sameCounts(counts, storedCounts(o)) || status !== o.task_status) {
      problems.push(
        `${label} ${o.id}: stored ${JSON.stringify(storedCounts(o))} ${o.task_status}, computed ${JSON.stringify(counts)} ${status}`,
      );
    }
  }
  return problems;
}

/**
 * Checks the stored read model against a recomputation with the domain rules for a sample (100 random
 * machines, 20 random customers and the large benchmark customers), or for everything with `full`;
 * checks every trigger-kept copy and every reference of the tables loaded without foreign key checks.
 */
export async function verify(client: pg.Client, options: { full?: boolean } = {}): Promise<string[]> {
  const problems: string[] = [];
  const counterSql = (table: string) =>
    `select id, tasks_failed, tasks_missed, tasks_successful, tasks_never_run, tasks_ignored, tasks_in_progress, task_status from ${table}`;
  let machineIds: number[];
  let customerIds: number[];
  if (options.full) {
    machineIds = (await client.query<{ id: number }>('select id from backup_machines')).rows.map((r) => r.id);
    customerIds = (await client.query<{ id: number }>('select id from customers')).rows.map((r) => r.id);
  } else {
    machineIds = (
      await client.query<{ id: number }>('select id from backup_machines order by random() limit 100')
    ).rows.map((r) => r.id);
    customerIds = (
      await client.query<{ id: number }>(
        `(select id from customers order by random() limit 20)
         union select customer_id from users where email like 'bench-customer-%' or email like 'bench-reseller-%'`,
      )
    ).rows.map((r) => r.id);
  }
  const machines = await client.query<CounterRow>(`${counterSql('backup_machines')} where id = any($1)`, [machineIds]);
  const machineTasks = await client.query<TaskRow>(`${TASK_INPUT_SQL} where t.backup_machine_id = any($1)`, [
    machineIds,
  ]);
  problems.push(...compare(machineTasks.rows, machines.rows, (t) => t.machine_id, 'machine'));
  const customers = await client.query<CounterRow>(`${counterSql('customers')} where id = any($1)`, [customerIds]);
  const customerTasks = await client.query<TaskRow>(`${TASK_INPUT_SQL} where m.customer_id = any($1)`, [customerIds]);
  problems.push(...compare(customerTasks.rows, customers.rows, (t) => t.customer_id, 'customer'));
  console.log(
    `  read model recomputed with the domain rules for ${machines.rowCount} machines (${machineTasks.rowCount} tasks) and ${customers.rowCount} customers (${customerTasks.rowCount} tasks)`,
  );

  // Trigger-kept copies and the references of tables loaded without foreign key checks, over all rows.
  const checks: [string, string][] = [
    [
      'customers whose super admin e-mail or name copy is wrong',
      `select count(*) from customers c left join users u on u.id = c.super_admin_user_id
        where c.super_admin_email is distinct from u.email or c.super_admin_name is distinct from u.first_name || ' ' || u.surname`,
    ],
    ['customers without a super admin', 'select count(*) from customers where super_admin_user_id is null'],
    [
      'customers whose storage location count is wrong',
      `select count(*) from customers c where storage_location_count <> (select count(*) from storage_locations s where s.customer_id = c.id)`,
    ],
    [
      'machines whose assigned user name copy is wrong',
      `select count(*) from backup_machines m left join users u on u.id = m.assigned_user_id
        where m.assigned_user_name is distinct from u.first_name || ' ' || u.surname`,
    ],
    [
      'tasks whose machine, customer or package is missing or differs from the machine',
      `select count(*) from backup_tasks t left join backup_machines m on m.id = t.backup_machine_id
        where m.id is null or m.customer_id <> t.customer_id or m.backup_package_id <> t.backup_package_id`,
    ],
    [
      'tasks whose number of backup runs differs from their BACKUP_RUN actions',
      `select count(*) from backup_tasks t left join (select backup_task_id, count(*) as n from task_actions
        where type = 'BACKUP_RUN' group by 1) a on a.backup_task_id = t.id where t.number_of_backup_runs <> coalesce(a.n, 0)`,
    ],
    [
      '(task status, machine status) pairs whose machine_status_counts sums differ from a recount of the machines',
      `select count(*) from (select task_status, status, count(*)::int as n from backup_machines group by 1, 2) m
        full join (select task_status, status, sum(n)::int as n from machine_status_counts group by 1, 2
                    having sum(n) <> 0) s using (task_status, status)
        where m.n is distinct from s.n`,
    ],
    [
      'actions whose task or machine is missing or differs',
      `select count(*) from task_actions a left join backup_tasks t on t.id = a.backup_task_id
        where t.id is null or t.backup_machine_id <> a.backup_machine_id`,
    ],
  ];
  for (const [label, query] of checks) {
    const { rows } = await client.query<{ count: string }>(query);
    const count = Number(rows[0]?.count ?? 0);
    if (count > 0) problems.push(`${count} ${label}`);
  }
  return problems;
}

async function printDistribution(client: pg.Client): Promise<void> {
  const counts = await client.query<{ what: string; n: string }>(`
    select 'customers' as what, count(*) as n from customers union all
    select 'resellers', count(*) from reseller_settings union all
    select 'users', count(*) from users union all
    select 'packages', count(*) from backup_packages union all
    select 'storage locations', count(*) from storage_locations union all
    select 'machines', count(*) from backup_machines union all
    select 'tasks', count(*) from backup_tasks union all
    select 'task actions (runs)', count(*) from task_actions`);
  console.log(table([['table', 'rows'], ...counts.rows.map((r) => [r.what, Number(r.n).toLocaleString('en')])]));
  const spread = async (title: string, query: string) => {
    const { rows } = await client.query<{ k: string; n: string }>(query);
    console.log(`${title}: ${rows.map((r) => `${r.k} ${Number(r.n).toLocaleString('en')}`).join(', ')}`);
  };
  await spread(
    'customer display status',
    'select display_status::text as k, count(*) as n from customers group by 1 order by 2 desc',
  );
  await spread(
    'customer task status',
    'select task_status::text as k, count(*) as n from customers group by 1 order by 2 desc',
  );
  await spread(
    'machine status',
    'select status::text as k, count(*) as n from backup_machines group by 1 order by 2 desc',
  );
  await spread(
    'machine task status',
    'select task_status::text as k, count(*) as n from backup_machines group by 1 order by 2 desc',
  );
  await spread(
    'task status (raw)',
    'select status::text as k, count(*) as n from backup_tasks group by 1 order by 2 desc',
  );
  await spread(
    'task display status',
    'select display_status::text as k, count(*) as n from backup_tasks group by 1 order by 2 desc',
  );
  await spread(
    'status of last run',
    `select coalesce(status_of_last_run::text, 'none') as k, count(*) as n from backup_tasks group by 1 order by 2 desc`,
  );
  await spread(
    'large customers (machines)',
    `select c.super_admin_email as k, count(m.id) as n from customers c join backup_machines m on m.customer_id = c.id
      where c.super_admin_email like 'bench-customer-%' group by 1 order by 1 limit 3`,
  );
}

// --- Main -------------------------------------------------------------------------------------------

export async function seed(): Promise<void> {
  const url = SETTINGS.databaseUrl;
  const name = databaseName(url);
  const started = performance.now();
  console.log(
    `Seeding ${name}: ${SIZES.customers.toLocaleString('en')} customers, ${SIZES.machines.toLocaleString('en')} machines, ${SIZES.tasks.toLocaleString('en')} tasks (scale ${SETTINGS.scale})`,
  );

  await recreateDatabase(url, name);

  const plan = new Plan();
  const passwordHash = await phase('plan customers, users, packages and machines; hash the password', async () => {
    plan.build();
    return hashPassword(SETTINGS.password);
  });

  const client = await connect(url);
  const taskClient = await connect(url);
  const actionClient = await connect(url);
  try {
    await client.query('set synchronous_commit = off');
    await client.query(`set maintenance_work_mem = '1GB'`);
    const indexes = await phase(`drop secondary indexes of ${BULK_TABLES.join(', ')}`, () =>
      dropSecondaryIndexes(client, BULK_TABLES),
    );
    await phase(
      `customers (${plan.customers.length}), users (${plan.users.length}), templates, storage, packages (${plan.packages.length}), requests`,
      () => loadBase(client, plan, passwordHash),
    );
    const loaded = await phase('tasks and runs (generated, read model computed, copied)', () =>
      loadTasks(plan, taskClient, actionClient),
    );
    console.log(`  ${loaded.tasks.toLocaleString('en')} tasks, ${loaded.actions.toLocaleString('en')} actions`);
    // Tasks were copied without their triggers: fill the task status pie's counts they would have kept.
    await phase('task status counts (the provider task status pie)', () =>
      client.query(`insert into task_status_counts (customer_id, display_status, n)
        select customer_id, display_status, count(*)::int from backup_tasks group by 1, 2`),
    );
    // And the verification badge's counts (issue 32 item 3; every seeded task is 'NEVER' verified).
    await phase('task verification counts (the dashboard verification badge)', () =>
      client.query(`insert into task_verification_counts (customer_id, verification_status, n)
        select customer_id, verification_status, count(*)::int from backup_tasks group by 1, 2`),
    );
    await phase(`machines (${plan.machines.length}) with their counters; customer counters`, () =>
      loadMachines(client, plan),
    );
    await phase(`re-create ${indexes.length} indexes; move sequences`, async () => {
      for (const definition of indexes) await client.query(definition);
      for (const t of ID_TABLES) {
        await client.query(
          `select setval(pg_get_serial_sequence('${t}', 'id'), coalesce(max(id), 1), max(id) is not null) from ${t}`,
        );
      }
    });
    await phase('vacuum analyze', () => client.query('vacuum (analyze)'));
    const marker: SeedMarker = {
      seedVersion: SEED_VERSION,
      scale: SETTINGS.scale,
      migrations: migrationsHash(),
      seededAt: plan.now.toISOString(),
      counts: {
        customers: plan.customers.length,
        users: plan.users.length,
        machines: plan.machines.length,
        tasks: loaded.tasks,
        actions: loaded.actions,
      },
    };
    await client.query(`comment on database ${name} is ${client.escapeLiteral(JSON.stringify(marker))}`);
    console.log(`Seeded in ${seconds(performance.now() - started)}.`);
    await printDistribution(client);
    const problems = await phase('verify (sample)', () => verify(client));
    report(problems);
  } finally {
    await Promise.all([client.end(), taskClient.end(), actionClient.end()]);
  }
}

function report(problems: string[]): void {
  if (problems.length === 0) {
    console.log(
      'Verification: the stored read model equals the domain recomputation; trigger copies and references hold.',
    );
    return;
  }
  console.error(`Verification FAILED (${problems.length} problems):`);
  for (const p of problems.slice(0, 30)) console.error(`  ${p}`);
  process.exitCode = 1;
}

async function main(): Promise<void> {
  const args = new Set(process.argv.slice(2));
  if (args.has('--verify')) {
    const client = await connect();
    try {
      const full = args.has('--full');
      const problems = await phase(`verify (${full ? 'every machine and customer' : 'sample'})`, () =>
        verify(client, { full }),
      );
      report(problems);
    } finally {
      await client.end();
    }
    return;
  }
  if (args.has('--if-needed')) {
    const marker = await readMarker().catch(() => null);
    if (markerIsCurrent(marker)) {
      console.log(
        `${databaseName(SETTINGS.databaseUrl)} already holds this seed (seeded ${marker?.seededAt}); skipped.`,
      );
      return;
    }
  }
  await seed();
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
