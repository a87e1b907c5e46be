import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.js';
import { backupMachines } from '../../db/schema/index.js';
import { credentialAccepted } from '../machine-auth/credentials.js';

/**
 * One presence change: the machine online or offline as of `at`, applied only while the row still holds `mine`
 * (the connection's owner mark; null for a new connection, which takes the mark unconditionally).
 */
export interface PresenceMark {
  machineId: number;
  mine: Date | null;
  at: Date;
  online: boolean;
  /**
   * An agent's connect: the SHA-256 of the credential it presented. The mark applies only while that is the
   * machine's usable credential (machine-auth's rule), so checking the credential and taking the mark are one
   * statement, shared with the other connects and leaves of its batch.
   */
  credentialHash?: string | undefined;
}

/** What a mark that applied tells: the machine as an authenticated agent's connection knows it. */
export interface MarkedMachine {
  id: number;
  customerId: number;
  backupPackageId: number;
}

/**
 * Machine presence (DESIGN §5). `last_seen_at` doubles as the owner mark of the current connection:
 * each connection remembers the value it last wrote, and later writes (activity, going offline) apply
 * only while the column still holds it. A newer connection (on any instance) writes its own value, so
 * an older connection closing late cannot mark the machine offline.
 */
export function createPresenceRepo(db: Executor) {
  return {
    /**
     * Applies many machines' marks in one statement (at most one mark a machine: a later one for the same
     * machine goes in a later statement, see presence-writer.ts); the ids of the machines whose row changed.
     */
    async applyMarks(marks: readonly PresenceMark[]): Promise<Map<number, MarkedMachine>> {
      if (marks.length === 0) return new Map();
      const values = sql.join(
        marks.map(
          (m) =>
            sql`(${m.machineId}::integer, ${m.mine?.toISOString() ?? null}::timestamptz, ${m.at.toISOString()}::timestamptz, ${m.online}::boolean, ${m.credentialHash ?? null}::text)`,
        ),
        sql`, `,
      );
      const rows = rowsOf<{ id: number; customer_id: number; backup_package_id: number }>(
        await db.execute(sql`
          update ${backupMachines} set online = v.online, last_seen_at = v.at
            from (values ${values}) as v(id, mine, at, online, hash)
           where ${backupMachines.id} = v.id
             and (v.mine is null or ${backupMachines.lastSeenAt} = v.mine)
             and (v.hash is null or ${credentialAccepted(sql`v.hash`)})
          returning ${backupMachines.id} as id, ${backupMachines.customerId} as customer_id,
                    ${backupMachines.backupPackageId} as backup_package_id`),
      );
      return new Map(
        rows.map((row) => [
          Number(row.id),
          { id: Number(row.id), customerId: Number(row.customer_id), backupPackageId: Number(row.backup_package_id) },
        ]),
      );
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
