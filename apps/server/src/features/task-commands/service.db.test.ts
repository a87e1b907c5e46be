import {
  type Actor,
  MESSAGES,
  newTaskForm,
  type ServerToAgent,
  serverToAgentSchema,
  type TaskForm,
} from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { backupMachines, backupTasks, customers } from '../../db/schema/index.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { openTestDatabase } from '../../testing/database.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';
import { createAgentEventsRepo } from '../agent-events/repo.js';
import { createAgentEventService } from '../agent-events/service.js';
import { computeReadModel, readStoredReadModel } from '../backup-state/recompute.js';
import { createBackupStateService } from '../backup-state/service.js';
import { createTaskCommandsRepo } from './repo.js';
import { type AgentLink, createTaskCommandService, type TaskCommandService } from './service.js';

let database: Database;
let tenants: Tenants;
let commands: TaskCommandService;
let machineId: number;
let unassignedMachineId: number;
const online = new Set<number>();
const sent: Array<[number, ServerToAgent]> = [];
const synced: number[] = [];

/** The agent side as the live channel gives it: which machines are connected, and what reached them. */
const agents: AgentLink = {
  isOnline: async (id) => online.has(id),
  send: async (id, message) => {
    if (!online.has(id)) return false;
    sent.push([id, message]);
    return true;
  },
  syncTasks: async (id) => {
    synced.push(id);
  },
};

const actor = (
  user: { id: number },
  role: Actor['role'],
  customerId: number | null,
  extra: Partial<Actor> = {},
): Actor => ({
  userId: user.id,
  role,
  customerId,
  resellerEnabled: false,
  boltCustomer: false,
  readOnly: false,
  ...extra,
});
let userA: Actor;
let adminA: Actor;
let adminB: Actor;
let provider: Actor;
let reseller: Actor;

const form = (requestId: string, overrides: Partial<TaskForm> = {}): TaskForm => ({
  ...newTaskForm(requestId),
  name: 'Documents',
  backupScheduleDefinition: '0 2 * * *',
  backupItems: [{ path: '/home/alex/Documents', name: 'Documents', type: 'DIRECTORY', missing: false }],
  ...overrides,
});
const tasksOf = (id: number) => database.db.select().from(backupTasks).where(eq(backupTasks.backupMachineId, id));

beforeAll(async () => {
  database = await openTestDatabase();
  tenants = await createTenants(database.db);
  const fixtures = backupFixtures(database.db);
  const pkg = await fixtures.package(tenants.customerA.customerId);
  machineId = await fixtures.machine(pkg, { assignedUserId: tenants.customerA.user.id });
  unassignedMachineId = await fixtures.machine(pkg);
  online.add(machineId).add(unassignedMachineId);
  commands = createTaskCommandService({
    repo: createTaskCommandsRepo(database.db),
    backupState: createBackupStateService({ db: database.db }),
    agents,
  });
  const a = tenants.customerA.customerId;
  userA = actor(tenants.customerA.user, 'ROLE_CUSTOMER_USER', a);
  adminA = actor(tenants.customerA.admin, 'ROLE_CUSTOMER_ADMIN_USER', a);
  adminB = actor(tenants.customerB.admin, 'ROLE_CUSTOMER_ADMIN_USER', tenants.customerB.customerId);
  provider = actor(tenants.providerAdmin, 'ROLE_BOLT_ADMIN_USER', null, { resellerEnabled: true });
  reseller = actor(tenants.reseller.superAdmin, 'ROLE_CUSTOMER_SUPER_ADMIN_USER', tenants.reseller.customerId, {
    resellerEnabled: true,
  });
});
afterAll(async () => database?.close());

