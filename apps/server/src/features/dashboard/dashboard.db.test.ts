import {
  AGGREGATE_TASK_STATUSES,
  CUSTOMER_SORT_COLUMNS,
  CUSTOMER_STATUSES,
  type DashboardCustomerCounts,
  type DashboardCustomerRow,
  type DashboardMachineCounts,
  type DashboardMachineRow,
  type DashboardTaskCounts,
  type DashboardTaskRow,
  type Envelope,
  type GettingStartedFlags,
  MACHINE_SORT_COLUMNS,
  MACHINE_STATUSES,
  type Paged,
  ROUTES,
  TASK_DISPLAY_STATUSES,
  TASK_SORT_COLUMNS,
} from '@portal/domain';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { backupMachines, customers } from '../../db/schema/index.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { FIXTURE_PASSWORD } from '../../testing/fixtures.js';
import { useTestAppWithTenants } from '../../testing/suite.js';
import { createBackupStateService } from '../backup-state/service.js';

const ctx = useTestAppWithTenants();
const as: Record<'provider' | 'reseller' | 'superA' | 'adminA' | 'userA' | 'adminB' | 'anonymous', TestClient> =
  {} as never;
/** Customer A (a reseller's client): 14 machines, the first assigned to A's user. */
const machinesA: number[] = [];
let machineB = 0;
let userMachineTasks: { active: number; paused: number; failed: number } = { active: 0, paused: 0, failed: 0 };

beforeAll(async () => {
  const db = ctx.t.database.db;
  const fixtures = backupFixtures(db);
  const state = createBackupStateService({ db });

  const a = ctx.tenants.customerA.customerId;
  const b = ctx.tenants.customerB.customerId;
  await fixtures.setSuperAdmin(a, ctx.tenants.customerA.superAdmin.id);
  await fixtures.setSuperAdmin(b, ctx.tenants.customerB.superAdmin.id);
  await fixtures.setSuperAdmin(ctx.tenants.reseller.customerId, ctx.tenants.reseller.superAdmin.id);
  await fixtures.storageLocation(a);
  await fixtures.storageLocation(ctx.tenants.reseller.customerId);
  // Customer B has no storage location: a new signup.

  const packageA = await fixtures.package(a);
  for (let i = 1; i <= 14; i++) {
    machinesA.push(
      await fixtures.machine(packageA, {
        name: `alpha-${String(i).padStart(2, '0')}`,
        assignedUserId: i === 1 ? ctx.tenants.customerA.user.id : null,
        osFamily: i % 3 === 0 ? 'WINDOWS' : 'LINUX',
        softwareVersion: `1.${i % 4}.0`,
        status: i === 14 ? 'SUSPENDED' : 'ACTIVE',
      }),
    );
  }
  const first = machinesA[0] as number;
  userMachineTasks = {
    active: (await state.createTask(
      fixtures.task(first, { name: 'Documents', statusOfLastRun: 'FINISHED_SUCCESS' }),
    )) as number,
    paused: (await state.createTask(fixtures.task(first, { name: 'Photos', status: 'PAUSED' }))) as number,
    failed: (await state.createTask(fixtures.task(first, { name: 'Mail', statusOfLastRun: 'FAILED' }))) as number,
  };
  await state.runStarted(userMachineTasks.active);
  await state.createTask(fixtures.task(machinesA[1] as number, { lastExecutionMissed: true }));

  const packageB = await fixtures.package(b);
  machineB = await fixtures.machine(packageB, { name: 'beta-server' });
  await state.createTask(fixtures.task(machineB, { statusOfLastRun: 'FAILED' }));

  const sign = async (email: string) => {
    const client = new TestClient(ctx.t.app);
    await client.signIn(email, FIXTURE_PASSWORD);
    return client;
  };
  as.provider = await sign(ctx.tenants.providerAdmin.email);
  as.reseller = await sign(ctx.tenants.reseller.superAdmin.email);
  as.superA = await sign(ctx.tenants.customerA.superAdmin.email);
  as.adminA = await sign(ctx.tenants.customerA.admin.email);
  as.userA = await sign(ctx.tenants.customerA.user.email);
  as.adminB = await sign(ctx.tenants.customerB.admin.email);
  as.anonymous = new TestClient(ctx.t.app);
});

