/** The machine pages' calls (001 §2, §4–§7; issue #14) per role, another tenant's ids, deletion and quota. */
import { mkdtempSync, rmSync } from 'node:fs';
import { access, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  fieldRequired,
  fieldTooLong,
  MACHINE_FORM_LABELS,
  MACHINE_LIMITS,
  type MachineDetail,
  type MachineRow,
  MESSAGES,
  machineQueue,
  type Paged,
  ROUTES,
  type ServerToAgent,
  WS_SEND_PREFIXES,
  withQuery,
} from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  backupMachines,
  backupPackages,
  backupTasks,
  machineMessages,
  users,
} from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import type { TestClient } from '../../testing/client.js';
import { signedInClients } from '../../testing/envelope.js';
import { createTenants, fixtureEmails, type Tenants } from '../../testing/fixtures.js';
import { browserStomp, useStartedStompClients } from '../../testing/stomp.js';
import { storageAccessFor } from '../../testing/storage-access.js';
import { createBackupStateService } from '../backup-state/service.js';
import { connectTestAgent, eventually, listenOnLoopback } from '../live/testing.js';
import { repositoryDir } from '../local-storage/paths.js';
import { createRepositoryRemoval } from '../local-storage/removal.js';
import { createRepository } from '../local-storage/store.js';
import { createMachineCredentials } from '../machine-auth/credentials.js';
import { createMachineDeletion } from './deletion.js';
import { createMachinesRepo } from './repo.js';

// Repositories of this file only: the default DATA_DIR is shared with other test files running beside it.
const dataDir = mkdtempSync(join(tmpdir(), 'portal-machines-'));
const TEXT = MESSAGES.backupMachine;
const MB = 1_048_576;

let t: TestApp;
let tenants: Tenants;
let fixtures: ReturnType<typeof backupFixtures>;
let base = '';
let clients: Record<string, TestClient>;
/** customerA (the reseller's child): its user's machine and an unassigned one; customerB's machine. */
let packageA = 0;
let userMachine = 0;
let otherMachine = 0;
let packageB = 0;
let machineB = 0;
const started = useStartedStompClients();

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: dataDir });
  tenants = await createTenants(t.database.db);
  fixtures = backupFixtures(t.database.db);
  packageA = await fixtures.package(tenants.customerA.customerId);
  userMachine = await fixtures.machine(packageA, { name: 'Alpha', assignedUserId: tenants.customerA.user.id });
  otherMachine = await fixtures.machine(packageA, { name: 'Beta', assignedUserId: tenants.customerA.admin.id });
  packageB = await fixtures.package(tenants.customerB.customerId);
  machineB = await fixtures.machine(packageB, { name: 'Gamma', assignedUserId: tenants.customerB.admin.id });
  clients = await signedInClients(t.app, fixtureEmails(tenants));
  base = await listenOnLoopback(t.app);
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const as = (key: string) => {
  const client = clients[key];
  if (!client) throw new Error(key);
  return client;
};
const detailOf = (key: string, machineId: number) => as(key).json('GET', ROUTES.machines.detail.build({ machineId }));
const action = (key: string, packageId: number, machineId: number, query: Record<string, string>) =>
  as(key).json('PUT', withQuery(ROUTES.machines.action.build({ packageId, machineId }), query));
const machineRow = async (machineId: number) => {
  const [row] = await t.database.db.select().from(backupMachines).where(eq(backupMachines.id, machineId));
  return row ?? null;
};
const setMachine = (machineId: number, values: Partial<typeof backupMachines.$inferInsert>) =>
  t.database.db.update(backupMachines).set(values).where(eq(backupMachines.id, machineId));
const readOnly = (userId: number, value: boolean) =>
  t.database.db.update(users).set({ readOnly: value }).where(eq(users.id, userId));
async function whileReadOnly(userIds: number[], work: () => Promise<void>) {
  for (const id of userIds) await readOnly(id, true);
  try {
    await work();
  } finally {
    for (const id of userIds) await readOnly(id, false);
  }
}

