import { MESSAGES, type PackageTemplateRow, type Paged, ROUTES } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  backupPackages,
  customers,
  packageRequests,
  packageTemplates,
  resellerSettings,
  users,
} from '../../db/schema/index.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import type { TestClient } from '../../testing/client.js';
import { messagesOf, resultOf, signedInAs } from '../../testing/envelope.js';
import { FIXTURE_PASSWORD } from '../../testing/fixtures.js';
import { useTestAppWithTenants } from '../../testing/suite.js';
import { hashPassword } from '../auth/passwords.js';

const ctx = useTestAppWithTenants();
let provider: TestClient;
let reseller: TestClient;
const P = ROUTES.packageTemplates.provider;
const R = ROUTES.packageTemplates.reseller;

const signedIn = (email: string) => signedInAs(ctx.t.app, email);

const form = (overrides: Record<string, unknown> = {}) => ({
  name: 'Small',
  storageQuota: 10,
  storageQuotaUnit: 'GB',
  noOfMachinesLimit: 10,
  ...overrides,
});

const nameOf = async (id: number) =>
  (await ctx.t.database.db.select().from(packageTemplates).where(eq(packageTemplates.id, id)))[0]?.name;

beforeAll(async () => {
  provider = await signedIn(ctx.tenants.providerAdmin.email);
  reseller = await signedIn(ctx.tenants.reseller.superAdmin.email);
});

