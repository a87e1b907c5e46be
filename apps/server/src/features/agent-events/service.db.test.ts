import { type AgentToServer, agentToServerSchema, INTERRUPTED_ACTION_MESSAGES } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { backupMachines, backupSnapshots, backupTasks, machineMessages, taskActions } from '../../db/schema/index.js';
import { runFailed, runFinished } from '../../testing/agent-events.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { openTestDatabase } from '../../testing/database.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';
import { computeReadModel, readStoredReadModel } from '../backup-state/recompute.js';
import { createBackupStateService } from '../backup-state/service.js';
import type { AuthenticatedMachine } from '../machine-auth/credentials.js';
import { createAgentEventsRepo } from './repo.js';
import { type AgentEventService, createAgentEventService, type MachineUpdate, weekStartOf } from './service.js';

let database: Database;
let tenants: Tenants;
let events: AgentEventService;
let machine: AuthenticatedMachine;
let otherMachineTask: number;
let taskId: number;
const updates: Array<[number, MachineUpdate]> = [];

const event = (body: AgentToServer) => agentToServerSchema.parse(body);
/** A (re)connecting agent's hello, saying which runs it holds when `runningRunKeys` is given. */
const hello = (runningRunKeys?: string[]) =>
  event({
    type: 'hello',
    name: 'laptop',
    osFamily: 'LINUX',
    operatingSystem: 'Debian 12',
    clientVersion: '2.1.0',
    timeZone: 'Europe/Paris',
    taskVersions: {},
    ...(runningRunKeys ? { runningRunKeys } : {}),
  });
const task = async () => (await database.db.select().from(backupTasks).where(eq(backupTasks.id, taskId)))[0];
const runs = () => database.db.select().from(taskActions).where(eq(taskActions.backupTaskId, taskId));

beforeAll(async () => {
  database = await openTestDatabase();
  tenants = await createTenants(database.db);
  const fixtures = backupFixtures(database.db);
  const backupState = createBackupStateService({ db: database.db });
  events = createAgentEventService({
    repo: createAgentEventsRepo(database.db),
    backupState,
    onUpdate: (machineId, update) => updates.push([machineId, update]),
  });
  const pkg = await fixtures.package(tenants.customerA.customerId);
  const id = await fixtures.machine(pkg);
  machine = { id, customerId: tenants.customerA.customerId, backupPackageId: pkg };
  taskId = (await backupState.createTask(fixtures.task(id, { name: 'Documents' }))) as number;
  const other = await fixtures.machine(await fixtures.package(tenants.customerB.customerId));
  otherMachineTask = (await backupState.createTask(fixtures.task(other))) as number;
});
afterAll(async () => database?.close());

const finish = (runKey: string, finishedAt: string, snapshot: string | null = 'a'.repeat(64)) =>
  event(
    snapshot
      ? runFinished(runKey, { finishedAt, snapshotId: snapshot, bytesAdded: 1000, bytesTotal: 5000 })
      : runFailed(runKey, { finishedAt }),
  );

