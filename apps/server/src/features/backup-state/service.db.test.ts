import {
  CUSTOMER_STATUSES,
  MACHINE_STATUSES,
  PACKAGE_STATUSES,
  RUN_STATUSES,
  TASK_DISPLAY_STATUSES,
  TASK_STATUSES,
} from '@portal/domain';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { backupMachines, backupPackages, backupTasks, customers } from '../../db/schema/index.js';
import { useTestDatabaseWithTenants } from '../../testing/suite.js';
import { computeReadModel, readStoredReadModel } from './recompute.js';
import { type BackupStateService, createBackupStateService } from './service.js';

const ctx = useTestDatabaseWithTenants();

let service: BackupStateService;
beforeAll(() => {
  service = createBackupStateService({ db: ctx.database.db });
});

const expectConsistent = async () => {
  expect(await readStoredReadModel(ctx.database.db)).toEqual(await computeReadModel(ctx.database.db));
};

const machineRow = async (id: number) =>
  (await ctx.database.db.select().from(backupMachines).where(eq(backupMachines.id, id)))[0];
const customerRow = async (id: number) =>
  (await ctx.database.db.select().from(customers).where(eq(customers.id, id)))[0];
const taskRow = async (id: number) =>
  (await ctx.database.db.select().from(backupTasks).where(eq(backupTasks.id, id)))[0];

/** A machine on a new package of the customer with one task (`task` on top of the fixture's): their ids. */
const machineWithTask = async (customerId: number, task: Parameters<typeof ctx.fixtures.task>[1] = {}) => {
  const packageId = await ctx.fixtures.package(customerId);
  const machineId = await ctx.fixtures.machine(packageId);
  const id = (await service.createTask(ctx.fixtures.task(machineId, task))) as number;
  return { packageId, machineId, id };
};