describe('the caller’s machines (GET /backupmachines)', () => {
  it('shows a customer user only the machines assigned to them, an admin the customer’s', async () => {
    const mine = await as('userA').json('GET', withQuery(ROUTES.machines.own.build(), { page: 0, size: 10 }));
    expect(mine.statusCode).toBe(200);
    const page = mine.json().result as Paged<MachineRow>;
    expect(page).toMatchObject({ totalElements: 1, totalPages: 1 });
    expect(page.elements[0]).toMatchObject({
      id: userMachine,
      name: 'Alpha',
      status: 'ACTIVE',
      manageable: true,
      assignedUserUrl: null,
      backupMachineUrl: `/backupmachines/${userMachine}`,
      numberOfBackupTasks: 0,
    });
    for (const key of ['adminA', 'superA']) {
      const all = (await as(key).json('GET', ROUTES.machines.own.build())).json().result as Paged<MachineRow>;
      expect(all.elements.map((m) => m.name)).toEqual(['Alpha', 'Beta']);
      expect(all.elements[0]?.assignedUserUrl).toBe(`/admin/account/users/${tenants.customerA.user.id}`);
    }
    const other = (await as('adminB').json('GET', ROUTES.machines.own.build())).json().result as Paged<MachineRow>;
    expect(other.elements.map((m) => m.id)).toEqual([machineB]);
    expect((await as('provider').json('GET', ROUTES.machines.own.build())).statusCode).toBe(403);
  });

  it('counts tasks and pages in the database', async () => {
    const state = createBackupStateService({ db: t.database.db });
    const taskId = await state.createTask(fixtures.task(otherMachine));
    try {
      const first = await as('adminA').json('GET', withQuery(ROUTES.machines.own.build(), { page: 0, size: 1 }));
      expect(first.json().result).toMatchObject({ totalElements: 2, totalPages: 2, elements: [{ name: 'Alpha' }] });
      const second = await as('adminA').json('GET', withQuery(ROUTES.machines.own.build(), { page: 1, size: 1 }));
      expect(second.json().result.elements).toMatchObject([{ name: 'Beta', numberOfBackupTasks: 1 }]);
    } finally {
      if (taskId !== null) await state.deleteTask(taskId);
    }
  });
});

describe('one machine (GET /backupmachines/{id})', () => {
  it('answers each audience with its links and abilities', async () => {
    const provider = (await detailOf('provider', userMachine)).json().result as MachineDetail;
    const ref = `${tenants.customerA.customerId}/backuppackages/${packageA}/backupmachines/${userMachine}`;
    expect(provider).toMatchObject({
      backupMachineUrl: `/boltadmin/customers/${ref}`,
      assignedUserUrl: `/boltadmin/customers/${tenants.customerA.customerId}/users/${tenants.customerA.user.id}`,
      assignedUser: expect.stringContaining('Tester'),
      operatingSystem: 'Debian 12',
      osFamily: 'LINUX',
      online: false,
      lastSeenAt: null,
      statusOptions: ['SUSPENDED'],
      deleteable: false,
      administrable: true,
    });
    const reseller = (await detailOf('reseller', userMachine)).json().result as MachineDetail;
    expect(reseller.backupMachineUrl).toBe(`/admin/mycustomers/${ref}`);
    expect(reseller.administrable).toBe(true);
    const admin = (await detailOf('adminA', userMachine)).json().result as MachineDetail;
    expect(admin).toMatchObject({ manageable: true, administrable: true, statusOptions: ['SUSPENDED'] });
    const user = (await detailOf('userA', userMachine)).json().result as MachineDetail;
    expect(user).toMatchObject({ manageable: true, administrable: false, statusOptions: [], assignedUserUrl: null });
  });

  it('is not found for another tenant, a colleague’s machine, or an unknown id', async () => {
    for (const [key, id] of [
      ['adminB', userMachine],
      ['userA', otherMachine],
      ['adminA', machineB],
      ['reseller', machineB],
      ['adminA', 999_999],
    ] as const) {
      const response = await detailOf(key, id);
      expect(response.statusCode, `${key} ${id}`).toBe(404);
      expect(response.json().messages[0].message).toBe(TEXT.notFound);
      expect((await as(key).json('GET', ROUTES.machines.storage.build({ machineId: id }))).statusCode).toBe(404);
    }
  });

  it('shows View to the provider without machine control, and to read-only users', async () => {
    // The fixture customers do not allow provider machine control by default.
    const provider = (await detailOf('provider', machineB)).json().result as MachineDetail;
    expect(provider.manageable).toBe(false);
    // Restic diagnostics are a machine command too (issue 29): the button says why before it is pressed.
    expect(provider.diagnosticsBlockedReason).toBe(MESSAGES.remoteManagement.providerControlOff);
    expect(
      ((await detailOf('adminA', userMachine)).json().result as MachineDetail).diagnosticsBlockedReason,
    ).toBeNull();
    await whileReadOnly([tenants.customerA.admin.id], async () => {
      const admin = (await detailOf('adminA', userMachine)).json().result as MachineDetail;
      expect(admin).toMatchObject({ manageable: false, administrable: false, statusOptions: [], deleteable: false });
    });
  });
});