describe('what agents report', () => {
  it('hello updates the machine and answers with its task list', async () => {
    const replies = await events.handle(
      machine,
      event({
        type: 'hello',
        name: 'laptop',
        osFamily: 'WINDOWS',
        operatingSystem: 'Windows 11 Pro',
        clientVersion: '2.1.0',
        timeZone: 'Europe/Paris',
        taskVersions: {},
      }),
    );
    expect(replies).toEqual([
      expect.objectContaining({
        type: 'tasks',
        timeZone: 'Europe/Paris',
        tasks: [expect.objectContaining({ id: taskId, name: 'Documents', version: 1 })],
      }),
    ]);
    const [row] = await database.db.select().from(backupMachines).where(eq(backupMachines.id, machine.id));
    expect(row).toMatchObject({ osFamily: 'WINDOWS', desktopClientVersion: '2.1.0', timeZone: 'Europe/Paris' });
  });

  it('records a run once however often its start and finish are reported, and the task follows', async () => {
    const started = event({
      type: 'runStarted',
      runKey: 'run-1',
      taskId,
      startedAt: '2026-11-23T10:00:00Z',
      manual: false,
      requestId: 'req-1',
    });
    const [reply] = await events.handle(machine, started);
    expect(reply).toMatchObject({ type: 'reply', requestId: 'req-1', success: true });
    await events.handle(machine, started);
    expect(await runs()).toHaveLength(1);
    expect(await task()).toMatchObject({ statusOfLastRun: 'IN_PROGRESS', displayStatus: 'NOT_COMPLETED_YET' });

    await events.handle(
      machine,
      event({
        type: 'runProgress',
        runKey: 'run-1',
        phase: 'TRANSFERRING_FILES',
        percentage: 40,
        currentItem: 4,
        totalItems: 10,
        bytesDone: 400,
        bytesTotal: 1000,
      }),
    );
    expect((await runs())[0]).toMatchObject({ transferProgressPercentage: 40, currentTransfer: 4, totalTransfers: 10 });

    await events.handle(machine, finish('run-1', '2026-11-23T10:05:00Z'));
    await events.handle(machine, finish('run-1', '2026-11-23T10:06:00Z', null));
    const [run] = await runs();
    expect(run).toMatchObject({
      status: 'FINISHED_SUCCESS',
      exitCodeResult: 'SUCCESS',
      resticSnapshotId: 'a'.repeat(64),
    });
    expect(run?.timeFinished?.toISOString()).toBe('2026-11-23T10:05:00.000Z');
    expect(await task()).toMatchObject({ statusOfLastRun: 'FINISHED_SUCCESS', displayStatus: 'LAST_SUCCEEDED' });
    expect(updates.some(([id, u]) => id === machine.id && u.kind === 'run')).toBe(true);
    expect(await readStoredReadModel(database.db)).toEqual(await computeReadModel(database.db));
  });

  it("writes many runs' progress reported at once in a few statements, each run its own figures (issue 33)", async () => {
    const fixtures = backupFixtures(database.db);
    const backupState = createBackupStateService({ db: database.db });
    const pkg = await fixtures.package(tenants.customerA.customerId);
    const repo = createAgentEventsRepo(database.db);
    const statements: number[] = [];
    const counted = createAgentEventService({
      repo: {
        ...repo,
        recordProgress: (reports) => {
          statements.push(reports.length);
          return repo.recordProgress(reports);
        },
      },
      backupState,
      onUpdate: (machineId, update) => updates.push([machineId, update]),
    });
    const agents: Array<{ machine: AuthenticatedMachine; taskId: number }> = [];
    for (let i = 0; i < 40; i++) {
      const id = await fixtures.machine(pkg);
      const machineTask = (await backupState.createTask(fixtures.task(id))) as number;
      agents.push({
        machine: { id, customerId: tenants.customerA.customerId, backupPackageId: pkg },
        taskId: machineTask,
      });
    }
    const report = (runKey: string, percentage: number) =>
      event({
        type: 'runProgress',
        runKey,
        phase: 'TRANSFERRING_FILES',
        percentage,
        currentItem: percentage,
        totalItems: 100,
        bytesDone: percentage * 10,
        bytesTotal: 1000,
        filesDone: percentage,
      });
    for (const [i, a] of agents.entries()) {
      if (i === 39) continue; // its run never started: its report is of an unknown run
      await counted.handle(
        a.machine,
        event({
          type: 'runStarted',
          runKey: `batch-${i}`,
          taskId: a.taskId,
          startedAt: '2026-11-23T10:00:00Z',
          manual: false,
        }),
      );
    }
    updates.length = 0;
    await Promise.all(agents.map((a, i) => counted.handle(a.machine, report(`batch-${i}`, i + 1))));
    expect(statements.length).toBeLessThanOrEqual(2);
    expect(statements.reduce((sum, n) => sum + n, 0)).toBe(40);
    for (const [i, a] of agents.entries()) {
      const [run] = await database.db.select().from(taskActions).where(eq(taskActions.backupTaskId, a.taskId));
      if (i === 39) expect(run).toBeUndefined();
      else
        expect(run).toMatchObject({
          transferProgressPercentage: i + 1,
          progressBytesDone: (i + 1) * 10,
          progressFilesDone: i + 1,
        });
    }
    // The browsers watching hear of each run that moved, and of no unknown one.
    expect(updates.filter(([, u]) => u.kind === 'run')).toHaveLength(39);
    expect(updates.some(([id]) => id === agents[39]?.machine.id)).toBe(false);
  });

  it('keeps at most one snapshot archive per week per task; a failed run records its message', async () => {
    await events.handle(
      machine,
      event({ type: 'runStarted', runKey: 'run-2', taskId, startedAt: '2026-11-24T10:00:00Z', manual: true }),
    );
    await events.handle(machine, finish('run-2', '2026-11-24T10:05:00Z', 'b'.repeat(64)));
    await events.handle(
      machine,
      event({ type: 'runStarted', runKey: 'run-3', taskId, startedAt: '2026-11-30T10:00:00Z', manual: false }),
    );
    await events.handle(machine, finish('run-3', '2026-11-30T10:05:00Z', 'c'.repeat(64)));
    const archives = await database.db.select().from(backupSnapshots).where(eq(backupSnapshots.backupTaskId, taskId));
    expect(archives.map((a) => a.resticSnapshotId).sort()).toEqual(['a'.repeat(64), 'c'.repeat(64)]);
    expect(archives.map((a) => a.createdAt.toISOString()).sort()).toEqual([
      '2026-11-23T10:05:00.000Z',
      '2026-11-30T10:05:00.000Z',
    ]);

    await events.handle(
      machine,
      event({ type: 'runStarted', runKey: 'run-4', taskId, startedAt: '2026-11-30T11:00:00Z', manual: false }),
    );
    await events.handle(
      machine,
      event({
        type: 'messages',
        runKey: 'run-4',
        taskId,
        messages: [{ type: 'ERROR', text: 'Fatal: unable to open repository', time: '2026-11-30T11:00:05Z' }],
      }),
    );
    await events.handle(machine, finish('run-4', '2026-11-30T11:01:00Z', null));
    expect(await task()).toMatchObject({ displayStatus: 'LAST_FAILED', statusOfRunBeforeLast: 'FINISHED_SUCCESS' });
    const messages = await database.db
      .select()
      .from(machineMessages)
      .where(eq(machineMessages.backupMachineId, machine.id));
    expect(messages).toEqual([expect.objectContaining({ messageType: 'ERROR', backupTaskId: taskId })]);
  });

  it("refuses another machine's task and ignores reports of unknown runs", async () => {
    const [reply] = await events.handle(
      machine,
      event({
        type: 'runStarted',
        runKey: 'x',
        taskId: otherMachineTask,
        startedAt: '2026-11-23T10:00:00Z',
        manual: true,
        requestId: 'r',
      }),
    );
    expect(reply).toMatchObject({ type: 'reply', success: false });
    expect(await events.handle(machine, finish('never-started', '2026-11-23T10:00:00Z'))).toEqual([]);
    const foreign = await database.db.select().from(taskActions).where(eq(taskActions.backupTaskId, otherMachineTask));
    expect(foreign).toHaveLength(0);
  });

  it('fails the busy runs a reconnecting agent no longer accounts for, once; an older hello leaves them', async () => {
    const start = (runKey: string) =>
      events.handle(
        machine,
        event({ type: 'runStarted', runKey, taskId, startedAt: '2026-12-01T10:00:00Z', manual: true }),
      );
    await start('killed-1');
    const runOf = async (runKey: string) => (await runs()).find((r) => r.runKey === runKey);

    // An agent that does not say which runs it holds (older agents): nothing is touched.
    await events.handle(machine, hello());
    expect(await runOf('killed-1')).toMatchObject({ status: 'IN_PROGRESS' });
    // The agent still holds it (running, or its outcome queued): nothing is touched either.
    await events.handle(machine, hello(['killed-1']));
    expect(await runOf('killed-1')).toMatchObject({ status: 'IN_PROGRESS' });

    // The agent came back without it: it was cut off.
    await events.handle(machine, hello([]));
    expect(await runOf('killed-1')).toMatchObject({
      status: 'FAILED',
      exitCodeResult: 'IO_OR_INTERRUPT_EXCEPTION',
      failureMessage: INTERRUPTED_ACTION_MESSAGES.backup,
      phase: 'FINALIZED',
    });
    expect((await runOf('killed-1'))?.timeFinished).not.toBeNull();
    expect(await task()).toMatchObject({ statusOfLastRun: 'FAILED', displayStatus: 'LAST_FAILED' });
    expect(await readStoredReadModel(database.db)).toEqual(await computeReadModel(database.db));

    // A late report of the same run changes nothing; a run of another machine is never touched.
    await events.handle(machine, finish('killed-1', '2026-12-01T10:05:00Z'));
    expect(await runOf('killed-1')).toMatchObject({ status: 'FAILED' });
    await start('running-2');
    await events.handle(machine, hello(['running-2']));
    expect(await runOf('running-2')).toMatchObject({ status: 'IN_PROGRESS' });
    await events.handle(machine, finish('running-2', '2026-12-01T10:06:00Z'));
    expect(await task()).toMatchObject({ statusOfLastRun: 'FINISHED_SUCCESS', displayStatus: 'LAST_SUCCEEDED' });
  });

  it("fails a restore cut off by the agent's restart in a restore's words, leaving the task's run status", async () => {
    await events.handle(
      machine,
      event({
        type: 'runStarted',
        runKey: 'restore-cut-off',
        taskId,
        startedAt: '2026-12-02T10:00:00Z',
        manual: true,
        actionType: 'BACKUP_RESTORE',
      }),
    );
    const before = await task();
    await events.handle(machine, hello([]));
    const restore = (await runs()).find((r) => r.runKey === 'restore-cut-off');
    expect(restore).toMatchObject({
      type: 'BACKUP_RESTORE',
      status: 'FAILED',
      exitCodeResult: 'IO_OR_INTERRUPT_EXCEPTION',
      failureMessage: INTERRUPTED_ACTION_MESSAGES.restore,
    });
    expect(INTERRUPTED_ACTION_MESSAGES.restore).not.toBe(INTERRUPTED_ACTION_MESSAGES.backup);
    expect(await task()).toMatchObject({
      statusOfLastRun: before?.statusOfLastRun,
      displayStatus: before?.displayStatus,
    });
  });

  it('stores the used space the agent reports', async () => {
    await events.handle(machine, event({ type: 'usage', usedSpaceBytes: 123_456 }));
    const [row] = await database.db.select().from(backupMachines).where(eq(backupMachines.id, machine.id));
    expect(row?.usedSpaceBytes).toBe(123_456);
  });

  it('weeks start on Monday', () => {
    expect(weekStartOf(new Date('2026-11-23T10:00:00Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(weekStartOf(new Date('2026-11-29T23:59:59Z')).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(weekStartOf(new Date('2026-11-30T00:00:00Z')).toISOString()).toBe('2026-11-30T00:00:00.000Z');
  });
});

describe("many agents' run starts, ends and messages (issue 33, ingest)", () => {
  /** An agent-event service whose read-model transactions are counted, and may be made to fail. */
  async function batchedService(failWhen: (taskIds: readonly number[]) => Error | null = () => null) {
    const fixtures = backupFixtures(database.db);
    const backupState = createBackupStateService({ db: database.db });
    const transactions: number[][] = [];
    const service = createAgentEventService({
      repo: createAgentEventsRepo(database.db),
      backupState: {
        ...backupState,
        runsMoved: (taskIds, write) => {
          transactions.push([...taskIds]);
          const failure = failWhen(taskIds);
          return failure ? Promise.reject(failure) : backupState.runsMoved(taskIds, write);
        },
      },
    });
    const pkg = await fixtures.package(tenants.customerA.customerId);
    const agents: Array<{ machine: AuthenticatedMachine; taskId: number }> = [];
    for (let i = 0; i < 6; i++) {
      const id = await fixtures.machine(pkg);
      const machineTask = (await backupState.createTask(fixtures.task(id))) as number;
      agents.push({
        machine: { id, customerId: tenants.customerA.customerId, backupPackageId: pkg },
        taskId: machineTask,
      });
    }
    return { service, agents, transactions };
  }
  const start = (runKey: string, taskOfRun: number) =>
    event({ type: 'runStarted', runKey, taskId: taskOfRun, startedAt: '2026-11-23T10:00:00Z', manual: false });
  const runsOfTask = (id: number) => database.db.select().from(taskActions).where(eq(taskActions.backupTaskId, id));
  const taskRow = async (id: number) => (await database.db.select().from(backupTasks).where(eq(backupTasks.id, id)))[0];

  it('stores reports arriving together in one transaction, each as if alone; a report sent twice counts once', async () => {
    const { service, agents, transactions } = await batchedService();
    // Every agent's start at once, one of them twice.
    const [first] = agents;
    if (!first) throw new Error('no agents');
    await Promise.all([
      ...agents.map((a, i) => service.handle(a.machine, start(`together-${i}`, a.taskId))),
      service.handle(first.machine, start('together-0', first.taskId)),
    ]);
    expect(transactions.length).toBeLessThanOrEqual(3);
    expect(transactions[0]?.length).toBeGreaterThan(1);
    transactions.length = 0;
    // Their ends and messages together, the first agent's end twice.
    await Promise.all([
      ...agents.map((a, i) => service.handle(a.machine, finish(`together-${i}`, '2026-11-23T10:05:00Z', null))),
      service.handle(first.machine, finish('together-0', '2026-11-23T10:05:00Z', null)),
      ...agents.map((a, i) =>
        service.handle(
          a.machine,
          event({
            type: 'messages',
            runKey: `together-${i}`,
            taskId: a.taskId,
            messages: [{ type: 'ERROR', text: `disk ${i} full`, time: '2026-11-23T10:05:00Z' }],
          }),
        ),
      ),
    ]);
    expect(transactions.length).toBeLessThanOrEqual(4);
    for (const [i, a] of agents.entries()) {
      const runsOfIt = await runsOfTask(a.taskId);
      expect(runsOfIt).toHaveLength(1);
      expect(runsOfIt[0]).toMatchObject({ status: 'FAILED', runKey: `together-${i}` });
      expect(await taskRow(a.taskId)).toMatchObject({ statusOfLastRun: 'FAILED', displayStatus: 'LAST_FAILED' });
      const stored = await database.db
        .select()
        .from(machineMessages)
        .where(eq(machineMessages.backupMachineId, a.machine.id));
      expect(stored.filter((m) => m.message === `disk ${i} full`)).toEqual([
        expect.objectContaining({ backupTaskId: a.taskId, taskActionId: runsOfIt[0]?.id }),
      ]);
    }
    expect(await readStoredReadModel(database.db)).toEqual(await computeReadModel(database.db));
  });

  it("stores a run's start and its end sent together in their order, and one run's two reports in order", async () => {
    const { service, agents } = await batchedService();
    const [a] = agents;
    if (!a) throw new Error('no agents');
    await Promise.all([
      service.handle(a.machine, start('start-and-end', a.taskId)),
      service.handle(a.machine, finish('start-and-end', '2026-11-23T10:05:00Z')),
      service.handle(a.machine, start('next-run', a.taskId)),
    ]);
    const runsOfIt = await runsOfTask(a.taskId);
    expect(runsOfIt.map((r) => [r.runKey, r.status]).sort()).toEqual([
      ['next-run', 'IN_PROGRESS'],
      ['start-and-end', 'FINISHED_SUCCESS'],
    ]);
    expect(await taskRow(a.taskId)).toMatchObject({
      statusOfLastRun: 'IN_PROGRESS',
      statusOfRunBeforeLast: 'FINISHED_SUCCESS',
      displayStatus: 'LAST_SUCCEEDED',
    });
    expect(await readStoredReadModel(database.db)).toEqual(await computeReadModel(database.db));
  });

  it('tries a batch again while the database is out of reach, and fails only the report at fault', async () => {
    let outages = 1;
    let faulty = 0;
    const { service, agents, transactions } = await batchedService((taskIds) => {
      if (outages > 0 && taskIds.length > 1) {
        outages -= 1;
        return Object.assign(new Error('Connection terminated unexpectedly'), { code: '08006' });
      }
      return taskIds.includes(faulty) ? new Error('a fault of ours') : null;
    });
    faulty = agents[5]?.taskId ?? 0;
    const results = await Promise.allSettled(
      agents.map((a, i) => service.handle(a.machine, start(`retried-${i}`, a.taskId))),
    );
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    expect((results[5] as PromiseRejectedResult).reason).toMatchObject({ message: 'a fault of ours' });
    // The batch failed once for the outage, again for the faulty report, then each report went alone.
    expect(transactions.length).toBeGreaterThanOrEqual(3);
    for (const [i, a] of agents.entries()) {
      expect(await runsOfTask(a.taskId)).toHaveLength(i === 5 ? 0 : 1);
    }
    expect(await readStoredReadModel(database.db)).toEqual(await computeReadModel(database.db));
  });
});
