import { customerDisplayStatus } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { backupMachines, customers, storageLocations, users } from '../../db/schema/index.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { openTestDatabase } from '../../testing/database.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';

let database: Database;
let tenants: Tenants;
let fixtures: ReturnType<typeof backupFixtures>;

beforeAll(async () => {
  database = await openTestDatabase();
  tenants = await createTenants(database.db);
  fixtures = backupFixtures(database.db);
});
afterAll(async () => database?.close());

const customer = async (id: number) => (await database.db.select().from(customers).where(eq(customers.id, id)))[0];
const machine = async (id: number) =>
  (await database.db.select().from(backupMachines).where(eq(backupMachines.id, id)))[0];

describe('dashboard copies kept by the database', () => {
  it('a customer shows its super admin e-mail and name, and follows their changes', async () => {
    const { customerId, superAdmin } = tenants.customerA;
    await fixtures.setSuperAdmin(customerId, superAdmin.id);
    expect((await customer(customerId))?.superAdminEmail).toBe(superAdmin.email);
    expect((await customer(customerId))?.superAdminName).toBe('super Tester');

    await database.db
      .update(users)
      .set({ email: 'renamed@alpha.test', firstName: 'Renamed', surname: 'Boss' })
      .where(eq(users.id, superAdmin.id));
    expect((await customer(customerId))?.superAdminEmail).toBe('renamed@alpha.test');
    expect((await customer(customerId))?.superAdminName).toBe('Renamed Boss');

    await database.db.update(customers).set({ superAdminUserId: null }).where(eq(customers.id, customerId));
    expect((await customer(customerId))?.superAdminEmail).toBeNull();
  });

  it('the Name column falls back to the super admin when the company name is empty', async () => {
    const { customerId, superAdmin } = tenants.customerB;
    await fixtures.setSuperAdmin(customerId, superAdmin.id);
    expect((await customer(customerId))?.displayName).toBe('Beta Inc');
    await database.db.update(customers).set({ companyName: '' }).where(eq(customers.id, customerId));
    expect((await customer(customerId))?.displayName).toBe('super Tester');
    await database.db.update(customers).set({ companyName: 'Beta Inc' }).where(eq(customers.id, customerId));
  });

  it('a machine shows its assigned user, and follows reassignment and renames', async () => {
    const packageId = await fixtures.package(tenants.customerB.customerId);
    const id = await fixtures.machine(packageId, { assignedUserId: tenants.customerB.user.id });
    expect((await machine(id))?.assignedUserName).toBe('user Tester');
    await database.db.update(users).set({ firstName: 'Una' }).where(eq(users.id, tenants.customerB.user.id));
    expect((await machine(id))?.assignedUserName).toBe('Una Tester');
    await database.db
      .update(backupMachines)
      .set({ assignedUserId: tenants.customerB.admin.id })
      .where(eq(backupMachines.id, id));
    expect((await machine(id))?.assignedUserName).toBe('admin Tester');
    await database.db.delete(users).where(eq(users.id, tenants.customerB.admin.id));
    expect((await machine(id))?.assignedUserName).toBeNull();
  });

  it('the displayed customer status is SIGNUP_REQUESTED exactly while it has no storage location', async () => {
    const { customerId } = tenants.reseller;
    const check = async () => {
      const row = await customer(customerId);
      expect(row?.displayStatus).toBe(
        customerDisplayStatus({
          status: row?.status ?? 'ACTIVE',
          storageLocationCount: row?.storageLocationCount ?? 0,
        }),
      );
      return row?.displayStatus;
    };
    expect(await check()).toBe('SIGNUP_REQUESTED');
    const location = await fixtures.storageLocation(customerId);
    expect((await customer(customerId))?.storageLocationCount).toBe(1);
    expect(await check()).toBe('ACTIVE');
    await database.db.update(customers).set({ status: 'SUSPENDED' }).where(eq(customers.id, customerId));
    expect(await check()).toBe('SUSPENDED');
    await database.db.delete(storageLocations).where(eq(storageLocations.id, location));
    expect(await check()).toBe('SIGNUP_REQUESTED');
    await database.db.update(customers).set({ status: 'ACTIVE' }).where(eq(customers.id, customerId));
  });
});
