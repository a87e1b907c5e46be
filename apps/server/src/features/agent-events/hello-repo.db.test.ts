import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { backupMachines, backupTasks, taskActions } from '../../db/schema/index.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { openTestDatabase } from '../../testing/database.js';
import { createTenants } from '../../testing/fixtures.js';
import { createBackupStateService } from '../backup-state/service.js';
import type { HelloReport } from './hello-repo.js';
import { type AgentEventsRepo, createAgentEventsRepo } from './repo.js';

let database: Database;
let repo: AgentEventsRepo;
/** Machine `withTasks` (tasks of every kind, runs busy and finished, on the embedded storage), `bare` (none). */
let withTasks: number;
let bare: number;
let busyRunIds: number[];

const report = (machineId: number, changes: Partial<HelloReport> = {}): HelloReport => ({
  machineId,
  osFamily: 'LINUX',
  operatingSystem: 'Debian 12',
  desktopClientVersion: '1.0.0',
  timeZone: 'UTC',
  ...changes,
});
/** The row's version: it moves whenever the row is written, even with the same values. */
const rowVersion = async (machineId: number) =>
  (
    await database.db
      .select({ xmin: sql<string>`xmin::text` })
      .from(backupMachines)
      .where(eq(backupMachines.id, machineId))
  )[0]?.xmin;

beforeAll(async () => {
  database = await openTestDatabase();
  const { db } = database;
  repo = createAgentEventsRepo(db);
  const tenants = await createTenants(db);
  const fixtures = backupFixtures(db);
  const backupState = createBackupStateService({ db });
  const customerId = tenants.customerA.customerId;
  const pkg = await fixtures.package(customerId, { storageLocationId: await fixtures.storageLocation(customerId) });
  withTasks = await fixtures.machine(pkg);
  bare = await fixtures.machine(await fixtures.package(tenants.customerB.customerId));
  const documents = (await backupState.createTask(fixtures.task(withTasks, { name: 'Documents' }))) as number;
  const paused = (await backupState.createTask(
    fixtures.task(withTasks, { name: 'Paused', status: 'PAUSED' }),
  )) as number;
  await db
    .update(backupTasks)
    .set({
      backupItems: [{ path: '/home', name: 'home', type: 'DIRECTORY', missing: false }],
      exclusions: ['*.tmp'],
      pruneAfterCount: 3,
      pruneTimeUnit: 'WEEK',
      uploadBandwidthLimit: 512,
      pathToSeedDisk: '/mnt/seed',
      version: 4,
    })
    .where(eq(backupTasks.id, paused));
  const run = (taskId: number, runKey: string | null, status: 'IN_PROGRESS' | 'INITIATED' | 'FINISHED_SUCCESS') =>
    db
      .insert(taskActions)
      .values({ backupMachineId: withTasks, backupTaskId: taskId, runKey, type: 'BACKUP_RUN', status })
      .returning({ id: taskActions.id });
  busyRunIds = [
    ((await run(documents, 'busy-1', 'IN_PROGRESS'))[0] as { id: number }).id,
    ((await run(paused, 'busy-2', 'INITIATED'))[0] as { id: number }).id,
  ];
  await run(documents, 'done-1', 'FINISHED_SUCCESS');
  await run(documents, null, 'IN_PROGRESS');
});
afterAll(async () => database?.close());

describe("an agent's hello in one statement (issue 33)", () => {
  it('answers as the separate reads did: time zone, task list, busy runs and what its repository is made of', async () => {
    const answers = await repo.answerHellos([
      report(withTasks, { timeZone: 'Europe/Paris' }),
      report(bare),
      report(999_999),
    ]);
    expect([...answers.keys()].sort((a, b) => a - b)).toEqual([withTasks, bare]);
    const answer = answers.get(withTasks);
    expect(answer?.timeZone).toBe('Europe/Paris');
    expect(answer?.tasks).toEqual(await repo.tasksOf(withTasks));
    expect(answer?.tasks.map((t) => t.name)).toEqual(['Documents', 'Paused']);
    expect(answer?.tasks[1]).toMatchObject({
      status: 'PAUSED',
      version: 4,
      backupItems: [{ path: '/home', name: 'home', type: 'DIRECTORY', missing: false }],
      exclusions: ['*.tmp'],
      extraTaskSettings: {
        numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: 3,
        timeUnitForBackupItemPruning: 'WEEK',
      },
    });
    expect(answer?.busyRuns).toEqual([
      { id: busyRunIds[0], taskId: answer?.tasks[0]?.id, runKey: 'busy-1', type: 'BACKUP_RUN' },
      { id: busyRunIds[1], taskId: answer?.tasks[1]?.id, runKey: 'busy-2', type: 'BACKUP_RUN' },
    ]);
    expect(answer?.repository).toEqual({ passwordSealed: null, storageAccountType: 'LOCAL' });
    expect(answers.get(bare)).toEqual({
      timeZone: 'UTC',
      tasks: [],
      busyRuns: [],
      repository: { passwordSealed: null, storageAccountType: null },
    });
    expect(await repo.machineTimeZone(withTasks)).toBe('Europe/Paris');
  });

  it('writes the machine only when the hello says something new; an unknown time zone keeps the stored one', async () => {
    const said = report(bare, { osFamily: 'WINDOWS', operatingSystem: 'Windows 11', desktopClientVersion: '2.0.0' });
    await repo.answerHellos([said]);
    const version = await rowVersion(bare);
    await repo.answerHellos([{ ...said, timeZone: null }]);
    expect(await rowVersion(bare)).toBe(version);

    const answers = await repo.answerHellos([{ ...said, desktopClientVersion: '2.0.1', timeZone: null }]);
    expect(await rowVersion(bare)).not.toBe(version);
    expect(answers.get(bare)?.timeZone).toBe('UTC');
    const [row] = await database.db.select().from(backupMachines).where(eq(backupMachines.id, bare));
    expect(row).toMatchObject({
      osFamily: 'WINDOWS',
      operatingSystem: 'Windows 11',
      desktopClientVersion: '2.0.1',
      timeZone: 'UTC',
    });
  });
});
