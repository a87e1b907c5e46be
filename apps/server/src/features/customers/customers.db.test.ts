/** Customer administration (002 §2.5, §4.1, §4.5, §7.3) for provider and reseller admins. */
import {
  CUSTOMER_STATUSES,
  type CustomerDetail,
  type CustomerPackageRow,
  type CustomerRow,
  type CustomerStatus,
  customerStatusChangeRefused,
  customerStatusOptions,
  MESSAGES,
  mayBecomeReseller,
  type Paged,
  type UserMachineRow,
  type UserPackageRow,
  type UserRow,
} from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backupMachines,
  backupPackages,
  backupTasks,
  billingServers,
  customers,
  resellerSettings,
  users,
} from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import type { TestClient } from '../../testing/client.js';
import { signedInClients } from '../../testing/envelope.js';
import { createTenants, fixtureEmails, type Tenants } from '../../testing/fixtures.js';
import { createBackupStateService } from '../backup-state/service.js';
import { addCustomer, signedIn } from './testing.js';

let t: TestApp;
let tenants: Tenants;
type Caller = keyof ReturnType<typeof fixtureEmails> | 'readOnlyProvider';
const clients = {} as Record<Caller, TestClient>;
const as = (caller: Caller) => clients[caller];
let fixtures: ReturnType<typeof backupFixtures>;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  tenants = await createTenants(db);
  fixtures = backupFixtures(db);
  await fixtures.setSuperAdmin(tenants.customerA.customerId, tenants.customerA.superAdmin.id);
  await fixtures.setSuperAdmin(tenants.customerB.customerId, tenants.customerB.superAdmin.id);
  await fixtures.setSuperAdmin(tenants.reseller.customerId, tenants.reseller.superAdmin.id);
  // A provider admin who may look but not change (users.read_only).
  const [providerRow] = await db.select().from(users).where(eq(users.id, tenants.providerAdmin.id));
  if (!providerRow) throw new Error('no provider admin');
  await db.insert(users).values({ ...providerRow, id: undefined, email: 'viewer@provider.test', readOnly: true });
  Object.assign(
    clients,
    await signedInClients(t.app, { ...fixtureEmails(tenants), readOnlyProvider: 'viewer@provider.test' }),
  );
});
afterAll(() => t?.close());

