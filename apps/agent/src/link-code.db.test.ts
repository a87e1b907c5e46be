/**
 * `portal-agent link --code` against the real portal (PGlite, listening on a loopback port): a signed-in
 * user makes a linking code, the agent CLI links with it, and the code does not work a second time.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LinkingCodeResult, MESSAGES, ROUTES } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupMachines } from '../../server/src/db/schema/index.js';
import { linkFixtures } from '../../server/src/features/machine-link/testing.js';
import { createTestApp, type TestApp } from '../../server/src/testing/app.js';
import { TestClient } from '../../server/src/testing/client.js';
import { FIXTURE_PASSWORD, type Tenants } from '../../server/src/testing/fixtures.js';
import type { AgentConfig } from './config.js';
import { cli } from './testing.js';

let t: TestApp;
let tenants: Tenants;
let base: string;
let dir: string;
let user: TestClient;

/** The agent CLI with no link settings from the test runner's environment. */
const agent = (args: string[], env: Record<string, string> = {}) =>
  cli(args, '', { PORTAL_AGENT_CONFIG: '', PORTAL_EMAIL: '', PORTAL_LINKING_CODE: '', ...env });
/** `link --server {the portal}` and the options given. */
const link = (...options: string[]) => ['link', '--server', base, ...options];

async function newCode(): Promise<string> {
  const response = await user.json('POST', ROUTES.machineLink.linkingCodes.build(), {});
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().result as LinkingCodeResult).code;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'agent-link-code-'));
  t = await createTestApp();
  ({ tenants } = await linkFixtures(t.database.db));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  user = new TestClient(t.app);
  await user.signIn(tenants.customerA.user.email, FIXTURE_PASSWORD);
}, 60_000);

afterAll(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('agent link --code (issue #5)', () => {
  it('links this machine for the user who made the code, without asking for a password, once', async () => {
    const code = await newCode();
    const configPath = join(dir, 'linked', 'config.json');
    const linked = await agent(link('--code', code, '--name', 'code-host', '--config', configPath));
    expect(linked.code, linked.stderr).toBe(0);
    expect(linked.stdout).toMatch(/^Linked: this machine is machine \d+ at /);
    expect(statSync(configPath).mode & 0o777).toBe(0o600);
    const config = JSON.parse(readFileSync(configPath, 'utf8')) as AgentConfig;
    expect(linked.stdout + linked.stderr).not.toContain(config.token);
    const [machine] = await t.database.db.select().from(backupMachines).where(eq(backupMachines.id, config.machineId));
    expect(machine).toMatchObject({
      name: 'code-host',
      customerId: tenants.customerA.customerId,
      assignedUserId: tenants.customerA.user.id,
    });

    // The same code again, from the environment this time: the portal's message, and no config written.
    const againPath = join(dir, 'again', 'config.json');
    const again = await agent(link('--config', againPath), { PORTAL_LINKING_CODE: code });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`linkingCode: ${MESSAGES.machineLink.linkingCodeInvalid}`);
    expect(() => statSync(againPath)).toThrow();
  });

  it('refuses a code together with an e-mail address, and says what link needs', async () => {
    const configPath = join(dir, 'usage', 'config.json');
    const both = await agent(link('--code', 'ABCD-EFGH-JK23', '--email', 'a@b.c', '--config', configPath));
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('either --code or --email');
    const neither = await agent(link('--config', configPath));
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('link needs --code CODE, or --email ADDRESS');
    const help = await agent(['--help']);
    expect(help.stdout).toContain('--code <code>');
    expect(() => statSync(configPath)).toThrow();
  });
});
