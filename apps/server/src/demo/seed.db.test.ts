import { verify } from '@node-rs/argon2';
import {
  AGGREGATE_TASK_STATUSES,
  type AggregateTaskStatus,
  aggregateStatus,
  backupScheduleSchema,
  CUSTOMER_STATUSES,
  type CustomerStatus,
  describeCron,
  HOUR_MS,
  locationStorageUserName,
  MACHINE_STATUSES,
  type MachineStatus,
  nextRunAfter,
  PACKAGE_STATUSES,
  type PackageStatus,
  previousRunBefore,
  type RunStatus,
  TASK_DISPLAY_STATUSES,
  TASK_STATUSES,
  type TaskDisplayStatus,
  type TaskStatus,
  taskDisplayStatus,
} from '@portal/domain';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.js';
import { joinMachineOwners, machineStatuses } from '../db/machine-statuses.js';
import {
  backupMachines,
  backupPackages,
  backupTasks,
  buckets,
  customers,
  packageRequests,
  resellerSettings,
  storageLocations,
  storageUsers,
  taskActions,
  users,
} from '../db/schema/index.js';
import { computeReadModel, readStoredReadModel } from '../features/backup-state/recompute.js';
import { bucketPolicyFor, policyDifferences } from '../storage/policy.js';
import { grantsOfBucket } from '../storage/repo.js';
import { openTestDatabase } from '../testing/database.js';
import { DEMO_SCHEDULES } from './schedule.js';
import { DEMO_ACCOUNTS, type SeedSummary, seedDemo } from './seed.js';

const PASSWORD = 'demo-password';

let database: Database;
let summary: SeedSummary;
let seedMs = 0;
let seedStarted = 0;

beforeAll(async () => {
  database = await openTestDatabase();
  seedStarted = Date.now();
  summary = await seedDemo(database.db, { password: PASSWORD });
  seedMs = Date.now() - seedStarted;
});

afterAll(async () => {
  await database?.close();
});

// --- the display rule of spec 000 §4, applied locally until it lives in packages/domain -------------

interface TaskRow {
  id: number;
  name: string;
  status: TaskStatus;
  statusOfLastRun: RunStatus | null;
  statusOfRunBeforeLast: RunStatus | null;
  lastExecutionMissed: boolean;
  scheduleCron: string;
  machineId: number;
  machineStatus: MachineStatus;
  packageStatus: PackageStatus;
  customerId: number;
  customerStatus: CustomerStatus;
}

const displayStatus = (t: TaskRow): TaskDisplayStatus => taskDisplayStatus(t);
const aggregate = (tasks: readonly TaskRow[]): AggregateTaskStatus => aggregateStatus(tasks);

async function taskRows(): Promise<TaskRow[]> {
  const query = database.db
    .select({
      id: backupTasks.id,
      name: backupTasks.name,
      status: backupTasks.status,
      statusOfLastRun: backupTasks.statusOfLastRun,
      statusOfRunBeforeLast: backupTasks.statusOfRunBeforeLast,
      lastExecutionMissed: backupTasks.lastExecutionMissed,
      scheduleCron: backupTasks.scheduleCron,
      machineId: backupMachines.id,
      customerId: customers.id,
      ...machineStatuses,
    })
    .from(backupTasks)
    .innerJoin(backupMachines, eq(backupMachines.id, backupTasks.backupMachineId))
    .$dynamic();
  return joinMachineOwners(query);
}

const distinct = <T>(values: readonly T[]) => [...new Set(values)].sort();

// ---------------------------------------------------------------------------------------------------