describe('task commands over the live channel (002 §7.8)', () => {
  it('creates a task from the form payload, once per request id, and sends the agent its task list', async () => {
    const first = await commands.handle(userA, machineId, 'newtask', form('req-new-1'));
    expect(first).toEqual({ requestId: 'req-new-1', reply: { success: true, messages: ['Backup task created.'] } });
    const again = await commands.handle(userA, machineId, 'newtask', form('req-new-1'));
    expect(again).toEqual(first);
    const tasks = await tasksOf(machineId);
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({
      name: 'Documents',
      scheduleCron: '0 2 * * *',
      status: 'ACTIVE',
      displayStatus: 'NOT_COMPLETED_YET',
      version: 1,
    });
    expect(tasks[0]?.scheduleDescription).not.toBe('');
    expect(tasks[0]?.nextRunAt).not.toBeNull();
    expect(synced).toContain(machineId);
  });

  it('answers a bad payload with the form messages and stores nothing', async () => {
    const bad = await commands.handle(userA, machineId, 'newtask', form('req-bad', { name: '', backupItems: [] }));
    expect(bad?.reply.success).toBe(false);
    expect(bad?.reply.messages.length).toBeGreaterThanOrEqual(2);
    expect(await tasksOf(machineId)).toHaveLength(1);
    const noId = await commands.handle(userA, machineId, 'starttask', { backupTaskId: 1 });
    expect(noId).toEqual({
      requestId: null,
      reply: { success: false, messages: ['Invalid websocket message received'] },
    });
  });

  it('edits a task (new version, new schedule), pauses and resumes it, starts it, and deletes it', async () => {
    const [task] = await tasksOf(machineId);
    if (!task) throw new Error('no task');
    const edited = await commands.handle(
      adminA,
      machineId,
      'edittask',
      form('req-edit-1', { id: task.id, name: 'Docs', backupScheduleDefinition: '30 4 * * *' }),
    );
    expect(edited?.reply.success).toBe(true);
    const [after] = await tasksOf(machineId);
    expect(after).toMatchObject({ name: 'Docs', scheduleCron: '30 4 * * *', version: 2 });

    const paused = await commands.handle(userA, machineId, 'udpatetaskstatus', {
      requestId: 'req-pause',
      backupTaskId: task.id,
      status: 'PAUSED',
    });
    expect(paused?.reply).toEqual({ success: true, messages: ['Backup task paused.'] });
    expect((await tasksOf(machineId))[0]).toMatchObject({
      status: 'PAUSED',
      displayStatus: 'NOT_RUNNABLE',
      nextRunAt: null,
    });
    const notRunnable = await commands.handle(userA, machineId, 'starttask', {
      requestId: 'req-s0',
      backupTaskId: task.id,
    });
    expect(notRunnable?.reply.success).toBe(false);
    await commands.handle(userA, machineId, 'udpatetaskstatus', {
      requestId: 'req-resume',
      backupTaskId: task.id,
      status: 'ACTIVE',
    });

    const started = await commands.handle(userA, machineId, 'starttask', {
      requestId: 'req-start',
      backupTaskId: task.id,
    });
    expect(started?.reply.success).toBe(true);
    expect(sent).toContainEqual([machineId, { type: 'startTask', requestId: 'req-start', taskId: task.id }]);

    const deleted = await commands.handle(userA, machineId, 'deletetask', {
      requestId: 'req-del',
      backupTaskId: task.id,
    });
    expect(deleted?.reply.success).toBe(true);
    expect(await tasksOf(machineId)).toHaveLength(0);
    const gone = await commands.handle(userA, machineId, 'deletetask', {
      requestId: 'req-del-2',
      backupTaskId: task.id,
    });
    expect(gone?.reply).toEqual({
      success: false,
      messages: ['The backup task was not found on this backup machine.'],
    });
    expect(await readStoredReadModel(database.db)).toEqual(await computeReadModel(database.db));
  });

  it('answers an offline machine at once, and keeps to who may command which machine', async () => {
    online.delete(machineId);
    const offline = await commands.handle(userA, machineId, 'newtask', form('req-off'));
    expect(offline?.reply).toEqual({
      success: false,
      messages: ['The backup machine is offline; try again when it is connected.'],
    });
    online.add(machineId);

    expect(await commands.handle(adminB, machineId, 'newtask', form('req-x1'))).toBeNull();
    expect(await commands.handle(userA, unassignedMachineId, 'newtask', form('req-x2'))).toBeNull();
    expect(await commands.handle(provider, machineId, 'newtask', form('req-x3'))).toBeNull();
    await database.db
      .update(customers)
      .set({ allowProviderMachineControl: true })
      .where(eq(customers.id, tenants.customerA.customerId));
    expect((await commands.handle(provider, machineId, 'newtask', form('req-x4')))?.reply.success).toBe(true);
    expect(
      (await commands.handle(reseller, machineId, 'newtask', form('req-x5', { name: 'Reseller' })))?.reply.success,
    ).toBe(true);

    const readOnly = { ...adminA, readOnly: true };
    expect((await commands.handle(readOnly, machineId, 'newtask', form('req-ro')))?.reply.messages).toEqual([
      'Your account may look but not change anything.',
    ]);
    await database.db
      .update(backupMachines)
      .set({ remoteManagementEnabled: false })
      .where(eq(backupMachines.id, machineId));
    expect((await commands.handle(adminA, machineId, 'newtask', form('req-rm')))?.reply.messages).toEqual([
      'Remote management is disabled for this backup machine.',
    ]);
  });
});