describe('edit (PUT /backupmachines/{id})', () => {
  const edit = (key: string, machineId: number, body: Record<string, unknown>) =>
    as(key).json('PUT', ROUTES.machines.edit.build({ machineId }), body);

  it('saves name and description for those who manage the machine', async () => {
    const userId = tenants.customerA.user.id;
    const response = await edit('userA', userMachine, { name: ' Alpha 2 ', description: 'Office PC', userId });
    expect(response.statusCode).toBe(200);
    expect(response.json().result).toMatchObject({ name: 'Alpha 2', description: 'Office PC' });
    expect((await edit('adminA', userMachine, { name: 'Alpha', description: 'Desk', userId })).statusCode).toBe(200);
    expect(await machineRow(userMachine)).toMatchObject({ name: 'Alpha', description: 'Desk' });
  });

  it('says what is wrong on each field', async () => {
    const userId = tenants.customerA.user.id;
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: '', description: 'd', userId }, 'name', fieldRequired(MACHINE_FORM_LABELS.name)],
      [
        { name: 'x'.repeat(MACHINE_LIMITS.nameMax + 1), description: 'd', userId },
        'name',
        fieldTooLong(MACHINE_FORM_LABELS.name, MACHINE_LIMITS.nameMax),
      ],
      [{ name: 'n', description: '', userId }, 'description', fieldRequired(MACHINE_FORM_LABELS.description)],
      [
        { name: 'n', description: 'x'.repeat(MACHINE_LIMITS.descriptionMax + 1), userId },
        'description',
        fieldTooLong(MACHINE_FORM_LABELS.description, MACHINE_LIMITS.descriptionMax),
      ],
      [{ name: 'n', description: 'd' }, 'userId', fieldRequired(MACHINE_FORM_LABELS.userId)],
      [{ name: 'n', description: 'd', userId: tenants.customerA.admin.id }, 'userId', TEXT.assignedUserFixed],
    ];
    for (const [body, fieldName, message] of cases) {
      const response = await edit('adminA', userMachine, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().messages).toContainEqual(expect.objectContaining({ fieldName, message }));
    }
    expect(await machineRow(userMachine)).toMatchObject({ name: 'Alpha', description: 'Desk' });
  });

  it('refuses read-only users and the provider without machine control; another tenant finds nothing', async () => {
    const body = { name: 'Changed', description: 'Changed', userId: tenants.customerA.user.id };
    await whileReadOnly([tenants.customerA.user.id], async () => {
      expect((await edit('userA', userMachine, body)).statusCode).toBe(403);
    });
    expect((await edit('provider', userMachine, body)).statusCode).toBe(403);
    expect((await edit('adminB', userMachine, body)).statusCode).toBe(404);
    expect((await edit('userA', otherMachine, { ...body, userId: tenants.customerA.admin.id })).statusCode).toBe(404);
    expect((await machineRow(userMachine))?.name).toBe('Alpha');
  });
});

