import {
  type DashboardCustomerRow,
  MESSAGES,
  mailTextPart,
  newSignUpForm,
  type Paged,
  ROUTES,
  SIGN_UP_THROTTLE,
  type SignUpForm,
  type SignUpOptions,
  signUpAddressInUseMail,
  signUpSchema,
  signUpThrottled,
} from '@portal/domain';
import { EMPTY_USER_FORM_MESSAGES } from '@portal/domain/testing/user-form';
import { count, eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  backupPackages,
  customers,
  packageRequests,
  packageTemplates,
  signInFailures,
  users,
} from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { FIXTURE_RESELLER_BRAND } from '../../testing/mail.js';
import { verifyPassword } from '../auth/passwords.js';
import { createAuthRepo } from '../auth/repo.js';
import { createSignUpRepo } from './repo.js';
import { createSignUpService } from './service.js';

let t: TestApp;
let tenants: Tenants;
let templates: { basic: number; business: number; resellers: number };
const GB = 1024 ** 3;

beforeAll(async () => {
  t = await createTestApp();
  tenants = await createTenants(t.database.db);
  const [business, basic, resellers] = await t.database.db
    .insert(packageTemplates)
    .values([
      { name: 'Business', storageQuota: 1, storageQuotaUnit: 'TB', noOfMachinesLimit: 0 },
      { name: 'Basic', storageQuota: 100, storageQuotaUnit: 'GB', noOfMachinesLimit: 5 },
      { ownerCustomerId: tenants.reseller.customerId, name: 'Reseller plan', storageQuota: 10, storageQuotaUnit: 'GB' },
    ])
    .returning({ id: packageTemplates.id });
  if (!business || !basic || !resellers) throw new Error('templates not inserted');
  templates = { basic: basic.id, business: business.id, resellers: resellers.id };
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.delete(signInFailures);
});

let addresses = 0;
/** A fresh client address per test, so the per-address throttle of one test leaves the others alone. */
const freshAddress = () => `198.51.100.${++addresses}`;

const form = (overrides: Partial<SignUpForm> = {}): SignUpForm => ({
  companyName: 'Fabrikam Inc',
  firstName: 'Ana',
  surname: 'Silva',
  email: `ana.${++addresses}@fabrikam.test`,
  contactNumber: '021 555 0100',
  password: 'long enough',
  confirmPassword: 'long enough',
  templateId: templates.basic,
  ...overrides,
});

/** A visitor's browser: opens the sign-up page for its CSRF token, then posts the form. */
async function visitor(address = freshAddress()) {
  const client = new TestClient(t.app);
  const page = await client.open(ROUTES.signUp.submit.build());
  expect(page.statusCode).toBe(200);
  const post = (body: unknown, headers: Record<string, string> = { 'x-csrf-token': client.csrf }) =>
    client.request({
      method: 'POST',
      url: ROUTES.signUp.submit.build(),
      remoteAddress: address,
      headers: { accept: 'application/json', ...headers },
      payload: body as InjectOptions['payload'],
    });
  return { client, post };
}

const signUp = async (body: unknown, address?: string) => (await visitor(address)).post(body);

const fieldMessages = (response: { json: () => { messages: Array<{ fieldName: string; message: string }> } }) =>
  Object.fromEntries(response.json().messages.map((m) => [m.fieldName, m.message]));

const customersNamed = (companyName: string) =>
  t.database.db.select().from(customers).where(eq(customers.companyName, companyName));

const usersWithEmail = async (email: string) =>
  (await t.database.db.select({ n: count() }).from(users).where(sql`lower(${users.email}) = lower(${email})`))[0]?.n;

describe('sign-up options (issue #6)', () => {
  it("lists the provider's templates by name with quota in bytes and machine limit, not a reseller's", async () => {
    const client = new TestClient(t.app);
    const response = await client.json('GET', ROUTES.signUp.options.build());
    expect(response.statusCode).toBe(200);
    expect(response.json().result).toEqual<SignUpOptions>({
      templates: [
        { id: templates.basic, name: 'Basic', packageQuotaSizeInBytes: 100 * GB, noOfMachinesLimit: 5 },
        { id: templates.business, name: 'Business', packageQuotaSizeInBytes: 1024 * GB, noOfMachinesLimit: 0 },
      ],
    });
  });
});

