import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../db/client.js';
import { createTestApp, type TestApp } from './app.js';
import { backupFixtures } from './backup-fixtures.js';
import { openTestDatabase } from './database.js';
import { createTenants, type Tenants } from './fixtures.js';

/** The app of a suite, there from the first test of the suite on. */
export interface SuiteApp {
  t: TestApp;
}

/**
 * The real app on a fresh database, opened before the suite's tests (of the file, or of the describe it is called
 * in) and closed after them.
 */
export function useTestApp(env: Record<string, string> = {}): SuiteApp {
  // Filled by beforeAll: the tests read it only once it is.
  const suite = {} as SuiteApp;
  beforeAll(async () => {
    suite.t = await createTestApp(env);
  });
  afterAll(() => suite.t?.close());
  return suite;
}

/** The app and its fixture tenants, there from the first test of the suite on. */
export interface TestAppWithTenants extends SuiteApp {
  tenants: Tenants;
}

/** The setup most database test files share: `useTestApp` with the fixture tenants. */
export function useTestAppWithTenants(env: Record<string, string> = {}): TestAppWithTenants {
  const suite = useTestApp(env) as TestAppWithTenants;
  beforeAll(async () => {
    suite.tenants = await createTenants(suite.t.database.db);
  });
  return suite;
}

/** A fresh database with the fixture tenants, and the fixtures that add packages, machines and tasks to it. */
export interface TestDatabaseWithTenants {
  database: Database;
  tenants: Tenants;
  fixtures: ReturnType<typeof backupFixtures>;
}

/**
 * The setup of the database test files of a service or job without the app: the database opened before the
 * suite's tests and closed after them.
 */
export function useTestDatabaseWithTenants(): TestDatabaseWithTenants {
  // Filled by beforeAll: the tests read it only once it is.
  const suite = {} as TestDatabaseWithTenants;
  beforeAll(async () => {
    suite.database = await openTestDatabase();
    suite.tenants = await createTenants(suite.database.db);
    suite.fixtures = backupFixtures(suite.database.db);
  });
  afterAll(() => suite.database?.close());
  return suite;
}

/**
 * A folder of the test file's own (its app's DATA_DIR, repositories, restored files), made when the file is read and
 * removed after its tests: the default DATA_DIR is shared with the files running beside it. Called first, its
 * removal comes after the file's own afterAll has closed the app.
 */
export function useTempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `portal-${name}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
