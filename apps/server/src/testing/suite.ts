import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from './app.js';
import { createTenants, type Tenants } from './fixtures.js';

/** The app and its fixture tenants, there from the first test of the suite on. */
export interface TestAppWithTenants {
  t: TestApp;
  tenants: Tenants;
}

/**
 * The setup most database test files share: the real app on a fresh database with the fixture tenants, opened
 * before the suite's tests (of the file, or of the describe it is called in) and closed after them.
 */
export function useTestAppWithTenants(env: Record<string, string> = {}): TestAppWithTenants {
  // Filled by beforeAll: the tests read it only once it is.
  const suite = {} as TestAppWithTenants;
  beforeAll(async () => {
    suite.t = await createTestApp(env);
    suite.tenants = await createTenants(suite.t.database.db);
  });
  afterAll(() => suite.t?.close());
  return suite;
}