describe('sign-up (issue #6)', () => {
  it('creates the customer, its super admin and a pending NEW_SIGNUP request, all in one go', async () => {
    const body = form({ companyName: 'Northwind Traders', email: 'Owner@Northwind.test' });
    const response = await signUp(body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'OK',
      messages: [],
      result: { message: MESSAGES.signUp.submitted },
    });

    const [customer] = await customersNamed('Northwind Traders');
    expect(customer).toMatchObject({
      status: 'SIGNUP_REQUESTED',
      displayStatus: 'SIGNUP_REQUESTED',
      parentResellerCustomerId: null,
      storageLocationCount: 0,
      superAdminEmail: 'Owner@Northwind.test',
      superAdminName: 'Ana Silva',
      beingDeleted: false,
    });
    const [user] = await t.database.db
      .select()
      .from(users)
      .where(eq(users.customerId, customer?.id ?? 0));
    expect(user).toMatchObject({
      id: customer?.superAdminUserId,
      email: 'Owner@Northwind.test',
      firstName: 'Ana',
      surname: 'Silva',
      contactNumber: '021 555 0100',
      role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER',
      status: 'ACTIVE',
      readOnly: false,
    });
    expect(user?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(user?.passwordHash ?? null, 'long enough')).toBe(true);
    const requests = await t.database.db
      .select()
      .from(packageRequests)
      .where(eq(packageRequests.customerId, customer?.id ?? 0));
    expect(requests).toEqual([
      expect.objectContaining({
        requestType: 'NEW_SIGNUP',
        status: 'PENDING',
        firstApprovalRequest: true,
        requestedTemplateId: templates.basic,
        requestedByUserId: user?.id,
        backupPackageId: expect.any(Number),
        decidedAt: null,
      }),
    ]);
    // The package asked for waits as REQUESTED; its approval turns it into the APPROVED one (issue 29).
    const packages = await t.database.db
      .select({ id: backupPackages.id, name: backupPackages.name, status: backupPackages.status })
      .from(backupPackages)
      .where(eq(backupPackages.customerId, customer?.id ?? 0));
    expect(packages).toEqual([{ id: requests[0]?.backupPackageId, name: 'Basic', status: 'REQUESTED' }]);
  });

  it('lets the new super admin sign in to their dashboard', async () => {
    const body = form({ companyName: 'Tailspin Toys' });
    expect((await signUp(body)).statusCode).toBe(200);
    const owner = new TestClient(t.app);
    expect((await owner.signIn(body.email, 'long enough')).headers.location).toBe('/');
    const me = await owner.json('GET', '/profile');
    expect(me.json().result).toMatchObject({ companyName: 'Tailspin Toys', roleName: 'Super admin' });
    expect((await owner.json('GET', ROUTES.dashboard.ownMachines.build())).json().result).toMatchObject({
      totalElements: 0,
    });
    expect((await owner.json('GET', ROUTES.dashboard.gettingStarted.build())).statusCode).toBe(200);
  });

  it('shows the provider the new customer as a new signup, and no reseller', async () => {
    const body = form({ companyName: 'Adventure Works' });
    expect((await signUp(body)).statusCode).toBe(200);
    const provider = new TestClient(t.app);
    await provider.signIn(tenants.providerAdmin.email, FIXTURE_PASSWORD);
    const list = await provider.json('GET', `${ROUTES.dashboard.customers.build()}?statusGroup=NEW_SIGNUP&size=100`);
    const row = (list.json().result as Paged<DashboardCustomerRow>).elements.find((r) => r.name === 'Adventure Works');
    expect(row).toMatchObject({
      superAdminEmail: body.email,
      status: 'SIGNUP_REQUESTED',
      statusGroup: 'NEW_SIGNUP',
      customerUrl: `/boltadmin/customers/${row?.id}`,
    });
    const listed = await provider.json('GET', '/boltadmin/customerspaginated?search=adventure%20works');
    expect(listed.json().result.elements).toEqual([
      expect.objectContaining({
        companyName: 'Adventure Works',
        status: 'SIGNUP_REQUESTED',
        displayStatus: 'SIGNUP_REQUESTED',
        newSignup: true,
        superAdminEmail: body.email,
        parentResellerCustomerId: null,
      }),
    ]);
    const reseller = new TestClient(t.app);
    await reseller.signIn(tenants.reseller.superAdmin.email, FIXTURE_PASSWORD);
    const theirs = (await reseller.json('GET', `${ROUTES.dashboard.customers.build()}?size=100`)).json().result;
    expect((theirs as Paged<DashboardCustomerRow>).elements.map((r) => r.name)).not.toContain('Adventure Works');
  });

  it('falls back to the super admin name without a company name', async () => {
    const body = form({ companyName: '', firstName: 'Solo', surname: 'Trader' });
    expect((await signUp(body)).statusCode).toBe(200);
    const [customer] = await t.database.db.select().from(customers).where(eq(customers.superAdminEmail, body.email));
    expect(customer).toMatchObject({ companyName: '', displayName: 'Solo Trader' });
  });

  it('answers every validation message on its field and creates nothing', async () => {
    const before = (await t.database.db.select({ n: count() }).from(customers))[0]?.n;
    const empty = await signUp(newSignUpForm());
    expect(empty.statusCode).toBe(400);
    expect(fieldMessages(empty)).toEqual({
      ...EMPTY_USER_FORM_MESSAGES,
      templateId: 'Must choose a backup package',
    });
    const long = await signUp(
      form({
        companyName: 'x'.repeat(51),
        firstName: 'x'.repeat(51),
        surname: 'x'.repeat(51),
        contactNumber: 'x'.repeat(51),
        email: 'no address',
        password: 'short',
        confirmPassword: 'short',
        templateId: templates.resellers,
      }),
    );
    expect(fieldMessages(long)).toEqual({
      companyName: 'Company name must be at most 50 characters',
      firstName: 'First name must be at most 50 characters',
      surname: 'Surname must be at most 50 characters',
      contactNumber: 'Contact number must be at most 50 characters',
      email: 'Email must be a valid email',
      password: 'Password must be at least 8 characters',
      templateId: 'Backup package is not valid',
    });
    expect(fieldMessages(await signUp(form({ confirmPassword: 'something else' })))).toEqual({
      confirmPassword: 'Passwords do not match',
    });
    expect((await t.database.db.select({ n: count() }).from(customers))[0]?.n).toBe(before);
  });

  it('answers an e-mail address in use, whatever its case, as any sign-up: nothing is created, its owner is mailed', async () => {
    const owner = tenants.customerA.admin.email;
    const before = t.lastMailId();
    const fresh = await signUp(form({ companyName: 'Fresh Ltd' }));
    const taken = await signUp(form({ companyName: 'Copycat Ltd', email: owner.toUpperCase() }));
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.body).toBe(fresh.body);
    expect(await customersNamed('Copycat Ltd')).toEqual([]);
    expect(await usersWithEmail(owner)).toBe(1);
    const mail = await t.waitForMail(owner, before);
    const expected = signUpAddressInUseMail(FIXTURE_RESELLER_BRAND.name, owner.split('@')[0] ?? '');
    expect(mail).toMatchObject({
      to: owner,
      subject: expected.subject,
      text: mailTextPart(expected, FIXTURE_RESELLER_BRAND),
    });
    expect(mail.text).toContain('Sign in: http://portal.test/login');
  });

  it('lets only one of two simultaneous sign-ups with one e-mail address through', async () => {
    const email = 'race@contoso.test';
    const [one, two] = await Promise.all([
      signUp(form({ companyName: 'Race One', email })),
      signUp(form({ companyName: 'Race Two', email: email.toUpperCase() })),
    ]);
    expect([one?.statusCode, two?.statusCode]).toEqual([200, 200]);
    expect(one?.body).toBe(two?.body);
    expect(await usersWithEmail(email)).toBe(1);
    expect([...(await customersNamed('Race One')), ...(await customersNamed('Race Two'))]).toHaveLength(1);
  });

  it(`allows ${SIGN_UP_THROTTLE.perAddress} sign-ups an hour per address, taken e-mail addresses included`, async () => {
    const address = freshAddress();
    const taken = await signUp(
      form({ companyName: 'Taken Address Ltd', email: tenants.customerB.user.email }),
      address,
    );
    expect(taken.statusCode).toBe(200);
    expect(await customersNamed('Taken Address Ltd')).toEqual([]);
    for (let i = 1; i < SIGN_UP_THROTTLE.perAddress; i++) {
      expect((await signUp(form(), address)).statusCode).toBe(200);
    }
    const refused = await signUp(form({ companyName: 'One Too Many' }), address);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('3600');
    expect(refused.json().messages).toEqual([
      { type: 'ERROR', fieldName: '', message: signUpThrottled(3600), responseCode: 'THROTTLED' },
    ]);
    expect(await customersNamed('One Too Many')).toEqual([]);
    // Another address is not held up; this one may sign up again an hour after its last sign-up.
    expect((await signUp(form())).statusCode).toBe(200);
    t.clock.advanceMinutes(59);
    expect((await signUp(form(), address)).statusCode).toBe(429);
    t.clock.advanceMinutes(2);
    expect((await signUp(form({ companyName: 'Patient Ltd' }), address)).statusCode).toBe(200);
    expect(await customersNamed('Patient Ltd')).toHaveLength(1);
  });

  it('never lets simultaneous sign-ups from one address past the limit', async () => {
    const address = freshAddress();
    const answers = await Promise.all(
      Array.from({ length: SIGN_UP_THROTTLE.perAddress + 3 }, () => signUp(form(), address)),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(SIGN_UP_THROTTLE.perAddress);
    expect(codes.filter((c) => c === 429)).toHaveLength(3);
  });

  it('refuses a template withdrawn after the form was checked, keeping nothing of the sign-up', async () => {
    const service = createSignUpService({
      db: t.database.db,
      repo: createSignUpRepo(t.database.db),
      throttle: createAuthRepo(t.database.db),
      limitPerAddress: SIGN_UP_THROTTLE.perAddress,
      // Not asked: the form was checked against the offer before this service's call.
      offer: async () => [],
    });
    const payload = signUpSchema([templates.basic]).parse(form({ companyName: 'Withdrawn Ltd' }));
    const outcome = await service.signUp(
      { ...payload, templateId: templates.resellers },
      { ip: freshAddress(), userAgent: undefined },
    );
    expect(outcome).toEqual({ kind: 'templateGone' });
    expect(await customersNamed('Withdrawn Ltd')).toEqual([]);
  });

  it('needs the CSRF token like every form', async () => {
    const { post } = await visitor();
    const response = await post(form({ companyName: 'No Token Ltd' }), {});
    expect(response.statusCode).toBe(403);
    expect(response.json().responseSummaryCode).toBe('CSRF_REJECTED');
    expect(await customersNamed('No Token Ltd')).toEqual([]);
  });
});

describe('sign-up without templates (issue #6)', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await createTestApp({ SIGNUP_LIMIT_PER_ADDRESS: '1' });
  });
  afterAll(() => bare.close());

  it('asks for no package and records the request without one; the configured limit applies', async () => {
    const client = new TestClient(bare.app);
    await client.open(ROUTES.signUp.submit.build());
    expect((await client.json('GET', ROUTES.signUp.options.build())).json().result).toEqual({ templates: [] });
    const body = form({ companyName: 'Solo Ltd', templateId: '' });
    expect((await client.json('POST', ROUTES.signUp.submit.build(), body)).statusCode).toBe(200);
    const [request] = await bare.database.db.select().from(packageRequests);
    expect(request).toMatchObject({ requestType: 'NEW_SIGNUP', requestedTemplateId: null });
    expect((await client.json('POST', ROUTES.signUp.submit.build(), form({ templateId: '' }))).statusCode).toBe(429);
  });
});
