/** The provider's task dashboards and the volume snapshots setting of a task (002 §2.5, §2.6, §5.5, §7.3). */
import {
  MESSAGES,
  type Paged,
  ROUTES,
  type ServerToAgent,
  TASK_DISPLAY_STATUSES,
  type TaskOverviewRow,
  withQuery,
} from '@portal/domain';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupTasks, taskActions } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import type { TestClient } from '../../testing/client.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';
import { createBackupStateService } from '../backup-state/service.js';
import { addCustomer, signedIn, type TestCustomer } from '../customers/testing.js';
import { connectTestAgent, eventually, listenOnLoopback } from '../live/testing.js';
import { createMachineCredentials } from '../machine-auth/credentials.js';

const R = ROUTES.taskOverview;
const MINUTE = 60_000;

let t: TestApp;
let tenants: Tenants;
let provider: TestClient;
let customer: TestCustomer;
let packageId: number;
let windowsMachine: number;
let linuxMachine: number;
const tasks = { running: 0, soon: 0, later: 0, pausedSoon: 0, deleting: 0, windows: 0 };

const backupState = () => createBackupStateService({ db: t.database.db, now: () => t.clock.now });

async function addTask(machineId: number, name: string): Promise<number> {
  const id = await backupState().createTask(backupFixtures(t.database.db).task(machineId, { name }));
  if (id === null) throw new Error('task not created');
  return id;
}

const setNextRun = (taskId: number, minutesFromNow: number) =>
  t.database.db
    .update(backupTasks)
    .set({ nextRunAt: new Date(t.clock.now.getTime() + minutesFromNow * MINUTE) })
    .where(eq(backupTasks.id, taskId));

async function page(client: TestClient, url: string): Promise<Paged<TaskOverviewRow>> {
  const response = await client.json('GET', url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().result;
}

const names = (result: Paged<TaskOverviewRow>) => result.elements.map((row) => row.name);

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  tenants = await createTenants(db);
  provider = await signedIn(t.app, tenants.providerAdmin.email);
  customer = await addCustomer(db, {
    companyName: 'Overview Ltd',
    superAdminName: { firstName: 'Olive', surname: 'Owner' },
  });
  const fixtures = backupFixtures(db);
  packageId = await fixtures.package(customer.customerId, { name: 'Overview package' });
  windowsMachine = await fixtures.machine(packageId, { name: 'Win box', osFamily: 'WINDOWS' });
  linuxMachine = await fixtures.machine(packageId, { name: 'Linux box', osFamily: 'LINUX' });

  tasks.running = await addTask(linuxMachine, 'Running task');
  await db.insert(taskActions).values({
    backupTaskId: tasks.running,
    backupMachineId: linuxMachine,
    type: 'BACKUP_RUN',
    status: 'IN_PROGRESS',
    transferProgressPercentage: 42,
  });
  await backupState().runStarted(tasks.running, 'IN_PROGRESS');
  tasks.soon = await addTask(linuxMachine, 'Soon task');
  tasks.later = await addTask(linuxMachine, 'Later task');
  tasks.pausedSoon = await addTask(linuxMachine, 'Paused soon task');
  await backupState().updateTask(tasks.pausedSoon, { status: 'PAUSED' });
  tasks.deleting = await addTask(linuxMachine, 'Deleting task');
  await backupState().updateTask(tasks.deleting, { status: 'BEING_DELETED' });
  tasks.windows = await addTask(windowsMachine, 'Windows task');
  // Every task's next run out of the hour, but for two: one that may run and one that is paused.
  for (const id of Object.values(tasks)) await setNextRun(id, 180);
  await setNextRun(tasks.soon, 20);
  await setNextRun(tasks.pausedSoon, 10);
  await setNextRun(tasks.later, 61);
});
afterAll(() => t?.close());

describe('who reaches the task dashboards', () => {
  it('answers provider admins only: customer roles and reseller admins get 403, nobody signed in 401', async () => {
    const urls = [R.running.build(), R.nextPeriod.build(), R.beingDeleted.build(), R.counts.build()];
    const others = [
      tenants.reseller.superAdmin.email,
      tenants.customerA.superAdmin.email,
      tenants.customerA.admin.email,
      tenants.customerA.user.email,
      customer.superAdmin.email,
    ];
    for (const email of others) {
      const client = await signedIn(t.app, email);
      for (const url of urls) expect((await client.json('GET', url)).statusCode, `${email} ${url}`).toBe(403);
    }
    for (const url of urls) expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    for (const url of urls) expect((await provider.json('GET', url)).statusCode).toBe(200);
  });
});

