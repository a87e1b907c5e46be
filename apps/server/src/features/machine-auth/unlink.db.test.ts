import { ROUTES } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { createTenants } from '../../testing/fixtures.js';
import { connectTestAgent, eventually, listenOnLoopback } from '../live/testing.js';
import { createMachineCredentials, type MachineCredential } from './credentials.js';

/** `agent unlink` (issue #5): a machine gives up its credential; everything it could do stops within seconds. */

let t: TestApp;
let base: string;
let mine: MachineCredential;
let other: MachineCredential;

const basic = (c: MachineCredential) => `Basic ${Buffer.from(`${c.machineId}:${c.token}`).toString('base64')}`;
const unlink = (path: string, authorization?: string) =>
  t.app.inject({ method: 'DELETE', url: path, headers: authorization ? { authorization } : {} });
const storage = (c: MachineCredential) =>
  t.app.inject({ method: 'GET', url: `/restic/${c.machineId}/config`, headers: { authorization: basic(c) } });

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: `/tmp/portal-unlink-${process.pid}` });
  const tenants = await createTenants(t.database.db);
  const fixtures = backupFixtures(t.database.db);
  const pkg = await fixtures.package(tenants.customerA.customerId);
  const issuer = createMachineCredentials(t.database.db);
  const issue = async () => {
    const credential = await issuer.issue(await fixtures.machine(pkg));
    if (!credential) throw new Error('no credential');
    return credential;
  };
  mine = await issue();
  other = await issue();
  base = await listenOnLoopback(t.app);
});

afterAll(async () => t?.close());

describe('DELETE /agent/machines/{id}/credential', () => {
  it('refuses no credential, a wrong one, and another machine’s, and revokes nothing then', async () => {
    expect((await unlink(ROUTES.machineLink.agentUnlink.build({ machineId: mine.machineId }))).statusCode).toBe(401);
    expect(
      (
        await unlink(
          ROUTES.machineLink.agentUnlink.build({ machineId: mine.machineId }),
          basic({ ...mine, token: 'x'.repeat(43) }),
        )
      ).statusCode,
    ).toBe(401);
    const foreign = await unlink(ROUTES.machineLink.agentUnlink.build({ machineId: mine.machineId }), basic(other));
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().status).toBe('ERROR');
    expect((await storage(mine)).statusCode).not.toBe(401);
  });

  it('revokes the credential, closes the live connection and stops storage access within seconds; a retry gets 401', async () => {
    const agent = await connectTestAgent(t.app, base, mine);
    try {
      const started = Date.now();
      const answer = await unlink(ROUTES.machineLink.agentUnlink.build({ machineId: mine.machineId }), basic(mine));
      expect(answer.statusCode).toBe(200);
      expect(answer.json().status).toBe('OK');
      await agent.client.closed;
      expect(agent.client.errors[0]?.headers.message).toBe('Machine credential revoked');
      await eventually(async () => (await storage(mine)).statusCode === 401, 5_000);
      expect(Date.now() - started).toBeLessThan(5_000);

      const again = await connectTestAgent(t.app, base, mine).catch((error: Error) => error);
      expect(again).toBeInstanceOf(Error);
      expect(
        (await unlink(ROUTES.machineLink.agentUnlink.build({ machineId: mine.machineId }), basic(mine))).statusCode,
      ).toBe(401);
      // The other machine is untouched.
      expect((await storage(other)).statusCode).not.toBe(401);
    } finally {
      await agent.client.stop();
    }
  });
});
