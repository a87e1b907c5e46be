import { eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { backupMachines } from '../db/schema/index.js';
import { createPresenceWriter } from '../features/live/presence-writer.js';
import { createPresenceRepo } from '../features/live/repo.js';
import { useTestDatabaseWithTenants } from '../testing/suite.js';
import { createJobRunner } from './runner.js';
import { stalePresenceJob } from './stale-presence.js';

const ctx = useTestDatabaseWithTenants();
const now = new Date('2026-11-23T10:00:00Z');
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000);

describe('stale presence sweep', () => {
  it('marks offline the machines no connection has vouched for in three touch intervals, and tells the dashboards', async () => {
    const db = ctx.database.db;
    const { fixtures } = ctx;
    const pkg = await fixtures.package(ctx.tenants.customerA.customerId);
    const [stale, fresh, offline] = [
      await fixtures.machine(pkg),
      await fixtures.machine(pkg),
      await fixtures.machine(pkg),
    ];
    const presence = createPresenceRepo(db);
    const marks = createPresenceWriter(presence);
    await marks.connected(stale, minutesAgo(4));
    await marks.connected(fresh, minutesAgo(2));
    await db
      .update(backupMachines)
      .set({ online: false, lastSeenAt: minutesAgo(60) })
      .where(eq(backupMachines.id, offline));

    const told: number[][] = [];
    const runner = createJobRunner({ logger: pino({ level: 'silent' }) });
    const job = runner.add(
      stalePresenceJob({
        presence,
        touchEveryMs: 60_000,
        machinesChanged: (ids) => told.push(ids),
        now: () => now,
        everyMs: 3_600_000,
      }),
    );
    runner.start();
    try {
      expect(await job.runOnce()).toBe(1);
      expect(told).toEqual([[stale]]);
      const rows = await db
        .select({ id: backupMachines.id, online: backupMachines.online })
        .from(backupMachines)
        .where(inArray(backupMachines.id, [stale, fresh, offline]));
      expect(Object.fromEntries(rows.map((r) => [r.id, r.online]))).toEqual({
        [stale]: false,
        [fresh]: true,
        [offline]: false,
      });
      // Idempotent: a second pass (or another instance) finds nothing.
      expect(await job.runOnce()).toBe(0);

      // A connection that was alive after all says online again on its next touch.
      expect(await marks.seen(stale, minutesAgo(4), now)).toBe(true);
      expect(await presence.isOnline(stale)).toBe(true);
    } finally {
      await runner.stop();
    }
  });
});
