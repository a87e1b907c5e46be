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

/** The row a query finds (its first), or null when it finds none. */
export const oneOrNull = async <R>(query: PromiseLike<R[]>): Promise<R | null> => (await query)[0] ?? null;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** Embedded only: the data directory as an uncompressed tar (the tests' migrated template). */
  dumpDataDir?: () => Promise<Blob>;
  /** PostgreSQL only: the pool's connections now (the metrics). */
  poolStats?: () => { total: number; idle: number; waiting: number };
}

/** The committed migration set: beside the bundle in a build, in apps/server/drizzle from source. */
export function migrationsFolder(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'drizzle'), join(here, '../../drizzle')];
  const found = candidates.find((dir) => existsSync(join(dir, 'meta/_journal.json')));
  if (!found) throw new Error(`migration folder not found (looked in ${candidates.join(', ')})`);
  return found;
}

/** How long a PostgreSQL connection may take and a query may run (README: DATABASE_*_TIMEOUT_MS). */
export interface PoolTimeouts {
  connectTimeoutMs: number;
  queryTimeoutMs: number;
}
export const DEFAULT_POOL_TIMEOUTS: PoolTimeouts = { connectTimeoutMs: 3_000, queryTimeoutMs: 60_000 };
/** Connections per instance: the instances together stay under PostgreSQL's max_connections (100 by default). */
export const DEFAULT_POOL_SIZE = 10;

/** PostgreSQL when a URL is given, otherwise embedded PGlite under the data directory ('memory://' for tests). */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  timeouts?: PoolTimeouts;
  /** PostgreSQL only: connections this process keeps at most (README: DATABASE_POOL_SIZE). */
  poolSize?: number;
  /** An idle pooled connection broke (the server stopped or restarted): the pool drops it; this only reports it. */
  onIdleError?: (error: Error) => void;
  /**
   * Embedded only: a dumped data directory to start from instead of an empty one (the tests' migrated template,
   * testing/database.ts): skips PGlite's initdb, which takes most of the seconds an empty database takes to open.
   */
  loadDataDir?: Blob;
}): Promise<Database> {
  if (options.databaseUrl) {
    const timeouts = options.timeouts ?? DEFAULT_POOL_TIMEOUTS;
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? DEFAULT_POOL_SIZE,
      // A stopped or unreachable server fails a request within seconds instead of leaving it waiting, also
      // when every pooled connection is busy.
      connectionTimeoutMillis: timeouts.connectTimeoutMs,
      // The server ends a runaway statement; the client gives up too when the server no longer answers at all.
      statement_timeout: timeouts.queryTimeoutMs,
      query_timeout: timeouts.queryTimeoutMs + 1_000,
      // A host that froze or a network that dropped shows within seconds on an idle connection, not the OS's hours.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    // Without listeners a broken connection (PostgreSQL stopped) is an uncaught 'error' event and the process
    // dies: the pool's for idle clients, each client's own for one checked out between two statements of a
    // transaction (its next statement then fails, and the pool discards it on release).
    pool.on('error', (error) => options.onIdleError?.(error));
    pool.on('connect', (client) => client.on('error', () => {}));
    const db: Db = drizzlePg(pool, { schema });
    return {
      db,
      kind: 'postgres',
      migrate: () => migratePg(drizzlePg(pool), { migrationsFolder: migrationsFolder() }),
      close: () => pool.end(),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    };
  }
  const pgDataDir = options.dataDir === 'memory://' ? 'memory://' : join(options.dataDir, 'pglite');
  if (pgDataDir !== 'memory://') mkdirSync(dirname(pgDataDir), { recursive: true });
  // pg_trgm serves the customer lists' "contains" search from an index (drizzle/ creates the extension).
  const client = await PGlite.create(pgDataDir, {
    extensions: { pg_trgm },
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const db: Db = drizzlePglite(client, { schema });
  return {
    db,
    kind: 'pglite',
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder: migrationsFolder() }),
    close: () => client.close(),
    dumpDataDir: () => client.dumpDataDir('none'),
  };
}

/** PostgreSQL error classes and socket codes that mean "no database right now", not "this query is wrong". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  '57P01', // admin_shutdown: the server is stopping
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
]);
const UNAVAILABLE_TEXTS = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Query read timeout',
  'Cannot use a pool after calling end',
];

/**
 * Whether an error (or one it wraps: drizzle wraps the driver's) says the database cannot be reached. The
 * request's answer is then 503 SERVICE_UNAVAILABLE: the client may retry, nothing is wrong with the request.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = (e as Error).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    // AggregateError: every address of the host refused (IPv4 and IPv6).
    if (e instanceof AggregateError && e.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    if (UNAVAILABLE_TEXTS.some((text) => e.message.includes(text))) return true;
  }
  return false;
}
