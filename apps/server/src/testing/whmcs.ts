import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWhmcsSimulator } from '../billing/whmcs-simulator/server.js';
import type { SimSeed } from '../billing/whmcs-simulator/state.js';
import type { WhmcsConnection } from '../platform/whmcs.js';

export const TEST_WHMCS_CREDENTIALS = { identifier: 'test-api-identifier', secret: 'test-api-secret-7f3a' } as const;

/** The WHMCS-compatible server on a free loopback port with its own data directory, and how to reach it. */
export async function startTestWhmcs(seed: SimSeed = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-whmcs-'));
  const simulator = await startWhmcsSimulator({
    dataDir,
    ...TEST_WHMCS_CREDENTIALS,
    portalUrl: 'http://portal.test/',
    seed,
  });
  const connection: WhmcsConnection = { address: simulator.address, ...TEST_WHMCS_CREDENTIALS };
  return {
    simulator,
    connection,
    dataDir,
    async close() {
      await simulator.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
export type TestWhmcs = Awaited<ReturnType<typeof startTestWhmcs>>;
