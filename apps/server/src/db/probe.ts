import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { type Db, migrationsFolder, rowsOf } from './client.js';

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

/**
 * GET /ready's migration check: whether the database has this build's last migration (drizzle records each
 * applied one with its journal time; a newer build's instance may have applied more). Once true it stays true.
 */
export function createMigrationsProbe(db: Db): () => Promise<boolean> {
  const journal = JSON.parse(readFileSync(join(migrationsFolder(), 'meta/_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  const last = Math.max(0, ...journal.entries.map((e) => e.when));
  let done = false;
  return async () => {
    if (done) return true;
    const [row] = rowsOf<{ latest: string | null }>(
      await db.execute(sql`select max(created_at)::text as latest from drizzle.__drizzle_migrations`),
    );
    const latest = Number(row?.latest ?? 0);
    done = latest >= last;
    return done;
  };
}
