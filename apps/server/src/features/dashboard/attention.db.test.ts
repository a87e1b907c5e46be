import {
  type AttentionItem,
  type AttentionKind,
  type AttentionList,
  machineUrl,
  ROUTES,
  taskUrl,
} from '@portal/domain';
import { NO_ATTENTION } from '@portal/domain/testing/attention';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { backupMachines, backupTasks, taskActions } from '../../db/schema/index.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { resultOf, signedInClients } from '../../testing/envelope.js';
import { fixtureEmails } from '../../testing/fixtures.js';
import { useTestAppWithTenants } from '../../testing/suite.js';
import { createBackupStateService } from '../backup-state/service.js';

const ctx = useTestAppWithTenants();
let as: Record<keyof ReturnType<typeof fixtureEmails>, TestClient>;
const at = (hour: number) => new Date(Date.UTC(2026, 0, 10, hour));
const ids = { packageA: 0, packageB: 0, packageR: 0, userMachine: 0, otherMachine: 0, machineB: 0, machineR: 0 };
const tasks = { failedA: 0, missedA: 0, stalledA: 0, failedB: 0 };

beforeAll(async () => {
  const db = ctx.t.database.db;
  const fixtures = backupFixtures(db);
  const state = createBackupStateService({ db });
  const { customerA, customerB, reseller } = ctx.tenants;
  ids.packageA = await fixtures.package(customerA.customerId);
  ids.packageB = await fixtures.package(customerB.customerId);
  ids.packageR = await fixtures.package(reseller.customerId);
  ids.userMachine = await fixtures.machine(ids.packageA, { name: 'alpha-user', assignedUserId: customerA.user.id });
  ids.otherMachine = await fixtures.machine(ids.packageA, { name: 'alpha-other', status: 'OVER_PER_MACHINE_QUOTA' });
  ids.machineB = await fixtures.machine(ids.packageB, { name: 'beta-server' });
  ids.machineR = await fixtures.machine(ids.packageR, { name: 'reseller-pc' });
  // Never seen: not offline, whatever its flag.
  await fixtures.machine(ids.packageB, { name: 'beta-new' });

  const task = async (machineId: number, options: Parameters<typeof fixtures.task>[1]) =>
    (await state.createTask(fixtures.task(machineId, options))) as number;
  tasks.failedA = await task(ids.userMachine, { name: 'Documents', statusOfLastRun: 'FAILED' });
  tasks.missedA = await task(ids.userMachine, { name: 'Photos', lastExecutionMissed: true });
  await task(ids.userMachine, { name: 'Fine', statusOfLastRun: 'FINISHED_SUCCESS' });
  tasks.stalledA = await task(ids.otherMachine, { name: 'Database' });
  tasks.failedB = await task(ids.machineB, { name: 'Mail', statusOfLastRun: 'FAILED' });
  await db.insert(taskActions).values({
    backupTaskId: tasks.stalledA,
    backupMachineId: ids.otherMachine,
    type: 'BACKUP_RUN',
    status: 'IN_PROGRESS',
    stalledAt: at(5),
  });

  const since = (taskId: number, hour: number) =>
    db
      .update(backupTasks)
      .set({ displayStatusSince: at(hour) })
      .where(eq(backupTasks.id, taskId));
  await since(tasks.failedA, 3);
  await since(tasks.missedA, 2);
  await since(tasks.failedB, 4);
  await db
    .update(backupMachines)
    .set({ statusSince: at(1) })
    .where(eq(backupMachines.id, ids.otherMachine));
  await db
    .update(backupMachines)
    .set({ lastSeenAt: at(6) })
    .where(eq(backupMachines.id, ids.machineB));
  await db
    .update(backupMachines)
    .set({ lastSeenAt: at(7) })
    .where(eq(backupMachines.id, ids.machineR));
  // Online: not listed though seen.
  await db
    .update(backupMachines)
    .set({ lastSeenAt: at(8), online: true })
    .where(eq(backupMachines.id, ids.userMachine));

  as = await signedInClients(ctx.t.app, fixtureEmails(ctx.tenants));
});

const attention = async (client: TestClient) =>
  resultOf<AttentionList>(await client.json('GET', ROUTES.dashboard.attention.build()));
const listed = (list: AttentionList) =>
  list.items.map((item) => [item.kind, item.machineName, item.taskName] as [AttentionKind, string, string | null]);

