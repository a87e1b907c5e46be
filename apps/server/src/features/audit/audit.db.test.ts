import {
  AUDIT_TEXTS,
  type AuditRow,
  auditSubjectText,
  auditTenantText,
  type Envelope,
  type Paged,
  ROUTES,
  withQuery,
} from '@portal/domain';
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditEvents, backupPackages, users } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { createAuditRepo } from './repo.js';

let t: TestApp;
let tenants: Tenants;
let packageOfB: number;

const signedIn = async (email: string) => {
  const client = new TestClient(t.app);
  const response = await client.signIn(email, FIXTURE_PASSWORD);
  expect(response.headers.location, `sign-in of ${email}`).toBe('/');
  return client;
};

function pageOf(response: LightMyRequestResponse): Paged<AuditRow> {
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as Envelope<Paged<AuditRow>>).result as Paged<AuditRow>;
}

const records = async () => {
  await t.app.auditSettled();
  return t.database.db.select().from(auditEvents);
};

const NEW_USER_PASSWORD = 'secret new user pass 42';

beforeAll(async () => {
  t = await createTestApp();
  tenants = await createTenants(t.database.db);
  packageOfB = await backupFixtures(t.database.db).package(tenants.customerB.customerId);
});
afterAll(async () => t.close());

describe('the audit trail records (issue 18)', () => {
  it("records a provider admin's change to a customer with tenant, subject and outcome", async () => {
    const provider = await signedIn(tenants.providerAdmin.email);
    const url = withQuery(ROUTES.packages.providerAction.build({ packageId: packageOfB }), { status: 'SUSPENDED' });
    expect((await provider.json('PUT', url)).statusCode).toBe(200);
    const row = (await records()).find((r) => r.type === 'packages.providerAction');
    expect(row).toMatchObject({
      userId: tenants.providerAdmin.id,
      email: tenants.providerAdmin.email,
      customerId: tenants.customerB.customerId,
      actorCustomerId: null,
      subjectType: 'package',
      subjectId: packageOfB,
      outcome: 'succeeded',
      httpStatus: 200,
      detail: { packageId: packageOfB, status: 'SUSPENDED' },
    });
    expect(row?.name).toMatch(/Tester$/);
    expect(row?.ipAddress).toBeTruthy();
  });

  it("records a call on another tenant's data as refused, under the caller's own tenant", async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    const response = await admin.json('PUT', withQuery(ROUTES.packages.edit.build({ packageId: packageOfB }), {}), {
      name: 'Taken over',
    });
    expect([403, 404]).toContain(response.statusCode);
    const row = (await records()).find((r) => r.type === 'packages.edit' && r.userId === tenants.customerA.admin.id);
    expect(row).toMatchObject({
      outcome: 'refused',
      httpStatus: response.statusCode,
      customerId: tenants.customerA.customerId,
      actorCustomerId: tenants.customerA.customerId,
      subjectType: 'package',
      subjectId: packageOfB,
    });
  });

  it("records a call answered before its handler's tenant check (a 400 on the body) under the caller's tenant, never the named row's", async () => {
    const machineOfB = await backupFixtures(t.database.db).machine(packageOfB);
    const admin = await signedIn(tenants.customerA.superAdmin.email);
    const response = await admin.json('PUT', ROUTES.machines.edit.build({ machineId: machineOfB }), {
      description: 'bad \uD800',
    });
    expect(response.statusCode).toBe(400);
    const row = (await records()).find(
      (r) => r.type === 'machines.edit' && r.userId === tenants.customerA.superAdmin.id && r.subjectId === machineOfB,
    );
    expect(row).toMatchObject({
      outcome: 'failed',
      customerId: tenants.customerA.customerId,
      accountCustomerId: tenants.reseller.customerId,
    });
  });

  it('records a read refused to a signed-in caller as a permission denial, and no other read', async () => {
    const user = await signedIn(tenants.customerA.user.email);
    expect((await user.json('GET', ROUTES.customers.lists.customers.path)).statusCode).toBe(403);
    expect((await user.json('GET', ROUTES.profile.get.path)).statusCode).toBe(200);
    const mine = (await records()).filter((r) => r.userId === tenants.customerA.user.id && r.type.includes('.'));
    expect(mine.map((r) => [r.type, r.outcome, r.httpStatus, r.customerId])).toEqual([
      ['customers.lists.customers', 'refused', 403, tenants.customerA.customerId],
    ]);
  });

  it('keeps no secret: neither the password of a new user nor the one signed in with', async () => {
    const superAdmin = await signedIn(tenants.customerA.superAdmin.email);
    const response = await superAdmin.json('POST', ROUTES.users.add.path, {
      firstName: 'Audited',
      surname: 'Person',
      email: 'audited.person@alpha.test',
      contactNumber: '+44 20 7946 0000',
      password: NEW_USER_PASSWORD,
      confirmPassword: NEW_USER_PASSWORD,
      readOnly: false,
      role: 'ROLE_CUSTOMER_USER',
    });
    expect(response.statusCode, response.body).toBe(200);
    const rows = await records();
    expect(rows.find((r) => r.type === 'users.add')).toMatchObject({
      customerId: tenants.customerA.customerId,
      outcome: 'succeeded',
    });
    const everything = JSON.stringify(rows);
    expect(everything).not.toContain(NEW_USER_PASSWORD);
    expect(everything).not.toContain(FIXTURE_PASSWORD);
    expect(everything).not.toContain(superAdmin.csrf);
    expect(everything).not.toContain(superAdmin.cookie('portal_session'));
  });

  it('keeps the explicit sign-in events with their outcome, and keeps records of a deleted user', async () => {
    const failed = await new TestClient(t.app).signIn(tenants.customerB.user.email, 'a wrong password');
    expect(failed.headers.location).not.toBe('/');
    const rows = await records();
    expect(rows.find((r) => r.type === 'SIGN_IN_FAILED' && r.email === tenants.customerB.user.email)?.outcome).toBe(
      'refused',
    );
    const signIn = rows.find((r) => r.type === 'SIGN_IN_SUCCEEDED' && r.userId === tenants.customerA.superAdmin.id);
    expect(signIn).toMatchObject({ outcome: 'succeeded', customerId: tenants.customerA.customerId });
    expect(signIn?.name).toMatch(/Tester$/);

    const before = rows.filter((r) => r.userId === tenants.customerB.user.id).length;
    await t.database.db.delete(users).where(eq(users.id, tenants.customerB.user.id));
    const after = (await records()).filter((r) => r.userId === tenants.customerB.user.id);
    expect(after.length).toBe(before);
  });

  it('refuses to change or delete a record in the database itself', async () => {
    const db = t.database.db;
    await expect(db.update(auditEvents).set({ email: 'someone.else@example.test' })).rejects.toThrow();
    await expect(db.delete(auditEvents)).rejects.toThrow();
    expect((await records()).some((r) => r.email === 'someone.else@example.test')).toBe(false);
  });
});

