/** The customer account page (001 §2, §5, §7): GET and PUT /admin/account. */
import {
  CUSTOMER_FORM_LABELS,
  type CustomerAccount,
  FALLBACK_IMAGES,
  fieldRequired,
  fieldTooLong,
  MESSAGES,
} from '@portal/domain';
import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { customers, resellerSettings, users } from '../../db/schema/index.js';
import { useTestAppWithTenants } from '../../testing/suite.js';
import { addCustomer, signedIn, type TestCustomer } from './testing.js';

const ctx = useTestAppWithTenants();
let reseller: TestCustomer;

beforeAll(async () => {
  reseller = await addCustomer(ctx.t.database.db, {
    companyName: 'Brand Reseller',
    reseller: { enabled: true, brandName: 'B' },
  });
});

async function accountOf(email: string): Promise<CustomerAccount> {
  const response = await (await signedIn(ctx.t.app, email)).json('GET', '/admin/account');
  expect(response.statusCode).toBe(200);
  return response.json().result as CustomerAccount;
}

const editBody = (c: TestCustomer, changes: Record<string, unknown> = {}) => ({
  companyName: 'Renamed Ltd',
  userIdToBeAdmin: c.superAdmin.id,
  cpanelPluginEnabled: true,
  allowProviderMachineControl: true,
  ...changes,
});

async function customerRow(customerId: number) {
  const [row] = await ctx.t.database.db.select().from(customers).where(eq(customers.id, customerId));
  return row;
}

describe('GET /admin/account', () => {
  it('shows the super admin the account, its admins as candidates and that they may edit it', async () => {
    const c = await addCustomer(ctx.t.database.db, {
      companyName: 'Client Co',
      parentResellerCustomerId: reseller.customerId,
    });
    const account = await accountOf(c.superAdmin.email);
    expect(account).toEqual({
      id: c.customerId,
      status: 'ACTIVE',
      displayStatus: 'SIGNUP_REQUESTED',
      companyName: 'Client Co',
      superAdminId: c.superAdmin.id,
      superAdminFullName: c.superAdmin.fullName,
      superAdminEmail: c.superAdmin.email,
      cpanelPluginEnabled: false,
      allowProviderMachineControl: false,
      boltCustomer: false,
      logo: FALLBACK_IMAGES.generic,
      editable: true,
      requireMfa: false,
      adminCandidates: [
        { id: c.admin.id, fullName: expect.stringMatching(/^Ada Admin/), email: c.admin.email },
        { id: c.superAdmin.id, fullName: c.superAdmin.fullName, email: c.superAdmin.email },
      ],
    } satisfies CustomerAccount);
    expect((await accountOf(c.admin.email)).editable).toBe(false);
  });

  it("shows the reseller's logo, the generic one without it, and the rounded main logo for the provider's customers (001 §2)", async () => {
    const brand = await addCustomer(ctx.t.database.db, { reseller: { enabled: true, logo: 'brand logo.png' } });
    const client = await addCustomer(ctx.t.database.db, { parentResellerCustomerId: brand.customerId });
    expect((await accountOf(client.admin.email)).logo).toBe('/public/downloads/img/brand%20logo.png');
    expect((await accountOf(brand.admin.email)).logo).toBe('/public/downloads/img/brand%20logo.png');
    expect((await accountOf(reseller.superAdmin.email)).logo).toBe(FALLBACK_IMAGES.generic);
    const own = await accountOf(ctx.tenants.customerB.admin.email);
    expect(own).toMatchObject({ logo: FALLBACK_IMAGES.roundMain, boltCustomer: true });
    // Settings that are not enabled brand nobody.
    await ctx.t.database.db
      .update(resellerSettings)
      .set({ resellerEnabled: false })
      .where(eq(resellerSettings.customerId, brand.customerId));
    expect((await accountOf(client.admin.email)).logo).toBe(FALLBACK_IMAGES.roundMain);
  });

  it('is for customer admins only', async () => {
    for (const email of [ctx.tenants.customerA.user.email, ctx.tenants.providerAdmin.email]) {
      const response = await (await signedIn(ctx.t.app, email)).json('GET', '/admin/account');
      expect(response.statusCode, email).toBe(403);
    }
  });
});

