import {
  type Envelope,
  MESSAGES,
  PACKAGE_TEMPLATE_LIMITS,
  type PurchaseResult,
  ROUTES,
  type TemplatesOnOffer,
} from '@portal/domain';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupPackages, packageRequests, packageTemplates, resellerSettings, users } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { resultOf } from '../../testing/envelope.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';
import { addCustomer, signedIn as signedInAs } from '../customers/testing.js';

let t: TestApp;
let tenants: Tenants;
let fixtures: ReturnType<typeof backupFixtures>;
/** The provider's templates (direct customers buy these) and the reseller's (its customers buy these). */
let basic: number;
let huge: number;
let resellerSmall: number;
let resellerLarge: number;

const MAIN_SITE = 'https://resell.example.test/pricing';
const R = ROUTES.purchase;

const signedIn = (email: string) => signedInAs(t.app, email);

const messagesOf = (response: LightMyRequestResponse) =>
  (response.json() as Envelope<unknown>).messages.map((m) => ({ fieldName: m.fieldName, message: m.message }));

async function template(name: string, owner: number | null, quota: number, unit: 'GB' | 'PB', machines: number) {
  const [row] = await t.database.db
    .insert(packageTemplates)
    .values({ name, ownerCustomerId: owner, storageQuota: quota, storageQuotaUnit: unit, noOfMachinesLimit: machines })
    .returning({ id: packageTemplates.id });
  if (!row) throw new Error('template not inserted');
  return row.id;
}

const packagesOf = (customerId: number) =>
  t.database.db.select().from(backupPackages).where(eq(backupPackages.customerId, customerId));
const requestsOf = (customerId: number) =>
  t.database.db.select().from(packageRequests).where(eq(packageRequests.customerId, customerId));

beforeAll(async () => {
  t = await createTestApp();
  tenants = await createTenants(t.database.db);
  fixtures = backupFixtures(t.database.db);
  const reseller = tenants.reseller.customerId;
  await t.database.db
    .update(resellerSettings)
    .set({ mainSiteLink: MAIN_SITE })
    .where(eq(resellerSettings.customerId, reseller));
  basic = await template('Basic', null, 100, 'GB', 5);
  huge = await template('Huge', null, PACKAGE_TEMPLATE_LIMITS.storageQuotaMax, 'PB', 0);
  resellerSmall = await template('Reseller Small', reseller, 50, 'GB', 2);
  resellerLarge = await template('Reseller Large', reseller, 500, 'GB', 0);
});
afterAll(() => t.close());

describe('templates on offer (001 §2, §3; GET /admin/packagetemplates)', () => {
  it("answers a reseller's customer its reseller's templates, with the main site link for pricing", async () => {
    const client = await signedIn(tenants.customerA.admin.email);
    const offer = resultOf<TemplatesOnOffer>(await client.json('GET', R.templates.build()));
    expect(offer.boltCustomer).toBe(false);
    expect(offer.mainSiteLink).toBe(MAIN_SITE);
    // A stored link that is not http(s) never becomes a link.
    const reseller = eq(resellerSettings.customerId, tenants.reseller.customerId);
    await t.database.db.update(resellerSettings).set({ mainSiteLink: 'javascript:alert(1)' }).where(reseller);
    expect(resultOf<TemplatesOnOffer>(await client.json('GET', R.templates.build())).mainSiteLink).toBeNull();
    await t.database.db.update(resellerSettings).set({ mainSiteLink: MAIN_SITE }).where(reseller);
    expect(offer.elements).toEqual([
      {
        id: resellerLarge,
        name: 'Reseller Large',
        storageQuota: 500 * 1024,
        storageQuotaUnit: 'GB',
        noOfMachinesLimit: 0,
        whmcsPackagePricingDtos: [],
      },
      {
        id: resellerSmall,
        name: 'Reseller Small',
        storageQuota: 50 * 1024,
        storageQuotaUnit: 'GB',
        noOfMachinesLimit: 2,
        whmcsPackagePricingDtos: [],
      },
    ]);
  });

  it("answers a direct customer the provider's templates and no pricing link", async () => {
    const client = await signedIn(tenants.customerB.superAdmin.email);
    const offer = resultOf<TemplatesOnOffer>(await client.json('GET', R.templates.build()));
    expect(offer.boltCustomer).toBe(true);
    expect(offer.mainSiteLink).toBeNull();
    expect(offer.elements.map((e) => e.id)).toEqual([basic, huge]);
  });

  it('is for customer admins only', async () => {
    const user = await signedIn(tenants.customerA.user.email);
    expect((await user.json('GET', R.templates.build())).statusCode).toBe(403);
    const provider = await signedIn(tenants.providerAdmin.email);
    expect((await provider.json('GET', R.templates.build())).statusCode).toBe(403);
  });
});

