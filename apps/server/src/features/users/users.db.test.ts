import {
  type Envelope,
  MESSAGES,
  type Role,
  type UserMachineRow,
  type UserPackageRow,
  type UserRow,
} from '@portal/domain';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userBackupPackages, users } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { hashPassword } from '../auth/passwords.js';
import { createUsersRepo } from './repo.js';
import { createUserViews } from './service.js';

let t: TestApp;
let tenants: Tenants;
let fixtures: ReturnType<typeof backupFixtures>;
/** Customer A's packages: the admin and the user are linked to `shared`, nobody to `other`. */
let shared: number;
let other: number;
let otherTenantPackage: number;
let userMachine: number;
let readOnlyAdmin: { id: number; email: string };

const signedIn = async (email: string, password = FIXTURE_PASSWORD) => {
  const client = new TestClient(t.app);
  const response = await client.signIn(email, password);
  expect(response.headers.location, `sign-in of ${email}`).toBe('/');
  return client;
};

function resultOf<T>(response: LightMyRequestResponse, status = 200): T {
  expect(response.statusCode, response.body).toBe(status);
  return (response.json() as Envelope<T>).result as T;
}

const messagesOf = (response: LightMyRequestResponse) =>
  (response.json() as Envelope<unknown>).messages.map((m) => ({ fieldName: m.fieldName, message: m.message }));

let sequence = 0;
const newUserForm = (overrides: Record<string, unknown> = {}) => {
  sequence += 1;
  return {
    firstName: 'New',
    surname: `Person ${sequence}`,
    email: `new.person.${sequence}@alpha.test`,
    contactNumber: '+44 20 7946 0000',
    password: 'a good password',
    confirmPassword: 'a good password',
    readOnly: false,
    role: 'ROLE_CUSTOMER_USER',
    ...overrides,
  };
};

async function insertUser(role: Role, customerId: number, email: string, readOnly = false) {
  const [row] = await t.database.db
    .insert(users)
    .values({
      email,
      role,
      customerId,
      readOnly,
      firstName: email.split('@')[0] ?? 'fixture',
      surname: 'Fixture',
      passwordHash: await hashPassword(FIXTURE_PASSWORD),
    })
    .returning({ id: users.id });
  if (!row) throw new Error('not inserted');
  return { id: row.id, email };
}

beforeAll(async () => {
  t = await createTestApp();
  tenants = await createTenants(t.database.db);
  fixtures = backupFixtures(t.database.db);
  const a = tenants.customerA;
  shared = await fixtures.package(a.customerId, { name: 'Shared package' });
  other = await fixtures.package(a.customerId, { name: 'Other package' });
  otherTenantPackage = await fixtures.package(tenants.customerB.customerId, { name: 'Beta package' });
  await t.database.db.insert(userBackupPackages).values([
    { userId: a.admin.id, backupPackageId: shared },
    { userId: a.user.id, backupPackageId: shared },
  ]);
  userMachine = await fixtures.machine(shared, { name: 'Laptop', assignedUserId: a.user.id });
  await fixtures.machine(shared, { name: 'Server' });
  readOnlyAdmin = await insertUser('ROLE_CUSTOMER_ADMIN_USER', a.customerId, 'readonly@alpha.test', true);
});
afterAll(() => t.close());