async function getPage<T>(client: TestClient, url: string): Promise<Paged<T>> {
  const response = await client.json('GET', url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().result as Paged<T>;
}

async function statusOf(customerId: number): Promise<CustomerStatus | undefined> {
  const [row] = await t.database.db
    .select({ status: customers.status })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row?.status;
}

const setStatus = (customerId: number, status: CustomerStatus) =>
  t.database.db.update(customers).set({ status }).where(eq(customers.id, customerId));

describe('customer lists (002 §2.5)', () => {
  it('shows the provider every customer as a customer row, ordered by name', async () => {
    const page = await getPage<CustomerRow>(as('provider'), '/boltadmin/customerspaginated?size=200');
    const a = tenants.customerA;
    const rowA = page.elements.find((r) => r.id === a.customerId);
    expect(rowA).toEqual({
      id: a.customerId,
      companyName: 'Alpha Ltd',
      displayName: 'Alpha Ltd',
      status: 'ACTIVE',
      displayStatus: 'SIGNUP_REQUESTED',
      newSignup: true,
      superAdminId: a.superAdmin.id,
      superAdminFullName: 'super Tester',
      superAdminEmail: a.superAdmin.email,
      superAdminUrl: `/boltadmin/customers/${a.customerId}/users/${a.superAdmin.id}`,
      numberOfBackupPackages: 0,
      backupPackagesUrl: `/boltadmin/customers/${a.customerId}#packages`,
      parentResellerCustomerId: tenants.reseller.customerId,
      parentResellerCompanyName: 'Reseller Co',
      resellerSettingsDisplayDto: null,
      whmcsServerId: null,
      whmcsServerDescription: null,
      cpanelPluginEnabled: false,
      allowProviderMachineControl: false,
      customerUrl: `/boltadmin/customers/${a.customerId}`,
      statusOptions: ['SUSPENDED'],
      deleteable: false,
      numberOfChildCustomers: 0,
    } satisfies CustomerRow);
    expect(page.elements.map((r) => r.id)).toEqual(
      expect.arrayContaining([tenants.reseller.customerId, a.customerId, tenants.customerB.customerId]),
    );
  });

  it('lists resellers with their settings, and the customers that may become resellers by the domain rule', async () => {
    const resellers = await getPage<CustomerRow>(as('provider'), '/boltadmin/resellerspaginated?size=200');
    const reseller = resellers.elements.find((r) => r.id === tenants.reseller.customerId);
    expect(reseller?.resellerSettingsDisplayDto).toEqual({ resellerEnabled: true, brandName: 'Resell Backup' });
    expect(reseller?.numberOfChildCustomers).toBeGreaterThanOrEqual(1);
    expect(resellers.elements.every((r) => r.resellerSettingsDisplayDto?.resellerEnabled)).toBe(true);

    const candidates = await getPage<CustomerRow>(
      as('provider'),
      '/boltadmin/customerstomakeresellerspaginated?size=200',
    );
    const ids = candidates.elements.map((r) => r.id);
    expect(ids).toContain(tenants.customerB.customerId);
    expect(ids).not.toContain(tenants.customerA.customerId);
    expect(ids).not.toContain(tenants.reseller.customerId);
    for (const row of candidates.elements) {
      expect(
        mayBecomeReseller({
          parentResellerCustomerId: row.parentResellerCustomerId,
          resellerEnabled: row.resellerSettingsDisplayDto?.resellerEnabled ?? false,
          beingDeleted: false,
        }),
      ).toBe(true);
    }
  });

  it("shows a reseller admin only its own customers, with the reseller's links", async () => {
    const page = await getPage<CustomerRow>(as('reseller'), '/admin/mycustomerspaginated?size=200');
    expect(page.elements.length).toBeGreaterThan(0);
    expect(page.elements.every((r) => r.parentResellerCustomerId === tenants.reseller.customerId)).toBe(true);
    const rowA = page.elements.find((r) => r.id === tenants.customerA.customerId);
    expect(rowA?.customerUrl).toBe(`/admin/mycustomers/${tenants.customerA.customerId}`);
    expect(rowA?.superAdminUrl).toBe(
      `/admin/mycustomers/${tenants.customerA.customerId}/users/${tenants.customerA.superAdmin.id}`,
    );
  });

  it('lets nobody else read the lists', async () => {
    for (const caller of ['reseller', 'superA', 'adminA', 'userA', 'adminB'] as const) {
      for (const path of [
        '/boltadmin/customerspaginated',
        '/boltadmin/customerstomakeresellerspaginated',
        '/boltadmin/resellerspaginated',
      ]) {
        expect((await as(caller).json('GET', path)).statusCode, `${caller} ${path}`).toBe(403);
      }
    }
    for (const caller of ['provider', 'superA', 'adminA', 'userA', 'adminB'] as const) {
      expect((await as(caller).json('GET', '/admin/mycustomerspaginated')).statusCode, caller).toBe(403);
    }
  });
});

describe('search and paging (10 per page)', () => {
  let percent = 0;
  let byName = 0;
  let resellerChild = 0;
  beforeAll(async () => {
    const db = t.database.db;
    for (let i = 1; i <= 23; i++) {
      await addCustomer(db, { companyName: `Zephyr ${String(i).padStart(2, '0')}` });
    }
    percent = (await addCustomer(db, { companyName: '100% Backup' })).customerId;
    byName = (await addCustomer(db, { companyName: '', superAdminName: { firstName: 'Zorro', surname: 'Searchable' } }))
      .customerId;
    resellerChild = (
      await addCustomer(db, {
        companyName: 'Zephyr of the reseller',
        parentResellerCustomerId: tenants.reseller.customerId,
      })
    ).customerId;
  });

  it('pages a search result 10 at a time, case-insensitively, in name order', async () => {
    const first = await getPage<CustomerRow>(as('provider'), '/boltadmin/customerspaginated?search=ZEPHYR');
    expect(first.totalElements).toBe(24);
    expect(first.totalPages).toBe(3);
    expect(first.elements.map((r) => r.displayName)).toEqual([
      'Zephyr 01',
      'Zephyr 02',
      'Zephyr 03',
      'Zephyr 04',
      'Zephyr 05',
      'Zephyr 06',
      'Zephyr 07',
      'Zephyr 08',
      'Zephyr 09',
      'Zephyr 10',
    ]);
    const last = await getPage<CustomerRow>(as('provider'), '/boltadmin/customerspaginated?search=zephyr&page=2');
    expect(last.elements.map((r) => r.displayName)).toEqual([
      'Zephyr 21',
      'Zephyr 22',
      'Zephyr 23',
      'Zephyr of the reseller',
    ]);
  });

  it("matches the super admin's name and e-mail, and a blank search matches everyone", async () => {
    const byAdmin = await getPage<CustomerRow>(as('provider'), '/boltadmin/customerspaginated?search=zorro%20search');
    expect(byAdmin.elements.map((r) => r.id)).toEqual([byName]);
    expect(byAdmin.elements[0]?.displayName).toBe('Zorro Searchable');
    const email = byAdmin.elements[0]?.superAdminEmail ?? '';
    const byEmail = await getPage<CustomerRow>(
      as('provider'),
      `/boltadmin/customerspaginated?search=${encodeURIComponent(email.toUpperCase())}`,
    );
    expect(byEmail.elements.map((r) => r.id)).toEqual([byName]);
    const all = await getPage<CustomerRow>(as('provider'), '/boltadmin/customerspaginated');
    const blank = await getPage<CustomerRow>(as('provider'), '/boltadmin/customerspaginated?search=%20%20');
    expect(blank.totalElements).toBe(all.totalElements);
    expect(all.elements).toHaveLength(10);
  });

  it('takes LIKE wildcards literally', async () => {
    const page = await getPage<CustomerRow>(as('provider'), '/boltadmin/customerspaginated?search=%25');
    expect(page.elements.map((r) => r.id)).toEqual([percent]);
    const underscore = await getPage<CustomerRow>(as('provider'), '/boltadmin/customerspaginated?search=_');
    expect(
      underscore.elements.every((r) => `${r.companyName}${r.superAdminFullName}${r.superAdminEmail}`.includes('_')),
    ).toBe(true);
  });

  it("searches a reseller's own customers only", async () => {
    const page = await getPage<CustomerRow>(as('reseller'), '/admin/mycustomerspaginated?search=zephyr');
    expect(page.elements.map((r) => r.id)).toEqual([resellerChild]);
  });

  it('refuses a search longer than 100 characters on its field', async () => {
    const response = await as('provider').json('GET', `/boltadmin/customerspaginated?search=${'x'.repeat(101)}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().messages).toEqual([expect.objectContaining({ fieldName: 'search' })]);
  });

  it('refuses a search with a control character on its field, in every customer list (a NUL is no PostgreSQL text)', async () => {
    for (const [role, path] of [
      ['provider', '/boltadmin/customerspaginated'],
      ['provider', '/boltadmin/customerstomakeresellerspaginated'],
      ['provider', '/boltadmin/resellerspaginated'],
      ['reseller', '/admin/mycustomerspaginated'],
    ] as const) {
      const response = await as(role).json('GET', `${path}?search=a%00b`);
      expect(response.statusCode, `${path}: ${response.body}`).toBe(400);
      expect(response.json().messages).toEqual([expect.objectContaining({ fieldName: 'search' })]);
    }
  });

  it('leaves customers being deleted out of every list and answers 404 for them', async () => {
    const doomed = await addCustomer(t.database.db, { companyName: 'Zephyr doomed', status: 'SUSPENDED' });
    await t.database.db.update(customers).set({ beingDeleted: true }).where(eq(customers.id, doomed.customerId));
    const page = await getPage<CustomerRow>(as('provider'), '/boltadmin/customerspaginated?search=doomed');
    expect(page.totalElements).toBe(0);
    const candidates = await getPage<CustomerRow>(
      as('provider'),
      '/boltadmin/customerstomakeresellerspaginated?search=doomed',
    );
    expect(candidates.totalElements).toBe(0);
    expect((await as('provider').json('GET', `/boltadmin/customers/${doomed.customerId}`)).statusCode).toBe(404);
  });
});

describe('customer page (002 §3)', () => {
  it('shows the provider the details with storage locations and whether it may become a reseller', async () => {
    const c = await addCustomer(t.database.db, { companyName: 'Storage Co' });
    const locationId = await fixtures.storageLocation(c.customerId);
    const response = await as('provider').json('GET', `/boltadmin/customers/${c.customerId}`);
    expect(response.statusCode).toBe(200);
    const detail = response.json().result as CustomerDetail;
    expect(detail).toMatchObject({
      id: c.customerId,
      newSignup: false,
      displayStatus: 'ACTIVE',
      makeResellerAllowed: true,
    });
    expect(detail.storageLocationAndAccountDisplayDtos).toEqual([
      {
        storageLocation: {
          id: locationId,
          customerId: c.customerId,
          bucketId: expect.any(Number),
          bucketName: expect.stringMatching(/^fixture-/),
          subfolder: null,
          defaultForCustomer: false,
          numberOfBackupPackages: 0,
        },
        storageAccount: {
          id: expect.any(Number),
          name: expect.any(String),
          defaultStorageAccount: false,
          type: 'LOCAL',
        },
      },
    ]);
    const a = (await as('provider').json('GET', `/boltadmin/customers/${tenants.customerA.customerId}`)).json()
      .result as CustomerDetail;
    expect(a.makeResellerAllowed).toBe(false);
  });

  it("shows a reseller its own customers' pages and nothing else", async () => {
    const own = await as('reseller').json('GET', `/admin/mycustomers/${tenants.customerA.customerId}`);
    expect(own.statusCode).toBe(200);
    expect(own.json().result).toMatchObject({
      id: tenants.customerA.customerId,
      customerUrl: `/admin/mycustomers/${tenants.customerA.customerId}`,
      makeResellerAllowed: false,
    });
    const otherReseller = await addCustomer(t.database.db, { reseller: { enabled: true } });
    const ofOtherReseller = await addCustomer(t.database.db, {
      status: 'SUSPENDED',
      parentResellerCustomerId: otherReseller.customerId,
    });
    for (const id of [tenants.customerB.customerId, tenants.reseller.customerId, ofOtherReseller.customerId, 999_999]) {
      for (const path of [`/admin/mycustomers/${id}`, `/admin/mycustomers/${id}/backuppackages`]) {
        const other = await as('reseller').json('GET', path);
        expect(other.statusCode, path).toBe(404);
        expect(other.json().result).toBeNull();
      }
    }
    // Nor can it change them.
    const base = `/admin/mycustomers/${ofOtherReseller.customerId}`;
    expect((await as('reseller').json('PUT', `${base}?status=ACTIVE`)).statusCode).toBe(404);
    expect((await as('reseller').json('DELETE', base)).statusCode).toBe(404);
    expect(await statusOf(ofOtherReseller.customerId)).toBe('SUSPENDED');
    const [row] = await t.database.db.select().from(customers).where(eq(customers.id, ofOtherReseller.customerId));
    expect(row?.beingDeleted).toBe(false);
    expect((await as('provider').json('GET', '/boltadmin/customers/999999')).statusCode).toBe(404);
  });

  it("lists the customer's packages with machines, usage, child packages and storage account", async () => {
    const db = t.database.db;
    const c = await addCustomer(db, {
      companyName: 'Packages Co',
      parentResellerCustomerId: tenants.reseller.customerId,
    });
    const locationId = await fixtures.storageLocation(c.customerId);
    const big = await fixtures.package(c.customerId, { name: 'Big', storageLocationId: locationId });
    const small = await fixtures.package(c.customerId, { name: 'Small', status: 'SUSPENDED' });
    const gone = await fixtures.package(c.customerId, { name: 'Going' });
    await db.update(backupPackages).set({ beingDeleted: true }).where(eq(backupPackages.id, gone));
    const m1 = await fixtures.machine(big);
    const m2 = await fixtures.machine(big);
    await db.update(backupMachines).set({ usedSpaceBytes: 1000 }).where(eq(backupMachines.id, m1));
    await db.update(backupMachines).set({ usedSpaceBytes: 234 }).where(eq(backupMachines.id, m2));
    const child = await fixtures.package(tenants.customerA.customerId, { name: 'Child of big' });
    await db.update(backupPackages).set({ parentResellerPackageId: big }).where(eq(backupPackages.id, child));

    const page = await getPage<CustomerPackageRow>(
      as('provider'),
      `/boltadmin/customers/${c.customerId}/backuppackages`,
    );
    expect(page).toEqual({
      elements: [
        {
          id: big,
          customerId: c.customerId,
          name: 'Big',
          status: 'ACTIVE',
          packageQuotaSizeInBytes: 100 * 1024 ** 3,
          usedBytes: 1234,
          numberOfBackupMachines: 2,
          numberOfChildCustomerPackages: 1,
          storageAccount: { id: expect.any(Number), name: expect.any(String) },
          backupPackageUrl: `/boltadmin/customers/${c.customerId}/backuppackages/${big}`,
          paymentUrl: null,
        },
        {
          id: small,
          customerId: c.customerId,
          name: 'Small',
          status: 'SUSPENDED',
          packageQuotaSizeInBytes: 100 * 1024 ** 3,
          usedBytes: 0,
          numberOfBackupMachines: 0,
          numberOfChildCustomerPackages: 0,
          storageAccount: null,
          backupPackageUrl: `/boltadmin/customers/${c.customerId}/backuppackages/${small}`,
          paymentUrl: null,
        },
      ],
      totalElements: 2,
      totalPages: 1,
    });
    const row = (await as('provider').json('GET', `/boltadmin/customers/${c.customerId}`)).json()
      .result as CustomerDetail;
    expect(row.numberOfBackupPackages).toBe(2);

    const reseller = await getPage<CustomerPackageRow>(
      as('reseller'),
      `/admin/mycustomers/${c.customerId}/backuppackages?size=1&page=1`,
    );
    expect(reseller).toMatchObject({ totalElements: 2, totalPages: 2 });
    expect(reseller.elements[0]?.backupPackageUrl).toBe(`/admin/mycustomers/${c.customerId}/backuppackages/${small}`);
    const foreign = await as('reseller').json(
      'GET',
      `/admin/mycustomers/${tenants.customerB.customerId}/backuppackages`,
    );
    expect(foreign.statusCode).toBe(404);
  });
});

describe("a customer's packages table on the provider's and reseller's customer page (002 §2.3, 000 §9)", () => {
  it('gives each package its billing product page when the customer is billed, and pages 5 by default', async () => {
    const db = t.database.db;
    const c = await addCustomer(db, { companyName: 'Billed Packages Co', parentResellerCustomerId: null });
    const [server] = await db
      .insert(billingServers)
      .values({
        description: 'Billing',
        whmcsHost: 'billing.example.com',
        whmcsPort: 443,
        whmcsPath: '/whmcs/',
        whmcsIdentifier: 'id',
        whmcsSecretEncrypted: 'sealed',
      })
      .returning({ id: billingServers.id });
    await db
      .update(customers)
      .set({ whmcsServerId: server?.id ?? 0 })
      .where(eq(customers.id, c.customerId));
    const billed = await fixtures.package(c.customerId, { name: 'A billed' });
    await db.update(backupPackages).set({ whmcsServiceId: 5001 }).where(eq(backupPackages.id, billed));
    for (let i = 0; i < 5; i++) await fixtures.package(c.customerId, { name: `B unbilled ${i}` });

    const page = await getPage<CustomerPackageRow>(
      as('provider'),
      `/boltadmin/customers/${c.customerId}/backuppackages`,
    );
    expect(page).toMatchObject({ totalElements: 6, totalPages: 2 });
    expect(page.elements).toHaveLength(5);
    expect(page.elements[0]).toMatchObject({
      name: 'A billed',
      paymentUrl: 'https://billing.example.com/whmcs/clientarea.php?action=productdetails&id=5001',
    });
    expect(page.elements[1]?.paymentUrl).toBeNull();
  });
});

describe("a customer's users, read-only for those who manage the customer (002 §2.4)", () => {
  it('shows the provider the users table, a user and their packages and machines, with View links', async () => {
    const a = tenants.customerA;
    const base = `/boltadmin/customers/${a.customerId}/users`;
    const page = await getPage<UserRow>(as('provider'), base);
    expect(page.totalElements).toBe(3);
    expect(page.elements.every((u) => !u.manageableByLoggedInUser && !u.deleteable)).toBe(true);
    expect(page.elements.map((u) => u.userUrl)).toContain(`${base}/${a.user.id}`);

    const user = await as('provider').json('GET', `${base}/${a.user.id}`);
    expect(user.statusCode).toBe(200);
    expect(user.json().result).toMatchObject({ id: a.user.id, email: a.user.email, manageableByLoggedInUser: false });
    expect(user.json().result).not.toHaveProperty('passwordHash');

    const packages = await getPage<UserPackageRow>(as('provider'), `${base}/${a.superAdmin.id}/backuppackages`);
    expect(packages.elements.every((p) => p.backupPackageUrl.startsWith(`/boltadmin/customers/${a.customerId}/`))).toBe(
      true,
    );
    const machines = await getPage<UserMachineRow>(as('provider'), `${base}/${a.user.id}/backupmachines`);
    expect(machines.totalElements).toBe(0);
  });

  it("shows a reseller its customers' users and answers 404 for any other customer or user", async () => {
    const a = tenants.customerA;
    const page = await getPage<UserRow>(as('reseller'), `/admin/mycustomers/${a.customerId}/users`);
    expect(page.elements.map((u) => u.userUrl)).toContain(`/admin/mycustomers/${a.customerId}/users/${a.admin.id}`);
    const b = tenants.customerB;
    for (const path of [
      `/admin/mycustomers/${b.customerId}/users`,
      `/admin/mycustomers/${b.customerId}/users/${b.admin.id}`,
      `/admin/mycustomers/${b.customerId}/users/${b.admin.id}/backuppackages`,
      `/admin/mycustomers/${b.customerId}/users/${b.admin.id}/backupmachines`,
      // B's user under A's path: not a user of A.
      `/admin/mycustomers/${a.customerId}/users/${b.admin.id}`,
      `/boltadmin/customers/${a.customerId}/users/${b.admin.id}`,
    ]) {
      const client = path.startsWith('/boltadmin') ? as('provider') : as('reseller');
      expect((await client.json('GET', path)).statusCode, path).toBe(404);
    }
  });
});

describe('status change (002 §4.1)', () => {
  it('accepts exactly the transitions of the table and refuses every other with a global message', async () => {
    const c = await addCustomer(t.database.db, { companyName: 'Transitions Co' });
    for (const from of CUSTOMER_STATUSES) {
      for (const to of CUSTOMER_STATUSES) {
        await setStatus(c.customerId, from);
        const response = await as('provider').json('PUT', `/boltadmin/customers/${c.customerId}?status=${to}`);
        if (customerStatusOptions(from).includes(to)) {
          expect(response.statusCode, `${from} → ${to}`).toBe(200);
          expect((response.json().result as CustomerDetail).status).toBe(to);
          expect(await statusOf(c.customerId)).toBe(to);
        } else {
          expect(response.statusCode, `${from} → ${to}`).toBe(400);
          expect(response.json().messages).toEqual([
            expect.objectContaining({ fieldName: '', message: customerStatusChangeRefused(from, to) }),
          ]);
          expect(await statusOf(c.customerId)).toBe(from);
        }
      }
    }
  });

  it('lets a reseller change its own customers only; others get 404 and nothing changes', async () => {
    const own = await addCustomer(t.database.db, { parentResellerCustomerId: tenants.reseller.customerId });
    const suspended = await as('reseller').json('PUT', `/admin/mycustomers/${own.customerId}?status=SUSPENDED`);
    expect(suspended.statusCode).toBe(200);
    expect(suspended.json().result).toMatchObject({ status: 'SUSPENDED', statusOptions: ['ACTIVE'], deleteable: true });

    const b = tenants.customerB.customerId;
    expect((await as('reseller').json('PUT', `/admin/mycustomers/${b}?status=SUSPENDED`)).statusCode).toBe(404);
    expect(await statusOf(b)).toBe('ACTIVE');
    for (const caller of ['superA', 'adminA', 'userA', 'adminB'] as const) {
      const response = await as(caller).json('PUT', `/admin/mycustomers/${own.customerId}?status=ACTIVE`);
      expect(response.statusCode, caller).toBe(403);
    }
    expect(await statusOf(own.customerId)).toBe('SUSPENDED');
  });

  it('refuses a read-only provider admin (403) and a status that is not one', async () => {
    const c = await addCustomer(t.database.db);
    const readOnly = await as('readOnlyProvider').json('PUT', `/boltadmin/customers/${c.customerId}?status=SUSPENDED`);
    expect(readOnly.statusCode).toBe(403);
    expect(await statusOf(c.customerId)).toBe('ACTIVE');
    expect((await as('readOnlyProvider').json('GET', `/boltadmin/customers/${c.customerId}`)).statusCode).toBe(200);
    for (const query of ['?status=PAUSED', '']) {
      const response = await as('provider').json('PUT', `/boltadmin/customers/${c.customerId}${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().messages[0]).toMatchObject({ fieldName: 'status' });
    }
    // ?whmcsServerId= on the same path is the billing server change (features/billing/billing.test.ts).
    const change = await as('provider').json('PUT', `/boltadmin/customers/${c.customerId}?whmcsServerId=999999`);
    expect(change.statusCode).toBe(404);
    expect(change.json().messages[0]?.message).toBe(MESSAGES.billing.serverNotFound);
    expect(await statusOf(c.customerId)).toBe('ACTIVE');
  });

  it("stops the customer's tasks through the backup state, so the dashboard read model follows", async () => {
    const db = t.database.db;
    const c = await addCustomer(db);
    await fixtures.storageLocation(c.customerId);
    const machine = await fixtures.machine(await fixtures.package(c.customerId));
    const taskId = await createBackupStateService({ db }).createTask(fixtures.task(machine));
    if (taskId === null) throw new Error('no task');
    const displayStatus = async () =>
      (await db.select().from(backupTasks).where(eq(backupTasks.id, taskId)))[0]?.displayStatus;
    const taskStatus = async () =>
      (await db.select().from(customers).where(eq(customers.id, c.customerId)))[0]?.taskStatus;
    expect(await displayStatus()).toBe('NOT_COMPLETED_YET');
    await as('provider').json('PUT', `/boltadmin/customers/${c.customerId}?status=SUSPENDED`);
    expect(await displayStatus()).toBe('NOT_RUNNABLE');
    expect(await taskStatus()).toBe('NO_RUNNABLE_TASKS');
    await as('provider').json('PUT', `/boltadmin/customers/${c.customerId}?status=ACTIVE`);
    expect(await displayStatus()).toBe('NOT_COMPLETED_YET');
    expect(await taskStatus()).toBe('NO_COMPLETED_TASKS');
  });

  it('signs the users of a suspended customer out', async () => {
    const c = await addCustomer(t.database.db);
    const user = await signedIn(t.app, c.admin.email);
    expect((await user.json('GET', '/admin/account')).statusCode).toBe(200);
    await as('provider').json('PUT', `/boltadmin/customers/${c.customerId}?status=SUSPENDED`);
    expect((await user.json('GET', '/admin/account')).statusCode).toBe(401);
  });
});

describe('plugin settings (002 §7.3)', () => {
  it('saves cpanelPluginEnabled for the provider and answers with the customer', async () => {
    const c = await addCustomer(t.database.db);
    const path = `/boltadmin/customers/${c.customerId}/plugins`;
    const on = await as('provider').json('PUT', path, { cpanelPluginEnabled: true });
    expect(on.statusCode).toBe(200);
    expect(on.json().result).toMatchObject({ id: c.customerId, cpanelPluginEnabled: true });
    const off = await as('provider').json('PUT', path, { cpanelPluginEnabled: 'false' });
    expect(off.json().result).toMatchObject({ cpanelPluginEnabled: false });
    const bad = await as('provider').json('PUT', path, {});
    expect(bad.statusCode).toBe(400);
    expect(bad.json().messages[0]).toMatchObject({ fieldName: 'cpanelPluginEnabled' });
  });

  it('refuses read-only provider admins, resellers and unknown customers', async () => {
    const c = await addCustomer(t.database.db, { parentResellerCustomerId: tenants.reseller.customerId });
    const path = `/boltadmin/customers/${c.customerId}/plugins`;
    expect((await as('readOnlyProvider').json('PUT', path, { cpanelPluginEnabled: true })).statusCode).toBe(403);
    expect((await as('reseller').json('PUT', path, { cpanelPluginEnabled: true })).statusCode).toBe(403);
    expect(
      (await as('provider').json('PUT', '/boltadmin/customers/999999/plugins', { cpanelPluginEnabled: true }))
        .statusCode,
    ).toBe(404);
    const [row] = await t.database.db.select().from(customers).where(eq(customers.id, c.customerId));
    expect(row?.cpanelPluginEnabled).toBe(false);
  });
});

describe('make reseller (002 §4.5)', () => {
  it("makes a provider's customer a reseller named after the company; its super admin is a reseller admin at once", async () => {
    const c = await addCustomer(t.database.db, { companyName: 'Soon Reseller' });
    const owner = await signedIn(t.app, c.superAdmin.email);
    expect((await owner.json('GET', '/admin/mycustomerspaginated')).statusCode).toBe(403);

    const response = await as('provider').json('PUT', `/boltadmin/customers/${c.customerId}/makereseller`);
    expect(response.statusCode).toBe(200);
    expect(response.json().result).toMatchObject({
      id: c.customerId,
      resellerSettingsDisplayDto: { resellerEnabled: true, brandName: 'Soon Reseller' },
      makeResellerAllowed: false,
    });
    const resellers = await getPage<CustomerRow>(
      as('provider'),
      '/boltadmin/resellerspaginated?search=soon%20reseller',
    );
    expect(resellers.elements.map((r) => r.id)).toEqual([c.customerId]);
    expect((await owner.json('GET', '/admin/mycustomerspaginated')).statusCode).toBe(200);

    const again = await as('provider').json('PUT', `/boltadmin/customers/${c.customerId}/makereseller`);
    expect(again.statusCode).toBe(400);
    expect(again.json().messages).toEqual([
      expect.objectContaining({ fieldName: '', message: MESSAGES.customer.cannotMakeReseller }),
    ]);
  });

  it('enables existing reseller settings and keeps their brand name', async () => {
    const c = await addCustomer(t.database.db, { reseller: { enabled: false, brandName: 'Kept Brand' } });
    const response = await as('provider').json('PUT', `/boltadmin/customers/${c.customerId}/makereseller`);
    expect(response.json().result.resellerSettingsDisplayDto).toEqual({
      resellerEnabled: true,
      brandName: 'Kept Brand',
    });
    const [settings] = await t.database.db
      .select()
      .from(resellerSettings)
      .where(eq(resellerSettings.customerId, c.customerId));
    expect(settings).toMatchObject({ resellerEnabled: true, brandName: 'Kept Brand' });
  });

  it("refuses a reseller's customer, read-only provider admins and anyone but the provider", async () => {
    const a = tenants.customerA.customerId;
    const refused = await as('provider').json('PUT', `/boltadmin/customers/${a}/makereseller`);
    expect(refused.statusCode).toBe(400);
    const c = await addCustomer(t.database.db);
    expect(
      (await as('readOnlyProvider').json('PUT', `/boltadmin/customers/${c.customerId}/makereseller`)).statusCode,
    ).toBe(403);
    expect((await as('reseller').json('PUT', `/boltadmin/customers/${c.customerId}/makereseller`)).statusCode).toBe(
      403,
    );
    expect((await as('provider').json('PUT', '/boltadmin/customers/999999/makereseller')).statusCode).toBe(404);
    const settings = await t.database.db
      .select()
      .from(resellerSettings)
      .where(eq(resellerSettings.customerId, c.customerId));
    expect(settings).toEqual([]);
  });
});