describe("purchase without a billing system (000 §6, §7; POST /admin/backuppackages): a reseller's customer", () => {
  it('creates a REQUESTED package named after the template and its pending request, and answers no invoice', async () => {
    const client = await signedIn(tenants.customerA.superAdmin.email);
    const before = await packagesOf(tenants.customerA.customerId);
    const result = resultOf<PurchaseResult>(
      await client.json('POST', R.purchase.build(), { packageTemplateId: resellerSmall }),
    );
    expect(result).toEqual({ whmcsInvoiceId: null });

    const created = (await packagesOf(tenants.customerA.customerId)).filter((p) => !before.some((b) => b.id === p.id));
    expect(created).toHaveLength(1);
    const pkg = created[0];
    expect(pkg).toMatchObject({
      name: 'Reseller Small',
      status: 'REQUESTED',
      templateId: resellerSmall,
      packageQuotaSizeInBytes: 50 * 1024 ** 3,
      maxBackupSizePerMachineInMbs: 50 * 1024,
      noOfMachinesLimit: 2,
      whmcsServiceId: null,
    });
    const request = (await requestsOf(tenants.customerA.customerId)).find((r) => r.backupPackageId === pkg?.id);
    expect(request).toMatchObject({
      requestType: 'ADDITIONAL_PACKAGE',
      status: 'PENDING',
      requestedTemplateId: resellerSmall,
      requestedByUserId: tenants.customerA.superAdmin.id,
      firstApprovalRequest: false,
      whmcsOrderId: null,
      whmcsInvoiceId: null,
    });
  });

  it('refuses a template not on offer on its field, and no choice with the form text; writes nothing', async () => {
    const client = await signedIn(tenants.customerA.superAdmin.email);
    const before = (await packagesOf(tenants.customerA.customerId)).length;
    const provider = await client.json('POST', R.purchase.build(), { packageTemplateId: basic });
    expect(provider.statusCode).toBe(400);
    expect(messagesOf(provider)).toEqual([{ fieldName: 'packageTemplateId', message: MESSAGES.purchase.notOnOffer }]);
    const none = await client.json('POST', R.purchase.build(), { packageTemplateId: -1 });
    expect(messagesOf(none)).toEqual([{ fieldName: 'packageTemplateId', message: 'Must choose a backup package' }]);
    expect(await packagesOf(tenants.customerA.customerId)).toHaveLength(before);
  });

  it('is for the customer super admin only, and not a read-only one', async () => {
    const readOnly = await addCustomer(t.database.db, { parentResellerCustomerId: tenants.reseller.customerId });
    await t.database.db.update(users).set({ readOnly: true }).where(eq(users.id, readOnly.superAdmin.id));
    const before = (await packagesOf(tenants.customerA.customerId)).length;
    for (const email of [
      tenants.customerA.admin.email,
      tenants.customerA.user.email,
      tenants.providerAdmin.email,
      readOnly.superAdmin.email,
    ]) {
      const client = await signedIn(email);
      const response = await client.json('POST', R.purchase.build(), { packageTemplateId: resellerSmall });
      expect(response.statusCode, email).toBe(403);
    }
    expect(await packagesOf(tenants.customerA.customerId)).toHaveLength(before);
  });
});

describe('a purchased package from a huge template', () => {
  it('caps the quota at the largest exact byte count, and the per-machine maximum at that in MB', async () => {
    // Customer B is direct: without billing servers it is not billed either.
    const client = await signedIn(tenants.customerB.superAdmin.email);
    const result = resultOf<PurchaseResult>(await client.json('POST', R.purchase.build(), { packageTemplateId: huge }));
    expect(result).toEqual({ whmcsInvoiceId: null });
    const [pkg] = (await packagesOf(tenants.customerB.customerId)).filter((p) => p.templateId === huge);
    expect(pkg?.packageQuotaSizeInBytes).toBe(Number.MAX_SAFE_INTEGER);
    expect(pkg?.maxBackupSizePerMachineInMbs).toBe(Math.floor(Number.MAX_SAFE_INTEGER / 1_048_576));
    expect(pkg?.noOfMachinesLimit).toBe(0);
  });
});

