import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction a service opened (`db.transaction(async (tx) => ...)`). */
export type Transaction = Parameters<Parameters<Db['transaction']>[0]>[0];
/**
 * What a repository is created from and queries run on: the database, or a transaction a service opened
 * so that several repositories' writes commit together (`createUsersRepo(tx)`).
 */
export type Executor = Db | Transaction;

/** The rows of a raw `execute` result: node-postgres and PGlite both answer `{ rows }`. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
}

/** The committed migration set: beside the bundle in a build, in apps/server/drizzle from source. */
export function migrationsFolder(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'drizzle'), join(here, '../../drizzle')];
  const found = candidates.find((dir) => existsSync(join(dir, 'meta/_journal.json')));
  if (!found) throw new Error(`migration folder not found (looked in ${candidates.join(', ')})`);
  return found;
}

/** PostgreSQL when a URL is given, otherwise embedded PGlite under the data directory ('memory://' for tests). */
export async function openDatabase(options: { databaseUrl?: string | undefined; dataDir: string }): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    const db: Db = drizzlePg(pool, { schema });
    return {
      db,
      kind: 'postgres',
      migrate: () => migratePg(drizzlePg(pool), { migrationsFolder: migrationsFolder() }),
      close: () => pool.end(),
    };
  }
  const pgDataDir = options.dataDir === 'memory://' ? 'memory://' : join(options.dataDir, 'pglite');
  if (pgDataDir !== 'memory://') mkdirSync(dirname(pgDataDir), { recursive: true });
  // pg_trgm serves the customer lists' "contains" search from an index (drizzle/ creates the extension).
  const client = await PGlite.create(pgDataDir, { extensions: { pg_trgm } });
  const db: Db = drizzlePglite(client, { schema });
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder: migrationsFolder() }),
    close: () => client.close(),
  };
}
