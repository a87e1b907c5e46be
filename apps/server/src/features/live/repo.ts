import { and, eq, inArray, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { backupMachines } from '../../db/schema/index.js';

/**
 * Machine presence (DESIGN §5). `last_seen_at` doubles as the owner mark of the current connection:
 * each connection remembers the value it last wrote, and later writes (activity, going offline) apply
 * only while the column still holds it. A newer connection (on any instance) writes its own value, so
 * an older connection closing late cannot mark the machine offline.
 */
export function createPresenceRepo(db: Executor) {
  return {
    async connected(machineId: number, at: Date): Promise<void> {
      await db.update(backupMachines).set({ online: true, lastSeenAt: at }).where(eq(backupMachines.id, machineId));
    },

    /**
     * Moves last-seen on (and says online again, should a sweep have taken a live connection for a dead
     * one); false when another connection has taken over since `mine`.
     */
    async seen(machineId: number, mine: Date, at: Date): Promise<boolean> {
      const rows = await db
        .update(backupMachines)
        .set({ online: true, lastSeenAt: at })
        .where(and(eq(backupMachines.id, machineId), eq(backupMachines.lastSeenAt, mine)))
        .returning({ id: backupMachines.id });
      return rows.length > 0;
    },

    async disconnected(machineId: number, mine: Date, at: Date): Promise<boolean> {
      const rows = await db
        .update(backupMachines)
        .set({ online: false, lastSeenAt: at })
        .where(and(eq(backupMachines.id, machineId), eq(backupMachines.lastSeenAt, mine)))
        .returning({ id: backupMachines.id });
      return rows.length > 0;
    },

    /**
     * Machines still marked online that no connection has vouched for since `before`: their instance
     * stopped without closing them (a crash, a kill). Marked offline; their ids are returned.
     */
    async markStaleOffline(before: Date, limit: number): Promise<number[]> {
      const stale = db
        .select({ id: backupMachines.id })
        .from(backupMachines)
        .where(and(eq(backupMachines.online, true), lt(backupMachines.lastSeenAt, before)))
        .limit(limit);
      const rows = await db
        .update(backupMachines)
        .set({ online: false })
        .where(
          and(
            inArray(backupMachines.id, stale),
            eq(backupMachines.online, true),
            lt(backupMachines.lastSeenAt, before),
          ),
        )
        .returning({ id: backupMachines.id });
      return rows.map((row) => row.id);
    },

    async isOnline(machineId: number): Promise<boolean> {
      const [row] = await db
        .select({ online: backupMachines.online })
        .from(backupMachines)
        .where(eq(backupMachines.id, machineId));
      return row?.online ?? false;
    },
  };
}

export type PresenceRepo = ReturnType<typeof createPresenceRepo>;