describe('remote management (PUT /backupmachines/{id}/remotemanagement; 002 §4.2, §6, issue 29)', () => {
  const R = MESSAGES.remoteManagement;
  const switchTo = (key: string, machineId: number, remoteManagementEnabled: unknown) =>
    as(key).json('PUT', ROUTES.machines.remoteManagement.build({ machineId }), { remoteManagementEnabled });

  it("is switched by the customer's own users; provider, reseller and read-only callers are refused with the reason", async () => {
    const off = await switchTo('superA', userMachine, false);
    expect(off.statusCode).toBe(200);
    expect(off.json().result).toMatchObject({
      remoteManagementEnabled: false,
      remoteManagementSwitchable: true,
      remoteManagementTooltip: R.turnOn,
      addTaskBlockedReason: MESSAGES.liveChannel.remoteManagementDisabled,
    });
    expect((await machineRow(userMachine))?.remoteManagementEnabled).toBe(false);
    // The user the machine is assigned to switches it back.
    expect((await switchTo('userA', userMachine, true)).json().result.remoteManagementEnabled).toBe(true);
    expect((await machineRow(userMachine))?.remoteManagementEnabled).toBe(true);

    const reseller = await switchTo('reseller', userMachine, false);
    expect(reseller.statusCode).toBe(403);
    expect(reseller.json().messages[0].message).toBe(R.customerOnly);
    expect((await switchTo('provider', userMachine, false)).statusCode).toBe(403);
    await whileReadOnly([tenants.customerA.superAdmin.id], async () => {
      const refused = await switchTo('superA', userMachine, false);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().messages[0].message).toBe(MESSAGES.liveChannel.readOnlyUser);
    });
    expect((await machineRow(userMachine))?.remoteManagementEnabled).toBe(true);
    // The detail says so before anyone clicks.
    expect((await detailOf('reseller', userMachine)).json().result).toMatchObject({
      remoteManagementSwitchable: false,
      remoteManagementTooltip: R.customerOnly,
    });
  });

  it("gives another tenant's admin nothing and a colleague's user nothing, and checks the body", async () => {
    expect((await switchTo('adminB', userMachine, false)).statusCode).toBe(404);
    expect((await switchTo('userA', otherMachine, false)).statusCode).toBe(404);
    expect((await switchTo('adminA', machineB, false)).statusCode).toBe(404);
    const bad = await switchTo('adminA', userMachine, 'no');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().messages[0].fieldName).toBe('remoteManagementEnabled');
    expect((await machineRow(userMachine))?.remoteManagementEnabled).toBe(true);
    expect((await machineRow(machineB))?.remoteManagementEnabled).toBe(true);
  });

  it('is audited', async () => {
    await switchTo('adminA', otherMachine, false);
    await switchTo('adminA', otherMachine, true);
    await eventually(async () => {
      const rows = await t.database.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.type, 'machines.remoteManagement'));
      return rows.filter((r) => r.userId === tenants.customerA.admin.id && r.outcome === 'succeeded').length >= 2;
    });
  });

  it('with it off, task commands over the live channel are refused as 002 §6 says; on again, they pass that check', async () => {
    const issued = await createMachineCredentials(t.database.db).issue(userMachine);
    if (!issued) throw new Error('no credential');
    const agent = await connectTestAgent(t.app, base, issued);
    const browser = browserStomp(as('userA'), `${base}${ROUTES.live.customer.build()}`);
    started.push(agent.client, browser);
    expect(await browser.connected).toBe('connected');
    const queue = browser.subscribe(machineQueue('customer', userMachine));
    const send = async (requestId: string) => {
      const reply = queue.next();
      const destination = `${WS_SEND_PREFIXES.customer}/backupmachines/${userMachine}/starttask`;
      expect(
        await browser.sendWithReceipt('SEND', destination, JSON.stringify({ requestId, backupTaskId: 999999 })),
      ).toBe(true);
      return JSON.parse(JSON.parse((await reply).body).responsePayloadJson);
    };
    expect((await switchTo('userA', userMachine, false)).statusCode).toBe(200);
    expect(await send('while-off')).toMatchObject({
      success: false,
      messages: [{ message: MESSAGES.liveChannel.remoteManagementDisabled }],
    });
    expect((await switchTo('userA', userMachine, true)).statusCode).toBe(200);
    // On again, the command reaches the task check (this task id is no task of the machine).
    expect(await send('while-on')).toMatchObject({
      success: false,
      messages: [{ message: MESSAGES.liveChannel.taskNotFound }],
    });
  });
});