describe('backup state: each operation keeps the read model', () => {
  it('a new task counts as never run, and its runs move the machine and customer status', async () => {
    const customerId = ctx.tenants.customerB.customerId;
    const packageId = await ctx.fixtures.package(customerId);
    const machineId = await ctx.fixtures.machine(packageId);
    const taskId = await service.createTask(ctx.fixtures.task(machineId));
    expect(taskId).not.toBeNull();
    const id = taskId as number;
    expect((await taskRow(id))?.displayStatus).toBe('NOT_COMPLETED_YET');
    expect((await taskRow(id))?.customerId).toBe(customerId);
    expect((await machineRow(machineId))?.tasksNeverRun).toBe(1);
    expect((await machineRow(machineId))?.taskStatus).toBe('NO_COMPLETED_TASKS');

    await service.runStarted(id);
    expect((await machineRow(machineId))?.tasksInProgress).toBe(1);
    expect((await taskRow(id))?.displayStatus).toBe('NOT_COMPLETED_YET');
    await service.runStatusChanged(id, 'FINISHED_SUCCESS');
    expect((await taskRow(id))?.displayStatus).toBe('LAST_SUCCEEDED');
    expect((await machineRow(machineId))?.taskStatus).toBe('SUCCESSFUL_TASKS');
    expect((await machineRow(machineId))?.tasksInProgress).toBe(0);

    // While the next run is under way the task still shows how the last one ended.
    await service.runStarted(id, 'IN_PROGRESS');
    expect((await taskRow(id))?.displayStatus).toBe('LAST_SUCCEEDED');
    await service.runStatusChanged(id, 'FAILED');
    expect((await taskRow(id))?.displayStatus).toBe('LAST_FAILED');
    expect((await machineRow(machineId))?.taskStatus).toBe('FAILED_TASKS');
    expect((await customerRow(customerId))?.tasksFailed).toBeGreaterThanOrEqual(1);
    await expectConsistent();
  });

  it('a missed execution shows until the next run starts', async () => {
    const { machineId, id } = await machineWithTask(ctx.tenants.customerB.customerId, {
      statusOfLastRun: 'FINISHED_SUCCESS',
    });
    await service.updateTask(id, { lastExecutionMissed: true });
    expect((await taskRow(id))?.displayStatus).toBe('MISSED');
    expect((await machineRow(machineId))?.taskStatus).toBe('MISSED_TASKS');
    await service.runStarted(id);
    expect((await taskRow(id))?.lastExecutionMissed).toBe(false);
    expect((await taskRow(id))?.displayStatus).toBe('LAST_SUCCEEDED');
    await expectConsistent();
  });

  it('pausing a task ignores it; a machine of only paused tasks has no runnable tasks', async () => {
    const { machineId, id } = await machineWithTask(ctx.tenants.customerB.customerId);
    const versionBefore = (await taskRow(id))?.version ?? 0;
    await service.updateTask(id, { status: 'PAUSED' });
    expect((await taskRow(id))?.displayStatus).toBe('NOT_RUNNABLE');
    expect((await taskRow(id))?.version).toBe(versionBefore + 1);
    expect((await machineRow(machineId))?.taskStatus).toBe('NO_RUNNABLE_TASKS');
    await service.updateTask(id, { status: 'ACTIVE' });
    expect((await machineRow(machineId))?.taskStatus).toBe('NO_COMPLETED_TASKS');
    await expectConsistent();
  });

  it('suspending a machine, a package or a customer makes their tasks not runnable, and back', async () => {
    const customerId = ctx.tenants.customerA.customerId;
    const { packageId, machineId, id } = await machineWithTask(customerId, { statusOfLastRun: 'FAILED' });
    expect((await machineRow(machineId))?.taskStatus).toBe('FAILED_TASKS');

    await service.setMachineStatus(machineId, 'SUSPENDED');
    expect((await taskRow(id))?.displayStatus).toBe('NOT_RUNNABLE');
    await service.setMachineStatus(machineId, 'ACTIVE');
    await service.setPackageStatus(packageId, 'OVER_QUOTA');
    expect((await taskRow(id))?.displayStatus).toBe('NOT_RUNNABLE');
    expect((await machineRow(machineId))?.taskStatus).toBe('NO_RUNNABLE_TASKS');
    await service.setPackageStatus(packageId, 'ACTIVE');
    await service.setCustomerStatus(customerId, 'BLOCKED');
    expect((await taskRow(id))?.displayStatus).toBe('NOT_RUNNABLE');
    expect((await customerRow(customerId))?.taskStatus).toBe('NO_RUNNABLE_TASKS');
    await service.setCustomerStatus(customerId, 'ACTIVE');
    expect((await taskRow(id))?.displayStatus).toBe('LAST_FAILED');
    expect((await customerRow(customerId))?.taskStatus).toBe('FAILED_TASKS');
    await expectConsistent();
  });

  it('moving a machine to a suspended package of its customer stops its tasks; a foreign package is refused', async () => {
    const customerId = ctx.tenants.customerA.customerId;
    const from = await ctx.fixtures.package(customerId);
    const to = await ctx.fixtures.package(customerId, { status: 'SUSPENDED' });
    const foreign = await ctx.fixtures.package(ctx.tenants.customerB.customerId);
    const machineId = await ctx.fixtures.machine(from);
    const id = (await service.createTask(ctx.fixtures.task(machineId))) as number;
    expect(await service.moveMachineToPackage(machineId, foreign)).toBe(false);
    expect((await machineRow(machineId))?.backupPackageId).toBe(from);
    expect(await service.moveMachineToPackage(machineId, to)).toBe(true);
    expect((await taskRow(id))?.backupPackageId).toBe(to);
    expect((await taskRow(id))?.displayStatus).toBe('NOT_RUNNABLE');
    await expectConsistent();
  });

  it('deleting a task, a machine or a package takes their counts off the customer', async () => {
    const customerId = ctx.tenants.reseller.customerId;
    const packageId = await ctx.fixtures.package(customerId);
    const machineA = await ctx.fixtures.machine(packageId);
    const machineB = await ctx.fixtures.machine(packageId);
    const failed = (await service.createTask(ctx.fixtures.task(machineA, { statusOfLastRun: 'FAILED' }))) as number;
    await service.createTask(ctx.fixtures.task(machineA, { statusOfLastRun: 'FINISHED_SUCCESS' }));
    await service.createTask(ctx.fixtures.task(machineB, { lastExecutionMissed: true }));
    expect((await customerRow(customerId))?.taskStatus).toBe('FAILED_AND_MISSED_TASKS');
    await service.deleteTask(failed);
    expect((await customerRow(customerId))?.taskStatus).toBe('MISSED_TASKS');
    await service.deleteMachine(machineB);
    expect((await customerRow(customerId))?.taskStatus).toBe('SUCCESSFUL_TASKS');
    await service.deletePackage(packageId);
    expect((await customerRow(customerId))?.taskStatus).toBe('NO_COMPLETED_TASKS');
    expect((await customerRow(customerId))?.tasksSuccessful).toBe(0);
    await expectConsistent();
  });

  it('an operation on something that does not exist changes nothing and says so', async () => {
    expect(await service.createTask(ctx.fixtures.task(999_999))).toBeNull();
    expect(await service.updateTask(999_999, { status: 'PAUSED' })).toBe(false);
    expect(await service.runStarted(999_999)).toBe(false);
    expect(await service.deleteMachine(999_999)).toBe(false);
    expect(await service.setCustomerStatus(999_999, 'ACTIVE')).toBe(false);
    await expectConsistent();
  });
});