describe('package templates (000 §2, §5, §7)', () => {
  it('adds a provider template and pages it, 5 by default, with its byte count; a reseller sees only its own', async () => {
    const added = resultOf<PackageTemplateRow>(
      await provider.json('POST', P.add.build(), form({ name: 'Provider 10 GB' })),
    );
    expect(added).toEqual({
      id: added.id,
      name: 'Provider 10 GB',
      storageQuota: 10,
      storageQuotaUnit: 'GB',
      noOfMachinesLimit: 10,
      storageQuotaInBytes: 10 * 1024 ** 3,
      resellersOnly: false,
    });
    for (let i = 0; i < 5; i++)
      await provider.json('POST', P.add.build(), form({ name: `Bulk ${i}`, noOfMachinesLimit: 0 }));
    const page = resultOf<Paged<PackageTemplateRow>>(await provider.json('GET', P.list.build()));
    expect(page.elements).toHaveLength(5);
    expect(page.totalElements).toBe(6);
    expect(page.totalPages).toBe(2);

    const own = resultOf<PackageTemplateRow>(
      await reseller.json('POST', R.add.build(), form({ name: 'Reseller 1 TB', storageQuotaUnit: 'TB' })),
    );
    const [row] = await ctx.t.database.db.select().from(packageTemplates).where(eq(packageTemplates.id, own.id));
    expect(row?.ownerCustomerId).toBe(ctx.tenants.reseller.customerId);
    const resellerPage = resultOf<Paged<PackageTemplateRow>>(await reseller.json('GET', `${R.list.build()}?size=50`));
    expect(resellerPage.elements.map((e) => e.name)).toEqual(['Reseller 1 TB']);
    const providerPage = resultOf<Paged<PackageTemplateRow>>(await provider.json('GET', `${P.list.build()}?size=50`));
    expect(providerPage.elements.map((e) => e.id)).not.toContain(own.id);
  });

  it('refuses bad input on its fields and adds nothing', async () => {
    const before = (await ctx.t.database.db.select().from(packageTemplates)).length;
    const response = await provider.json('POST', P.add.build(), {
      name: '',
      storageQuota: 1_024_000_000_001,
      storageQuotaUnit: 'XB',
      noOfMachinesLimit: 100_001,
    });
    expect(response.statusCode).toBe(400);
    const fields = messagesOf(response).map((m) => m.fieldName);
    expect(fields).toEqual(expect.arrayContaining(['name', 'storageQuota', 'storageQuotaUnit']));
    const longName = await provider.json('POST', P.add.build(), form({ name: 'x'.repeat(101) }));
    expect(messagesOf(longName)[0]?.fieldName).toBe('name');
    const tooMany = await provider.json('POST', P.add.build(), form({ noOfMachinesLimit: 100_001 }));
    expect(messagesOf(tooMany)[0]?.fieldName).toBe('noOfMachinesLimit');
    expect((await ctx.t.database.db.select().from(packageTemplates)).length).toBe(before);
  });

  it('renames only the name, on the name field when blank', async () => {
    const added = resultOf<PackageTemplateRow>(await provider.json('POST', P.add.build(), form({ name: 'Old name' })));
    const renamed = resultOf<PackageTemplateRow>(
      await provider.json('PUT', P.edit.build({ templateId: added.id }), { name: 'New name', storageQuota: 99 }),
    );
    expect(renamed).toMatchObject({ name: 'New name', storageQuota: 10 });
    const blank = await provider.json('PUT', P.edit.build({ templateId: added.id }), { name: ' ' });
    expect(blank.statusCode).toBe(400);
    expect(messagesOf(blank)[0]?.fieldName).toBe('name');
  });

  it("saves and edits the provider's 'For resellers only'; an edit without it keeps it (issue 29 item 12)", async () => {
    const audienceOf = async (id: number) =>
      (await ctx.t.database.db.select().from(packageTemplates).where(eq(packageTemplates.id, id)))[0]?.resellersOnly;
    const added = resultOf<PackageTemplateRow>(
      await provider.json('POST', P.add.build(), form({ name: 'Wholesale 20 TB', resellersOnly: true })),
    );
    expect(added.resellersOnly).toBe(true);
    expect(await audienceOf(added.id)).toBe(true);
    const listed = resultOf<Paged<PackageTemplateRow>>(await provider.json('GET', `${P.list.build()}?size=50`));
    expect(listed.elements.find((e) => e.id === added.id)?.resellersOnly).toBe(true);

    const renamed = await provider.json('PUT', P.edit.build({ templateId: added.id }), { name: 'Wholesale' });
    expect(resultOf<PackageTemplateRow>(renamed)).toMatchObject({ name: 'Wholesale', resellersOnly: true });
    const opened = await provider.json('PUT', P.edit.build({ templateId: added.id }), {
      name: 'Wholesale',
      resellersOnly: false,
    });
    expect(resultOf<PackageTemplateRow>(opened).resellersOnly).toBe(false);
    expect(await audienceOf(added.id)).toBe(false);
    const bad = await provider.json('PUT', P.edit.build({ templateId: added.id }), { name: 'W', resellersOnly: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(messagesOf(bad)[0]?.fieldName).toBe('resellersOnly');
  });

  it("ignores 'For resellers only' on a reseller's own template: its templates are for its customers", async () => {
    const own = resultOf<PackageTemplateRow>(
      await reseller.json('POST', R.add.build(), form({ name: 'Reseller wholesale', resellersOnly: true })),
    );
    expect(own.resellersOnly).toBe(false);
    const edited = await reseller.json('PUT', R.edit.build({ templateId: own.id }), {
      name: 'Reseller wholesale',
      resellersOnly: true,
    });
    expect(resultOf<PackageTemplateRow>(edited).resellersOnly).toBe(false);
    const [row] = await ctx.t.database.db.select().from(packageTemplates).where(eq(packageTemplates.id, own.id));
    expect(row?.resellersOnly).toBe(false);
  });

  it("keeps another tenant's template out of reach (404) and unchanged", async () => {
    const providers = resultOf<PackageTemplateRow>(
      await provider.json('POST', P.add.build(), form({ name: 'Provider only' })),
    );
    const resellers = resultOf<PackageTemplateRow>(
      await reseller.json('POST', R.add.build(), form({ name: 'Reseller only' })),
    );
    expect((await reseller.json('PUT', R.edit.build({ templateId: providers.id }), { name: 'Taken' })).statusCode).toBe(
      404,
    );
    expect((await reseller.json('DELETE', R.remove.build({ templateId: providers.id }))).statusCode).toBe(404);
    expect((await provider.json('PUT', P.edit.build({ templateId: resellers.id }), { name: 'Taken' })).statusCode).toBe(
      404,
    );
    expect((await provider.json('DELETE', P.remove.build({ templateId: resellers.id }))).statusCode).toBe(404);
    expect(await nameOf(providers.id)).toBe('Provider only');
    expect(await nameOf(resellers.id)).toBe('Reseller only');
  });

  it("keeps one reseller's templates from another reseller", async () => {
    const [other] = await ctx.t.database.db
      .insert(customers)
      .values({ companyName: 'Other Reseller', status: 'ACTIVE' })
      .returning({ id: customers.id });
    await ctx.t.database.db.insert(resellerSettings).values({ customerId: other?.id ?? 0, resellerEnabled: true });
    await ctx.t.database.db.insert(users).values({
      email: 'owner@other-reseller.test',
      role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER',
      customerId: other?.id ?? 0,
      firstName: 'Other',
      surname: 'Owner',
      passwordHash: await hashPassword(FIXTURE_PASSWORD),
    });
    const otherReseller = await signedIn('owner@other-reseller.test');
    const mine = resultOf<PackageTemplateRow>(await reseller.json('POST', R.add.build(), form({ name: 'Mine alone' })));
    const page = resultOf<Paged<PackageTemplateRow>>(await otherReseller.json('GET', `${R.list.build()}?size=50`));
    expect(page.elements.map((e) => e.id)).not.toContain(mine.id);
    expect((await otherReseller.json('PUT', R.edit.build({ templateId: mine.id }), { name: 'Taken' })).statusCode).toBe(
      404,
    );
    expect((await otherReseller.json('DELETE', R.remove.build({ templateId: mine.id }))).statusCode).toBe(404);
    expect(await nameOf(mine.id)).toBe('Mine alone');
  });

  it('lets each audience use its own path only', async () => {
    const customerAdmin = await signedIn(ctx.tenants.customerB.superAdmin.email);
    expect((await customerAdmin.json('GET', R.list.build())).statusCode).toBe(403);
    expect((await customerAdmin.json('POST', R.add.build(), form())).statusCode).toBe(403);
    expect((await reseller.json('GET', P.list.build())).statusCode).toBe(403);
    expect((await provider.json('GET', R.list.build())).statusCode).toBe(403);
  });

  it('deletes an unused template, but not one a package or a pending request uses', async () => {
    const unused = resultOf<PackageTemplateRow>(await provider.json('POST', P.add.build(), form({ name: 'Unused' })));
    const byPackage = resultOf<PackageTemplateRow>(
      await provider.json('POST', P.add.build(), form({ name: 'By package' })),
    );
    const byRequest = resultOf<PackageTemplateRow>(
      await provider.json('POST', P.add.build(), form({ name: 'By request' })),
    );
    const packageId = await backupFixtures(ctx.t.database.db).package(ctx.tenants.customerB.customerId);
    await ctx.t.database.db
      .update(backupPackages)
      .set({ templateId: byPackage.id })
      .where(eq(backupPackages.id, packageId));
    await ctx.t.database.db.insert(packageRequests).values({
      customerId: ctx.tenants.customerB.customerId,
      requestType: 'ADDITIONAL_PACKAGE',
      requestedTemplateId: byRequest.id,
    });

    resultOf(await provider.json('DELETE', P.remove.build({ templateId: unused.id })));
    expect(await nameOf(unused.id)).toBeUndefined();
    for (const used of [byPackage, byRequest]) {
      const refused = await provider.json('DELETE', P.remove.build({ templateId: used.id }));
      expect(refused.statusCode).toBe(400);
      expect(messagesOf(refused)).toEqual([{ fieldName: '', message: MESSAGES.packageTemplate.inUse }]);
      expect(await nameOf(used.id)).toBe(used.name);
    }
    expect((await provider.json('DELETE', P.remove.build({ templateId: unused.id }))).statusCode).toBe(404);
  });
});