async function get<T>(client: TestClient, url: string, status = 200): Promise<T> {
  const response = await client.json('GET', url);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(status);
  return (response.json() as Envelope<T>).result as T;
}
const page = <R>(client: TestClient, url: string) => get<Paged<R>>(client, url);
const names = (rows: { name: string }[]) => rows.map((r) => r.name);

/** A customer the caller may not see: its machines and their counts are not found (no hint that it exists). */
async function expectCustomerHidden(client: TestClient, customerId: number) {
  await get(client, ROUTES.dashboard.customerMachines.build({ customerId }), 404);
  await get(client, ROUTES.dashboard.customerMachineCounts.build({ customerId }), 404);
}

/** The same for a machine the caller may not see: its tasks and their counts. */
async function expectMachineHidden(client: TestClient, machineId: number) {
  await get(client, ROUTES.dashboard.machineTasks.build({ machineId }), 404);
  await get(client, ROUTES.dashboard.machineTaskCounts.build({ machineId }), 404);
}

describe('customers tab', () => {
  it('shows a provider admin every customer with its status, tasks status, types and manage link', async () => {
    const result = await page<DashboardCustomerRow>(as.provider, ROUTES.dashboard.customers.build());
    expect(names(result.elements)).toEqual(['Alpha Ltd', 'Beta Inc', 'Reseller Co']);
    expect(result).toMatchObject({ totalElements: 3, totalPages: 1 });
    const [alpha, beta, reseller] = result.elements;
    expect(alpha).toEqual({
      id: ctx.tenants.customerA.customerId,
      name: 'Alpha Ltd',
      superAdminEmail: ctx.tenants.customerA.superAdmin.email,
      status: 'ACTIVE',
      statusGroup: 'ACTIVE',
      types: ['RESELLER_CLIENT'],
      taskStatus: 'FAILED_AND_MISSED_TASKS',
      tasksInProgress: true,
      customerUrl: `/boltadmin/customers/${ctx.tenants.customerA.customerId}`,
    });
    expect(beta).toMatchObject({ status: 'SIGNUP_REQUESTED', statusGroup: 'NEW_SIGNUP', taskStatus: 'FAILED_TASKS' });
    expect(beta?.types).toEqual(['PROVIDER_OWN']);
    expect(reseller).toMatchObject({ types: ['PROVIDER_OWN', 'RESELLER'], taskStatus: 'NO_COMPLETED_TASKS' });
  });

  it('sorts on every column both ways, ties broken by id', async () => {
    for (const column of CUSTOMER_SORT_COLUMNS) {
      const asc = await page<DashboardCustomerRow>(
        as.provider,
        `${ROUTES.dashboard.customers.build()}?sort=${column},asc`,
      );
      const desc = await page<DashboardCustomerRow>(
        as.provider,
        `${ROUTES.dashboard.customers.build()}?sort=${column},desc`,
      );
      expect(desc.elements.map((r) => r.id)).toEqual(asc.elements.map((r) => r.id).reverse());
      const key = (r: DashboardCustomerRow) =>
        column === 'status'
          ? CUSTOMER_STATUSES.indexOf(r.status)
          : column === 'taskStatus'
            ? AGGREGATE_TASK_STATUSES.indexOf(r.taskStatus)
            : (column === 'name' ? r.name : (r.superAdminEmail ?? '')).toLowerCase();
      const keys = asc.elements.map(key);
      expect(keys).toEqual([...keys].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
    }
  });

  it('filters on one pie slice at a time while the counts keep every slice', async () => {
    const failed = await page<DashboardCustomerRow>(
      as.provider,
      `${ROUTES.dashboard.customers.build()}?taskStatus=FAILED_TASKS`,
    );
    expect(names(failed.elements)).toEqual(['Beta Inc']);
    const signups = await page<DashboardCustomerRow>(
      as.provider,
      `${ROUTES.dashboard.customers.build()}?statusGroup=NEW_SIGNUP`,
    );
    expect(names(signups.elements)).toEqual(['Beta Inc']);
    const counts = await get<DashboardCustomerCounts>(as.provider, ROUTES.dashboard.customerCounts.build());
    expect(counts.total).toBe(3);
    expect(counts.taskStatus).toMatchObject({ FAILED_TASKS: 1, FAILED_AND_MISSED_TASKS: 1, NO_COMPLETED_TASKS: 1 });
    expect(counts.statusGroup).toEqual({ ACTIVE: 2, SUSPENDED_OR_BLOCKED: 0, APPROVED: 0, NEW_SIGNUP: 1 });
  });

  it('shows a reseller admin only its own customers, with reseller links', async () => {
    const result = await page<DashboardCustomerRow>(as.reseller, ROUTES.dashboard.customers.build());
    expect(names(result.elements)).toEqual(['Alpha Ltd']);
    expect(result.elements[0]?.customerUrl).toBe(`/admin/mycustomers/${ctx.tenants.customerA.customerId}`);
    const counts = await get<DashboardCustomerCounts>(as.reseller, ROUTES.dashboard.customerCounts.build());
    expect(counts.total).toBe(1);
  });

  it('is not there for customer accounts', async () => {
    for (const client of [as.superA, as.adminA, as.userA, as.adminB]) {
      await get(client, ROUTES.dashboard.customers.build(), 403);
      await get(client, ROUTES.dashboard.customerCounts.build(), 403);
    }
    await get(as.anonymous, ROUTES.dashboard.customers.build(), 401);
  });
});

describe('machines tab', () => {
  it('pages a customer machines 12 at a time with provider links', async () => {
    const a = ctx.tenants.customerA.customerId;
    const first = await page<DashboardMachineRow>(
      as.provider,
      ROUTES.dashboard.customerMachines.build({ customerId: a }),
    );
    expect(first).toMatchObject({ totalElements: 14, totalPages: 2 });
    expect(first.elements).toHaveLength(12);
    expect(first.elements[0]).toMatchObject({
      name: 'alpha-01',
      user: 'user Tester',
      osFamily: 'LINUX',
      softwareVersion: '1.1.0',
      status: 'ACTIVE',
      taskStatus: 'FAILED_TASKS',
      tasksInProgress: true,
      online: false,
    });
    const row = first.elements[0] as DashboardMachineRow;
    expect(row.backupMachineUrl).toBe(
      `/boltadmin/customers/${a}/backuppackages/${row.backupPackageId}/backupmachines/${row.id}`,
    );
    const second = await page<DashboardMachineRow>(
      as.provider,
      `${ROUTES.dashboard.customerMachines.build({ customerId: a })}?page=1`,
    );
    expect(names(second.elements)).toEqual(['alpha-13', 'alpha-14']);
    expect(second).toMatchObject({ totalElements: 14, totalPages: 2 });
    const beyond = await page<DashboardMachineRow>(
      as.provider,
      `${ROUTES.dashboard.customerMachines.build({ customerId: a })}?page=9`,
    );
    expect(beyond).toEqual({ elements: [], totalElements: 14, totalPages: 2 });
    const exact = await page<DashboardMachineRow>(
      as.provider,
      `${ROUTES.dashboard.customerMachines.build({ customerId: a })}?size=7&page=1`,
    );
    expect(exact).toMatchObject({ totalElements: 14, totalPages: 2 });
  });

  it('sorts on every column both ways', async () => {
    const path = ROUTES.dashboard.customerMachines.build({ customerId: ctx.tenants.customerA.customerId });
    for (const column of MACHINE_SORT_COLUMNS) {
      const asc = await page<DashboardMachineRow>(as.provider, `${path}?sort=${column},asc&size=100`);
      const desc = await page<DashboardMachineRow>(as.provider, `${path}?sort=${column},desc&size=100`);
      expect(desc.elements.map((r) => r.id)).toEqual(asc.elements.map((r) => r.id).reverse());
    }
    const byVersion = await page<DashboardMachineRow>(as.provider, `${path}?sort=softwareVersion,desc&size=3`);
    expect(byVersion.elements.map((r) => r.softwareVersion)).toEqual(['1.3.0', '1.3.0', '1.3.0']);
    const byStatus = await page<DashboardMachineRow>(as.provider, `${path}?sort=status,desc&size=1`);
    expect(byStatus.elements[0]?.name).toBe('alpha-14');
  });

  it('filters by machine status or tasks status; counts cover the whole customer', async () => {
    const path = ROUTES.dashboard.customerMachines.build({ customerId: ctx.tenants.customerA.customerId });
    const suspended = await page<DashboardMachineRow>(as.provider, `${path}?status=SUSPENDED`);
    expect(names(suspended.elements)).toEqual(['alpha-14']);
    const missed = await page<DashboardMachineRow>(as.provider, `${path}?taskStatus=MISSED_TASKS`);
    expect(names(missed.elements)).toEqual(['alpha-02']);
    const counts = await get<DashboardMachineCounts>(
      as.provider,
      ROUTES.dashboard.customerMachineCounts.build({ customerId: ctx.tenants.customerA.customerId }),
    );
    expect(counts.total).toBe(14);
    expect(counts.status).toMatchObject({ ACTIVE: 13, SUSPENDED: 1 });
    expect(Object.keys(counts.status)).toEqual([...MACHINE_STATUSES]);
    expect(counts.taskStatus).toMatchObject({ FAILED_TASKS: 1, MISSED_TASKS: 1, NO_COMPLETED_TASKS: 12 });
  });

  it('gives a provider admin all machines for customer -1, and nobody else', async () => {
    const all = await page<DashboardMachineRow>(
      as.provider,
      `${ROUTES.dashboard.customerMachines.build({ customerId: -1 })}?size=100`,
    );
    expect(all.totalElements).toBe(15);
    expect(names(all.elements)).toContain('beta-server');
    // All machines' counts come from the kept summary; they are the sums of the customers' counted ones.
    const countsOf = (customerId: number) =>
      get<DashboardMachineCounts>(as.provider, ROUTES.dashboard.customerMachineCounts.build({ customerId }));
    const everyMachine = await countsOf(-1);
    expect(everyMachine.total).toBe(15);
    const perCustomer = await Promise.all(
      [ctx.tenants.customerA, ctx.tenants.customerB, ctx.tenants.reseller].map((c) => countsOf(c.customerId)),
    );
    const summed = (pie: 'status' | 'taskStatus') =>
      Object.fromEntries(
        Object.keys(everyMachine[pie]).map((key) => [
          key,
          perCustomer.reduce((n, counts) => n + ((counts[pie] as Record<string, number>)[key] ?? 0), 0),
        ]),
      );
    expect(everyMachine.status).toEqual(summed('status'));
    expect(everyMachine.taskStatus).toEqual(summed('taskStatus'));
    expect(everyMachine.taskStatus).toMatchObject({ FAILED_TASKS: 2, MISSED_TASKS: 1, NO_COMPLETED_TASKS: 12 });
    for (const client of [as.reseller, as.superA, as.userA]) {
      await get(client, ROUTES.dashboard.customerMachines.build({ customerId: -1 }), 403);
      await get(client, ROUTES.dashboard.customerMachineCounts.build({ customerId: -1 }), 403);
    }
  });

  it('lets a reseller admin open its customer machines with reseller links, and no other customer', async () => {
    const a = ctx.tenants.customerA.customerId;
    const result = await page<DashboardMachineRow>(
      as.reseller,
      ROUTES.dashboard.customerMachines.build({ customerId: a }),
    );
    expect(result.totalElements).toBe(14);
    const row = result.elements[0] as DashboardMachineRow;
    expect(row.backupMachineUrl).toBe(
      `/admin/mycustomers/${a}/backuppackages/${row.backupPackageId}/backupmachines/${row.id}`,
    );
    await expectCustomerHidden(as.reseller, ctx.tenants.customerB.customerId);
  });

  it('opens a customer admin on their own machines with customer links', async () => {
    for (const client of [as.superA, as.adminA]) {
      const result = await page<DashboardMachineRow>(client, ROUTES.dashboard.ownMachines.build());
      expect(result.totalElements).toBe(14);
      expect(result.elements[0]?.backupMachineUrl).toBe(`/backupmachines/${machinesA[0]}`);
      expect((await get<DashboardMachineCounts>(client, ROUTES.dashboard.ownMachineCounts.build())).total).toBe(14);
    }
  });

  it('shows a customer user only the machines assigned to them', async () => {
    const own = await page<DashboardMachineRow>(as.userA, ROUTES.dashboard.ownMachines.build());
    expect(names(own.elements)).toEqual(['alpha-01']);
    expect((await get<DashboardMachineCounts>(as.userA, ROUTES.dashboard.ownMachineCounts.build())).total).toBe(1);
    const viaId = await page<DashboardMachineRow>(
      as.userA,
      ROUTES.dashboard.customerMachines.build({ customerId: ctx.tenants.customerA.customerId }),
    );
    expect(names(viaId.elements)).toEqual(['alpha-01']);
  });

  it('gives another tenant nothing of customer A, and the provider no own machines', async () => {
    await expectCustomerHidden(as.adminB, ctx.tenants.customerA.customerId);
    const own = await page<DashboardMachineRow>(as.adminB, ROUTES.dashboard.ownMachines.build());
    expect(names(own.elements)).toEqual(['beta-server']);
    await get(as.provider, ROUTES.dashboard.ownMachines.build(), 403);
    await get(as.provider, ROUTES.dashboard.customerMachines.build({ customerId: 999_999 }), 404);
  });
});

describe('tasks tab', () => {
  const first = () => machinesA[0] as number;

  it('lists a machine tasks with display status, badges and the caller links', async () => {
    const result = await page<DashboardTaskRow>(
      as.provider,
      ROUTES.dashboard.machineTasks.build({ machineId: first() }),
    );
    expect(names(result.elements)).toEqual(['Documents', 'Mail', 'Photos']);
    const [documents, mail, photos] = result.elements as [DashboardTaskRow, DashboardTaskRow, DashboardTaskRow];
    expect(documents).toMatchObject({
      displayStatus: 'LAST_SUCCEEDED',
      statusOfLastRun: 'INITIATED',
      badges: ['RUN_IN_PROGRESS'],
      scheduleDescription: 'Daily at 02:00',
    });
    expect(mail).toMatchObject({ displayStatus: 'LAST_FAILED', badges: [] });
    expect(photos).toMatchObject({ status: 'PAUSED', displayStatus: 'NOT_RUNNABLE', badges: ['PAUSED'] });
    const machine = (await ctx.t.database.db.select().from(backupMachines).where(eq(backupMachines.id, first())))[0];
    expect(documents.backupTaskUrl).toBe(
      `/boltadmin/customers/${ctx.tenants.customerA.customerId}/backuppackages/${machine?.backupPackageId}/backupmachines/${first()}/backuptasks/${documents.id}`,
    );
    const user = await page<DashboardTaskRow>(as.userA, ROUTES.dashboard.machineTasks.build({ machineId: first() }));
    expect(user.elements[0]?.backupTaskUrl).toBe(`/backupmachines/${first()}/backuptasks/${documents.id}`);
  });

  it('shows the suspension badge of a suspended machine', async () => {
    const suspended = machinesA[13] as number;
    await createBackupStateService({ db: ctx.t.database.db }).createTask(
      backupFixtures(ctx.t.database.db).task(suspended),
    );
    const result = await page<DashboardTaskRow>(
      as.provider,
      ROUTES.dashboard.machineTasks.build({ machineId: suspended }),
    );
    expect(result.elements[0]).toMatchObject({ displayStatus: 'NOT_RUNNABLE', badges: ['MACHINE_SUSPENDED'] });
  });

  it('sorts, filters and counts', async () => {
    for (const column of TASK_SORT_COLUMNS) {
      const asc = await page<DashboardTaskRow>(
        as.provider,
        `${ROUTES.dashboard.machineTasks.build({ machineId: first() })}?sort=${column},asc`,
      );
      const desc = await page<DashboardTaskRow>(
        as.provider,
        `${ROUTES.dashboard.machineTasks.build({ machineId: first() })}?sort=${column},desc`,
      );
      expect(desc.elements.map((r) => r.id)).toEqual(asc.elements.map((r) => r.id).reverse());
    }
    const failed = await page<DashboardTaskRow>(
      as.provider,
      `${ROUTES.dashboard.machineTasks.build({ machineId: first() })}?taskStatus=LAST_FAILED`,
    );
    expect(names(failed.elements)).toEqual(['Mail']);
    const counts = await get<DashboardTaskCounts>(
      as.provider,
      ROUTES.dashboard.machineTaskCounts.build({ machineId: first() }),
    );
    expect(counts.total).toBe(3);
    expect(Object.keys(counts.taskStatus)).toEqual([...TASK_DISPLAY_STATUSES]);
    expect(counts.taskStatus).toMatchObject({ LAST_SUCCEEDED: 1, LAST_FAILED: 1, NOT_RUNNABLE: 1, MISSED: 0 });
  });

  it('answers 404 for a machine the caller may not see', async () => {
    const unassigned = machinesA[1] as number;
    await expectMachineHidden(as.userA, unassigned);
    await expectMachineHidden(as.adminB, first());
    await get(as.reseller, ROUTES.dashboard.machineTasks.build({ machineId: machineB }), 404);
    await get(as.adminA, ROUTES.dashboard.machineTasks.build({ machineId: unassigned }), 200);
    await get(as.reseller, ROUTES.dashboard.machineTasks.build({ machineId: first() }), 200);
    await get(as.provider, ROUTES.dashboard.machineTasks.build({ machineId: 999_999 }), 404);
  });
});

describe('bad input', () => {
  it('refuses unknown sorts, two filters at once, bad pages and bad ids with field messages', async () => {
    const cases: [string, string][] = [
      [`${ROUTES.dashboard.customers.build()}?sort=password,asc`, 'sort'],
      [`${ROUTES.dashboard.customers.build()}?sort=name,sideways`, 'sort'],
      [`${ROUTES.dashboard.customers.build()}?taskStatus=FAILED_TASKS&statusGroup=ACTIVE`, 'statusGroup'],
      [`${ROUTES.dashboard.customers.build()}?page=-1`, 'page'],
      [`${ROUTES.dashboard.customers.build()}?size=1000`, 'size'],
      [`${ROUTES.dashboard.customerMachines.build({ customerId: -1 })}?status=NOPE`, 'status'],
      ['/dashboard/customers/abc/machines', 'customerId'],
      ['/dashboard/customers/-2/machines', 'customerId'],
      ['/dashboard/backupmachines/0/tasks', 'machineId'],
      [`${ROUTES.dashboard.machineTasks.build({ machineId: 1 })}?taskStatus=FAILED_TASKS`, 'taskStatus'],
      [`${ROUTES.dashboard.customerMachines.build({ customerId: -1 })}?statusGroup=ACTIVE`, ''],
    ];
    for (const [url, field] of cases) {
      const response = await as.provider.json('GET', url);
      expect(response.statusCode, url).toBe(400);
      expect(
        response.json().messages.map((m: { fieldName: string }) => m.fieldName),
        url,
      ).toContain(field);
    }
  });
});

describe('getting-started strip', () => {
  it('reads the flags of the caller own customer', async () => {
    const a = await get<GettingStartedFlags>(as.userA, ROUTES.dashboard.gettingStarted.build());
    expect(a).toEqual({
      boltCustomer: false,
      firstPaymentRequired: true,
      firstMachineLinkedToUser: true,
      firstBackupTaskCreated: true,
    });
    await ctx.t.database.db
      .update(customers)
      .set({ firstPaymentRequired: false })
      .where(eq(customers.id, ctx.tenants.reseller.customerId));
    const reseller = await get<GettingStartedFlags>(as.reseller, ROUTES.dashboard.gettingStarted.build());
    expect(reseller).toEqual({
      boltCustomer: true,
      firstPaymentRequired: false,
      firstMachineLinkedToUser: false,
      firstBackupTaskCreated: false,
    });
    const b = await get<GettingStartedFlags>(as.adminB, ROUTES.dashboard.gettingStarted.build());
    expect(b).toMatchObject({ boltCustomer: true, firstMachineLinkedToUser: false, firstBackupTaskCreated: true });
    await get(as.provider, ROUTES.dashboard.gettingStarted.build(), 403);
  });
});
