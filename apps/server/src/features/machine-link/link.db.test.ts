import { type MachineLinkResult, MESSAGES, ROUTES } from '@portal/domain';
import { LINKING_MACHINE } from '@portal/domain/testing/agent-task';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupMachines, backupPackages, users } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { fieldNamesOf } from '../../testing/envelope.js';
import { FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { createMachineCredentials } from '../machine-auth/credentials.js';
import { linkFixtures } from './testing.js';

let t: TestApp;
let tenants: Tenants;
let packageA: number;
let secondPackageA: number;

const device = (overrides: Record<string, unknown> = {}) => ({
  email: tenants.customerA.user.email,
  password: FIXTURE_PASSWORD,
  ...LINKING_MACHINE,
  ...overrides,
});
const link = (body: unknown) =>
  t.app.inject({ method: 'POST', url: ROUTES.machineLink.agentLink.build(), payload: body as Record<string, unknown> });

beforeAll(async () => {
  t = await createTestApp();
  ({ tenants, packageA, secondPackageA } = await linkFixtures(t.database.db));
});
afterAll(() => t.close());

describe('agent link', () => {
  it('links a machine of the user to their package, assigned to them, with a working credential', async () => {
    const response = await link(device());
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json().result as MachineLinkResult;
    expect(result.relinked).toBe(false);
    const [machine] = await t.database.db.select().from(backupMachines).where(eq(backupMachines.id, result.machineId));
    expect(machine).toMatchObject({
      customerId: tenants.customerA.customerId,
      backupPackageId: packageA,
      assignedUserId: tenants.customerA.user.id,
      name: 'alex-laptop',
      osFamily: 'LINUX',
      timeZone: 'Europe/London',
    });
    expect(machine?.credentialHash).not.toContain(result.token);
    const credentials = createMachineCredentials(t.database.db);
    expect(await credentials.verify({ machineId: result.machineId, token: result.token })).not.toBeNull();

    // The same device again: the same machine, a new credential, the old one revoked.
    const again = (await link(device())).json().result as MachineLinkResult;
    expect(again).toMatchObject({ machineId: result.machineId, relinked: true });
    expect(await credentials.verify({ machineId: result.machineId, token: result.token })).toBeNull();
    expect(await credentials.verify({ machineId: again.machineId, token: again.token })).not.toBeNull();
  });

  it('asks an admin with several packages to choose one, and refuses a package of another customer', async () => {
    const admin = { email: tenants.customerA.admin.email, fingerprint: 'admin-device-0001' };
    const choose = await link(device(admin));
    expect(choose.statusCode).toBe(409);
    expect(choose.json().messages[0]).toMatchObject({ fieldName: 'backupPackageId' });
    expect(choose.json().messages[0].message).toContain('Servers');
    const chosen = await link(device({ ...admin, backupPackageId: secondPackageA }));
    expect(chosen.statusCode, chosen.body).toBe(200);
    const foreign = await backupFixtures(t.database.db).package(tenants.customerB.customerId);
    expect((await link(device({ ...admin, backupPackageId: foreign }))).statusCode).toBe(409);
  });

  it('keeps to the package machine limit', async () => {
    await t.database.db.update(backupPackages).set({ noOfMachinesLimit: 1 }).where(eq(backupPackages.id, packageA));
    const refused = await link(device({ fingerprint: 'second-device-0002' }));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().messages[0].message).toBe('The backup package already has as many machines as it allows');
    await t.database.db.update(backupPackages).set({ noOfMachinesLimit: 0 }).where(eq(backupPackages.id, packageA));
  });

  it('refuses wrong passwords, provider admins, bad input and unknown time zones with clear messages', async () => {
    const wrong = await link(device({ password: 'nope' }));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().messages[0]).toMatchObject({
      fieldName: 'password',
      message: 'E-mail or password is incorrect',
    });
    const provider = await link(device({ email: tenants.providerAdmin.email }));
    expect(provider.statusCode).toBe(403);
    const bad = await link(device({ osFamily: 'AMIGA', name: '' }));
    expect(bad.statusCode).toBe(400);
    expect(fieldNamesOf(bad)).toEqual(['name', 'osFamily']);
    const zone = await link(device({ timeZone: 'Mars/Base' }));
    expect(zone.statusCode).toBe(400);
    expect(zone.json().messages[0]).toMatchObject({ fieldName: 'timeZone' });
  });

  it('refuses read-only users with their password too (as with a code), for a new device and one linked before', async () => {
    const readOnly = (value: boolean) =>
      t.database.db.update(users).set({ readOnly: value }).where(eq(users.id, tenants.customerA.user.id));
    const machinesOf = async () =>
      (
        await t.database.db
          .select()
          .from(backupMachines)
          .where(eq(backupMachines.assignedUserId, tenants.customerA.user.id))
      ).map((m) => ({ id: m.id, credentialHash: m.credentialHash }));
    const before = await machinesOf();
    await readOnly(true);
    try {
      for (const fingerprint of ['read-only-device-0003', 'device-fingerprint-0001']) {
        const refused = await link(device({ fingerprint }));
        expect(refused.statusCode, fingerprint).toBe(403);
        expect(refused.json().messages[0].message).toBe(MESSAGES.machineLink.readOnlyCannotLink);
      }
    } finally {
      await readOnly(false);
    }
    expect(await machinesOf()).toEqual(before);
  });
});
