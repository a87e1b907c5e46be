import { customerDisplayStatus } from '@portal/domain';
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  backupMachines,
  backupSnapshots,
  backupTasks,
  customers,
  storageLocations,
  taskActions,
  users,
} from '../../db/schema/index.js';
import { useTestDatabaseWithTenants } from '../../testing/suite.js';
import { createAgentEventsRepo } from '../agent-events/repo.js';
import { createRestoreRepo } from '../restore/repo.js';
import { createBackupStateService } from './service.js';

const ctx = useTestDatabaseWithTenants();

const customer = async (id: number) => (await ctx.database.db.select().from(customers).where(eq(customers.id, id)))[0];
const machine = async (id: number) =>
  (await ctx.database.db.select().from(backupMachines).where(eq(backupMachines.id, id)))[0];

describe('dashboard copies kept by the database', () => {
  it('a customer shows its super admin e-mail and name, and follows their changes', async () => {
    const { customerId, superAdmin } = ctx.tenants.customerA;
    await ctx.fixtures.setSuperAdmin(customerId, superAdmin.id);
    expect((await customer(customerId))?.superAdminEmail).toBe(superAdmin.email);
    expect((await customer(customerId))?.superAdminName).toBe('super Tester');

    await ctx.database.db
      .update(users)
      .set({ email: 'renamed@alpha.test', firstName: 'Renamed', surname: 'Boss' })
      .where(eq(users.id, superAdmin.id));
    expect((await customer(customerId))?.superAdminEmail).toBe('renamed@alpha.test');
    expect((await customer(customerId))?.superAdminName).toBe('Renamed Boss');

    await ctx.database.db.update(customers).set({ superAdminUserId: null }).where(eq(customers.id, customerId));
    expect((await customer(customerId))?.superAdminEmail).toBeNull();
  });

  it('the Name column falls back to the super admin when the company name is empty', async () => {
    const { customerId, superAdmin } = ctx.tenants.customerB;
    await ctx.fixtures.setSuperAdmin(customerId, superAdmin.id);
    expect((await customer(customerId))?.displayName).toBe('Beta Inc');
    await ctx.database.db.update(customers).set({ companyName: '' }).where(eq(customers.id, customerId));
    expect((await customer(customerId))?.displayName).toBe('super Tester');
    await ctx.database.db.update(customers).set({ companyName: 'Beta Inc' }).where(eq(customers.id, customerId));
  });

  it('a machine shows its assigned user, and follows reassignment and renames', async () => {
    const packageId = await ctx.fixtures.package(ctx.tenants.customerB.customerId);
    const id = await ctx.fixtures.machine(packageId, { assignedUserId: ctx.tenants.customerB.user.id });
    expect((await machine(id))?.assignedUserName).toBe('user Tester');
    await ctx.database.db.update(users).set({ firstName: 'Una' }).where(eq(users.id, ctx.tenants.customerB.user.id));
    expect((await machine(id))?.assignedUserName).toBe('Una Tester');
    await ctx.database.db
      .update(backupMachines)
      .set({ assignedUserId: ctx.tenants.customerB.admin.id })
      .where(eq(backupMachines.id, id));
    expect((await machine(id))?.assignedUserName).toBe('admin Tester');
    await ctx.database.db.delete(users).where(eq(users.id, ctx.tenants.customerB.admin.id));
    expect((await machine(id))?.assignedUserName).toBeNull();
  });

  it('the displayed customer status is SIGNUP_REQUESTED exactly while it has no storage location', async () => {
    const { customerId } = ctx.tenants.reseller;
    const check = async () => {
      const row = await customer(customerId);
      expect(row?.displayStatus).toBe(
        customerDisplayStatus({
          status: row?.status ?? 'ACTIVE',
          storageLocationCount: row?.storageLocationCount ?? 0,
        }),
      );
      return row?.displayStatus;
    };
    expect(await check()).toBe('SIGNUP_REQUESTED');
    const location = await ctx.fixtures.storageLocation(customerId);
    expect((await customer(customerId))?.storageLocationCount).toBe(1);
    expect(await check()).toBe('ACTIVE');
    await ctx.database.db.update(customers).set({ status: 'SUSPENDED' }).where(eq(customers.id, customerId));
    expect(await check()).toBe('SUSPENDED');
    await ctx.database.db.delete(storageLocations).where(eq(storageLocations.id, location));
    expect(await check()).toBe('SIGNUP_REQUESTED');
    await ctx.database.db.update(customers).set({ status: 'ACTIVE' }).where(eq(customers.id, customerId));
  });

  it("a task's number of backup runs is its count of BACKUP_RUN actions, whatever adds or removes them", async () => {
    const db = ctx.database.db;
    const state = createBackupStateService({ db });
    const packageId = await ctx.fixtures.package(ctx.tenants.customerA.customerId);
    const machineId = await ctx.fixtures.machine(packageId);
    const taskId = (await state.createTask(ctx.fixtures.task(machineId, { name: 'Counted' }))) as number;
    const otherId = (await state.createTask(ctx.fixtures.task(machineId, { name: 'Counted too' }))) as number;
    const expectRuns = async (id: number, n: number) => {
      const [kept] = await db
        .select({ n: backupTasks.numberOfBackupRuns })
        .from(backupTasks)
        .where(eq(backupTasks.id, id));
      const [counted] = await db
        .select({ n: count() })
        .from(taskActions)
        .where(and(eq(taskActions.backupTaskId, id), eq(taskActions.type, 'BACKUP_RUN')));
      expect(counted?.n, `task ${id} counted`).toBe(n);
      expect(kept?.n, `task ${id} kept`).toBe(n);
    };
    await expectRuns(taskId, 0);

    // The agent's runs: a start reported twice is one run, a seed creation is no backup run.
    const events = createAgentEventsRepo(db);
    await events.insertRun(machineId, taskId, 'run-1', new Date());
    await events.insertRun(machineId, taskId, 'run-1', new Date());
    await events.insertRun(machineId, taskId, 'seed-1', new Date(), 'BACKUP_SEED_CREATION');
    await expectRuns(taskId, 1);

    // Many runs of several tasks in one statement (the demo's history), with a restore among them.
    const run = (backupTaskId: number, type: 'BACKUP_RUN' | 'BACKUP_RESTORE' = 'BACKUP_RUN') => ({
      backupTaskId,
      backupMachineId: machineId,
      type,
      status: 'FINISHED_SUCCESS' as const,
      resticSnapshotId: `snap-${backupTaskId}`,
    });
    const added = await db
      .insert(taskActions)
      .values([run(taskId), run(taskId), run(taskId, 'BACKUP_RESTORE'), run(otherId), run(otherId)])
      .returning({ id: taskActions.id });
    await expectRuns(taskId, 3);
    await expectRuns(otherId, 2);

    // A run removed, and an action changed to another type (no code does; the count follows anyway).
    await db.delete(taskActions).where(eq(taskActions.id, added[0]?.id as number));
    await expectRuns(taskId, 2);
    await db
      .update(taskActions)
      .set({ type: 'BACKUP_RESTORE' })
      .where(eq(taskActions.id, added[1]?.id as number));
    await expectRuns(taskId, 1);
    await db
      .update(taskActions)
      .set({ type: 'BACKUP_RUN' })
      .where(eq(taskActions.id, added[1]?.id as number));
    await expectRuns(taskId, 2);

    // A snapshot archive's deletion leaves the runs that made it (they only lose their snapshot).
    const restore = createRestoreRepo(db);
    const [archive] = await db
      .insert(backupSnapshots)
      .values({ backupTaskId: taskId, taskActionId: added[1]?.id, resticSnapshotId: `snap-${taskId}` })
      .returning({ id: backupSnapshots.id });
    expect(await restore.markBeingDeleted(archive?.id as number)).toBe(true);
    await restore.markDeleted({ id: archive?.id as number, taskId, resticSnapshotId: `snap-${taskId}` });
    await expectRuns(taskId, 2);

    // The task's deletion takes its runs along and leaves the other task's count; so does the machine's.
    const runsOfMachine = () =>
      db.select({ id: taskActions.id }).from(taskActions).where(eq(taskActions.backupMachineId, machineId));
    expect(await state.deleteTask(taskId)).toBe(true);
    await expectRuns(otherId, 2);
    expect(await runsOfMachine()).toHaveLength(2);
    expect(await state.deleteMachine(machineId)).toBe(true);
    expect(await runsOfMachine()).toEqual([]);
  });
});
