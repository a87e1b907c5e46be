import { ROUTES, type TaskDefinition } from '@portal/domain';
import { makeTaskDefinition } from '@portal/domain/testing/task-definition';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { createBackupStateService } from '../backup-state/service.js';

/** GET /backupmachines/{m}/backuptasks/{t}/definition: the edit task dialog's starting point. */

let t: TestApp;
let tenants: Tenants;
const ids = { assigned: 0, unassigned: 0, task: 0, otherTask: 0, cpanelTask: 0 };

async function signedIn(email: string) {
  const client = new TestClient(t.app);
  await client.signIn(email, FIXTURE_PASSWORD);
  return client;
}

const path = (machineId: number, taskId: number) => ROUTES.taskForm.definition.build({ machineId, taskId });

async function allowProviderControl(allow: boolean) {
  await t.database.db
    .update(customers)
    .set({ allowProviderMachineControl: allow })
    .where(eq(customers.id, tenants.customerA.customerId));
}

beforeAll(async () => {
  t = await createTestApp();
  tenants = await createTenants(t.database.db);
  const fixtures = backupFixtures(t.database.db);
  const backupState = createBackupStateService({ db: t.database.db });
  const pkg = await fixtures.package(tenants.customerA.customerId);
  ids.assigned = await fixtures.machine(pkg, { assignedUserId: tenants.customerA.user.id });
  ids.unassigned = await fixtures.machine(pkg);
  const create = async (machineId: number, extra: object) =>
    (await backupState.createTask({ ...fixtures.task(machineId, { name: 'Documents' }), ...extra })) ?? 0;
  ids.task = await create(ids.assigned, {
    scheduleCron: '30 1 * * 1-5',
    numberOfSnapshotsToKeep: 12,
    syncDeletions: true,
    backupItems: [{ path: '/home/ana', name: 'ana', type: 'DIRECTORY', missing: false }],
    exclusions: ['*.tmp', '/home/ana/cache'],
    uploadBandwidthLimit: 5,
    uploadBandwidthLimitUnit: 'MEGA_BYTES_PER_SECOND',
  });
  ids.otherTask = await create(ids.unassigned, {});
  ids.cpanelTask = await create(ids.unassigned, {
    type: 'CPANEL',
    backupItems: [{ path: 'shop', name: 'shop', type: 'CPANEL_ACCOUNT', missing: false }],
    pruneAfterCount: 2,
    pruneTimeUnit: 'WEEK',
    backupAnyNewAvailableItems: true,
  });
});

afterAll(async () => {
  await t?.close();
});

describe('GET /backupmachines/{m}/backuptasks/{t}/definition', () => {
  it('answers the stored definition with the fields of the task payload', async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    const response = await admin.json('GET', path(ids.assigned, ids.task));
    expect(response.statusCode).toBe(200);
    const definition: TaskDefinition = response.json().result;
    expect(definition).toEqual(
      makeTaskDefinition({
        id: ids.task,
        backupScheduleDefinition: '30 1 * * 1-5',
        exclusions: ['*.tmp', '/home/ana/cache'],
      }),
    );
  });

  it("answers a cPanel task's extra settings", async () => {
    const admin = await signedIn(tenants.customerA.superAdmin.email);
    const response = await admin.json('GET', path(ids.unassigned, ids.cpanelTask));
    expect(response.statusCode).toBe(200);
    expect(response.json().result).toMatchObject({
      type: 'CPANEL',
      uploadBandwidthUnlimited: true,
      extraTaskSettings: {
        numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: 2,
        timeUnitForBackupItemPruning: 'WEEK',
        backupAnyNewAvailableItems: true,
      },
    });
  });

  it('keeps to whoever may command the machine: its user, the customer admins, the reseller; no other tenant', async () => {
    const user = await signedIn(tenants.customerA.user.email);
    expect((await user.json('GET', path(ids.assigned, ids.task))).statusCode).toBe(200);
    expect((await user.json('GET', path(ids.unassigned, ids.otherTask))).statusCode).toBe(404);
    const reseller = await signedIn(tenants.reseller.superAdmin.email);
    expect((await reseller.json('GET', path(ids.assigned, ids.task))).statusCode).toBe(200);
    for (const email of [
      tenants.customerB.admin.email,
      tenants.customerB.superAdmin.email,
      tenants.customerB.user.email,
    ]) {
      const other = await signedIn(email);
      const refused = await other.json('GET', path(ids.assigned, ids.task));
      expect(refused.statusCode).toBe(404);
      expect(JSON.stringify(refused.json())).not.toContain('Documents');
    }
    expect((await new TestClient(t.app).json('GET', path(ids.assigned, ids.task))).statusCode).toBe(401);
  });

  it('answers a provider admin only while the customer allows provider machine control', async () => {
    const provider = await signedIn(tenants.providerAdmin.email);
    await allowProviderControl(false);
    const refused = await provider.json('GET', path(ids.assigned, ids.task));
    expect(refused.statusCode).toBe(403);
    expect(JSON.stringify(refused.json())).not.toContain('Documents');
    await allowProviderControl(true);
    expect((await provider.json('GET', path(ids.assigned, ids.task))).statusCode).toBe(200);
  });

  it("answers another machine's task id as not found, and a bad id with 400", async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    expect((await admin.json('GET', path(ids.assigned, ids.otherTask))).statusCode).toBe(404);
    expect((await admin.json('GET', `/backupmachines/${ids.assigned}/backuptasks/abc/definition`)).statusCode).toBe(
      400,
    );
  });
});
