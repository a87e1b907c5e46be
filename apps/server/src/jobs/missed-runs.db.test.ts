import { eq, inArray, like, sql } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { type Database, openDatabase, rowsOf } from '../db/client.js';
import { backupMachines, backupTasks, mailOutbox } from '../db/schema/index.js';
import { computeReadModel, readStoredReadModel } from '../features/backup-state/recompute.js';
import { createBackupStateService } from '../features/backup-state/service.js';
import { createNotificationEvents } from '../features/notifications/service.js';
import { useTestDatabaseWithTenants } from '../testing/suite.js';
import { missedRunsJob } from './missed-runs.js';
import { createJobRunner } from './runner.js';

const ctx = useTestDatabaseWithTenants();
const clock = { now: new Date('2026-11-23T09:30:00Z') };
/**
 * A second server instance's own connection pool on the test's database (PostgreSQL); null on the embedded
 * database, whose one connection both instances then share.
 */
async function secondInstance(database: Database): Promise<Database | null> {
  const base = process.env.DATABASE_URL;
  if (!base) return null;
  const [row] = rowsOf<{ name: string }>(await database.db.execute(sql`select current_database() as name`));
  const url = new URL(base);
  url.pathname = `/${row?.name}`;
  return openDatabase({ databaseUrl: url.toString(), dataDir: 'memory://' });
}

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

  it('marks each overdue task once, with one alert each, when two instances mark batches at once', async () => {
    const { fixtures, tenants } = ctx;
    const second = await secondInstance(ctx.database);
    const instances = [ctx.database.db, second?.db ?? ctx.database.db].map((db) => {
      const notifications = createNotificationEvents({ db, now: () => clock.now });
      const alerted: number[] = [];
      const changed = new Set<number>();
      const state = createBackupStateService({
        db,
        now: () => clock.now,
        onMachinesChanged: (ids) => {
          for (const id of ids) changed.add(id);
        },
        tasksMissed: async (tx, missed) => {
          alerted.push(...missed.map((m) => m.taskId));
          return notifications.tasksMissed(tx, missed);
        },
      });
      return { state, alerted, changed };
    });
    try {
      clock.now = new Date('2026-11-23T09:30:00Z');
      const [first] = instances;
      if (!first) throw new Error('two instances');
      // Tasks of two customers on several machines, so that batches meet on the same customers.
      const machines: number[] = [];
      for (const customer of [tenants.customerA, tenants.customerB]) {
        const pkg = await fixtures.package(customer.customerId);
        for (let i = 0; i < 3; i++) machines.push(await fixtures.machine(pkg));
      }
      const ids: number[] = [];
      for (let i = 0; i < 42; i++) {
        const machine = machines[i % machines.length] as number;
        ids.push((await first.state.createTask(fixtures.task(machine, { name: `Overdue ${i}` }))) as number);
      }
      ids.sort((a, b) => a - b);

      clock.now = new Date('2026-11-24T03:00:00Z');
      // Each instance takes batches of 4 until none is claimed: they run side by side over the same tasks.
      const drain = async (state: (typeof instances)[number]['state']) => {
        let marked = 0;
        for (;;) {
          const batch = await state.markMissedBatch(4);
          marked += batch.marked;
          if (batch.claimed === 0) return marked;
        }
      };
      const marked = await Promise.all(instances.map((i) => drain(i.state)));
      expect(marked.reduce((a, b) => a + b, 0)).toBe(ids.length);
      // Each task alerted once, by one of the two.
      expect(instances.flatMap((i) => i.alerted).sort((a, b) => a - b)).toEqual(ids);
      const rows = await ctx.database.db.select().from(backupTasks).where(inArray(backupTasks.id, ids));
      for (const row of rows) {
        expect(row).toMatchObject({ lastExecutionMissed: true, displayStatus: 'MISSED' });
        expect(row.nextRunAt?.toISOString()).toBe('2026-11-25T02:00:00.000Z');
      }
      // One mail per task to each customer's super admin (subscribed by default), queued in the marking transaction.
      const mails = await ctx.database.db
        .select({ eventKey: mailOutbox.eventKey, recipient: mailOutbox.recipient })
        .from(mailOutbox)
        .where(like(mailOutbox.eventKey, 'missed:%'));
      for (const id of ids) {
        const own = mails.filter((m) => m.eventKey.startsWith(`missed:${id}:2026-11-24T02:00:00.000Z:`));
        expect(own.length).toBeGreaterThanOrEqual(1);
      }
      // The live dashboard heard of every machine.
      const heard = new Set(instances.flatMap((i) => [...i.changed]));
      expect([...heard].sort()).toEqual([...machines].sort());
      expect(await readStoredReadModel(ctx.database.db)).toEqual(await computeReadModel(ctx.database.db));
      // Nothing is due any more: the probe says so.
      expect(await first.state.anyMissedRunDue()).toBe(false);
    } finally {
      await second?.close();
    }
  });
});