describe('backup state: random changes', () => {
  const pick = <T>(items: readonly T[], index: number): T | undefined =>
    items.length === 0 ? undefined : items[index % items.length];

  const operation = fc.oneof(
    fc.record({
      op: fc.constant('createTask' as const),
      at: fc.nat(),
      run: fc.option(fc.constantFrom(...RUN_STATUSES)),
    }),
    fc.record({ op: fc.constant('updateTask' as const), at: fc.nat(), status: fc.constantFrom(...TASK_STATUSES) }),
    fc.record({ op: fc.constant('missed' as const), at: fc.nat(), missed: fc.boolean() }),
    fc.record({ op: fc.constant('runStarted' as const), at: fc.nat() }),
    fc.record({ op: fc.constant('runStatusChanged' as const), at: fc.nat(), status: fc.constantFrom(...RUN_STATUSES) }),
    fc.record({ op: fc.constant('deleteTask' as const), at: fc.nat() }),
    fc.record({
      op: fc.constant('machineStatus' as const),
      at: fc.nat(),
      status: fc.constantFrom(...MACHINE_STATUSES),
    }),
    fc.record({
      op: fc.constant('packageStatus' as const),
      at: fc.nat(),
      status: fc.constantFrom(...PACKAGE_STATUSES),
    }),
    fc.record({
      op: fc.constant('customerStatus' as const),
      at: fc.nat(),
      status: fc.constantFrom(...CUSTOMER_STATUSES),
    }),
    fc.record({ op: fc.constant('createMachine' as const), at: fc.nat() }),
    fc.record({ op: fc.constant('moveMachine' as const), at: fc.nat(), to: fc.nat() }),
    fc.record({ op: fc.constant('deleteMachine' as const), at: fc.nat() }),
    fc.record({ op: fc.constant('createPackage' as const), at: fc.nat() }),
    fc.record({ op: fc.constant('deletePackage' as const), at: fc.nat() }),
  );
  type Operation = typeof operation extends fc.Arbitrary<infer O> ? O : never;

  const ids = async () => ({
    customers: (await ctx.database.db.select({ id: customers.id }).from(customers)).map((r) => r.id),
    packages: await ctx.database.db
      .select({ id: backupPackages.id, customerId: backupPackages.customerId })
      .from(backupPackages),
    machines: (await ctx.database.db.select({ id: backupMachines.id }).from(backupMachines)).map((r) => r.id),
    tasks: (await ctx.database.db.select({ id: backupTasks.id }).from(backupTasks)).map((r) => r.id),
  });

  async function apply(o: Operation): Promise<void> {
    const known = await ids();
    const task = pick(known.tasks, o.at);
    const machine = pick(known.machines, o.at);
    const pkg = pick(known.packages, o.at);
    switch (o.op) {
      case 'createTask':
        if (machine) await service.createTask(ctx.fixtures.task(machine, { statusOfLastRun: o.run }));
        return;
      case 'updateTask':
        if (task) await service.updateTask(task, { status: o.status });
        return;
      case 'missed':
        if (task) await service.updateTask(task, { lastExecutionMissed: o.missed });
        return;
      case 'runStarted':
        if (task) await service.runStarted(task);
        return;
      case 'runStatusChanged':
        if (task) await service.runStatusChanged(task, o.status);
        return;
      case 'deleteTask':
        if (task) await service.deleteTask(task);
        return;
      case 'machineStatus':
        if (machine) await service.setMachineStatus(machine, o.status);
        return;
      case 'packageStatus':
        if (pkg) await service.setPackageStatus(pkg.id, o.status);
        return;
      case 'customerStatus': {
        const customer = pick(known.customers, o.at);
        if (customer) await service.setCustomerStatus(customer, o.status);
        return;
      }
      case 'createMachine':
        if (pkg) await ctx.fixtures.machine(pkg.id);
        return;
      case 'moveMachine': {
        const target = pick(known.packages, o.to);
        if (machine && target) await service.moveMachineToPackage(machine, target.id);
        return;
      }
      case 'deleteMachine':
        if (machine) await service.deleteMachine(machine);
        return;
      case 'createPackage': {
        const customer = pick(known.customers, o.at);
        if (customer) await ctx.fixtures.package(customer);
        return;
      }
      case 'deletePackage':
        if (pkg) await service.deletePackage(pkg.id);
        return;
    }
  }

  it('the stored read model equals a recomputation after any sequence of changes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 30 }), async (operations) => {
        for (const o of operations) await apply(o);
        const stored = await readStoredReadModel(ctx.database.db);
        expect(stored).toEqual(await computeReadModel(ctx.database.db));
        for (const status of stored.tasks.values()) expect(TASK_DISPLAY_STATUSES).toContain(status);
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it('concurrent changes of several customers leave the read model exact', async () => {
    const machines: number[] = [];
    const tasks: number[] = [];
    for (const customerId of [
      ctx.tenants.customerA.customerId,
      ctx.tenants.customerB.customerId,
      ctx.tenants.reseller.customerId,
    ]) {
      const packageId = await ctx.fixtures.package(customerId);
      for (let m = 0; m < 2; m++) {
        const machine = await ctx.fixtures.machine(packageId);
        machines.push(machine);
        for (let i = 0; i < 3; i++) tasks.push((await service.createTask(ctx.fixtures.task(machine))) as number);
      }
    }
    const work = Array.from({ length: 60 }, (_, i) => {
      const task = tasks[i % tasks.length] as number;
      const machine = machines[i % machines.length] as number;
      switch (i % 5) {
        case 0:
          return service.runStarted(task);
        case 1:
          return service.runStatusChanged(task, i % 2 ? 'FAILED' : 'FINISHED_SUCCESS');
        case 2:
          return service.setMachineStatus(machine, i % 3 ? 'ACTIVE' : 'SUSPENDED');
        case 3:
          return service.updateTask(task, { lastExecutionMissed: i % 2 === 0 });
        default:
          return service.createTask(ctx.fixtures.task(machine, { statusOfLastRun: 'FINISHED_WARNINGS' }));
      }
    });
    await Promise.all(work);
    await expectConsistent();
  }, 60_000);
});