describe('the dashboards (002 §2.6)', () => {
  it('lists the running tasks with their action type and progress, and links to the provider pages', async () => {
    const result = await page(provider, R.running.build());
    expect(names(result)).toEqual(['Running task']);
    const [row] = result.elements;
    expect(row).toMatchObject({
      id: tasks.running,
      inProgressActionType: 'BACKUP_RUN',
      inProgressActionProgress: 42,
      backupMachineName: 'Linux box',
      backupPackageName: 'Overview package',
      timeZone: 'UTC',
      backupScheduleDescription: 'Daily at 02:00',
      customer: { id: customer.customerId, companyName: 'Overview Ltd', superAdminFullName: 'Olive Owner' },
      backupTaskUrl: `/boltadmin/customers/${customer.customerId}/backuppackages/${packageId}/backupmachines/${linuxMachine}/backuptasks/${tasks.running}`,
      backupMachineUrl: `/boltadmin/customers/${customer.customerId}/backuppackages/${packageId}/backupmachines/${linuxMachine}`,
      customerUrl: `/boltadmin/customers/${customer.customerId}`,
      volumeSnapshotsDisabledReason: MESSAGES.taskOverview.notWindows,
    });
  });

  it('lists the tasks that may run within the next hour, soonest first, and leaves out paused and later ones', async () => {
    const result = await page(provider, R.nextPeriod.build());
    expect(names(result)).toEqual(['Soon task']);
    expect(result.elements[0]?.nextRunAt).toBe(new Date(t.clock.now.getTime() + 20 * MINUTE).toISOString());
    expect(result.elements[0]?.inProgressActionType).toBeNull();
  });

  it('lists the tasks being deleted', async () => {
    const result = await page(provider, R.beingDeleted.build());
    expect(names(result)).toEqual(['Deleting task']);
    expect(result.elements[0]).toMatchObject({
      status: 'BEING_DELETED',
      volumeSnapshotsDisabledReason: MESSAGES.taskOverview.notWindows,
    });
  });

  it('pages in the database: size and zero-based page, with the total', async () => {
    const extra = [];
    for (let i = 0; i < 3; i++) {
      const id = await addTask(linuxMachine, `Soon extra ${i}`);
      await setNextRun(id, 30 + i);
      extra.push(id);
    }
    const first = await page(provider, withQuery(R.nextPeriod.build(), { page: 0, size: 2 }));
    expect(names(first)).toEqual(['Soon task', 'Soon extra 0']);
    expect(first.totalElements).toBe(4);
    expect(first.totalPages).toBe(2);
    const second = await page(provider, withQuery(R.nextPeriod.build(), { page: 1, size: 2 }));
    expect(names(second)).toEqual(['Soon extra 1', 'Soon extra 2']);
    for (const id of extra) await backupState().deleteTask(id);
    expect((await page(provider, R.nextPeriod.build())).totalElements).toBe(1);
  });

  it('counts every task of the provider in the task status pie, and follows changes', async () => {
    const db = t.database.db;
    const expectCountsMatchTasks = async () => {
      const response = await provider.json('GET', R.counts.build());
      expect(response.statusCode).toBe(200);
      const counts = response.json().result;
      const stored = await db
        .select({ status: backupTasks.displayStatus, n: count() })
        .from(backupTasks)
        .groupBy(backupTasks.displayStatus);
      const [all] = await db.select({ n: count() }).from(backupTasks);
      expect(counts.total).toBe(all?.n);
      for (const status of TASK_DISPLAY_STATUSES) {
        expect(counts.taskStatus[status], status).toBe(stored.find((s) => s.status === status)?.n ?? 0);
      }
      return counts;
    };
    const before = await expectCountsMatchTasks();
    expect(before.taskStatus.BEING_DELETED).toBe(1);
    expect(before.taskStatus.NOT_RUNNABLE).toBe(1);

    // Another tenant's tasks count too: the pie is the whole provider's.
    const fixtures = backupFixtures(db);
    const otherPackage = await fixtures.package(tenants.customerB.customerId);
    const otherMachine = await fixtures.machine(otherPackage);
    const other = await addTask(otherMachine, 'Other tenant task');
    await backupState().runStarted(other, 'IN_PROGRESS');
    await backupState().runStatusChanged(other, 'FAILED');
    const after = await expectCountsMatchTasks();
    expect(after.total).toBe(before.total + 1);
    expect(after.taskStatus.LAST_FAILED).toBe(before.taskStatus.LAST_FAILED + 1);

    await backupState().deleteTask(other);
    expect(await expectCountsMatchTasks()).toEqual(before);
  });
});

