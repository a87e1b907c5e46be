import { createTestApp, type TestApp } from './app.js';
import { createTenants, type Tenants } from './fixtures.js';
import { type Rgw, startedRgw } from './rgw.js';

/**
 * The start of the test files against the run's Ceph RGW: the RGW, and the app with its fixture tenants, its data
 * under `dataDir`, allowed to reach the RGW on loopback (which a real deployment refuses).
 */
export async function startS3TestApp(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<{ rgw: Rgw; t: TestApp; tenants: Tenants }> {
  const rgw = await startedRgw();
  const t = await createTestApp({ DATA_DIR: dataDir, ALLOW_PRIVATE_ENDPOINTS: 'true', ...env });
  return { rgw, t, tenants: await createTenants(t.database.db) };
}
