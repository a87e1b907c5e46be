import { HOUR_MS, type MachineStatus, MINUTE_MS, nextRunAfter } from '@portal/domain';
import { backupMachines, backupTasks, type StoredBackupItem } from '../db/schema/index.js';
import {
  type AggregateTheme,
  type CustomerInfo,
  customerNamed,
  inChunks,
  type OsEntry,
  type PackageInfo,
  type SeedContext,
  type UserInfo,
  zip,
} from './context.js';
import { CLIENT_VERSIONS, EXCLUSIONS, MB, OPERATING_SYSTEMS, type Recipe, TIME_ZONES } from './data.js';
import { machineName, machineStatusIn } from './generate.js';
import { type Run, taskHistory, taskStatusOf } from './history.js';
import type { PackageLink } from './packages.js';
import { DEMO_SCHEDULES, type DemoSchedule } from './schedule.js';

/** Task sets that give a machine the named aggregate status when nothing above the task stops it. */
const THEME_RECIPES: Record<AggregateTheme, readonly (readonly Recipe[])[]> = {
  SUCCESSFUL_TASKS: [
    ['success'],
    ['success', 'warnings'],
    ['success', 'inProgressAfterSuccess'],
    ['warnings', 'success'],
  ],
  FAILED_TASKS: [['success', 'failed'], ['inProgressAfterFailure'], ['failed', 'warnings']],
  MISSED_TASKS: [['missed'], ['missed', 'success']],
  FAILED_AND_MISSED_TASKS: [
    ['failed', 'missed'],
    ['missed', 'inProgressAfterFailure', 'success'],
  ],
  NO_COMPLETED_TASKS: [['never'], ['never', 'initiatedFirst']],
  NO_RUNNABLE_TASKS: [['paused'], ['awaitingSeed'], ['beingDeleted', 'paused'], ['deletionFailed']],
};

const MIXED_THEMES: readonly (readonly [AggregateTheme, number])[] = [
  ['SUCCESSFUL_TASKS', 50],
  ['FAILED_TASKS', 12],
  ['MISSED_TASKS', 10],
  ['FAILED_AND_MISSED_TASKS', 6],
  ['NO_COMPLETED_TASKS', 10],
  ['NO_RUNNABLE_TASKS', 12],
];

export interface TaskSpec {
  name: string;
  recipe: Recipe;
  type: 'FILES_AND_FOLDERS' | 'CPANEL' | 'DIRECT_ADMIN';
  items: StoredBackupItem[];
  schedule: DemoSchedule;
  runs: Run[];
  createdAt: Date;
}

/** A machine as its owner sees it, before and after its tasks are drawn. */
interface MachineBase {
  customer: CustomerInfo;
  pkg: PackageInfo;
  name: string;
  description: string;
  status: MachineStatus;
  os: OsEntry;
  user: UserInfo;
}

interface MachinePlan extends MachineBase {
  /** One task per recipe. */
  recipes: readonly Recipe[];
  timeZone?: string;
  /** Makes the first task a cPanel or DirectAdmin one. */
  firstTaskType?: 'CPANEL' | 'DIRECT_ADMIN';
}

export interface MachineSpec extends MachineBase {
  timeZone: string;
  tasks: TaskSpec[];
}

/** A machine as stored, with what its tasks' history is drawn from. */
export interface SavedMachine {
  id: number;
  spec: MachineSpec;
  usedSpaceBytes: number;
  version: string;
  lastSeenAt: Date;
}

export interface SavedTask {
  id: number;
  machine: SavedMachine;
  task: TaskSpec;
}