describe('the users table (002 §2.4, GET /admin/users)', () => {
  it("pages the own customer's users by surname with their counts and abilities, and nothing secret", async () => {
    const client = await signedIn(tenants.customerA.superAdmin.email);
    const page = resultOf<{ elements: UserRow[]; totalElements: number; totalPages: number }>(
      await client.json('GET', '/admin/users?page=0&size=50'),
    );
    const ids = page.elements.map((u) => u.id);
    expect(ids).toContain(tenants.customerA.user.id);
    expect(ids).not.toContain(tenants.customerB.user.id);
    expect(page.totalElements).toBe(page.elements.length);
    const surnames = page.elements.map((u) => u.surname);
    expect(surnames).toEqual([...surnames].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));

    const user = page.elements.find((u) => u.id === tenants.customerA.user.id);
    expect(user).toEqual({
      id: tenants.customerA.user.id,
      firstName: 'user',
      surname: 'Tester',
      email: tenants.customerA.user.email,
      contactNumber: '555-0100',
      readOnly: false,
      role: 'ROLE_CUSTOMER_USER',
      roleName: 'User',
      status: 'ACTIVE',
      numberOfLinkedBackupPackages: 1,
      numberOfLinkedBackupMachines: 1,
      deleteable: false,
      deleteBlockedReason: MESSAGES.user.cannotDeleteLinked,
      manageableByLoggedInUser: true,
      userUrl: `/admin/account/users/${tenants.customerA.user.id}`,
    });
    const superAdmin = page.elements.find((u) => u.id === tenants.customerA.superAdmin.id);
    expect(superAdmin).toMatchObject({
      numberOfLinkedBackupPackages: 2, // a super admin has every package
      deleteBlockedReason: MESSAGES.user.cannotDeleteYourself,
      manageableByLoggedInUser: true,
    });
    expect(JSON.stringify(page)).not.toMatch(/passwordHash|argon2/);

    const small = resultOf<{ elements: UserRow[]; totalPages: number }>(
      await client.json('GET', '/admin/users?page=1&size=2'),
    );
    expect(small.elements).toHaveLength(2);
    expect(small.totalPages).toBe(Math.ceil(page.totalElements / 2));
  });

  it('shows an admin which users they manage, and a read-only admin none', async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    const rows = resultOf<{ elements: UserRow[] }>(await admin.json('GET', '/admin/users?size=50')).elements;
    const byId = new Map(rows.map((u) => [u.id, u]));
    expect(byId.get(tenants.customerA.user.id)?.manageableByLoggedInUser).toBe(true);
    expect(byId.get(tenants.customerA.admin.id)?.manageableByLoggedInUser).toBe(true);
    expect(byId.get(tenants.customerA.superAdmin.id)).toMatchObject({
      manageableByLoggedInUser: false,
      deleteBlockedReason: MESSAGES.user.cannotDeleteSuperAdmin,
    });
    expect(byId.get(readOnlyAdmin.id)).toMatchObject({
      manageableByLoggedInUser: false,
      deleteBlockedReason: MESSAGES.user.deletionDisabled,
    });

    const readOnly = await signedIn(readOnlyAdmin.email);
    const seen = resultOf<{ elements: UserRow[] }>(await readOnly.json('GET', '/admin/users?size=50')).elements;
    expect(seen.every((u) => !u.manageableByLoggedInUser && !u.deleteable)).toBe(true);
  });

  it('answers one user of the own customer, and 404 for anyone else', async () => {
    const client = await signedIn(tenants.customerA.admin.email);
    const user = resultOf<UserRow>(await client.json('GET', `/admin/account/users/${tenants.customerA.user.id}`));
    expect(user.email).toBe(tenants.customerA.user.email);
    for (const id of [tenants.customerB.user.id, tenants.providerAdmin.id, tenants.reseller.superAdmin.id, 999_999]) {
      expect((await client.json('GET', `/admin/account/users/${id}`)).statusCode).toBe(404);
      expect((await client.json('GET', `/admin/account/users/${id}/backuppackages`)).statusCode).toBe(404);
      expect((await client.json('GET', `/admin/account/users/${id}/backupmachines`)).statusCode).toBe(404);
      expect((await client.json('GET', `/admin/account/users/${id}/linkablebackuppackages`)).statusCode).toBe(404);
    }
  });

  it('lists the roles the caller may assign, least privileged first', async () => {
    const superAdmin = await signedIn(tenants.customerA.superAdmin.email);
    expect(resultOf(await superAdmin.json('GET', '/admin/account/users/roles'))).toEqual({
      elements: [
        { role: 'ROLE_CUSTOMER_USER', roleName: 'User' },
        { role: 'ROLE_CUSTOMER_ADMIN_USER', roleName: 'Admin' },
      ],
    });
    const admin = await signedIn(tenants.customerA.admin.email);
    expect(resultOf(await admin.json('GET', '/admin/account/users/roles'))).toEqual({
      elements: [{ role: 'ROLE_CUSTOMER_USER', roleName: 'User' }],
    });
    const readOnly = await signedIn(readOnlyAdmin.email);
    expect(resultOf(await readOnly.json('GET', '/admin/account/users/roles'))).toEqual({ elements: [] });
  });
});