describe('the volume snapshots setting (002 §2.5, §5.5, §7.3)', () => {
  const pathOf = (machineId: number, taskId: number) =>
    R.volumeSnapshots.build({ customerId: customer.customerId, packageId, machineId, taskId });
  const storedFlag = async (taskId: number) =>
    (
      await t.database.db
        .select({ flag: backupTasks.volumeSnapshotsEnabled })
        .from(backupTasks)
        .where(eq(backupTasks.id, taskId))
    )[0]?.flag;

  it('refuses to turn them on for a machine that is not Windows, on the field, and changes nothing', async () => {
    const response = await provider.json('PUT', pathOf(linuxMachine, tasks.soon), { volumeSnapshotsEnabled: true });
    expect(response.statusCode).toBe(400);
    expect(response.json().messages).toEqual([
      expect.objectContaining({
        fieldName: 'volumeSnapshotsEnabled',
        message: MESSAGES.customer.volumeSnapshotsWindowsOnly,
      }),
    ]);
    expect(await storedFlag(tasks.soon)).toBe(false);
  });

  it('stores the flag of a Windows task, says so, and sends the agent its task list with it', async () => {
    const credential = await createMachineCredentials(t.database.db).issue(windowsMachine);
    if (!credential) throw new Error('no credential');
    const agent = await connectTestAgent(t.app, await listenOnLoopback(t.app), credential);
    const latestFlag = () =>
      agent
        .commands()
        .filter((c): c is Extract<ServerToAgent, { type: 'tasks' }> => c.type === 'tasks')
        .at(-1)
        ?.tasks.find((task) => task.id === tasks.windows)?.volumeSnapshotsEnabled;
    try {
      const response = await provider.json('PUT', pathOf(windowsMachine, tasks.windows), {
        volumeSnapshotsEnabled: true,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().messages[0].message).toBe(MESSAGES.customer.backupTaskUpdated);
      expect(response.json().result).toEqual({ id: tasks.windows, volumeSnapshotsEnabled: true });
      expect(await storedFlag(tasks.windows)).toBe(true);
      await eventually(() => latestFlag() === true);

      // Saving again is safe, and turning them off is always allowed.
      expect(
        (await provider.json('PUT', pathOf(windowsMachine, tasks.windows), { volumeSnapshotsEnabled: true }))
          .statusCode,
      ).toBe(200);
      const off = await provider.json('PUT', pathOf(windowsMachine, tasks.windows), { volumeSnapshotsEnabled: false });
      expect(off.statusCode).toBe(200);
      await eventually(() => latestFlag() === false);
    } finally {
      await agent.client.stop();
    }
  });

  it('answers 404 for a task or machine that is not on the path, and 409 for a task being deleted', async () => {
    const wrongPackage = R.volumeSnapshots.build({
      customerId: customer.customerId,
      packageId: packageId + 1000,
      machineId: windowsMachine,
      taskId: tasks.windows,
    });
    expect((await provider.json('PUT', wrongPackage, { volumeSnapshotsEnabled: true })).statusCode).toBe(404);
    const wrongCustomer = R.volumeSnapshots.build({
      customerId: tenants.customerB.customerId,
      packageId,
      machineId: windowsMachine,
      taskId: tasks.windows,
    });
    expect((await provider.json('PUT', wrongCustomer, { volumeSnapshotsEnabled: true })).statusCode).toBe(404);
    // A task of another machine.
    expect(
      (await provider.json('PUT', pathOf(windowsMachine, tasks.soon), { volumeSnapshotsEnabled: false })).statusCode,
    ).toBe(404);
    const deleting = await provider.json('PUT', pathOf(linuxMachine, tasks.deleting), {
      volumeSnapshotsEnabled: false,
    });
    expect(deleting.statusCode).toBe(409);
    expect(deleting.json().messages[0].message).toBe(MESSAGES.taskOverview.taskBeingDeleted);
  });

  it('is the provider admin’s alone: customer roles and reseller admins get 403', async () => {
    for (const email of [tenants.reseller.superAdmin.email, customer.superAdmin.email, customer.admin.email]) {
      const client = await signedIn(t.app, email);
      const response = await client.json('PUT', pathOf(windowsMachine, tasks.windows), {
        volumeSnapshotsEnabled: true,
      });
      expect(response.statusCode, email).toBe(403);
    }
    expect(await storedFlag(tasks.windows)).toBe(false);
  });
});
