import { eq } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { backupMachines, backupTasks } from '../db/schema/index.js';
import { computeReadModel, readStoredReadModel } from '../features/backup-state/recompute.js';
import { createBackupStateService } from '../features/backup-state/service.js';
import { useTestDatabaseWithTenants } from '../testing/suite.js';
import { missedRunsJob } from './missed-runs.js';
import { createJobRunner } from './runner.js';

const ctx = useTestDatabaseWithTenants();
const clock = { now: new Date('2026-11-23T09:30:00Z') };
const task = async (id: number) => (await ctx.database.db.select().from(backupTasks).where(eq(backupTasks.id, id)))[0];

describe('missed-run detection (DESIGN §8)', () => {
  it('expects the next run in the machine zone, marks it missed past the grace period, and the next run clears it', async () => {
    const db = ctx.database.db;
    const { fixtures } = ctx;
    const state = createBackupStateService({ db, now: () => clock.now });
    const pkg = await fixtures.package(ctx.tenants.customerA.customerId);
    const machine = await fixtures.machine(pkg);
    await db.update(backupMachines).set({ timeZone: 'Europe/Berlin' }).where(eq(backupMachines.id, machine));
    // 02:00 in Berlin is 01:00 UTC in November.
    const id = (await state.createTask(fixtures.task(machine, { statusOfLastRun: 'FINISHED_SUCCESS' }))) as number;
    expect((await task(id))?.nextRunAt?.toISOString()).toBe('2026-11-24T01:00:00.000Z');
    const paused = (await state.createTask(fixtures.task(machine, { status: 'PAUSED' }))) as number;
    expect((await task(paused))?.nextRunAt).toBeNull();

    const runner = createJobRunner({ logger: pino({ level: 'silent' }) });
    const job = runner.add(missedRunsJob({ backupState: state, everyMs: 3_600_000 }));
    try {
      clock.now = new Date('2026-11-24T01:14:00Z'); // within the grace period
      expect(await job.runOnce()).toBe(0);
      clock.now = new Date('2026-11-24T01:16:00Z');
      expect(await job.runOnce()).toBe(1);
      expect(await task(id)).toMatchObject({ lastExecutionMissed: true, displayStatus: 'MISSED' });
      expect((await task(id))?.nextRunAt?.toISOString()).toBe('2026-11-25T01:00:00.000Z');
      expect(await job.runOnce()).toBe(0);

      clock.now = new Date('2026-11-24T08:00:00Z');
      await state.runStarted(id);
      expect(await task(id)).toMatchObject({ lastExecutionMissed: false, displayStatus: 'LAST_SUCCEEDED' });
      expect(await readStoredReadModel(db)).toEqual(await computeReadModel(db));
    } finally {
      await runner.stop();
    }
  });

  it('moves a task that may not run on without marking it, and is safe when two instances check at once', async () => {
    const db = ctx.database.db;
    const { fixtures } = ctx;
    const state = createBackupStateService({ db, now: () => clock.now });
    const pkg = await fixtures.package(ctx.tenants.customerB.customerId);
    const stopped = await fixtures.machine(pkg, { status: 'SUSPENDED' });
    const running = await fixtures.machine(pkg);
    clock.now = new Date('2026-11-23T09:30:00Z');
    const stoppedTask = (await state.createTask(fixtures.task(stopped))) as number;
    const tasks = await Promise.all(Array.from({ length: 5 }, () => state.createTask(fixtures.task(running))));

    clock.now = new Date('2026-11-24T03:00:00Z');
    const logger = pino({ level: 'silent' });
    // Two instances: a runner each, their passes asked for at once.
    const [runnerA, runnerB] = [createJobRunner({ logger }), createJobRunner({ logger })];
    const a = runnerA.add(missedRunsJob({ backupState: state, everyMs: 3_600_000 }));
    const b = runnerB.add(missedRunsJob({ backupState: state, everyMs: 3_600_000 }));
    try {
      const [markedA, markedB] = await Promise.all([a.runOnce(), b.runOnce()]);
      expect(markedA + markedB).toBeGreaterThanOrEqual(5);
      expect((await task(stoppedTask))?.lastExecutionMissed).toBe(false);
      expect((await task(stoppedTask))?.nextRunAt?.toISOString()).toBe('2026-11-25T02:00:00.000Z');
      for (const id of tasks) expect((await task(id as number))?.lastExecutionMissed).toBe(true);
      expect(await readStoredReadModel(db)).toEqual(await computeReadModel(db));
    } finally {
      await Promise.all([runnerA.stop(), runnerB.stop()]);
    }
  });
});