describe('a user page: packages and machines (001 §2, §6)', () => {
  it("lists a user's packages with the unlink tooltips and a super admin's as every package", async () => {
    const client = await signedIn(tenants.customerA.superAdmin.email);
    const packages = resultOf<{ elements: UserPackageRow[]; totalElements: number }>(
      await client.json('GET', `/admin/account/users/${tenants.customerA.user.id}/backuppackages`),
    );
    expect(packages.totalElements).toBe(1);
    expect(packages.elements[0]).toEqual({
      id: shared,
      customerId: tenants.customerA.customerId,
      name: 'Shared package',
      status: 'ACTIVE',
      packageQuotaSizeInBytes: 100 * 1024 ** 3,
      numberOfBackupMachines: 2,
      storageLocation: null,
      accessibleByLoggedInUser: true,
      manageable: true,
      backupPackageUrl: `/admin/backuppackages/${shared}`,
      unlinkable: true,
      unlinkTooltip: MESSAGES.user.unlink,
    });
    const own = resultOf<{ elements: UserPackageRow[] }>(
      await client.json('GET', `/admin/account/users/${tenants.customerA.superAdmin.id}/backuppackages`),
    );
    expect(own.elements.map((p) => p.name)).toEqual(['Other package', 'Shared package']);
    expect(own.elements.every((p) => !p.unlinkable && p.unlinkTooltip === MESSAGES.user.naForSuperAdmin)).toBe(true);
  });

  it("shows an admin the packages they are not linked to as not accessible ('Cannot unlink')", async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    const target = resultOf<UserRow>(
      await admin.json('POST', '/admin/account/users', newUserForm({ surname: 'Adminview' })),
    );
    const superAdmin = await signedIn(tenants.customerA.superAdmin.email);
    resultOf(await superAdmin.json('PUT', `/admin/account/users/${target.id}?link=true`, { backupPackageId: other }));
    const rows = resultOf<{ elements: UserPackageRow[] }>(
      await admin.json('GET', `/admin/account/users/${target.id}/backuppackages`),
    ).elements;
    expect(rows).toEqual([
      expect.objectContaining({
        id: other,
        accessibleByLoggedInUser: false,
        manageable: false,
        unlinkable: false,
        unlinkTooltip: MESSAGES.user.cannotUnlink,
      }),
    ]);
    const refused = await admin.json('PUT', `/admin/account/users/${target.id}/backuppackages/${other}?unlink=true`);
    expect(refused.statusCode).toBe(400);
    expect(messagesOf(refused)).toEqual([{ fieldName: '', message: MESSAGES.user.cannotUnlink }]);
  });

  it("lists the user's machines with their task counts and links", async () => {
    const client = await signedIn(tenants.customerA.admin.email);
    const machines = resultOf<{ elements: UserMachineRow[]; totalElements: number }>(
      await client.json('GET', `/admin/account/users/${tenants.customerA.user.id}/backupmachines?page=0&size=10`),
    );
    expect(machines).toMatchObject({ totalElements: 1, totalPages: 1 });
    expect(machines.elements[0]).toEqual({
      id: userMachine,
      name: 'Laptop',
      status: 'ACTIVE',
      description: '',
      operatingSystem: 'Debian 12',
      usedBytes: 0,
      numberOfBackupTasks: 0,
      manageable: true,
      backupMachineUrl: `/backupmachines/${userMachine}`,
    });
  });

  it('gives the provider and resellers the same rows as read-only views with their own links', async () => {
    const views = createUserViews(createUsersRepo(t.database.db));
    const provider = {
      actor: {
        userId: tenants.providerAdmin.id,
        role: 'ROLE_BOLT_ADMIN_USER' as const,
        customerId: null,
        resellerEnabled: true,
        boltCustomer: false,
        readOnly: false,
      },
      audience: 'provider' as const,
    };
    const a = tenants.customerA;
    const page = await views.page(provider, a.customerId, { page: 0, size: 50 });
    expect(page.elements.every((u) => !u.manageableByLoggedInUser && !u.deleteable)).toBe(true);
    expect(page.elements.find((u) => u.id === a.user.id)?.userUrl).toBe(
      `/boltadmin/customers/${a.customerId}/users/${a.user.id}`,
    );
    const reseller = { ...provider, audience: 'reseller' as const };
    expect((await views.detail(reseller, a.customerId, a.user.id)).userUrl).toBe(
      `/admin/mycustomers/${a.customerId}/users/${a.user.id}`,
    );
    const packages = await views.packages(provider, a.customerId, a.user.id, { page: 0, size: 10 });
    expect(packages.elements[0]).toMatchObject({
      accessibleByLoggedInUser: true,
      unlinkable: false,
      backupPackageUrl: `/boltadmin/customers/${a.customerId}/backuppackages/${shared}`,
    });
    const machines = await views.machines(provider, a.customerId, a.user.id, { page: 0, size: 10 });
    expect(machines.elements[0]?.backupMachineUrl).toBe(
      `/boltadmin/customers/${a.customerId}/backuppackages/${shared}/backupmachines/${userMachine}`,
    );
    await expect(views.detail(provider, tenants.customerB.customerId, a.user.id)).rejects.toMatchObject({
      httpStatus: 404,
    });
  });
});

