import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { openDatabase } from '../../apps/server/src/db/client';
import { backupMachines } from '../../apps/server/src/db/schema/index';
import { createSecretBox, demoMasterKey } from '../../apps/server/src/secrets';
import { E2E_DATA_DIR } from '../playwright.config';
import { recordedSecrets, SERVER_LOG, TYPED_SECRETS } from './secrets';

/**
 * Issue 18: no secret in a log line. Runs after every other journey (its own project, see playwright.config.ts),
 * against the log the e2e server wrote at debug level, and looks for each secret the journeys used: the typed
 * ones, those recorded as they ran (passwords, session cookies, reset tokens) and the restic repository passwords
 * the portal made for the machines the journeys linked (read from a copy of the server's database).
 */

/** The repository passwords in a copy of the running server's embedded database (it holds the original). */
async function repositoryPasswords(): Promise<string[]> {
  const copy = mkdtempSync(join(tmpdir(), 'portal-e2e-db-'));
  try {
    cpSync(join(E2E_DATA_DIR, 'pglite'), join(copy, 'pglite'), { recursive: true });
    const database = await openDatabase({ dataDir: copy });
    try {
      const box = createSecretBox(demoMasterKey(E2E_DATA_DIR));
      const rows = await database.db
        .select({ sealed: backupMachines.repositoryPasswordEncrypted })
        .from(backupMachines);
      return rows.flatMap((row) => (row.sealed ? [box.decrypt(row.sealed)] : []));
    } finally {
      await database.close();
    }
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

test('the server log at debug level holds none of the secrets the journeys used', async () => {
  test.setTimeout(120_000);
  // The log lines pino wrote (JSON, one a line); the demo's start-up banner, which names the demo password on
  // purpose, is not a log line.
  const lines = readFileSync(SERVER_LOG, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'));
  // The server logged its requests (the log is the one the journeys produced, not an empty file).
  expect(lines.some((line) => line.includes('"msg":"incoming request"'))).toBe(true);
  const secrets = [...new Set([...TYPED_SECRETS, ...recordedSecrets(), ...(await repositoryPasswords())])];
  expect(secrets.length).toBeGreaterThan(TYPED_SECRETS.length);
  const leaked = secrets.filter((secret) => lines.some((line) => line.includes(secret)));
  expect(leaked).toEqual([]);
});