function machinesFor(ctx: SeedContext, customer: CustomerInfo, links: readonly PackageLink[]): MachineSpec[] {
  const rng = ctx.rng;
  const specs: MachineSpec[] = [];
  const prefix = (customer.slug.split('-')[0] ?? 'pc').toUpperCase().slice(0, 10);
  let counter = rng.int(1, 20);
  for (const pkg of customer.packages) {
    if (!['ACTIVE', 'OVER_QUOTA', 'SUSPENDED', 'BLOCKED'].includes(pkg.status) || customer.reseller) continue;
    const wanted = customer.status === 'ACTIVE' ? rng.int(1, 4) : rng.int(1, 2);
    const count = pkg.template.machineLimit > 0 ? Math.min(wanted, pkg.template.machineLimit) : wanted;
    const linked = customer.users.filter(
      (u) =>
        u.role === 'ROLE_CUSTOMER_SUPER_ADMIN_USER' ||
        links.some((l) => l.userId === u.id && l.backupPackageId === pkg.id),
    );
    const preferred = linked.filter((u) => u.role === 'ROLE_CUSTOMER_USER');
    for (let i = 0; i < count; i++) {
      const os = rng.weighted(OPERATING_SYSTEMS.map((o) => [o, o.weight] as const));
      const user = rng.pick(preferred.length > 0 && rng.chance(0.7) ? preferred : linked);
      counter += rng.int(1, 7);
      const number = String(counter).padStart(3, '0');
      const name = machineName(rng, os, prefix, user.firstName, number, ['web', 'db', 'app', 'files']);
      const description = os.server
        ? rng.pick(['File server', 'Application server', 'Web server', 'Database server', 'Print and file server'])
        : `${user.firstName}'s ${os.family === 'MAC' ? 'MacBook' : rng.pick(['laptop', 'desktop', 'workstation'])}`;
      const status = machineStatusIn(
        rng,
        { status: pkg.status, perMachineLimited: pkg.perMachineMb < pkg.template.quotaMb },
        [
          ['ACTIVE', 84],
          ['SUSPENDED', 8],
          ['OVER_PER_MACHINE_QUOTA', 8],
        ],
      );
      const theme = customer.theme === 'MIXED' ? rng.weighted(MIXED_THEMES) : customer.theme;
      const recipes = [...rng.pick(THEME_RECIPES[theme])];
      // Tasks that do not count towards the aggregate make machines look lived-in without changing it.
      if (theme !== 'NO_RUNNABLE_TASKS' && rng.chance(0.12))
        recipes.push(rng.pick(['paused', 'awaitingSeed'] as const));
      specs.push(machine(ctx, { customer, pkg, name, description, status, os, user, recipes }));
    }
  }
  return specs;
}

function contosoMachines(ctx: SeedContext, contoso: CustomerInfo): MachineSpec[] {
  const head = contoso.packages.find((p) => p.name === 'Head office');
  const branch = contoso.packages.find((p) => p.name === 'Branch offices');
  const byEmail = (email: string) => contoso.users.find((u) => u.email === email);
  const alex = byEmail('user@demo.test');
  const adele = byEmail('customer-admin@demo.test');
  const megan = byEmail('super-admin@demo.test');
  const lee = contoso.users.find((u) => u.firstName === 'Lee');
  if (!head || !branch || !alex || !adele || !megan || !lee) throw new Error('Contoso demo data incomplete');
  const os = (name: string): OsEntry => {
    const found = OPERATING_SYSTEMS.find((o) => o.name === name);
    if (!found) throw new Error(`unknown OS ${name}`);
    return found;
  };
  const timeZone = 'Europe/London';
  const plans: Omit<MachinePlan, 'customer' | 'timeZone'>[] = [
    {
      pkg: head,
      name: 'CONTOSO-LT-014',
      description: "Alex's laptop",
      status: 'ACTIVE',
      os: os('Windows 11 Pro'),
      user: alex,
      recipes: ['success', 'inProgressAfterSuccess', 'warnings'],
    },
    {
      pkg: head,
      name: 'Alex-MacBook-Pro',
      description: "Alex's MacBook Pro",
      status: 'ACTIVE',
      os: os('macOS 15 Sequoia'),
      user: alex,
      recipes: ['failed', 'missed', 'paused'],
    },
    {
      pkg: head,
      name: 'CONTOSO-FS-01',
      description: 'File server, head office',
      status: 'ACTIVE',
      os: os('Windows Server 2022'),
      user: adele,
      recipes: ['awaitingSeed', 'inProgressAfterFailure', 'beingDeleted', 'deletionFailed'],
    },
    {
      pkg: branch,
      name: 'contoso-web-01',
      description: 'Web server (cPanel)',
      status: 'ACTIVE',
      os: os('Ubuntu 24.04 LTS'),
      user: megan,
      recipes: ['never', 'initiatedFirst'],
      firstTaskType: 'CPANEL',
    },
    {
      pkg: branch,
      name: 'contoso-db-01',
      description: 'Database server',
      status: 'OVER_PER_MACHINE_QUOTA',
      os: os('Debian 12'),
      user: megan,
      recipes: ['success', 'success'],
    },
    {
      pkg: branch,
      name: 'CONTOSO-PC-031',
      description: "Lee's desktop",
      status: 'SUSPENDED',
      os: os('Windows 11 Pro'),
      user: lee,
      recipes: ['success', 'failed'],
    },
  ];
  return plans.map((plan) => machine(ctx, { ...plan, customer: contoso, timeZone }));
}