describe('adding a user (002 §5.1, POST /admin/account/users)', () => {
  it('adds a user who can sign in with the chosen password', async () => {
    const client = await signedIn(tenants.customerA.superAdmin.email);
    const form = newUserForm({ role: 'ROLE_CUSTOMER_ADMIN_USER', readOnly: true });
    const added = resultOf<UserRow>(await client.json('POST', '/admin/account/users', form));
    expect(added).toMatchObject({
      email: form.email,
      role: 'ROLE_CUSTOMER_ADMIN_USER',
      roleName: 'Admin',
      readOnly: true,
      status: 'ACTIVE',
      numberOfLinkedBackupPackages: 0,
      deleteable: true,
      deleteBlockedReason: null,
    });
    await signedIn(form.email, form.password);
  });

  it('puts every validation message on its field', async () => {
    const client = await signedIn(tenants.customerA.superAdmin.email);
    const cases: Array<[Record<string, unknown>, Array<{ fieldName: string; message: string }>]> = [
      [
        { firstName: '', surname: 'x'.repeat(51), email: 'nope', contactNumber: '', role: '' },
        [
          { fieldName: 'firstName', message: 'First name is required' },
          { fieldName: 'surname', message: 'Surname must be at most 50 characters' },
          { fieldName: 'email', message: 'Email must be a valid email' },
          { fieldName: 'contactNumber', message: 'Contact number is required' },
          { fieldName: 'role', message: 'Role is required' },
        ],
      ],
      [
        { email: `${'x'.repeat(96)}@a.io`, contactNumber: '1'.repeat(51), firstName: 'y'.repeat(51) },
        [
          { fieldName: 'firstName', message: 'First name must be at most 50 characters' },
          { fieldName: 'email', message: 'Email must be at most 100 characters' },
          { fieldName: 'contactNumber', message: 'Contact number must be at most 50 characters' },
        ],
      ],
      [
        { password: '', confirmPassword: '' },
        [
          { fieldName: 'password', message: 'Password is required' },
          { fieldName: 'confirmPassword', message: 'Confirm password is required' },
        ],
      ],
      [
        { password: 'short', confirmPassword: 'short' },
        [{ fieldName: 'password', message: 'Password must be at least 8 characters' }],
      ],
      [
        { password: 'p'.repeat(51), confirmPassword: 'p'.repeat(51) },
        [
          { fieldName: 'password', message: 'Password must be at most 50 characters' },
          { fieldName: 'confirmPassword', message: 'Confirm password must be at most 50 characters' },
        ],
      ],
      [
        { confirmPassword: 'another password' },
        [{ fieldName: 'confirmPassword', message: MESSAGES.passwordsDoNotMatch }],
      ],
      [{ role: 'ROLE_BOSS' }, [{ fieldName: 'role', message: 'Role is not valid' }]],
      [{ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' }, [{ fieldName: 'role', message: 'Role is not valid' }]],
      [{ role: 'ROLE_BOLT_ADMIN_USER' }, [{ fieldName: 'role', message: 'Role is not valid' }]],
    ];
    const before = (await t.database.db.select({ id: users.id }).from(users)).length;
    for (const [overrides, expected] of cases) {
      const response = await client.json('POST', '/admin/account/users', newUserForm(overrides));
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(messagesOf(response)).toEqual(expected);
    }
    expect((await t.database.db.select({ id: users.id }).from(users)).length).toBe(before);
  });

  it('refuses invisible and direction-changing characters in names, on their fields (issue 29)', async () => {
    const client = await signedIn(tenants.customerA.superAdmin.email);
    const before = (await t.database.db.select({ id: users.id }).from(users)).length;
    const response = await client.json(
      'POST',
      '/admin/account/users',
      newUserForm({ firstName: '\u200b', surname: 'Smith\u202eA', contactNumber: '+44\u2066 20' }),
    );
    expect(response.statusCode).toBe(400);
    expect(messagesOf(response)).toEqual([
      { fieldName: 'firstName', message: 'First name cannot contain invisible or direction-changing characters' },
      { fieldName: 'surname', message: 'Surname cannot contain invisible or direction-changing characters' },
      {
        fieldName: 'contactNumber',
        message: 'Contact number cannot contain invisible or direction-changing characters',
      },
    ]);
    expect((await t.database.db.select({ id: users.id }).from(users)).length).toBe(before);
  });

  it('refuses an admin giving the admin role, on the role field', async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    const response = await admin.json(
      'POST',
      '/admin/account/users',
      newUserForm({ role: 'ROLE_CUSTOMER_ADMIN_USER' }),
    );
    expect(response.statusCode).toBe(400);
    expect(messagesOf(response)).toEqual([{ fieldName: 'role', message: 'Role is not valid' }]);
    expect(resultOf<UserRow>(await admin.json('POST', '/admin/account/users', newUserForm())).role).toBe(
      'ROLE_CUSTOMER_USER',
    );
  });

  it('refuses an e-mail address any user has, in any case, also when two adds race', async () => {
    const client = await signedIn(tenants.customerA.superAdmin.email);
    const taken = await client.json(
      'POST',
      '/admin/account/users',
      newUserForm({ email: tenants.customerB.user.email.toUpperCase() }),
    );
    expect(taken.statusCode).toBe(409);
    expect(messagesOf(taken)).toEqual([{ fieldName: 'email', message: MESSAGES.emailTaken }]);

    const form = newUserForm();
    const [first, second] = await Promise.all([
      client.json('POST', '/admin/account/users', form),
      client.json('POST', '/admin/account/users', { ...form, email: form.email.toUpperCase() }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    const rows = await t.database.db.select({ id: users.id }).from(users).where(eq(users.surname, form.surname));
    expect(rows).toHaveLength(1);
  });

  it('lets read-only admins change nothing', async () => {
    const client = await signedIn(readOnlyAdmin.email);
    const form = newUserForm();
    expect((await client.json('POST', '/admin/account/users', form)).statusCode).toBe(403);
    expect(
      (
        await client.json(
          'PUT',
          `/admin/account/users/${tenants.customerA.user.id}`,
          newUserForm({ password: '', confirmPassword: '' }),
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await client.json('PUT', `/admin/account/users/${tenants.customerA.user.id}?link=true`, {
          backupPackageId: other,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await client.json(
          'PUT',
          `/admin/account/users/${tenants.customerA.user.id}/backuppackages/${shared}?unlink=true`,
        )
      ).statusCode,
    ).toBe(403);
    expect((await client.json('DELETE', `/admin/account/users/${tenants.customerA.user.id}`)).statusCode).toBe(403);
    expect(await t.database.db.select().from(users).where(eq(users.email, form.email))).toEqual([]);
  });
});

describe('editing a user (PUT /admin/account/users/{id})', () => {
  it('keeps the password when blank and saves the details', async () => {
    const client = await signedIn(tenants.customerA.superAdmin.email);
    const form = newUserForm();
    const added = resultOf<UserRow>(await client.json('POST', '/admin/account/users', form));
    const edited = resultOf<UserRow>(
      await client.json('PUT', `/admin/account/users/${added.id}`, {
        firstName: 'Renamed',
        surname: added.surname,
        email: `renamed.${form.email}`,
        contactNumber: '42',
        password: '',
        confirmPassword: '',
        role: 'ROLE_CUSTOMER_ADMIN_USER', // not editable: ignored
        readOnly: true,
      }),
    );
    expect(edited).toMatchObject({ firstName: 'Renamed', email: `renamed.${form.email}`, contactNumber: '42' });
    expect(edited).toMatchObject({ role: 'ROLE_CUSTOMER_USER', readOnly: false });
    await signedIn(`renamed.${form.email}`, form.password);
  });

  it("sets a new password and ends that user's sessions, but keeps the caller's own", async () => {
    const client = await signedIn(tenants.customerA.superAdmin.email);
    const form = newUserForm();
    const added = resultOf<UserRow>(await client.json('POST', '/admin/account/users', form));
    const theirs = await signedIn(form.email, form.password);
    expect((await theirs.json('GET', '/profile')).statusCode).toBe(200);
    resultOf(
      await client.json('PUT', `/admin/account/users/${added.id}`, {
        ...form,
        password: 'brand new password',
        confirmPassword: 'brand new password',
      }),
    );
    expect((await theirs.json('GET', '/profile')).statusCode).toBe(401);
    await signedIn(form.email, 'brand new password');

    // Editing oneself: the other sessions end, this one stays.
    const self = await signedIn(form.email, 'brand new password');
    const otherSession = await signedIn(form.email, 'brand new password');
    const admin = await signedIn(tenants.customerA.admin.email);
    const adminOther = await signedIn(tenants.customerA.admin.email);
    const me = tenants.customerA.admin;
    resultOf(
      await admin.json('PUT', `/admin/account/users/${me.id}`, {
        firstName: 'admin',
        surname: 'Tester',
        email: me.email,
        contactNumber: '555-0100',
        password: FIXTURE_PASSWORD,
        confirmPassword: FIXTURE_PASSWORD,
      }),
    );
    expect((await admin.json('GET', '/profile')).statusCode).toBe(200);
    expect((await adminOther.json('GET', '/profile')).statusCode).toBe(401);
    expect((await self.json('GET', '/profile')).statusCode).toBe(200);
    expect((await otherSession.json('GET', '/profile')).statusCode).toBe(200);
  });

  it('validates like adding, with the e-mail conflict on its field', async () => {
    const client = await signedIn(tenants.customerA.superAdmin.email);
    const target = tenants.customerA.user.id;
    const invalid = await client.json('PUT', `/admin/account/users/${target}`, {
      firstName: '',
      surname: 'Tester',
      email: 'x',
      contactNumber: '1',
      password: 'abc',
      confirmPassword: '',
    });
    expect(messagesOf(invalid)).toEqual([
      { fieldName: 'firstName', message: 'First name is required' },
      { fieldName: 'email', message: 'Email must be a valid email' },
      { fieldName: 'password', message: 'Password must be at least 8 characters' },
      { fieldName: 'confirmPassword', message: 'Confirm password is required' },
    ]);
    const taken = await client.json('PUT', `/admin/account/users/${target}`, {
      firstName: 'user',
      surname: 'Tester',
      email: tenants.customerB.superAdmin.email,
      contactNumber: '1',
    });
    expect(taken.statusCode).toBe(409);
    expect(messagesOf(taken)).toEqual([{ fieldName: 'email', message: MESSAGES.emailTaken }]);
  });

  it("answers 403 for a visible user the caller does not manage and 404 for another tenant's, changing nothing", async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    const form = { firstName: 'Hacked', surname: 'Hacked', email: 'hacked@evil.test', contactNumber: '1' };
    expect((await admin.json('PUT', `/admin/account/users/${tenants.customerA.superAdmin.id}`, form)).statusCode).toBe(
      403,
    );
    expect((await admin.json('PUT', `/admin/account/users/${readOnlyAdmin.id}`, form)).statusCode).toBe(403);
    for (const id of [tenants.customerB.user.id, tenants.providerAdmin.id]) {
      expect((await admin.json('PUT', `/admin/account/users/${id}`, form)).statusCode).toBe(404);
    }
    const hacked = await t.database.db.select().from(users).where(eq(users.firstName, 'Hacked'));
    expect(hacked).toEqual([]);
  });
});

describe('linking and unlinking (002 §5.2, §6)', () => {
  it('links a user to a package the caller offers, then unlinks them', async () => {
    const client = await signedIn(tenants.customerA.superAdmin.email);
    const added = resultOf<UserRow>(await client.json('POST', '/admin/account/users', newUserForm()));
    const linkable = resultOf<{ elements: Array<{ id: number; name: string }> }>(
      await client.json('GET', `/admin/account/users/${added.id}/linkablebackuppackages`),
    );
    expect(linkable.elements).toEqual([
      { id: other, name: 'Other package' },
      { id: shared, name: 'Shared package' },
    ]);
    const linked = resultOf<UserRow>(
      await client.json('PUT', `/admin/account/users/${added.id}?link=true`, { backupPackageId: String(other) }),
    );
    expect(linked).toMatchObject({
      numberOfLinkedBackupPackages: 1,
      deleteable: false,
      deleteBlockedReason: MESSAGES.user.cannotDeleteLinked,
    });
    // Linking again changes nothing.
    resultOf(await client.json('PUT', `/admin/account/users/${added.id}?link=true`, { backupPackageId: other }));
    expect(
      resultOf<{ elements: unknown[] }>(
        await client.json('GET', `/admin/account/users/${added.id}/linkablebackuppackages`),
      ).elements,
    ).toEqual([{ id: shared, name: 'Shared package' }]);

    const unlinked = await client.json('PUT', `/admin/account/users/${added.id}/backuppackages/${other}?unlink=true`);
    expect(resultOf(unlinked)).toBeNull();
    expect(resultOf<UserRow>(await client.json('GET', `/admin/account/users/${added.id}`))).toMatchObject({
      numberOfLinkedBackupPackages: 0,
      deleteable: true,
    });
  });

  it('offers an admin only their own packages, and refuses the others on the field', async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    const added = resultOf<UserRow>(await admin.json('POST', '/admin/account/users', newUserForm()));
    expect(
      resultOf<{ elements: unknown[] }>(
        await admin.json('GET', `/admin/account/users/${added.id}/linkablebackuppackages`),
      ).elements,
    ).toEqual([{ id: shared, name: 'Shared package' }]);
    const refused = await admin.json('PUT', `/admin/account/users/${added.id}?link=true`, { backupPackageId: other });
    expect(refused.statusCode).toBe(400);
    expect(messagesOf(refused)).toEqual([{ fieldName: 'backupPackageId', message: 'Backup package is not valid' }]);
  });

  it('checks the link payload, the super admin and the tenant', async () => {
    const client = await signedIn(tenants.customerA.superAdmin.email);
    const user = tenants.customerA.user.id;
    const missing = await client.json('PUT', `/admin/account/users/${user}?link=true`, { backupPackageId: -1 });
    expect(messagesOf(missing)).toEqual([{ fieldName: 'backupPackageId', message: 'Backup package is required' }]);

    const superAdminLink = await client.json(
      'PUT',
      `/admin/account/users/${tenants.customerA.superAdmin.id}?link=true`,
      { backupPackageId: other },
    );
    expect(superAdminLink.statusCode).toBe(400);
    expect(messagesOf(superAdminLink)).toEqual([{ fieldName: '', message: MESSAGES.user.superAdminHasEveryPackage }]);
    expect(
      resultOf<{ elements: unknown[] }>(
        await client.json('GET', `/admin/account/users/${tenants.customerA.superAdmin.id}/linkablebackuppackages`),
      ).elements,
    ).toEqual([]);
    const superAdminUnlink = await client.json(
      'PUT',
      `/admin/account/users/${tenants.customerA.superAdmin.id}/backuppackages/${shared}?unlink=true`,
    );
    expect(messagesOf(superAdminUnlink)).toEqual([{ fieldName: '', message: MESSAGES.user.naForSuperAdmin }]);

    expect(
      (await client.json('PUT', `/admin/account/users/${user}?link=true`, { backupPackageId: otherTenantPackage }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await client.json('PUT', `/admin/account/users/${tenants.customerB.user.id}?link=true`, {
          backupPackageId: other,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await client.json('PUT', `/admin/account/users/${user}/backuppackages/${otherTenantPackage}?unlink=true`))
        .statusCode,
    ).toBe(404);
    const noFlag = await client.json('PUT', `/admin/account/users/${user}/backuppackages/${shared}`);
    expect(noFlag.statusCode).toBe(400);
    expect(messagesOf(noFlag)).toEqual([{ fieldName: '', message: MESSAGES.user.notUnlinkCall }]);
    const links = await t.database.db.select().from(userBackupPackages).where(eq(userBackupPackages.userId, user));
    expect(links).toEqual([{ userId: user, backupPackageId: shared }]);
  });
});

describe('deleting a user (002 §6, DELETE /admin/account/users/{id})', () => {
  it('refuses with the reason as a global message', async () => {
    const client = await signedIn(tenants.customerA.superAdmin.email);
    const cases: Array<[number, string]> = [
      [tenants.customerA.superAdmin.id, MESSAGES.user.cannotDeleteYourself],
      [tenants.customerA.user.id, MESSAGES.user.cannotDeleteLinked],
    ];
    const second = await insertUser(
      'ROLE_CUSTOMER_SUPER_ADMIN_USER',
      tenants.customerA.customerId,
      'second.super@alpha.test',
    );
    cases.push([second.id, MESSAGES.user.cannotDeleteSuperAdmin]);
    for (const [id, reason] of cases) {
      const response = await client.json('DELETE', `/admin/account/users/${id}`);
      expect(response.statusCode).toBe(400);
      expect(messagesOf(response)).toEqual([{ fieldName: '', message: reason }]);
    }
    const admin = await signedIn(tenants.customerA.admin.email);
    const other = await admin.json('DELETE', `/admin/account/users/${readOnlyAdmin.id}`);
    expect(messagesOf(other)).toEqual([{ fieldName: '', message: MESSAGES.user.deletionDisabled }]);
    await t.database.db.delete(users).where(eq(users.id, second.id));
  });

  it('deletes an unlinked user, whose sessions end; another tenant answers 404', async () => {
    const client = await signedIn(tenants.customerA.admin.email);
    const form = newUserForm();
    const added = resultOf<UserRow>(await client.json('POST', '/admin/account/users', form));
    const theirs = await signedIn(form.email, form.password);
    expect(resultOf(await client.json('DELETE', `/admin/account/users/${added.id}`))).toBeNull();
    expect((await client.json('GET', `/admin/account/users/${added.id}`)).statusCode).toBe(404);
    expect((await theirs.json('GET', '/profile')).statusCode).toBe(401);
    expect((await client.json('DELETE', `/admin/account/users/${added.id}`)).statusCode).toBe(404);

    const before = await t.database.db.select().from(users).where(eq(users.id, tenants.customerB.user.id));
    expect((await client.json('DELETE', `/admin/account/users/${tenants.customerB.user.id}`)).statusCode).toBe(404);
    expect(await t.database.db.select().from(users).where(eq(users.id, tenants.customerB.user.id))).toEqual(before);
  });
});
