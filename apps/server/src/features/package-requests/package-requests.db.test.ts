import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MESSAGES, type MyPackageRequestRow, type PackageRequestRow, type Paged, ROUTES } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backupPackages,
  buckets,
  customers,
  packageRequests,
  packageTemplates,
  storageAccounts,
  storageLocations,
  users,
} from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { messagesOf, resultOf, signedInAs } from '../../testing/envelope.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';
import { storageUsersWithKeys } from '../../testing/storage-users.js';
import { createBackupStateService } from '../backup-state/service.js';
import { createPackageRequestsRepo } from './repo.js';
import { createPackageRequestService } from './service.js';

let t: TestApp;
let tenants: Tenants;
let fixtures: ReturnType<typeof backupFixtures>;
let provider: TestClient;
let reseller: TestClient;
/** Provider templates: 10 GB for 5 machines, 1 TB unlimited; a reseller template of 20 GB. */
let small: number;
let large: number;
let resellerTemplate: number;
let accountId: number;
/** The reseller's own ACTIVE package of 100 GB in its bucket, with a 30 GB child package inside. */
let resellerPackage: number;
const P = ROUTES.packageRequests.provider;
const R = ROUTES.packageRequests.reseller;
const GB = 1024 ** 3;

const signedIn = (email: string) => signedInAs(t.app, email);

const db = () => t.database.db;

async function template(
  name: string,
  storageQuota: number,
  unit: 'GB' | 'TB',
  machines: number,
  owner: number | null = null,
) {
  const [row] = await db()
    .insert(packageTemplates)
    .values({ name, storageQuota, storageQuotaUnit: unit, noOfMachinesLimit: machines, ownerCustomerId: owner })
    .returning({ id: packageTemplates.id });
  if (!row) throw new Error('template not inserted');
  return row.id;
}

let sequence = 0;
/** A customer signing up (no storage yet) with its super admin and a pending NEW_SIGNUP request. */
async function signUp(parent: number | null, templateId: number) {
  sequence += 1;
  const [customer] = await db()
    .insert(customers)
    .values({ companyName: `Signup ${sequence}`, status: 'SIGNUP_REQUESTED', parentResellerCustomerId: parent })
    .returning({ id: customers.id });
  if (!customer) throw new Error('customer not inserted');
  const [user] = await db()
    .insert(users)
    .values({
      email: `signup${sequence}@new.test`,
      role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER',
      customerId: customer.id,
      firstName: 'New',
      surname: 'Signup',
      passwordHash: 'x',
    })
    .returning({ id: users.id });
  await fixtures.setSuperAdmin(customer.id, user?.id ?? 0);
  const requestId = await request(customer.id, 'NEW_SIGNUP', {
    requestedTemplateId: templateId,
    firstApprovalRequest: true,
  });
  return { customerId: customer.id, requestId };
}

async function request(
  customerId: number,
  requestType: 'NEW_SIGNUP' | 'ADDITIONAL_PACKAGE' | 'CHANGE_PACKAGE',
  values: { requestedTemplateId?: number; backupPackageId?: number; firstApprovalRequest?: boolean },
) {
  const [row] = await db()
    .insert(packageRequests)
    .values({ customerId, requestType, ...values })
    .returning({ id: packageRequests.id });
  if (!row) throw new Error('request not inserted');
  return row.id;
}

/** An additional package bought by customer B: its REQUESTED package and the pending request. */
async function additional() {
  const packageId = await fixtures.package(tenants.customerB.customerId, { name: 'Bought', status: 'REQUESTED' });
  const requestId = await request(tenants.customerB.customerId, 'ADDITIONAL_PACKAGE', {
    backupPackageId: packageId,
    requestedTemplateId: small,
  });
  return { packageId, requestId };
}

/** An up/downgrade of one of customer B's packages to the large template. */
async function change() {
  const packageId = await fixtures.package(tenants.customerB.customerId, { name: 'Growing' });
  await db()
    .update(backupPackages)
    .set({ upOrDownGradeRequested: true, requestedTemplateId: large, templateId: small })
    .where(eq(backupPackages.id, packageId));
  const requestId = await request(tenants.customerB.customerId, 'CHANGE_PACKAGE', {
    backupPackageId: packageId,
    requestedTemplateId: large,
  });
  return { packageId, requestId };
}