describe('PUT /admin/account (001 §5, §7)', () => {
  it('saves the details; allowProviderMachineControl for customers of a reseller only', async () => {
    const client = await addCustomer(ctx.t.database.db, { parentResellerCustomerId: reseller.customerId });
    const owner = await signedIn(ctx.t.app, client.superAdmin.email);
    const response = await owner.json('PUT', '/admin/account', editBody(client));
    expect(response.statusCode).toBe(200);
    expect(response.json().result).toMatchObject({
      companyName: 'Renamed Ltd',
      cpanelPluginEnabled: true,
      allowProviderMachineControl: true,
      editable: true,
    });

    const own = await addCustomer(ctx.t.database.db);
    const ownOwner = await signedIn(ctx.t.app, own.superAdmin.email);
    const ignored = await ownOwner.json('PUT', '/admin/account', editBody(own, { companyName: '' }));
    expect(ignored.statusCode).toBe(200);
    expect(ignored.json().result).toMatchObject({
      companyName: '',
      allowProviderMachineControl: false,
      boltCustomer: true,
    });
    expect((await customerRow(own.customerId))?.allowProviderMachineControl).toBe(false);
    // Left out, the flag stays as it is.
    await owner.json('PUT', '/admin/account', editBody(client, { allowProviderMachineControl: undefined }));
    expect((await customerRow(client.customerId))?.allowProviderMachineControl).toBe(true);
  });

  it('puts every validation message on its field and saves nothing', async () => {
    const c = await addCustomer(ctx.t.database.db, { companyName: 'Unchanged' });
    const other = await addCustomer(ctx.t.database.db);
    await ctx.t.database.db.update(users).set({ status: 'INACTIVE' }).where(eq(users.id, c.admin.id));
    const owner = await signedIn(ctx.t.app, c.superAdmin.email);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ companyName: 'x'.repeat(51) }, 'companyName', fieldTooLong(CUSTOMER_FORM_LABELS.companyName, 50)],
      [{ userIdToBeAdmin: undefined }, 'userIdToBeAdmin', fieldRequired(CUSTOMER_FORM_LABELS.userIdToBeAdmin)],
      [{ userIdToBeAdmin: -1 }, 'userIdToBeAdmin', fieldRequired(CUSTOMER_FORM_LABELS.userIdToBeAdmin)],
      [{ userIdToBeAdmin: c.user.id }, 'userIdToBeAdmin', MESSAGES.account.adminNotCandidate],
      [{ userIdToBeAdmin: c.admin.id }, 'userIdToBeAdmin', MESSAGES.account.adminNotCandidate],
      [{ userIdToBeAdmin: other.admin.id }, 'userIdToBeAdmin', MESSAGES.account.adminNotCandidate],
      [{ userIdToBeAdmin: ctx.tenants.providerAdmin.id }, 'userIdToBeAdmin', MESSAGES.account.adminNotCandidate],
    ];
    for (const [changes, fieldName, message] of cases) {
      const response = await owner.json('PUT', '/admin/account', editBody(c, changes));
      expect(response.statusCode, message).toBe(400);
      expect(response.json().messages).toEqual([expect.objectContaining({ fieldName, message })]);
    }
    expect(await customerRow(c.customerId)).toMatchObject({
      companyName: 'Unchanged',
      superAdminUserId: c.superAdmin.id,
    });
    const roles = await ctx.t.database.db
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(inArray(users.id, [c.superAdmin.id, c.admin.id, c.user.id, other.admin.id]));
    expect(new Map(roles.map((r) => [r.id, r.role]))).toEqual(
      new Map([
        [c.superAdmin.id, 'ROLE_CUSTOMER_SUPER_ADMIN_USER'],
        [c.admin.id, 'ROLE_CUSTOMER_ADMIN_USER'],
        [c.user.id, 'ROLE_CUSTOMER_USER'],
        [other.admin.id, 'ROLE_CUSTOMER_ADMIN_USER'],
      ]),
    );
  });

  it('is refused to admins and read-only super admins (403)', async () => {
    const c = await addCustomer(ctx.t.database.db, { companyName: 'Kept' });
    const admin = await signedIn(ctx.t.app, c.admin.email);
    expect((await admin.json('PUT', '/admin/account', editBody(c))).statusCode).toBe(403);
    await ctx.t.database.db.update(users).set({ readOnly: true }).where(eq(users.id, c.superAdmin.id));
    const readOnly = await signedIn(ctx.t.app, c.superAdmin.email);
    expect((await readOnly.json('GET', '/admin/account')).json().result.editable).toBe(false);
    expect((await readOnly.json('PUT', '/admin/account', editBody(c))).statusCode).toBe(403);
    expect((await customerRow(c.customerId))?.companyName).toBe('Kept');
  });

  it('hands the super admin role over to another admin in one go', async () => {
    const c = await addCustomer(ctx.t.database.db);
    const owner = await signedIn(ctx.t.app, c.superAdmin.email);
    const response = await owner.json('PUT', '/admin/account', editBody(c, { userIdToBeAdmin: c.admin.id }));
    expect(response.statusCode).toBe(200);
    expect(response.json().result).toMatchObject({
      superAdminId: c.admin.id,
      superAdminEmail: c.admin.email,
      editable: false,
    });
    expect((await customerRow(c.customerId))?.superAdminUserId).toBe(c.admin.id);
    const roles = await ctx.t.database.db
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(inArray(users.id, [c.superAdmin.id, c.admin.id]));
    expect(new Map(roles.map((r) => [r.id, r.role]))).toEqual(
      new Map([
        [c.superAdmin.id, 'ROLE_CUSTOMER_ADMIN_USER'],
        [c.admin.id, 'ROLE_CUSTOMER_SUPER_ADMIN_USER'],
      ]),
    );
    // The former super admin is an admin from their next request on; the new one may edit.
    expect((await owner.json('GET', '/admin/account')).json().result.editable).toBe(false);
    expect((await owner.json('PUT', '/admin/account', editBody(c))).statusCode).toBe(403);
    const newOwner = await signedIn(ctx.t.app, c.admin.email);
    const back = await newOwner.json('PUT', '/admin/account', editBody(c, { userIdToBeAdmin: c.superAdmin.id }));
    expect(back.json().result).toMatchObject({ superAdminId: c.superAdmin.id, editable: false });
  });
});