function machine(ctx: SeedContext, plan: MachinePlan): MachineSpec {
  const { customer, pkg, name, description, status, os, user, recipes, timeZone, firstTaskType } = plan;
  const rng = ctx.rng;
  const zone =
    timeZone ??
    (customer.parent === 'fabrikam'
      ? rng.pick(['America/New_York', 'America/Chicago', 'America/Los_Angeles'])
      : rng.pick(TIME_ZONES));
  const sets = rng.shuffle(itemSets(os, user.firstName));
  const hostedType =
    firstTaskType ??
    (os.family === 'LINUX' && rng.chance(0.25)
      ? rng.weighted<'CPANEL' | 'DIRECT_ADMIN'>([
          ['CPANEL', 3],
          ['DIRECT_ADMIN', 1],
        ])
      : undefined);
  const tasks = recipes.map((recipe, i): TaskSpec => {
    const schedule = rng.pick(DEMO_SCHEDULES);
    if (i === 0 && hostedType) {
      const accounts = rng
        .shuffle(['acme', 'bistro', 'northshop', 'greenleaf', 'studio42', 'mailhost'])
        .slice(0, rng.int(2, 5));
      return {
        name: hostedType === 'CPANEL' ? 'cPanel accounts' : 'DirectAdmin accounts',
        recipe,
        type: hostedType,
        items: accounts.map((a) => ({
          path: a,
          name: a,
          type: hostedType === 'CPANEL' ? 'CPANEL_ACCOUNT' : 'DIRECT_ADMIN_ACCOUNT',
          missing: false,
        })),
        schedule,
        ...historyOf(ctx, recipe, schedule, zone),
      };
    }
    const set = sets[i % sets.length] ?? { name: 'Documents', items: [] };
    return {
      name: i < sets.length ? set.name : `${set.name} ${Math.floor(i / sets.length) + 1}`,
      recipe,
      type: 'FILES_AND_FOLDERS',
      items: set.items.map((item) => ({ ...item, missing: item.missing || rng.chance(0.03) })),
      schedule,
      ...historyOf(ctx, recipe, schedule, zone),
    };
  });
  pkg.machines++;
  return { customer, pkg, name: name.slice(0, 50), description, status, os, user, timeZone: zone, tasks };
}

/** A task's history laid out at its schedule's own times in the machine's zone. */
function historyOf(ctx: SeedContext, recipe: Recipe, schedule: DemoSchedule, timeZone: string) {
  const { runs, createdAt } = taskHistory(ctx.rng, ctx.now.getTime(), recipe, schedule, { kind: 'schedule', timeZone });
  return { runs, createdAt: new Date(createdAt) };
}

/** The machines of every customer, Contoso's first, with their tasks and run history planned. */
export async function insertMachines(
  ctx: SeedContext,
  customers: readonly CustomerInfo[],
  links: readonly PackageLink[],
): Promise<SavedMachine[]> {
  const rng = ctx.rng;
  const contoso = customerNamed(customers, 'Contoso Ltd');
  const specs: MachineSpec[] = contosoMachines(ctx, contoso);
  for (const customer of customers) if (customer !== contoso) specs.push(...machinesFor(ctx, customer, links));

  const machineRows = specs.map((m) => {
    const firstTask = Math.min(...m.tasks.map((t) => t.createdAt.getTime()), ctx.now.getTime());
    const createdAt = new Date(
      Math.max(m.customer.createdAt.getTime() + HOUR_MS, firstTask - rng.int(1, 72) * HOUR_MS),
    );
    return {
      customerId: m.customer.id,
      backupPackageId: m.pkg.id,
      assignedUserId: m.user.id,
      name: m.name,
      description: m.description,
      status: m.status,
      osFamily: m.os.family,
      operatingSystem: m.os.name,
      desktopClientVersion: rng.pick(CLIENT_VERSIONS),
      timeZone: m.timeZone,
      deviceFingerprint: rng.hex(64),
      ipAddress: `${rng.pick(['192.0.2', '198.51.100', '203.0.113'])}.${rng.int(2, 254)}`,
      noOfSimultaneousRemoteConnections: rng.int(0, 2),
      remoteManagementEnabled: rng.chance(0.9),
      online: false,
      lastSeenAt: lastSeen(ctx, m),
      usedSpaceBytes: usedSpace(ctx, m),
      createdAt,
    };
  });
  const machineIds = await inChunks(machineRows, (chunk) =>
    ctx.tx.insert(backupMachines).values(chunk).returning({ id: backupMachines.id }),
  );
  return zip(zip(specs, machineRows), machineIds).map(([[spec, row], { id }]) => ({
    spec,
    id,
    usedSpaceBytes: row.usedSpaceBytes,
    version: row.desktopClientVersion,
    lastSeenAt: row.lastSeenAt,
  }));
}