describe('storage (GET /backupmachines/{id}/storage)', () => {
  it('answers the usage the agent reported against the package’s per-machine limit', async () => {
    await setMachine(userMachine, { usedSpaceBytes: 3 * MB });
    const response = await as('userA').json('GET', ROUTES.machines.storage.build({ machineId: userMachine }));
    expect(response.json().result).toEqual({
      id: userMachine,
      maxBackupSizePerMachineInBytes: 10 * 1024 * MB,
      usedSpaceInBytes: 3 * MB,
      availableSpaceInBytes: 10 * 1024 * MB - 3 * MB,
    });
    await setMachine(userMachine, { usedSpaceBytes: 0 });
  });
});

describe('message log (PUT /backupmachines/{id}/messages)', () => {
  const messages = (key: string, machineId: number, body: unknown, paging = { page: 0, size: 10 }) =>
    as(key).json('PUT', withQuery(ROUTES.machines.messages.build({ machineId }), paging), body);

  beforeAll(async () => {
    const state = createBackupStateService({ db: t.database.db });
    const taskId = await state.createTask(fixtures.task(userMachine));
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 8, minute));
    await t.database.db.insert(machineMessages).values([
      { backupMachineId: userMachine, messageType: 'ERROR', message: 'error 1', time: at(1) },
      { backupMachineId: userMachine, messageType: 'INFO', message: 'info 1', time: at(2) },
      { backupMachineId: userMachine, messageType: 'ERROR', message: 'error 2', time: at(3), backupTaskId: taskId },
      { backupMachineId: userMachine, messageType: 'DEBUG', message: 'debug 1', time: at(4) },
      { backupMachineId: otherMachine, messageType: 'ERROR', message: 'not this machine', time: at(5) },
    ]);
  });

  it('falls back to ERROR without types, filters by type and task, newest first, paged', async () => {
    const errors = await messages('userA', userMachine, { messageTypesToRequest: [] });
    expect(errors.statusCode).toBe(200);
    expect(errors.json().result).toMatchObject({ totalElements: 2, totalPages: 1 });
    expect(errors.json().result.elements.map((m: { message: string }) => m.message)).toEqual(['error 2', 'error 1']);
    expect(errors.json().result.elements[1]).toEqual({
      id: expect.any(Number),
      time: '2026-11-20T08:01:00.000Z',
      messageType: 'ERROR',
      backupTaskId: null,
      actionId: null,
      message: 'error 1',
    });
    const noBody = await messages('userA', userMachine, {});
    expect(noBody.json().result.totalElements).toBe(2);
    const some = await messages(
      'userA',
      userMachine,
      { messageTypesToRequest: ['INFO', 'DEBUG'] },
      { page: 1, size: 1 },
    );
    expect(some.json().result).toMatchObject({ totalElements: 2, totalPages: 2, elements: [{ message: 'info 1' }] });
    const [task] = await t.database.db
      .select({ id: backupTasks.id })
      .from(backupTasks)
      .where(eq(backupTasks.backupMachineId, userMachine));
    const ofTask = await messages('adminA', userMachine, {
      backupTaskId: task?.id,
      messageTypesToRequest: ['ERROR', 'INFO', 'DEBUG', 'WARNING'],
    });
    expect(ofTask.json().result.elements.map((m: { message: string }) => m.message)).toEqual(['error 2']);
  });

  it('says which field is wrong, and shows another tenant nothing', async () => {
    const bad = await messages('userA', userMachine, { messageTypesToRequest: ['LOUD'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().messages[0].fieldName).toMatch(/^messageTypesToRequest/);
    const badTask = await messages('userA', userMachine, { backupTaskId: -3 });
    expect(badTask.statusCode).toBe(400);
    expect(badTask.json().messages[0].fieldName).toBe('backupTaskId');
    expect((await messages('adminB', userMachine, {})).statusCode).toBe(404);
    expect((await messages('userA', otherMachine, {})).statusCode).toBe(404);
  });
});