const requestRow = async (id: number) =>
  (await db().select().from(packageRequests).where(eq(packageRequests.id, id)))[0];
const packageRow = async (id: number) => (await db().select().from(backupPackages).where(eq(backupPackages.id, id)))[0];
const customerRow = async (id: number) => (await db().select().from(customers).where(eq(customers.id, id)))[0];
const pendingOf = async (client: TestClient, route: typeof P.list | typeof R.list) =>
  resultOf<Paged<PackageRequestRow>>(await client.json('GET', `${route.build()}?size=100`)).elements;

let dataDir: string;

beforeAll(async () => {
  // Approvals make buckets of the embedded storage: folders of this test's own data directory.
  dataDir = await mkdtemp(join(tmpdir(), 'package-requests-'));
  t = await createTestApp({ DATA_DIR: dataDir });
  tenants = await createTenants(t.database.db);
  fixtures = backupFixtures(t.database.db);
  await fixtures.setSuperAdmin(tenants.customerB.customerId, tenants.customerB.superAdmin.id);
  provider = await signedIn(tenants.providerAdmin.email);
  reseller = await signedIn(tenants.reseller.superAdmin.email);
  small = await template('Small', 10, 'GB', 5);
  large = await template('Large', 1, 'TB', 0);
  resellerTemplate = await template('Reseller 20 GB', 20, 'GB', 3, tenants.reseller.customerId);
  await fixtures.storageLocation(tenants.customerB.customerId);
  const resellerLocation = await fixtures.storageLocation(tenants.reseller.customerId);
  const [account] = await db().select({ id: storageAccounts.id }).from(storageAccounts);
  accountId = account?.id ?? 0;
  resellerPackage = await fixtures.package(tenants.reseller.customerId, { name: 'Reseller pool' });
  await db()
    .update(backupPackages)
    .set({ storageLocationId: resellerLocation })
    .where(eq(backupPackages.id, resellerPackage));
  const child = await fixtures.package(tenants.customerA.customerId, { name: 'Child' });
  await db()
    .update(backupPackages)
    .set({ parentResellerPackageId: resellerPackage, packageQuotaSizeInBytes: 30 * GB })
    .where(eq(backupPackages.id, child));
});
afterAll(async () => {
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The location's own storage user and key (issue 16), as the approval made them. */
const locationUserOf = (storageLocationId: number) => storageUsersWithKeys(db(), { storageLocationId });

describe('the request tables (000 §2, §3, §7)', () => {
  it("lists the provider's direct customers' pending requests with their storage items, and the reseller's children's", async () => {
    const direct = await signUp(null, small);
    const child = await signUp(tenants.reseller.customerId, resellerTemplate);
    const { requestId: changeId } = await change();

    const providers = await pendingOf(provider, P.list);
    const row = providers.find((r) => r.id === direct.requestId);
    expect(row).toEqual({
      id: direct.requestId,
      requestType: 'NEW_SIGNUP',
      backupPackageName: null,
      requestedBackupPackageName: 'Small',
      customerCompanyName: expect.stringMatching(/^Signup /),
      customerUsername: expect.stringMatching(/@new\.test$/),
      firstApprovalRequest: true,
      approveUrl: P.approve.build({ requestId: direct.requestId }),
      declineUrl: P.decline.build({ requestId: direct.requestId }),
      availableStorageItemsToLink: {
        storageItemsType: 'STORAGE_ACCOUNT',
        storageItems: [{ id: accountId, name: expect.any(String), capacityInBytes: -1 }],
      },
    });
    expect(providers.find((r) => r.id === changeId)?.availableStorageItemsToLink).toBeNull();
    expect(providers.map((r) => r.id)).not.toContain(child.requestId);

    const resellers = await pendingOf(reseller, R.list);
    expect(resellers.map((r) => r.id)).toEqual([child.requestId]);
    expect(resellers[0]?.approveUrl).toBe(R.approve.build({ requestId: child.requestId }));
    expect(resellers[0]?.availableStorageItemsToLink).toEqual({
      storageItemsType: 'RESELLER_BACKUP_PACKAGE',
      storageItems: [{ id: resellerPackage, name: 'Reseller pool', capacityInBytes: 70 * GB }],
    });
  });

  it('pages 5 by default', async () => {
    for (let i = 0; i < 6; i++) await signUp(null, small);
    const page = resultOf<Paged<PackageRequestRow>>(await provider.json('GET', P.list.build()));
    expect(page.elements).toHaveLength(5);
    expect(page.totalElements).toBeGreaterThan(5);
  });

  it("shows customer admins their own customer's requests, pending first", async () => {
    const { requestId: declined } = await additional();
    resultOf(await provider.json('PUT', P.decline.build({ requestId: declined })));
    const { requestId: open } = await additional();
    const own = await signedIn(tenants.customerB.superAdmin.email);
    const mine = resultOf<Paged<MyPackageRequestRow>>(
      await own.json('GET', `${ROUTES.packageRequests.mine.build()}?size=100`),
    ).elements;
    expect(mine[0]?.status).toBe('PENDING');
    expect(mine.find((r) => r.id === declined)).toMatchObject({
      status: 'DECLINED',
      requestType: 'ADDITIONAL_PACKAGE',
    });
    expect(mine.map((r) => r.id)).toContain(open);
    const other = await signedIn(tenants.customerA.superAdmin.email);
    const theirs = resultOf<Paged<MyPackageRequestRow>>(await other.json('GET', ROUTES.packageRequests.mine.build()));
    expect(theirs.elements.map((r) => r.id)).not.toContain(open);
    const user = await signedIn(tenants.customerB.user.email);
    expect((await user.json('GET', ROUTES.packageRequests.mine.build())).statusCode).toBe(403);
  });
});

describe('approving (000 §4, §5, §7)', () => {
  it('approves a new signup: location in a new bucket of the account, APPROVED first package, customer ACTIVE', async () => {
    const { customerId, requestId } = await signUp(null, small);
    resultOf(await provider.json('PUT', P.approve.build({ requestId }), { storageItemId: accountId }));

    const [location] = await db()
      .select({
        id: storageLocations.id,
        default: storageLocations.defaultForCustomer,
        bucket: buckets.name,
        account: buckets.storageAccountId,
        subfolder: storageLocations.subfolder,
      })
      .from(storageLocations)
      .innerJoin(buckets, eq(buckets.id, storageLocations.bucketId))
      .where(eq(storageLocations.customerId, customerId));
    expect(location).toMatchObject({ default: true, account: accountId, subfolder: null });
    expect(location?.bucket).toMatch(new RegExp(`^c${customerId}-signup-`));
    // The bucket is made at the service (the embedded storage's folder), with the location's user and key.
    expect(existsSync(join(dataDir, 'storage', location?.bucket ?? '-'))).toBe(true);
    const [user, ...more] = await locationUserOf(location?.id ?? 0);
    expect(more).toEqual([]);
    expect(user).toMatchObject({
      name: `portal-location-${location?.id}`,
      managed: true,
      customerId,
      keyManaged: true,
      sealed: expect.any(String),
    });
    const [pkg] = await db().select().from(backupPackages).where(eq(backupPackages.customerId, customerId));
    expect(pkg).toMatchObject({
      name: 'Small',
      status: 'APPROVED',
      templateId: small,
      packageQuotaSizeInBytes: 10 * GB,
      maxBackupSizePerMachineInMbs: 10 * 1024,
      noOfMachinesLimit: 5,
      storageLocationId: location?.id,
    });
    expect(await customerRow(customerId)).toMatchObject({ status: 'ACTIVE', displayStatus: 'ACTIVE' });
    expect(await requestRow(requestId)).toMatchObject({
      status: 'APPROVED',
      linkedStorageItemType: 'STORAGE_ACCOUNT',
      linkedStorageItemId: accountId,
    });

    // Once decided, neither a second approval nor a decline changes anything.
    for (const again of [
      await provider.json('PUT', P.approve.build({ requestId }), { storageItemId: accountId }),
      await provider.json('PUT', P.decline.build({ requestId })),
    ]) {
      expect(again.statusCode).toBe(409);
      expect(messagesOf(again)).toEqual([{ fieldName: '', message: MESSAGES.packageRequest.notPending }]);
    }
    expect(await db().select().from(backupPackages).where(eq(backupPackages.customerId, customerId))).toHaveLength(1);
    expect((await requestRow(requestId))?.status).toBe('APPROVED');
  });

  it('refuses a missing or foreign storage item on its field and changes nothing', async () => {
    const { customerId, requestId } = await signUp(null, small);
    const missing = await provider.json('PUT', P.approve.build({ requestId }), {});
    expect(missing.statusCode).toBe(400);
    expect(messagesOf(missing)[0]?.fieldName).toBe('storageItemId');
    const foreign = await provider.json('PUT', P.approve.build({ requestId }), { storageItemId: accountId + 1000 });
    expect(messagesOf(foreign)).toEqual([
      { fieldName: 'storageItemId', message: MESSAGES.packageRequest.storageItemNotAvailable },
    ]);
    expect((await requestRow(requestId))?.status).toBe('PENDING');
    expect((await customerRow(customerId))?.status).toBe('SIGNUP_REQUESTED');
  });

  it("approves a reseller child's signup inside the reseller package: the parent's bucket, a nested subfolder", async () => {
    const { customerId, requestId } = await signUp(tenants.reseller.customerId, resellerTemplate);
    const taken = await reseller.json('PUT', R.approve.build({ requestId }), { storageItemId: 999_999 });
    expect(messagesOf(taken)[0]?.fieldName).toBe('storageItemId');
    resultOf(await reseller.json('PUT', R.approve.build({ requestId }), { storageItemId: resellerPackage }));
    const [pkg] = await db().select().from(backupPackages).where(eq(backupPackages.customerId, customerId));
    expect(pkg).toMatchObject({
      status: 'APPROVED',
      parentResellerPackageId: resellerPackage,
      packageQuotaSizeInBytes: 20 * GB,
    });
    const host = await packageRow(resellerPackage);
    const [hostLocation] = await db()
      .select()
      .from(storageLocations)
      .where(eq(storageLocations.id, host?.storageLocationId ?? 0));
    const [location] = await db()
      .select()
      .from(storageLocations)
      .where(eq(storageLocations.id, pkg?.storageLocationId ?? 0));
    expect(location).toMatchObject({
      bucketId: hostLocation?.bucketId,
      subfolder: `c${customerId}`,
      defaultForCustomer: true,
    });
    expect(await locationUserOf(location?.id ?? 0)).toEqual([
      expect.objectContaining({ name: `portal-location-${location?.id}`, managed: true, customerId }),
    ]);
    // The shared bucket's policy now grants the child's user its own folder.
    const [bucket] = await db()
      .select({ policy: buckets.policy })
      .from(buckets)
      .where(eq(buckets.id, location?.bucketId ?? 0));
    expect(bucket?.policy).toContain(`arn:aws:iam:::user/portal-location-${location?.id}`);
    expect((await customerRow(customerId))?.displayStatus).toBe('ACTIVE');
  });

  it("approves an additional package in one of the customer's locations", async () => {
    const { packageId, requestId } = await additional();
    const row = (await pendingOf(provider, P.list)).find((r) => r.id === requestId);
    expect(row?.availableStorageItemsToLink?.storageItemsType).toBe('EXISTING_STORAGE_LOCATION');
    const locationId = row?.availableStorageItemsToLink?.storageItems[0]?.id ?? 0;
    resultOf(await provider.json('PUT', P.approve.build({ requestId }), { storageItemId: locationId }));
    expect(await packageRow(packageId)).toMatchObject({ status: 'APPROVED', storageLocationId: locationId });
    expect((await requestRow(requestId))?.status).toBe('APPROVED');
  });

  it("approves a reseller child's additional package inside the chosen reseller package", async () => {
    const packageId = await fixtures.package(tenants.customerA.customerId, { name: 'More', status: 'REQUESTED' });
    const requestId = await request(tenants.customerA.customerId, 'ADDITIONAL_PACKAGE', {
      backupPackageId: packageId,
      requestedTemplateId: resellerTemplate,
    });
    const row = (await pendingOf(reseller, R.list)).find((r) => r.id === requestId);
    expect(row?.availableStorageItemsToLink?.storageItemsType).toBe('RESELLER_BACKUP_PACKAGE');
    resultOf(await reseller.json('PUT', R.approve.build({ requestId }), { storageItemId: resellerPackage }));
    const pkg = await packageRow(packageId);
    expect(pkg).toMatchObject({ status: 'APPROVED', parentResellerPackageId: resellerPackage });
    const [location] = await db()
      .select()
      .from(storageLocations)
      .where(eq(storageLocations.id, pkg?.storageLocationId ?? 0));
    expect(location).toMatchObject({
      customerId: tenants.customerA.customerId,
      subfolder: `c${tenants.customerA.customerId}`,
    });
  });

  it("approves a change: the package takes the requested template's quota and machine limit", async () => {
    const { packageId, requestId } = await change();
    resultOf(await provider.json('PUT', P.approve.build({ requestId })));
    expect(await packageRow(packageId)).toMatchObject({
      templateId: large,
      packageQuotaSizeInBytes: 1024 * GB,
      noOfMachinesLimit: 0,
      upOrDownGradeRequested: false,
      requestedTemplateId: null,
    });
  });

  it("keeps another tenant's request out of reach (404) and unchanged; customers may not approve", async () => {
    const direct = await signUp(null, small);
    const child = await signUp(tenants.reseller.customerId, resellerTemplate);
    expect(
      (await reseller.json('PUT', R.approve.build({ requestId: direct.requestId }), { storageItemId: resellerPackage }))
        .statusCode,
    ).toBe(404);
    expect((await reseller.json('PUT', R.decline.build({ requestId: direct.requestId }))).statusCode).toBe(404);
    expect(
      (await provider.json('PUT', P.approve.build({ requestId: child.requestId }), { storageItemId: accountId }))
        .statusCode,
    ).toBe(404);
    expect((await provider.json('PUT', P.decline.build({ requestId: child.requestId }))).statusCode).toBe(404);
    const customerAdmin = await signedIn(tenants.customerB.superAdmin.email);
    expect((await customerAdmin.json('PUT', R.decline.build({ requestId: child.requestId }))).statusCode).toBe(403);
    expect((await requestRow(direct.requestId))?.status).toBe('PENDING');
    expect((await requestRow(child.requestId))?.status).toBe('PENDING');
  });
});

describe('declining (000 §4, §7)', () => {
  it("removes an additional package's REQUESTED package and mails the customer's super admin", async () => {
    const { packageId, requestId } = await additional();
    const after = t.lastMailId();
    resultOf(await provider.json('PUT', P.decline.build({ requestId })));
    expect(await requestRow(requestId)).toMatchObject({ status: 'DECLINED', backupPackageId: null });
    expect(await packageRow(packageId)).toBeUndefined();
    const mail = await t.waitForMail(tenants.customerB.superAdmin.email, after);
    expect(mail.subject).toBe('Your backup package request was declined');
    expect(mail.text).toContain('additional package request (Small)');
  });

  it("clears a change request's flags and keeps the package as it was", async () => {
    const { packageId, requestId } = await change();
    resultOf(await provider.json('PUT', P.decline.build({ requestId })));
    expect(await packageRow(packageId)).toMatchObject({
      upOrDownGradeRequested: false,
      requestedTemplateId: null,
      templateId: small,
      packageQuotaSizeInBytes: 100 * GB,
    });
    expect((await requestRow(requestId))?.status).toBe('DECLINED');
  });

  it('declines a signup, which stays a signup', async () => {
    const { customerId, requestId } = await signUp(tenants.reseller.customerId, resellerTemplate);
    resultOf(await reseller.json('PUT', R.decline.build({ requestId })));
    expect((await requestRow(requestId))?.status).toBe('DECLINED');
    expect((await customerRow(customerId))?.displayStatus).toBe('SIGNUP_REQUESTED');
  });
});

describe('approvePaid (billing)', () => {
  const changed: number[] = [];
  const service = () =>
    createPackageRequestService({
      db: db(),
      repo: createPackageRequestsRepo(db()),
      backupStateOn: (tx) => createBackupStateService({ db: tx }),
      onPackageQuotaChanged: async (packageId) => {
        changed.push(packageId);
      },
      mail: { queue: async () => {} },
      onMailError: () => {},
      checkPaidInvoices: async () => 0,
      // Paid approvals place packages in existing locations only.
      locations: { prepare: async () => Promise.reject(new Error('no location is made for a paid request')) },
    });

  it("approves a paid additional package in the customer's default location, once", async () => {
    const { packageId, requestId } = await additional();
    expect(await service().approvePaid(requestId)).toBe(true);
    const [location] = await db()
      .select({ id: storageLocations.id })
      .from(storageLocations)
      .where(eq(storageLocations.customerId, tenants.customerB.customerId));
    expect(await packageRow(packageId)).toMatchObject({ status: 'APPROVED', storageLocationId: location?.id });
    expect(await service().approvePaid(requestId)).toBe(false);
  });

  it('applies a paid change and reports the quota change after the commit', async () => {
    const { packageId, requestId } = await change();
    expect(await service().approvePaid(requestId)).toBe(true);
    expect((await packageRow(packageId))?.packageQuotaSizeInBytes).toBe(1024 * GB);
    expect(changed).toEqual([packageId]);
  });

  it('leaves a signup and a decided request alone', async () => {
    const { requestId } = await signUp(null, small);
    expect(await service().approvePaid(requestId)).toBe(false);
    expect((await requestRow(requestId))?.status).toBe('PENDING');
  });
});

describe('a sign-up approved once (issue 29 item 7)', () => {
  const packagesOf = (customerId: number) =>
    db()
      .select({ name: backupPackages.name, status: backupPackages.status, location: backupPackages.storageLocationId })
      .from(backupPackages)
      .where(eq(backupPackages.customerId, customerId));

  it("turns the sign-up's REQUESTED package into the APPROVED one; a second approval is a 409 that changes nothing", async () => {
    const visitor = new TestClient(t.app);
    await visitor.open(ROUTES.signUp.submit.build());
    const email = 'once@approved.test';
    resultOf(
      await visitor.json('POST', ROUTES.signUp.submit.build(), {
        companyName: 'Approved Once',
        firstName: 'Ada',
        surname: 'Once',
        email,
        contactNumber: '021 555 0199',
        password: 'long enough',
        confirmPassword: 'long enough',
        templateId: small,
      }),
    );
    const [customer] = await db().select().from(customers).where(eq(customers.companyName, 'Approved Once'));
    const customerId = customer?.id ?? 0;
    expect(await packagesOf(customerId)).toEqual([{ name: 'Small', status: 'REQUESTED', location: null }]);
    const row = (await pendingOf(provider, P.list)).find((r) => r.customerUsername === email);
    expect(row?.requestType).toBe('NEW_SIGNUP');
    const requestId = row?.id ?? 0;

    resultOf(await provider.json('PUT', P.approve.build({ requestId }), { storageItemId: accountId }));
    const approved = await packagesOf(customerId);
    expect(approved).toEqual([{ name: 'Small', status: 'APPROVED', location: expect.any(Number) }]);

    const again = await provider.json('PUT', P.approve.build({ requestId }), { storageItemId: accountId });
    expect(again.statusCode).toBe(409);
    expect(messagesOf(again)).toEqual([{ fieldName: '', message: MESSAGES.packageRequest.notPending }]);
    expect(await packagesOf(customerId)).toEqual(approved);
  });

  it('turns a sign-up recorded with its REQUESTED package (as the demo seeds them) into one APPROVED package', async () => {
    const { customerId, requestId } = await signUp(null, large);
    const packageId = await fixtures.package(customerId, { name: 'Large', status: 'REQUESTED' });
    await db().update(packageRequests).set({ backupPackageId: packageId }).where(eq(packageRequests.id, requestId));
    resultOf(await provider.json('PUT', P.approve.build({ requestId }), { storageItemId: accountId }));
    expect(await packagesOf(customerId)).toEqual([{ name: 'Large', status: 'APPROVED', location: expect.any(Number) }]);
    expect((await customerRow(customerId))?.status).toBe('ACTIVE');
  });

  it("removes a declined sign-up's REQUESTED package with the decision", async () => {
    const { customerId, requestId } = await signUp(null, small);
    const packageId = await fixtures.package(customerId, { name: 'Small', status: 'REQUESTED' });
    await db().update(packageRequests).set({ backupPackageId: packageId }).where(eq(packageRequests.id, requestId));
    resultOf(await provider.json('PUT', P.decline.build({ requestId })));
    expect(await packagesOf(customerId)).toEqual([]);
    expect((await requestRow(requestId))?.status).toBe('DECLINED');
  });
});