/** The machines' tasks, in the order they were planned. */
export async function insertTasks(ctx: SeedContext, machines: readonly SavedMachine[]): Promise<SavedTask[]> {
  const taskEntries = machines.flatMap((m) => m.spec.tasks.map((task) => ({ machine: m, task })));
  const taskIds = await inChunks(taskEntries, (chunk) =>
    ctx.tx
      .insert(backupTasks)
      .values(chunk.map(({ machine, task }) => taskRow(ctx, machine.id, machine.spec, task)))
      .returning({ id: backupTasks.id }),
  );
  return zip(taskEntries, taskIds).map(([entry, { id }]) => ({ ...entry, id }));
}

/** Last contact: just after the machine's latest activity (a run in progress means it was just seen). */
function lastSeen(ctx: SeedContext, m: MachineSpec): Date {
  const activity = m.tasks.flatMap((t) => t.runs.map((r) => r.finish ?? ctx.now.getTime()));
  const latest = activity.length > 0 ? Math.max(...activity) : ctx.now.getTime() - ctx.rng.int(1, 72) * HOUR_MS;
  return new Date(Math.min(ctx.now.getTime(), latest + ctx.rng.int(0, 30) * MINUTE_MS));
}

function usedSpace(ctx: SeedContext, m: MachineSpec): number {
  const rng = ctx.rng;
  const quotaMb = m.pkg.template.quotaMb;
  const share = Math.min(m.pkg.perMachineMb, quotaMb / Math.max(1, m.pkg.machines));
  if (m.status === 'OVER_PER_MACHINE_QUOTA') return Math.floor(m.pkg.perMachineMb * MB * (1 + rng.int(1, 8) / 100));
  // Together the machines of an over-quota package hold a little more than its quota.
  if (m.status === 'PACKAGE_OVER_QUOTA') {
    return Math.floor((quotaMb / Math.max(1, m.pkg.machines)) * MB * (1 + rng.int(1, 6) / 100));
  }
  if (m.tasks.every((t) => t.runs.length === 0)) return 0;
  return Math.floor(share * MB * (rng.int(3, 45) / 100));
}