describe('needs attention', () => {
  it('lists every tenant’s items to the provider, newest first, each linked to its page', async () => {
    const list = await attention(as.provider);
    expect(listed(list)).toEqual([
      ['MACHINE_OFFLINE', 'reseller-pc', null],
      ['MACHINE_OFFLINE', 'beta-server', null],
      ['RUN_STALLED', 'alpha-other', 'Database'],
      ['TASK_FAILED', 'beta-server', 'Mail'],
      ['TASK_FAILED', 'alpha-user', 'Documents'],
      ['TASK_MISSED', 'alpha-user', 'Photos'],
      ['OVER_QUOTA', 'alpha-other', null],
    ]);
    expect(list.counts).toEqual({
      TASK_FAILED: 2,
      TASK_MISSED: 1,
      RUN_STALLED: 1,
      OVER_QUOTA: 1,
      MACHINE_OFFLINE: 2,
      VERIFICATION_FAILED: 0,
      VERIFICATION_OVERDUE: 0,
    });
    expect(list.hasMachines).toBe(true);
    const customerId = ctx.tenants.customerA.customerId;
    expect(list.items[4]).toEqual<AttentionItem>({
      kind: 'TASK_FAILED',
      at: at(3).toISOString(),
      customerName: 'Alpha Ltd',
      machineName: 'alpha-user',
      taskName: 'Documents',
      url: taskUrl('provider', {
        customerId,
        packageId: ids.packageA,
        machineId: ids.userMachine,
        taskId: tasks.failedA,
      }),
    });
    expect(list.items[6]?.url).toBe(
      machineUrl('provider', { customerId, packageId: ids.packageA, machineId: ids.otherMachine }),
    );
  });

  it('shows a reseller admin its own and its customers’ items, never another tenant’s', async () => {
    const list = await attention(as.reseller);
    expect(listed(list).map(([, machine]) => machine)).toEqual([
      'reseller-pc',
      'alpha-other',
      'alpha-user',
      'alpha-user',
      'alpha-other',
    ]);
    expect(list.counts).toEqual({
      TASK_FAILED: 1,
      TASK_MISSED: 1,
      RUN_STALLED: 1,
      OVER_QUOTA: 1,
      MACHINE_OFFLINE: 1,
      VERIFICATION_FAILED: 0,
      VERIFICATION_OVERDUE: 0,
    });
    // Its own machine by the customer's links, its customer's by the reseller's.
    expect(list.items[0]?.url).toBe(machineUrl('customer', { machineId: ids.machineR }));
    expect(list.items[1]?.url).toMatch(new RegExp(`^/admin/mycustomers/${ctx.tenants.customerA.customerId}/`));
  });

  it('shows a customer’s admins their customer’s items and a customer user only their machines’', async () => {
    for (const admin of [as.superA, as.adminA]) {
      const list = await attention(admin);
      expect(listed(list).map(([kind]) => kind)).toEqual(['RUN_STALLED', 'TASK_FAILED', 'TASK_MISSED', 'OVER_QUOTA']);
      expect(list.items[1]?.url).toBe(taskUrl('customer', { machineId: ids.userMachine, taskId: tasks.failedA }));
    }
    const mine = await attention(as.userA);
    expect(listed(mine)).toEqual([
      ['TASK_FAILED', 'alpha-user', 'Documents'],
      ['TASK_MISSED', 'alpha-user', 'Photos'],
    ]);
    expect(mine.counts).toEqual({
      TASK_FAILED: 1,
      TASK_MISSED: 1,
      RUN_STALLED: 0,
      OVER_QUOTA: 0,
      MACHINE_OFFLINE: 0,
      VERIFICATION_FAILED: 0,
      VERIFICATION_OVERDUE: 0,
    });
  });

  it('never shows another tenant’s items, and tells a scope without machines', async () => {
    const b = await attention(as.adminB);
    expect(listed(b)).toEqual([
      ['MACHINE_OFFLINE', 'beta-server', null],
      ['TASK_FAILED', 'beta-server', 'Mail'],
    ]);
    expect(JSON.stringify(b)).not.toMatch(/alpha|reseller-pc|Alpha Ltd/);
    expect(b.hasMachines).toBe(true);
    // Customer A's admin user has no machine assigned; B's user neither: an empty scope.
    const empty = await attention(as.userB);
    expect(empty).toEqual({
      items: [],
      counts: NO_ATTENTION,
      hasMachines: false,
    });
    expect((await new TestClient(ctx.t.app).json('GET', ROUTES.dashboard.attention.build())).statusCode).toBe(401);
  });

  it('dates a task from the change of its displayed status (a database trigger)', async () => {
    const db = ctx.t.database.db;
    const state = createBackupStateService({ db });
    const sinceOf = async (taskId: number) =>
      (
        await db.select({ since: backupTasks.displayStatusSince }).from(backupTasks).where(eq(backupTasks.id, taskId))
      )[0]?.since;
    const taskId = (await state.createTask(
      backupFixtures(db).task(ids.machineB, { statusOfLastRun: 'FINISHED_SUCCESS' }),
    )) as number;
    await db
      .update(backupTasks)
      .set({ displayStatusSince: at(0) })
      .where(eq(backupTasks.id, taskId));
    await state.runStatusChanged(taskId, 'FINISHED_SUCCESS');
    expect(await sinceOf(taskId)).toEqual(at(0));
    await state.runStatusChanged(taskId, 'FAILED');
    expect((await sinceOf(taskId))?.getTime()).toBeGreaterThan(at(0).getTime());
    await db.delete(backupTasks).where(eq(backupTasks.id, taskId));
  });
});