describe('the audit pages', () => {
  it("shows a customer super admin its own tenant's records only, never another tenant's", async () => {
    const superAdmin = await signedIn(tenants.customerB.superAdmin.email);
    const { elements } = pageOf(await superAdmin.json('GET', withQuery(ROUTES.audit.account.path, { size: 100 })));
    expect(elements.length).toBeGreaterThan(0);
    // Another tenant's id in the filter is refused on its field (list and export); its own id is no narrowing.
    for (const path of [ROUTES.audit.account.path, ROUTES.audit.accountExport.path]) {
      const asked = await superAdmin.json('GET', withQuery(path, { customerId: tenants.customerA.customerId }));
      expect(asked.statusCode).toBe(400);
      expect(asked.json().messages).toEqual([
        expect.objectContaining({ fieldName: 'customerId', message: AUDIT_TEXTS.tenantFilterRefused }),
      ]);
    }
    const own = await superAdmin.json(
      'GET',
      withQuery(ROUTES.audit.account.path, { size: 100, customerId: tenants.customerB.customerId }),
    );
    expect(pageOf(own).totalElements).toBeGreaterThanOrEqual(elements.length);
    expect(elements.every((row) => row.customerId === tenants.customerB.customerId)).toBe(true);
    // The provider's suspension of B's package is B's business.
    expect(elements.some((row) => row.kind === 'packages.providerAction')).toBe(true);
    // A's admin's refused attempt on B's package stays A's.
    expect(elements.some((row) => row.userId === tenants.customerA.admin.id)).toBe(false);
    const csv = await superAdmin.request({ method: 'GET', url: ROUTES.audit.accountExport.path });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).not.toContain(tenants.customerA.superAdmin.email);
  });

  it("shows a reseller's super admin its own account and its customers', and a customer of it nothing of the reseller's", async () => {
    const reseller = await signedIn(tenants.reseller.superAdmin.email);
    const list = (query: Record<string, string | number>) =>
      reseller.json('GET', withQuery(ROUTES.audit.account.path, { size: 100, ...query })).then(pageOf);
    const { elements } = await list({});
    const tenantsSeen = new Set(elements.map((row) => row.customerId));
    expect(tenantsSeen).toEqual(new Set([tenants.reseller.customerId, tenants.customerA.customerId]));
    // What A's own people did (a user added, a refused attempt on B's package) is the reseller's to see.
    expect(elements.some((row) => row.kind === 'users.add')).toBe(true);
    expect(elements.some((row) => row.userId === tenants.customerA.admin.id && row.outcome === 'refused')).toBe(true);
    // The auth service's own events (account filled in by the record's insert) reach it too.
    expect(
      elements.some((row) => row.kind === 'SIGN_IN_SUCCEEDED' && row.userId === tenants.customerA.superAdmin.id),
    ).toBe(true);
    // Narrowed to one of its customers; another's id narrows to nothing rather than widening the scope.
    const onlyA = await list({ customerId: tenants.customerA.customerId });
    expect(onlyA.totalElements).toBeGreaterThan(0);
    expect(onlyA.elements.every((row) => row.customerId === tenants.customerA.customerId)).toBe(true);
    expect((await list({ customerId: tenants.customerB.customerId })).totalElements).toBe(0);
    const csv = await reseller.request({ method: 'GET', url: ROUTES.audit.accountExport.path });
    expect(csv.body).toContain(tenants.customerA.superAdmin.email);
    expect(csv.body).not.toContain(tenants.customerB.superAdmin.email);

    const customerOfReseller = await signedIn(tenants.customerA.superAdmin.email);
    const own = pageOf(await customerOfReseller.json('GET', withQuery(ROUTES.audit.account.path, { size: 100 })));
    expect(own.elements.length).toBeGreaterThan(0);
    expect(own.elements.every((row) => row.customerId === tenants.customerA.customerId)).toBe(true);
    expect(own.elements.some((row) => row.userId === tenants.reseller.superAdmin.id)).toBe(false);
  });

  it('refuses the account view to admins and users who are not super admins, and the provider view to customers', async () => {
    for (const email of [tenants.customerA.admin.email, tenants.customerA.user.email]) {
      const client = await signedIn(email);
      expect((await client.json('GET', ROUTES.audit.account.path)).statusCode).toBe(403);
      expect((await client.json('GET', ROUTES.audit.accountExport.path)).statusCode).toBe(403);
    }
    const superAdmin = await signedIn(tenants.customerA.superAdmin.email);
    expect((await superAdmin.json('GET', ROUTES.audit.provider.path)).statusCode).toBe(403);
    expect((await superAdmin.json('GET', ROUTES.audit.providerExport.path)).statusCode).toBe(403);
  });

  it('filters by time, person, kind, subject and outcome, and pages in the database, newest first', async () => {
    const repo = createAuditRepo(t.database.db);
    for (let i = 1; i <= 23; i++) {
      await repo.record({
        type: 'machines.edit',
        userId: 9_000,
        customerId: tenants.customerB.customerId,
        email: 'Pager.Person@example.test',
        name: 'Pager Person',
        subjectType: 'machine',
        subjectId: i % 2 === 0 ? 77 : 78,
        outcome: i === 5 ? 'failed' : 'succeeded',
        httpStatus: i === 5 ? 400 : 200,
        detail: { machineId: i },
      });
    }
    const provider = await signedIn(tenants.providerAdmin.email);
    const list = (query: Record<string, string | number>) =>
      provider.json('GET', withQuery(ROUTES.audit.provider.path, query)).then(pageOf);

    const first = await list({ email: 'pager.person@example.test', size: 10 });
    expect(first.totalElements).toBe(23);
    expect(first.totalPages).toBe(3);
    expect(first.elements.map((r) => r.detail?.machineId)).toEqual([23, 22, 21, 20, 19, 18, 17, 16, 15, 14]);
    const third = await list({ email: 'pager.person@example.test', size: 10, page: 2 });
    expect(third.elements.map((r) => r.detail?.machineId)).toEqual([3, 2, 1]);

    expect(
      (await list({ email: 'pager.person@example.test', subjectType: 'machine', subjectId: 77 })).totalElements,
    ).toBe(11);
    expect((await list({ email: 'pager.person@example.test', outcome: 'failed' })).elements[0]?.httpStatus).toBe(400);
    expect((await list({ kind: 'packages.providerAction' })).elements.map((r) => r.kind)).toEqual([
      'packages.providerAction',
    ]);
    expect(
      (await list({ customerId: tenants.customerA.customerId, email: 'pager.person@example.test' })).totalElements,
    ).toBe(0);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await list({ from: future })).totalElements).toBe(0);
    expect((await list({ to: future, email: 'pager.person@example.test' })).totalElements).toBe(23);

    const bad = await provider.json('GET', withQuery(ROUTES.audit.provider.path, { from: 'yesterday' }));
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as Envelope<null>).messages[0]?.fieldName).toBe('from');
    const reversed = await provider.json(
      'GET',
      withQuery(ROUTES.audit.provider.path, { from: future, to: '2020-01-01' }),
    );
    expect((reversed.json() as Envelope<null>).messages[0]?.fieldName).toBe('to');
  });

  it('exports every matching record as RFC 4180 CSV, safe from formulas', async () => {
    const repo = createAuditRepo(t.database.db);
    await repo.record({
      type: 'customers.provider.changeStatus',
      email: '=cmd@evil.test',
      name: 'Smith, "Bob"',
      customerId: tenants.customerB.customerId,
      detail: { customerId: tenants.customerB.customerId },
    });
    const provider = await signedIn(tenants.providerAdmin.email);
    const response = await provider.request({
      method: 'GET',
      url: withQuery(ROUTES.audit.providerExport.path, { kind: 'customers.provider.changeStatus' }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="audit-/);
    const lines = response.body.split('\r\n');
    expect(lines[0]).toBe(
      'Id,Time,Event,Outcome,HTTP status,User id,E-mail,Name,Actor customer,Tenant,Subject,IP address,Detail',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(',\'=cmd@evil.test,"Smith, ""Bob""",');
    expect(lines[1]).toContain(`"{""customerId"":${tenants.customerB.customerId}}"`);
    expect(lines[2]).toBe('');

    // Past one batch: every matching record, none twice.
    const all = await provider.request({
      method: 'GET',
      url: withQuery(ROUTES.audit.providerExport.path, { email: 'pager.person@example.test' }),
    });
    const ids = all.body
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[0]);
    expect(ids).toHaveLength(23);
    expect(new Set(ids).size).toBe(23);
  });

  it('streams an export across batches in order (the repository walks by time and id)', async () => {
    const repo = createAuditRepo(t.database.db);
    const seen: number[] = [];
    for await (const row of repo.all({ all: true }, { email: 'pager.person@example.test' }, 4)) seen.push(row.id);
    expect(seen).toHaveLength(23);
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
  });
});

describe('the audit trail names its subjects and tenants (issue 29)', () => {
  const editPackage = (client: TestClient, packageId: number, name: string) =>
    client.json('PUT', ROUTES.packages.edit.build({ packageId }), { name, limitBackupSizePerMachine: false });
  const listed = async (client: TestClient, route: 'provider' | 'account', query: Record<string, string | number>) => {
    await t.app.auditSettled();
    return pageOf(await client.json('GET', withQuery(ROUTES.audit[route].path, query))).elements;
  };

  it("names a package change's subject by the package's current name, after a rename too, and its tenant by name", async () => {
    const packageId = await backupFixtures(t.database.db).package(tenants.customerB.customerId, { name: 'Nightly' });
    const owner = await signedIn(tenants.customerB.superAdmin.email);
    expect((await editPackage(owner, packageId, 'Nightly copies')).statusCode).toBe(200);
    // Renamed afterwards: the record names the package as it is called now.
    expect((await editPackage(owner, packageId, 'Weekly copies')).statusCode).toBe(200);

    const query = { kind: 'packages.edit', subjectType: 'package', subjectId: packageId };
    const mine = await listed(owner, 'account', query);
    expect(mine).toHaveLength(2);
    for (const row of mine) {
      expect(row).toMatchObject({
        subjectName: 'Weekly copies',
        customerName: 'Beta Inc',
        kindName: 'Package changed',
      });
      expect(auditSubjectText(row)).toBe(`Package: Weekly copies (id ${packageId})`);
      expect(auditTenantText(row)).toBe(`Beta Inc (id ${tenants.customerB.customerId})`);
      expect(row.detail).not.toHaveProperty('subjectName');
    }
    const provider = await signedIn(tenants.providerAdmin.email);
    expect((await listed(provider, 'provider', query)).map((row) => row.subjectName)).toEqual([
      'Weekly copies',
      'Weekly copies',
    ]);

    // The CSV says the same.
    const csv = await provider.request({ method: 'GET', url: withQuery(ROUTES.audit.providerExport.path, query) });
    expect(csv.body).toContain(`,Package changed,Succeeded,200,`);
    expect(csv.body).toContain(
      `,Beta Inc (id ${tenants.customerB.customerId}),Package: Weekly copies (id ${packageId}),`,
    );
    expect(csv.body).not.toContain('packages.edit');
  });

  it('keeps the name a subject had when recorded once the subject is gone', async () => {
    const packageId = await backupFixtures(t.database.db).package(tenants.customerB.customerId, { name: 'Old one' });
    const owner = await signedIn(tenants.customerB.superAdmin.email);
    expect((await editPackage(owner, packageId, 'Soon gone')).statusCode).toBe(200);
    await t.app.auditSettled();
    await t.database.db.delete(backupPackages).where(eq(backupPackages.id, packageId));
    const [row] = await listed(owner, 'account', { subjectType: 'package', subjectId: packageId });
    // Kept before the call ran: the name it had then.
    expect(row?.subjectName).toBe('Old one');
    expect(row && auditSubjectText(row)).toBe(`Package: Old one (id ${packageId})`);
  });

  it("never names another tenant's subject that a refused call named, now or as kept", async () => {
    const admin = await signedIn(tenants.customerA.admin.email);
    expect([403, 404]).toContain((await editPackage(admin, packageOfB, 'Taken over')).statusCode);
    const superAdmin = await signedIn(tenants.customerA.superAdmin.email);
    const rows = await listed(superAdmin, 'account', { subjectType: 'package', subjectId: packageOfB });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.subjectName).toBeNull();
      expect(auditSubjectText(row)).toBe(`Package id ${packageOfB}`);
    }
    const kept = (await records()).filter(
      (r) => r.subjectId === packageOfB && r.customerId === tenants.customerA.customerId,
    );
    for (const record of kept) expect(record.detail).not.toHaveProperty('subjectName');
  });

  it('looks names up per subject kind for a whole page, not per record', async () => {
    const repo = createAuditRepo(t.database.db);
    const statements: string[] = [];
    const execute = t.database.db.execute.bind(t.database.db);
    const spy = vi.spyOn(t.database.db, 'execute').mockImplementation((query) => {
      statements.push('x');
      return execute(query);
    });
    try {
      const { rows } = await repo.page({ all: true }, {}, { page: 0, size: 50 });
      const kinds = new Set(rows.flatMap((row) => (row.subjectType ? [row.subjectType] : [])));
      // One lookup per subject kind present, and one for the tenants' names.
      expect(statements.length).toBeLessThanOrEqual(kinds.size + 1);
      expect(rows.length).toBeGreaterThan(kinds.size + 1);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('retention', () => {
  it('prunes the records past AUDIT_RETENTION_DAYS and keeps the rest: the only delete', async () => {
    const db = t.database.db;
    const day = 86_400_000;
    await db.insert(auditEvents).values([
      { type: 'SIGNED_OUT', email: 'old@example.test', at: new Date(t.clock.now.getTime() - 400 * day) },
      { type: 'SIGNED_OUT', email: 'recent@example.test', at: new Date(t.clock.now.getTime() - 300 * day) },
    ]);
    expect(await t.app.auditPrune.runOnce()).toBeGreaterThanOrEqual(1);
    const emails = (await db.select({ email: auditEvents.email }).from(auditEvents)).map((r) => r.email);
    expect(emails).not.toContain('old@example.test');
    expect(emails).toContain('recent@example.test');
    const [left] = await db.select({ n: sql<number>`count(*)::int` }).from(auditEvents);
    expect(left?.n).toBeGreaterThan(20);
  });
});
