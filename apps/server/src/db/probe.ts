import { sql } from 'drizzle-orm';
import type { Db } from './client.js';

/**
 * GET /health's database check, kept cheap when a load balancer polls it hard: one `select 1` at a time
 * (probes arriving meanwhile share its answer), and 'down' when it takes longer than `timeoutMs`.
 */
export function createDatabaseProbe(db: Db, timeoutMs: number): () => Promise<boolean> {
  let inFlight: Promise<boolean> | null = null;
  const probe = async (): Promise<boolean> => {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([db.execute(sql`select 1`).then(() => true), timedOut]);
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  };
  return () => {
    inFlight ??= probe().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}