describe('change status (PUT /admin/backuppackages/{p}/backupmachines/{m}?status=)', () => {
  it('allows the transitions of 001 §4 to each admin role, stops the tasks and lets them run again', async () => {
    const state = createBackupStateService({ db: t.database.db });
    const taskId = await state.createTask(fixtures.task(otherMachine));
    const taskStatus = async () => {
      const [row] = await t.database.db
        .select({ status: backupTasks.displayStatus })
        .from(backupTasks)
        .where(eq(backupTasks.id, taskId ?? 0));
      return row?.status;
    };
    try {
      for (const key of ['provider', 'reseller', 'superA', 'adminA']) {
        const suspended = await action(key, packageA, otherMachine, { status: 'SUSPENDED' });
        expect(suspended.statusCode, key).toBe(200);
        expect(suspended.json()).toMatchObject({ status: 'OK', result: null });
        expect((await machineRow(otherMachine))?.status).toBe('SUSPENDED');
        expect(await taskStatus()).toBe('NOT_RUNNABLE');
        expect((await action(key, packageA, otherMachine, { status: 'ACTIVE' })).statusCode, key).toBe(200);
        expect((await machineRow(otherMachine))?.status).toBe('ACTIVE');
        expect(await taskStatus()).not.toBe('NOT_RUNNABLE');
      }
    } finally {
      if (taskId !== null) await state.deleteTask(taskId);
    }
  });

  it('refuses a change the table does not allow, with a global message', async () => {
    for (const [from, to] of [
      ['ACTIVE', 'ACTIVE'],
      ['ACTIVE', 'BLOCKED'],
      ['SUSPENDED', 'OVER_PER_MACHINE_QUOTA'],
    ] as const) {
      await setMachine(otherMachine, { status: from });
      const response = await action('adminA', packageA, otherMachine, { status: to });
      expect(response.statusCode, `${from}>${to}`).toBe(400);
      expect(response.json().messages[0]).toMatchObject({ fieldName: '', message: TEXT.statusChangeNotAllowed });
      expect((await machineRow(otherMachine))?.status).toBe(from);
    }
    await setMachine(otherMachine, { status: 'BLOCKED' });
    expect((await action('adminA', packageA, otherMachine, { status: 'SUSPENDED' })).statusCode).toBe(200);
    await setMachine(otherMachine, { status: 'ACTIVE' });
    const unknown = await action('adminA', packageA, otherMachine, { status: 'GONE' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().messages[0].fieldName).toBe('status');
  });

  it('refuses users, read-only admins, another tenant and the wrong package; changes nothing', async () => {
    expect((await action('userA', packageA, userMachine, { status: 'SUSPENDED' })).statusCode).toBe(403);
    await whileReadOnly([tenants.customerA.admin.id, tenants.providerAdmin.id], async () => {
      expect((await action('adminA', packageA, userMachine, { status: 'SUSPENDED' })).statusCode).toBe(403);
      expect((await action('provider', packageA, userMachine, { status: 'SUSPENDED' })).statusCode).toBe(403);
    });
    expect((await action('adminB', packageA, userMachine, { status: 'SUSPENDED' })).statusCode).toBe(404);
    expect((await action('adminB', packageB, userMachine, { status: 'SUSPENDED' })).statusCode).toBe(404);
    expect((await action('adminA', packageB, machineB, { status: 'SUSPENDED' })).statusCode).toBe(404);
    expect((await action('adminA', packageB, userMachine, { status: 'SUSPENDED' })).statusCode).toBe(404);
    expect((await machineRow(userMachine))?.status).toBe('ACTIVE');
    expect((await machineRow(machineB))?.status).toBe('ACTIVE');
  });
});

describe('delete (PUT /admin/backuppackages/{p}/backupmachines/{m}?delete=true)', () => {
  const exists = (path: string) =>
    access(path).then(
      () => true,
      () => false,
    );

  /** A suspended machine of customerA with a task, a message and a repository folder holding data. */
  async function suspendedMachine(name: string) {
    const machineId = await fixtures.machine(packageA, { name, status: 'SUSPENDED' });
    await createBackupStateService({ db: t.database.db }).createTask(fixtures.task(machineId));
    await t.database.db
      .insert(machineMessages)
      .values({ backupMachineId: machineId, messageType: 'INFO', message: 'hello' });
    const dir = repositoryDir(dataDir, null, machineId);
    await createRepository(dir);
    await writeFile(join(dir, 'data', 'ab', 'ab'.padEnd(64, '0')), 'backed up bytes');
    return { machineId, dir };
  }

  it('deletes only a SUSPENDED machine', async () => {
    for (const status of ['ACTIVE', 'BLOCKED', 'OVER_PER_MACHINE_QUOTA'] as const) {
      await setMachine(otherMachine, { status });
      const response = await action('adminA', packageA, otherMachine, { delete: 'true' });
      expect(response.statusCode, status).toBe(400);
      expect(response.json().messages[0]).toMatchObject({ fieldName: '', message: TEXT.deleteOnlySuspended });
      expect((await machineRow(otherMachine))?.beingDeleted).toBe(false);
    }
    await setMachine(otherMachine, { status: 'ACTIVE' });
  });

  it('removes the repository data, then the rows; asking again is answered alike', async () => {
    const { machineId, dir } = await suspendedMachine('Doomed');
    const response = await action('superA', packageA, machineId, { delete: 'true' });
    expect(response.statusCode).toBe(200);
    // Retried at once (a double click, a lost answer): the same answer.
    expect((await action('superA', packageA, machineId, { delete: 'true' })).statusCode).toBe(200);
    await eventually(async () => (await machineRow(machineId)) === null, 10_000);
    expect(await exists(dir)).toBe(false);
    const rest = await t.database.db.select().from(backupTasks).where(eq(backupTasks.backupMachineId, machineId));
    expect(rest).toEqual([]);
    const messages = await t.database.db
      .select()
      .from(machineMessages)
      .where(eq(machineMessages.backupMachineId, machineId));
    expect(messages).toEqual([]);
    expect((await detailOf('superA', machineId)).statusCode).toBe(404);
    expect((await action('superA', packageA, machineId, { delete: 'true' })).statusCode).toBe(404);
  });

  it('is not found for another tenant and refused to users and read-only admins', async () => {
    const { machineId, dir } = await suspendedMachine('Kept');
    expect((await action('adminB', packageA, machineId, { delete: 'true' })).statusCode).toBe(404);
    expect((await action('userA', packageA, machineId, { delete: 'true' })).statusCode).toBe(403);
    await whileReadOnly([tenants.customerA.admin.id], async () => {
      expect((await action('adminA', packageA, machineId, { delete: 'true' })).statusCode).toBe(403);
    });
    expect((await machineRow(machineId))?.beingDeleted).toBe(false);
    expect(await exists(dir)).toBe(true);
    await setMachine(machineId, { status: 'ACTIVE' });
  });

  it('resumes a deletion left half-done (a restart), and never touches unmarked machines', async () => {
    const { machineId, dir } = await suspendedMachine('Interrupted');
    const { machineId: keptId, dir: keptDir } = await suspendedMachine('Untouched');
    // Marked by a request whose instance stopped before the job ran: no kick, only the sweep.
    await setMachine(machineId, { beingDeleted: true });
    const deletion = createMachineDeletion({
      repo: createMachinesRepo(t.database.db),
      removal: createRepositoryRemoval({
        storage: storageAccessFor(t.database.db, dataDir, t.config.masterKey ?? ''),
        disconnectMachine: async () => {},
        // The embedded storage: its machines have no storage users of their own.
        removeMachineStorageUser: async () => {},
      }),
      deleteRows: (id) => createBackupStateService({ db: t.database.db }).deleteMachine(id),
    });
    // Two instances at once only repeat each other's work.
    const [one, two] = await Promise.all([deletion.runPending(), deletion.runPending()]);
    expect(one + two).toBeGreaterThanOrEqual(1);
    expect(await machineRow(machineId)).toBeNull();
    expect(await exists(dir)).toBe(false);
    expect(await deletion.runPending()).toBe(0);
    expect((await machineRow(keptId))?.beingDeleted).toBe(false);
    expect(await exists(keptDir)).toBe(true);
    await setMachine(keptId, { status: 'ACTIVE' });
  });
});

describe('per-machine quota', () => {
  it('puts a machine over its package’s limit in OVER_PER_MACHINE_QUOTA and back, telling its agent', async () => {
    const packageId = await fixtures.package(tenants.customerB.customerId);
    await t.database.db
      .update(backupPackages)
      .set({ maxBackupSizePerMachineInMbs: 10 })
      .where(eq(backupPackages.id, packageId));
    const machineId = await fixtures.machine(packageId);
    const state = createBackupStateService({ db: t.database.db });
    const taskId = await state.createTask(fixtures.task(machineId));
    const credential = await createMachineCredentials(t.database.db).issue(machineId);
    if (!credential || taskId === null) throw new Error('fixture');
    const agent = await connectTestAgent(t.app, base, credential);
    started.push(agent.client);
    const taskLists = () =>
      agent.commands().filter((c): c is Extract<ServerToAgent, { type: 'tasks' }> => c.type === 'tasks');
    /** Whether the newest task list the agent was sent lets the task run. */
    const runnableAsSent = () =>
      taskLists()
        .at(-1)
        ?.tasks.find((task) => task.id === taskId)?.runnable;
    const displayStatus = async () =>
      (await t.database.db.select().from(backupTasks).where(eq(backupTasks.id, taskId)))[0]?.displayStatus;

    const before = taskLists().length;
    await agent.send({ type: 'usage', usedSpaceBytes: 11 * MB });
    await eventually(async () => (await machineRow(machineId))?.status === 'OVER_PER_MACHINE_QUOTA');
    expect(await displayStatus()).toBe('NOT_RUNNABLE');
    await eventually(() => taskLists().length > before);
    expect(runnableAsSent()).toBe(false);
    const dashboard = await as('adminB').json(
      'GET',
      withQuery(ROUTES.dashboard.ownMachines.build(), { status: 'OVER_PER_MACHINE_QUOTA' }),
    );
    expect(dashboard.json().result.elements.map((m: { id: number }) => m.id)).toContain(machineId);

    const over = taskLists().length;
    await agent.send({ type: 'usage', usedSpaceBytes: 9 * MB });
    await eventually(async () => (await machineRow(machineId))?.status === 'ACTIVE');
    expect(await displayStatus()).not.toBe('NOT_RUNNABLE');
    await eventually(() => taskLists().length > over);
    expect(runnableAsSent()).toBe(true);

    // A suspended machine stays suspended whatever it reports.
    await setMachine(machineId, { status: 'SUSPENDED' });
    await agent.send({ type: 'usage', usedSpaceBytes: 20 * MB });
    await agent.send({ type: 'usage', usedSpaceBytes: 1 * MB });
    await eventually(async () => (await machineRow(machineId))?.usedSpaceBytes === MB);
    expect((await machineRow(machineId))?.status).toBe('SUSPENDED');
  });
});