describe('up/downgrade without a billing system (000 §4, §7; PUT /admin/backuppackages/{id}/upgrade)', () => {
  async function ownPackage(status: 'ACTIVE' | 'SUSPENDED' = 'ACTIVE') {
    const id = await fixtures.package(tenants.customerA.customerId, { status });
    await t.database.db.update(backupPackages).set({ templateId: resellerSmall }).where(eq(backupPackages.id, id));
    return id;
  }

  it('asks for the change: a pending CHANGE_PACKAGE request, the package CHANGE REQUESTED; once only', async () => {
    const packageId = await ownPackage();
    const client = await signedIn(tenants.customerA.superAdmin.email);
    const result = resultOf<PurchaseResult>(
      await client.json('PUT', R.upgrade.build({ packageId }), { newPackageTemplateId: resellerLarge }),
    );
    expect(result).toEqual({ whmcsInvoiceId: null });
    const [pkg] = await t.database.db.select().from(backupPackages).where(eq(backupPackages.id, packageId));
    expect(pkg).toMatchObject({
      upOrDownGradeRequested: true,
      requestedTemplateId: resellerLarge,
      templateId: resellerSmall,
    });
    const requests = (await requestsOf(tenants.customerA.customerId)).filter((r) => r.backupPackageId === packageId);
    expect(requests).toEqual([
      expect.objectContaining({
        requestType: 'CHANGE_PACKAGE',
        status: 'PENDING',
        requestedTemplateId: resellerLarge,
        whmcsInvoiceId: null,
      }),
    ]);

    const again = await client.json('PUT', R.upgrade.build({ packageId }), { newPackageTemplateId: resellerLarge });
    expect(again.statusCode).toBe(400);
    expect(messagesOf(again)).toEqual([{ fieldName: '', message: MESSAGES.purchase.changeNotAllowed }]);
  });

  it('two changes at once make one request', async () => {
    const packageId = await ownPackage();
    const client = await signedIn(tenants.customerA.superAdmin.email);
    const answers = await Promise.all(
      [0, 1].map(() => client.json('PUT', R.upgrade.build({ packageId }), { newPackageTemplateId: resellerLarge })),
    );
    const [first, second] = answers.map((a) => a.statusCode).sort();
    expect(first).toBe(200);
    // Refused before the transaction or under the package's lock, whichever the timing gives.
    expect([400, 409]).toContain(second);
    const requests = (await requestsOf(tenants.customerA.customerId)).filter((r) => r.backupPackageId === packageId);
    expect(requests).toHaveLength(1);
  });

  it('refuses the current template, one not on offer, no choice and a package that may not change', async () => {
    const packageId = await ownPackage();
    const client = await signedIn(tenants.customerA.superAdmin.email);
    const path = R.upgrade.build({ packageId });
    const same = await client.json('PUT', path, { newPackageTemplateId: resellerSmall });
    expect(messagesOf(same)).toEqual([
      { fieldName: 'newPackageTemplateId', message: MESSAGES.purchase.currentTemplate },
    ]);
    const notOffered = await client.json('PUT', path, { newPackageTemplateId: basic });
    expect(messagesOf(notOffered)).toEqual([
      { fieldName: 'newPackageTemplateId', message: MESSAGES.purchase.notOnOffer },
    ]);
    const none = await client.json('PUT', path, { newPackageTemplateId: -1 });
    expect(messagesOf(none)).toEqual([{ fieldName: 'newPackageTemplateId', message: 'Must choose a backup package' }]);
    const suspended = await ownPackage('SUSPENDED');
    const refused = await client.json('PUT', R.upgrade.build({ packageId: suspended }), {
      newPackageTemplateId: resellerLarge,
    });
    expect(refused.statusCode).toBe(400);
    expect(messagesOf(refused)).toEqual([{ fieldName: '', message: MESSAGES.purchase.changeNotAllowed }]);
    expect((await requestsOf(tenants.customerA.customerId)).filter((r) => r.backupPackageId === packageId)).toEqual([]);
  });

  it("answers 404 for another tenant's package, 403 to a customer admin who is not the super admin", async () => {
    const theirs = await fixtures.package(tenants.customerB.customerId);
    const client = await signedIn(tenants.customerA.superAdmin.email);
    const foreign = await client.json('PUT', R.upgrade.build({ packageId: theirs }), { newPackageTemplateId: basic });
    expect(foreign.statusCode).toBe(404);
    const [pkg] = await t.database.db.select().from(backupPackages).where(eq(backupPackages.id, theirs));
    expect(pkg?.upOrDownGradeRequested).toBe(false);

    const own = await ownPackage();
    const admin = await signedIn(tenants.customerA.admin.email);
    const refused = await admin.json('PUT', R.upgrade.build({ packageId: own }), {
      newPackageTemplateId: resellerLarge,
    });
    expect(refused.statusCode).toBe(403);
  });
});
