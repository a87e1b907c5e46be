import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../db/client.js';

/**
 * A fresh, migrated database for one test file: a new PostgreSQL database when DATABASE_URL is set
 * (dropped again by close), otherwise an in-memory PGlite.
 */
export async function openTestDatabase(): Promise<Database> {
  await refuseUnnamedDatabaseTest();
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    const database = await openDatabase({ dataDir: 'memory://' });
    await database.migrate();
    return database;
  }
  const name = `portal_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: 'memory://' });
  await database.migrate();
  return {
    ...database,
    async close() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: baseUrl });
      await cleanup.connect();
      // The pool's connections close asynchronously; forcing them off while they say goodbye makes
      // them emit an unhandled 'terminating connection' error, so give them a moment first.
      for (let i = 0; i < 40; i++) {
        const { rows } = await cleanup.query('select count(*)::int as n from pg_stat_activity where datname = $1', [
          name,
        ]);
        if (rows[0]?.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
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
