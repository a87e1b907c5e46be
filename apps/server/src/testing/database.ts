import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { type Database, migrationsFolder, openDatabase } from '../db/client.js';

/**
 * A fresh, migrated database for one test file: a new PostgreSQL database when DATABASE_URL is set
 * (dropped again by close), otherwise an in-memory PGlite.
 *
 * Both start from a template migrated once (per test worker for PGlite, per server and migration set for
 * PostgreSQL): an empty PGlite spends seconds in initdb and every database another second in the migrations, over
 * a hundred times a run. `migrate()` still runs on each, finding nothing left to apply.
 */
export async function openTestDatabase(): Promise<Database> {
  await refuseUnnamedDatabaseTest();
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    pgliteTemplate ??= migratedPgliteDump();
    const database = await openDatabase({ dataDir: 'memory://', loadDataDir: await pgliteTemplate });
    await database.migrate();
    return database;
  }
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  await createFromTemplate(baseUrl, name);
  const database = await openDatabase({ databaseUrl: databaseUrl(baseUrl, name), dataDir: 'memory://' });
  await database.migrate();
  return {
    ...database,
    async close() {
      await database.close();
      await withAdmin(baseUrl, async (admin) => {
        await untilUnused(admin, name);
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      });
    },
  };
}

/** This worker's migrated PGlite data directory, dumped once. */
let pgliteTemplate: Promise<Blob> | undefined;

async function migratedPgliteDump(): Promise<Blob> {
  const database = await openDatabase({ dataDir: 'memory://' });
  try {
    await database.migrate();
    if (!database.dumpDataDir) throw new Error('an embedded database dumps its data directory');
    return await database.dumpDataDir();
  } finally {
    await database.close();
  }
}

/** The migration set's fingerprint: a template is reused only while the migrations are the ones it was made from. */
function migrationsFingerprint(): string {
  const folder = migrationsFolder();
  const hash = createHash('sha256');
  for (const file of readdirSync(folder)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    hash.update(file).update(readFileSync(join(folder, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

const TEMPLATE_PREFIX = 'portal_template_';
/** Held while a template is made, so that the workers of one run (and runs side by side) make it once. */
const TEMPLATE_LOCK = 7_310_042;

/**
 * A new database `name` copied from the migrated template of this migration set, made on first use: migrated under
 * another name and renamed once complete, so a half-made template is never copied. Templates of other migration sets
 * are dropped; the copy is made under the same lock, so a run beside this one (another checkout on the same server)
 * cannot drop the template between its check and its copy.
 */
async function createFromTemplate(baseUrl: string, name: string): Promise<void> {
  const template = `${TEMPLATE_PREFIX}${migrationsFingerprint()}`;
  await withAdmin(baseUrl, async (admin) => {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      await ensureTemplate(admin, baseUrl, template);
      await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
}

/** Makes the template unless it exists (under the caller's lock). */
async function ensureTemplate(admin: pg.Client, baseUrl: string, template: string): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
    `${TEMPLATE_PREFIX}%`,
  ]);
  if (rows.some((row) => row.datname === template)) return;
  for (const row of rows) {
    // A half-made template of a run that stopped is dropped too; one in use fails to drop and is left.
    await admin.query(`DROP DATABASE IF EXISTS ${row.datname}`).catch(() => {});
  }
  const building = `${template}_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${building}`);
  const database = await openDatabase({ databaseUrl: databaseUrl(baseUrl, building), dataDir: 'memory://' });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
  await untilUnused(admin, building);
  await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
}

function databaseUrl(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(baseUrl: string, use: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    return await use(admin);
  } finally {
    await admin.end();
  }
}

/**
 * Waits (2 s at most) for a closed pool's connections to leave the database: they close asynchronously, and forcing
 * them off while they say goodbye makes them emit an unhandled 'terminating connection' error.
 */
async function untilUnused(admin: pg.Client, name: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    const { rows } = await admin.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
      [name],
    );
    if (rows[0]?.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * CI's PostgreSQL and Redis pass runs the test files named `*.db.test.ts` only (scripts/test.mjs), so a test file
 * that opens a database under another name would never meet PostgreSQL: it fails here instead.
 */
async function refuseUnnamedDatabaseTest(): Promise<void> {
  if (!process.env.VITEST) return;
  const { expect } = await import('vitest');
  const file = expect.getState().testPath ?? '';
  if (!/\.db\.test\.tsx?$/.test(file)) {
    throw new Error(`${file} opens a database: name it *.db.test.ts so that CI runs it on PostgreSQL too`);
  }
}