describe('demo seed', () => {
  it('fills the database in a few seconds', () => {
    expect(summary.skipped).toBe(false);
    expect(summary.customers).toBeGreaterThanOrEqual(45);
    expect(summary.backupTasks).toBeGreaterThan(100);
    // PGlite in a test worker; the brief allows ~5 s, the bound leaves room for slow machines.
    expect(seedMs).toBeLessThan(12_000);
  });

  it('creates the six demo accounts with their roles and customers', async () => {
    const { db } = database;
    const rows = await db
      .select({
        email: users.email,
        role: users.role,
        passwordHash: users.passwordHash,
        customerId: users.customerId,
        companyName: customers.companyName,
      })
      .from(users)
      .leftJoin(customers, eq(customers.id, users.customerId));
    const byEmail = new Map(rows.map((r) => [r.email, r]));
    expect(DEMO_ACCOUNTS).toHaveLength(6);
    for (const account of DEMO_ACCOUNTS) {
      expect(byEmail.get(account.email)?.role).toBe(account.role);
    }
    expect(byEmail.get('provider-admin@demo.test')?.customerId).toBeNull();
    expect(byEmail.get('reseller-admin@demo.test')?.companyName).toBe('Northwind Backup');
    for (const email of ['super-admin@demo.test', 'customer-admin@demo.test', 'user@demo.test']) {
      expect(byEmail.get(email)?.companyName).toBe('Contoso Ltd');
    }
    // The direct customer of the billing journey: billed through the demo WHMCS, owing one invoice.
    const direct = byEmail.get('direct-admin@demo.test');
    expect(direct?.companyName).toBe('Adatum Corporation');
    const [adatum] = await db
      .select()
      .from(customers)
      .where(eq(customers.id, direct?.customerId ?? 0));
    expect(adatum).toMatchObject({ status: 'ACTIVE', parentResellerCustomerId: null, unpaidInvoices: 1 });
    expect(adatum?.whmcsClientId).not.toBeNull();
    const hashValue = byEmail.get('user@demo.test')?.passwordHash ?? '';
    expect(hashValue.startsWith('$argon2id$')).toBe(true);
    expect(await verify(hashValue, PASSWORD)).toBe(true);
    // Every user gets a first name, surname and contact number.
    const incomplete = await db.select({ id: users.id }).from(users).where(eq(users.contactNumber, ''));
    expect(incomplete).toHaveLength(0);
  });

  it('makes Northwind a branded reseller whose customer is Contoso', async () => {
    const { db } = database;
    const settings = await db
      .select({
        customerId: resellerSettings.customerId,
        enabled: resellerSettings.resellerEnabled,
        brandName: resellerSettings.brandName,
        header: resellerSettings.appHeaderColour,
        background: resellerSettings.appBackgroundColour,
        companyName: customers.companyName,
      })
      .from(resellerSettings)
      .innerJoin(customers, eq(customers.id, resellerSettings.customerId));
    expect(settings).toHaveLength(2);
    expect(settings.every((s) => s.enabled && s.brandName && s.header && s.background)).toBe(true);
    expect(distinct(settings.map((s) => s.header))).toHaveLength(2);
    expect(distinct(settings.map((s) => s.background))).toHaveLength(2);

    const northwind = settings.find((s) => s.companyName === 'Northwind Backup');
    const [contoso] = await db.select().from(customers).where(eq(customers.companyName, 'Contoso Ltd'));
    expect(northwind).toBeDefined();
    // Northwind has a drawn logo and favicon, named like uploaded images; Fabrikam shows the generic logo.
    const images = await db
      .select({ logo: resellerSettings.logo, favicon: resellerSettings.favicon, companyName: customers.companyName })
      .from(resellerSettings)
      .innerJoin(customers, eq(customers.id, resellerSettings.customerId));
    expect(images.find((s) => s.companyName === 'Northwind Backup')).toMatchObject({
      logo: expect.stringMatching(/^logo-[0-9a-f]{32}\.png$/),
      favicon: expect.stringMatching(/^favicon-[0-9a-f]{32}\.png$/),
    });
    expect(images.find((s) => s.companyName === 'Fabrikam Data Services')).toMatchObject({ logo: null, favicon: null });
    expect(contoso?.parentResellerCustomerId).toBe(northwind?.customerId);
    const [resellerAdmin] = await db.select().from(users).where(eq(users.email, 'reseller-admin@demo.test'));
    expect(resellerAdmin?.customerId).toBe(northwind?.customerId);

    // Customers are split between the provider and both resellers.
    const all = await db.select({ parent: customers.parentResellerCustomerId }).from(customers);
    const parents = distinct(all.map((c) => c.parent ?? 0));
    expect(parents).toEqual(distinct([0, ...settings.map((s) => s.customerId)]));
  });

  it('covers every customer, package, machine and raw task status', async () => {
    const { db } = database;
    const customerStatuses = await db.select({ s: customers.status }).from(customers);
    const packageStatuses = await db.select({ s: backupPackages.status }).from(backupPackages);
    const machineRows = await db
      .select({ s: backupMachines.status, os: backupMachines.operatingSystem })
      .from(backupMachines);
    const taskStatuses = await db.select({ s: backupTasks.status }).from(backupTasks);
    expect(customerStatuses.length).toBeGreaterThanOrEqual(45);
    expect(distinct(customerStatuses.map((r) => r.s))).toEqual(distinct(CUSTOMER_STATUSES));
    expect(distinct(packageStatuses.map((r) => r.s))).toEqual(distinct(PACKAGE_STATUSES));
    expect(distinct(machineRows.map((r) => r.s))).toEqual(distinct(MACHINE_STATUSES));
    expect(distinct(taskStatuses.map((r) => r.s))).toEqual(distinct(TASK_STATUSES));
    expect(distinct(machineRows.map((r) => r.os))).toEqual(
      distinct(['Windows 11 Pro', 'Windows Server 2022', 'Ubuntu 24.04 LTS', 'Debian 12', 'macOS 15 Sequoia']),
    );
  });

  it('gives every customer its own super admin, and new signups no storage but a request', async () => {
    const { db } = database;
    const rows = await db
      .select({
        id: customers.id,
        status: customers.status,
        adminCustomerId: users.customerId,
        adminRole: users.role,
      })
      .from(customers)
      .leftJoin(users, eq(users.id, customers.superAdminUserId));
    for (const row of rows) {
      expect(row.adminCustomerId).toBe(row.id);
      expect(row.adminRole).toBe('ROLE_CUSTOMER_SUPER_ADMIN_USER');
    }
    const locations = await db
      .select({ customerId: storageLocations.customerId, isDefault: storageLocations.defaultForCustomer })
      .from(storageLocations);
    const requests = await db
      .select({
        customerId: packageRequests.customerId,
        type: packageRequests.requestType,
        status: packageRequests.status,
      })
      .from(packageRequests);
    const signups = rows.filter((r) => r.status === 'SIGNUP_REQUESTED');
    expect(signups.length).toBeGreaterThanOrEqual(3);
    for (const signup of signups) {
      expect(locations.filter((l) => l.customerId === signup.id)).toHaveLength(0);
      expect(requests).toContainEqual({ customerId: signup.id, type: 'NEW_SIGNUP', status: 'PENDING' });
    }
    for (const other of rows.filter((r) => r.status !== 'SIGNUP_REQUESTED')) {
      expect(locations.filter((l) => l.customerId === other.id && l.isDefault)).toHaveLength(1);
    }
  });

  it("names each location's storage user as the product does, so every bucket's policy but one is consistent", async () => {
    const { db } = database;
    const users = await db
      .select({ name: storageUsers.name, locationId: storageUsers.storageLocationId })
      .from(storageUsers);
    expect(users.length).toBeGreaterThan(0);
    for (const user of users) expect(user.name).toBe(locationStorageUserName(user.locationId ?? 0));
    const inconsistent: string[] = [];
    for (const bucket of await db.select().from(buckets)) {
      const expected = bucketPolicyFor(bucket.name, await grantsOfBucket(db, bucket.id));
      if (policyDifferences(bucket.policy, expected).length > 0) inconsistent.push(bucket.name);
    }
    // Tailspin Toys' older bucket, the source of its finished migration, still grants its location user.
    expect(inconsistent).toEqual([expect.stringMatching(/-old$/)]);
  });

  it('gives user@demo.test at least two Contoso machines', async () => {
    const { db } = database;
    const rows = await db
      .select({ company: customers.companyName })
      .from(backupMachines)
      .innerJoin(users, eq(users.id, backupMachines.assignedUserId))
      .innerJoin(customers, eq(customers.id, backupMachines.customerId))
      .where(eq(users.email, 'user@demo.test'));
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.every((r) => r.company === 'Contoso Ltd')).toBe(true);
  });

  it('describes and times the demo schedules with the domain schedule rules (000 §2, 002 §5.6)', async () => {
    for (const schedule of DEMO_SCHEDULES) {
      expect(describeCron(schedule.cron)).toBe(schedule.description);
      expect(backupScheduleSchema.safeParse(schedule.cron).success).toBe(true);
    }
    const rows = await database.db
      .select({
        cron: backupTasks.scheduleCron,
        description: backupTasks.scheduleDescription,
        status: backupTasks.status,
        nextRunAt: backupTasks.nextRunAt,
        timeZone: backupMachines.timeZone,
      })
      .from(backupTasks)
      .innerJoin(backupMachines, eq(backupMachines.id, backupTasks.backupMachineId));
    const seedEnded = seedStarted + seedMs;
    for (const row of rows) {
      expect(row.description).toBe(describeCron(row.cron));
      if (row.status !== 'ACTIVE') {
        expect(row.nextRunAt).toBeNull();
        continue;
      }
      // The next run is the first one after the moment of seeding.
      const next = row.nextRunAt ?? new Date(0);
      expect(next.getTime()).toBeGreaterThan(seedStarted);
      expect(previousRunBefore(row.cron, next, row.timeZone)?.getTime()).toBeLessThanOrEqual(seedEnded);
      expect(nextRunAfter(row.cron, new Date(next.getTime() - 1), row.timeZone)).toEqual(next);
    }
  });

  it('keeps each task consistent with its run history', async () => {
    const tasks = await taskRows();
    const runs = await database.db
      .select({
        taskId: taskActions.backupTaskId,
        status: taskActions.status,
        start: taskActions.timeStarted,
        finish: taskActions.timeFinished,
      })
      .from(taskActions)
      .where(eq(taskActions.type, 'BACKUP_RUN'));
    const byTask = new Map<number, typeof runs>();
    for (const run of runs) byTask.set(run.taskId, [...(byTask.get(run.taskId) ?? []), run]);
    const now = Date.now();
    for (const task of tasks) {
      const history = (byTask.get(task.id) ?? []).sort((a, b) => b.start.getTime() - a.start.getTime());
      expect(task.statusOfLastRun).toBe(history[0]?.status ?? null);
      expect(task.statusOfRunBeforeLast).toBe(history[1]?.status ?? null);
      expect(task.scheduleCron.split(' ')).toHaveLength(5);
      for (const run of history) {
        expect(run.start.getTime()).toBeLessThanOrEqual(now);
        const busy = run.status === 'INITIATED' || run.status === 'IN_PROGRESS';
        expect(run.finish === null).toBe(busy);
        if (run.finish) expect(run.finish.getTime()).toBeGreaterThan(run.start.getTime());
      }
    }
    // Runs in progress with a finished run before them exist.
    expect(
      tasks.some((t) => t.statusOfLastRun === 'IN_PROGRESS' && t.statusOfRunBeforeLast === 'FINISHED_SUCCESS'),
    ).toBe(true);
    expect(tasks.some((t) => t.statusOfLastRun === 'IN_PROGRESS' && t.statusOfRunBeforeLast === 'FAILED')).toBe(true);
  });

  it('produces every task display status, and NOT_RUNNABLE for each reason', async () => {
    const tasks = await taskRows();
    const shown = distinct(tasks.map(displayStatus));
    expect(shown).toEqual(distinct(TASK_DISPLAY_STATUSES));

    const runnableAbove = (t: TaskRow) =>
      t.machineStatus === 'ACTIVE' && t.packageStatus === 'ACTIVE' && t.customerStatus === 'ACTIVE';
    expect(tasks.some((t) => t.status === 'PAUSED' && runnableAbove(t))).toBe(true);
    expect(
      tasks.some(
        (t) =>
          t.status === 'ACTIVE' &&
          t.machineStatus === 'SUSPENDED' &&
          t.packageStatus === 'ACTIVE' &&
          t.customerStatus === 'ACTIVE',
      ),
    ).toBe(true);
    expect(
      tasks.some((t) => t.status === 'ACTIVE' && t.packageStatus === 'SUSPENDED' && t.customerStatus === 'ACTIVE'),
    ).toBe(true);
    expect(
      tasks.some(
        (t) =>
          t.status === 'ACTIVE' &&
          t.customerStatus === 'SUSPENDED' &&
          t.packageStatus === 'ACTIVE' &&
          t.machineStatus === 'ACTIVE',
      ),
    ).toBe(true);
    // MISSED comes from last_execution_missed on an otherwise runnable task.
    expect(tasks.some((t) => t.lastExecutionMissed && t.status === 'ACTIVE' && runnableAbove(t))).toBe(true);
  });

  it('produces every aggregate status for machines and for customers', async () => {
    const tasks = await taskRows();
    const group = (key: (t: TaskRow) => number) => {
      const groups = new Map<number, TaskRow[]>();
      for (const t of tasks) groups.set(key(t), [...(groups.get(key(t)) ?? []), t]);
      return groups;
    };
    const expected = distinct(AGGREGATE_TASK_STATUSES.filter((s) => s !== 'UNDEFINED'));
    const machineAggregates = distinct([...group((t) => t.machineId).values()].map(aggregate));
    expect(machineAggregates).toEqual(expected);

    const allCustomers = await database.db.select({ id: customers.id }).from(customers);
    const byCustomer = group((t) => t.customerId);
    const customerAggregates = distinct(allCustomers.map((c) => aggregate(byCustomer.get(c.id) ?? [])));
    expect(customerAggregates).toEqual(expected);
  });

  it('fills the dashboard read model to equal a recomputation from scratch (000 §4, DESIGN §9)', async () => {
    const stored = await readStoredReadModel(database.db);
    expect(stored).toEqual(await computeReadModel(database.db));
    expect(new Set([...stored.machines.values()].map((m) => m.taskStatus)).size).toBeGreaterThan(3);
  });

  it('builds the same demo whatever the time of day', async () => {
    const other = await openTestDatabase();
    try {
      await seedDemo(other.db, { password: PASSWORD, now: new Date(Date.now() - 7.4 * HOUR_MS) });
      const shape = async (db: Database['db']) => ({
        customers: await db
          .select({ name: customers.companyName, status: customers.status })
          .from(customers)
          .orderBy(customers.id),
        users: await db.select({ email: users.email, role: users.role }).from(users).orderBy(users.id),
        machines: await db
          .select({ name: backupMachines.name, status: backupMachines.status, os: backupMachines.operatingSystem })
          .from(backupMachines)
          .orderBy(backupMachines.id),
        tasks: await db
          .select({
            name: backupTasks.name,
            status: backupTasks.status,
            cron: backupTasks.scheduleCron,
            last: backupTasks.statusOfLastRun,
            beforeLast: backupTasks.statusOfRunBeforeLast,
            missed: backupTasks.lastExecutionMissed,
          })
          .from(backupTasks)
          .orderBy(backupTasks.id),
        actions: await db.select({ n: count() }).from(taskActions),
      });
      expect(await shape(other.db)).toEqual(await shape(database.db));
    } finally {
      await other.close();
    }
  });

  it('does nothing the second time', async () => {
    const before = await database.db.select({ n: count() }).from(users);
    const again = await seedDemo(database.db, { password: PASSWORD });
    expect(again.skipped).toBe(true);
    const after = await database.db.select({ n: count() }).from(users);
    expect(after[0]?.n).toBe(before[0]?.n);
    const customerCount = await database.db.select({ n: count() }).from(customers);
    expect(customerCount[0]?.n).toBe(summary.customers);
  });
});