describe('the server refuses what the task page says is unavailable (issue 29)', () => {
  it("refuses pause, edit and delete of a task in a state that rules them out, with the page's reason", async () => {
    await database.db
      .update(backupMachines)
      .set({ remoteManagementEnabled: true })
      .where(eq(backupMachines.id, machineId));
    const created = await commands.handle(adminA, machineId, 'newtask', form('req-states', { name: 'States' }));
    expect(created?.reply.success).toBe(true);
    const task = (await tasksOf(machineId)).find((row) => row.name === 'States');
    if (!task) throw new Error('no task');
    const R = MESSAGES.remoteManagement;
    const setStatus = (status: 'AWAITING_SEED' | 'BEING_DELETED') =>
      database.db.update(backupTasks).set({ status }).where(eq(backupTasks.id, task.id));

    await setStatus('AWAITING_SEED');
    const pause = await commands.handle(adminA, machineId, 'udpatetaskstatus', {
      requestId: 'req-states-pause',
      backupTaskId: task.id,
      status: 'PAUSED',
    });
    expect(pause?.reply).toEqual({ success: false, messages: [R.taskAwaitingSeed] });
    const edit = await commands.handle(adminA, machineId, 'edittask', form('req-states-edit', { id: task.id }));
    expect(edit?.reply).toEqual({ success: false, messages: [R.taskAwaitingSeed] });

    await setStatus('BEING_DELETED');
    const remove = await commands.handle(adminA, machineId, 'deletetask', {
      requestId: 'req-states-delete',
      backupTaskId: task.id,
    });
    expect(remove?.reply).toEqual({ success: false, messages: [R.taskBeingDeleted] });
    expect((await tasksOf(machineId)).find((row) => row.id === task.id)).toMatchObject({
      status: 'BEING_DELETED',
      name: 'States',
    });

    // A machine being deleted says so, as its page does, not 'remote management is disabled'.
    await database.db.update(backupMachines).set({ beingDeleted: true }).where(eq(backupMachines.id, machineId));
    try {
      const refused = await commands.handle(adminA, machineId, 'newtask', form('req-states-gone'));
      expect(refused?.reply).toEqual({ success: false, messages: [MESSAGES.backupMachine.beingDeleted] });
    } finally {
      await database.db.update(backupMachines).set({ beingDeleted: false }).where(eq(backupMachines.id, machineId));
    }
  });
});

describe('cPanel and DirectAdmin tasks reach the agent with their settings (issue 14)', () => {
  it("sends the dialog's pruning delay and back-up-new-accounts choice in the agent's task list", async () => {
    const machine = await backupFixtures(database.db).machine(
      await backupFixtures(database.db).package(tenants.customerA.customerId),
    );
    online.add(machine);
    const agentEvents = createAgentEventService({
      repo: createAgentEventsRepo(database.db),
      backupState: createBackupStateService({ db: database.db }),
    });
    const hosting = form('req-cpanel-1', {
      name: 'Hosting',
      type: 'CPANEL',
      backupItems: [{ path: 'ana', name: 'ana', type: 'CPANEL_ACCOUNT', missing: false }],
      pruningEnabled: true,
      extraTaskSettings: {
        numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: 2,
        timeUnitForBackupItemPruning: 'WEEK',
        backupAnyNewAvailableItems: true,
      },
    });
    const sites = form('req-da-1', {
      name: 'Sites',
      type: 'DIRECT_ADMIN',
      backupItems: [{ path: 'dave', name: 'dave', type: 'DIRECT_ADMIN_ACCOUNT', missing: false }],
    });
    for (const task of [hosting, sites]) {
      expect((await commands.handle(adminA, machine, 'newtask', task))?.reply.success).toBe(true);
    }
    const message = await agentEvents.tasksMessage(machine);
    // What the agent gets passes its own check of the protocol.
    const parsed = serverToAgentSchema.parse(message);
    if (parsed.type !== 'tasks') throw new Error('not a task list');
    expect(parsed.tasks.map((t) => [t.name, t.type, t.backupItems.map((i) => i.path), t.extraTaskSettings])).toEqual([
      [
        'Hosting',
        'CPANEL',
        ['ana'],
        {
          numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: 2,
          timeUnitForBackupItemPruning: 'WEEK',
          backupAnyNewAvailableItems: true,
        },
      ],
      // Pruning and new accounts are cPanel's only (002 §4.3): DirectAdmin's are sent off.
      [
        'Sites',
        'DIRECT_ADMIN',
        ['dave'],
        {
          numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: -1,
          timeUnitForBackupItemPruning: 'MONTH',
          backupAnyNewAvailableItems: false,
        },
      ],
    ]);
  });
});