function taskRow(
  ctx: SeedContext,
  machineId: number,
  machine: MachineSpec,
  task: TaskSpec,
): typeof backupTasks.$inferInsert {
  const rng = ctx.rng;
  const last = task.runs.at(-1);
  const beforeLast = task.runs.at(-2);
  const files = task.type === 'FILES_AND_FOLDERS';
  const snapshots = files && rng.chance(0.75);
  const status = taskStatusOf(task.recipe);
  const limited = rng.chance(0.2);
  return {
    backupMachineId: machineId,
    customerId: machine.customer.id,
    backupPackageId: machine.pkg.id,
    name: task.name,
    type: task.type,
    status,
    scheduleCron: task.schedule.cron,
    scheduleDescription: task.schedule.description,
    snapshotsEnabled: snapshots,
    numberOfSnapshotsToKeep: snapshots ? rng.pick([-1, -1, 4, 8, 12]) : 0,
    autoDeleteFailedSnapshots: snapshots && rng.chance(0.3),
    syncDeletions: files && rng.chance(0.25),
    volumeSnapshotsEnabled: machine.os.family === 'WINDOWS' && files && rng.chance(0.5),
    backupItems: task.items,
    exclusions: files ? rng.shuffle(EXCLUSIONS[machine.os.family]).slice(0, rng.int(0, 3)) : [],
    createSeed: task.recipe === 'awaitingSeed',
    pathToSeedDisk: task.recipe === 'awaitingSeed' ? seedPath(machine.os.family) : null,
    uploadBandwidthLimit: limited ? rng.pick([512, 2048, 10]) : -1,
    uploadBandwidthLimitUnit: limited
      ? rng.pick(['KILO_BYTES_PER_SECOND', 'MEGA_BITS_PER_SECOND'] as const)
      : 'KILO_BYTES_PER_SECOND',
    pruneAfterCount: files ? -1 : 3,
    pruneTimeUnit: files ? null : 'MONTH',
    backupAnyNewAvailableItems: !files,
    statusOfLastRun: last?.status ?? null,
    statusOfRunBeforeLast: beforeLast?.status ?? null,
    lastExecutionMissed: task.recipe === 'missed',
    nextRunAt: status === 'ACTIVE' ? nextRunAfter(task.schedule.cron, ctx.now, machine.timeZone) : null,
    version: rng.int(1, 4),
    createdAt: task.createdAt,
  };
}

export const snapshotsOn = (task: TaskSpec) => task.type === 'FILES_AND_FOLDERS' && task.recipe !== 'awaitingSeed';

export const seedPath = (family: string) => (family === 'WINDOWS' ? 'E:\\BackupSeed' : '/media/backup-seed');

function itemSets(os: OsEntry, firstName: string): { name: string; items: StoredBackupItem[] }[] {
  const dir = (path: string, name: string): StoredBackupItem => ({ path, name, type: 'DIRECTORY', missing: false });
  const file = (path: string, name: string): StoredBackupItem => ({ path, name, type: 'FILE', missing: false });
  const home = firstName.toLowerCase();
  if (os.family === 'WINDOWS' && os.server) {
    return [
      {
        name: 'Shared drives',
        items: [dir('D:\\Shares\\Public', 'Public'), dir('D:\\Shares\\Departments', 'Departments')],
      },
      { name: 'Finance', items: [dir('D:\\Shares\\Finance', 'Finance')] },
      { name: 'SQL backups', items: [dir('E:\\SQLBackups', 'SQLBackups')] },
      { name: 'Web sites', items: [dir('C:\\inetpub\\wwwroot', 'wwwroot')] },
      { name: 'HR', items: [dir('D:\\Shares\\HR', 'HR')] },
      { name: 'Old archive', items: [dir('F:\\Archive', 'Archive')] },
    ];
  }
  if (os.family === 'WINDOWS') {
    const base = `C:\\Users\\${firstName}`;
    return [
      { name: 'Documents', items: [dir(`${base}\\Documents`, 'Documents')] },
      { name: 'Pictures', items: [dir(`${base}\\Pictures`, 'Pictures')] },
      { name: 'Desktop', items: [dir(`${base}\\Desktop`, 'Desktop')] },
      { name: 'Outlook archive', items: [file(`${base}\\Documents\\Outlook Files\\archive.pst`, 'archive.pst')] },
      { name: 'Projects', items: [dir('D:\\Projects', 'Projects'), dir(`${base}\\Downloads`, 'Downloads')] },
    ];
  }
  if (os.family === 'MAC') {
    const base = `/Users/${home}`;
    return [
      { name: 'Documents', items: [dir(`${base}/Documents`, 'Documents')] },
      { name: 'Photos', items: [dir(`${base}/Pictures`, 'Pictures')] },
      { name: 'Projects', items: [dir(`${base}/Projects`, 'Projects')] },
      { name: 'Desktop', items: [dir(`${base}/Desktop`, 'Desktop')] },
      { name: 'Home folder', items: [dir(base, home)] },
    ];
  }
  return [
    { name: 'Home folders', items: [dir('/home', 'home')] },
    { name: 'Web sites', items: [dir('/var/www', 'www')] },
    { name: 'System config', items: [dir('/etc', 'etc')] },
    { name: 'Database dumps', items: [dir('/var/backups/postgresql', 'postgresql')] },
    { name: 'Data', items: [dir('/srv/data', 'data'), file('/srv/app/.env', '.env')] },
  ];
}
