import { MESSAGES } from '@portal/domain';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, signInFailures } from '../db/schema/index.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { signInPost, TestClient } from '../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../testing/fixtures.js';

let t: TestApp;
let tenants: Tenants;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://backup.example.com' });
  t.app.get('/test/boom', { config: { access: 'public' } }, () => {
    throw new Error('connection string postgres://secret@db');
  });
  t.app.get('/test/undeclared', () => 'reached');
  tenants = await createTenants(t.database.db);
});
afterAll(() => t.close());

describe('answers (issue #2)', () => {
  it("takes the client's address from X-Forwarded-For only when a private proxy sent it (audit, throttle)", async () => {
    const email = tenants.customerA.user.email;
    const failFrom = async (remoteAddress: string) => {
      const client = new TestClient(t.app);
      await client.open('/login');
      await client.request({
        ...signInPost(
          { username: email, password: 'not it at all', _csrf: client.csrf },
          { accept: 'text/html', 'x-forwarded-for': '198.51.100.7' },
        ),
        remoteAddress,
      });
      const rows = await t.database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.email, email), eq(auditEvents.type, 'SIGN_IN_FAILED')))
        .orderBy(desc(auditEvents.id))
        .limit(1);
      return rows[0]?.ipAddress;
    };
    // A client on the internet cannot choose the address it is recorded and throttled under.
    expect(await failFrom('203.0.113.9')).toBe('203.0.113.9');
    // The proxy on this host (loopback) or the private network tells who its client was.
    expect(await failFrom('127.0.0.1')).toBe('198.51.100.7');
    await t.database.db.delete(signInFailures);
  });

  it('reports the database and Redis it runs on', async () => {
    const health = (await t.app.inject({ method: 'GET', url: '/health' })).json().result;
    expect(health).toMatchObject({ status: 'ok', database: 'up' });
    expect(health.databaseKind).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    expect(health.redis).toBe(process.env.REDIS_URL ? 'up' : 'not configured');
  });

  it('carries the security headers, HSTS behind https', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health' });
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('same-origin');
    expect(response.headers['strict-transport-security']).toContain('max-age=');
  });

  it('answers an unexpected error with the envelope and a reference, never the internals', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test/boom' });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body).toMatchObject({ status: 'ERROR', responseSummaryCode: 'INTERNAL_ERROR', result: null });
    expect(body.messages[0].message).toMatch(
      new RegExp(`^${MESSAGES.internalError.replace(/\./g, '\\.')} \\(reference [0-9a-f-]{36}\\)$`),
    );
    expect(response.body).not.toContain('postgres://');
  });

  it('refuses a route that declares no audience (fail closed)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/test/undeclared' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('reached');
  });

  it('answers an unknown call with a 404 envelope and bad JSON with a 400 envelope', async () => {
    const missing = await t.app.inject({
      method: 'GET',
      url: '/no/such/call',
      headers: { accept: 'application/json' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().status).toBe('ERROR');
    const client = new TestClient(t.app);
    await client.signIn(tenants.customerA.user.email, FIXTURE_PASSWORD);
    const bad = await client.request({
      method: 'PUT',
      url: '/profile',
      headers: { 'content-type': 'application/json', 'x-csrf-token': client.csrf, accept: 'application/json' },
      payload: '{not json',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().status).toBe('ERROR');
  });

  it('marks the session cookie Secure, httpOnly and SameSite=Lax behind https', async () => {
    const client = new TestClient(t.app);
    const response = await client.signIn(tenants.customerA.user.email, FIXTURE_PASSWORD);
    const cookie = response.cookies.find((c) => c.name === 'portal_session');
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' });
  });

  it('serves pages with the CSRF token and the initial data of the signed-in user', async () => {
    const client = new TestClient(t.app);
    await client.signIn(tenants.customerA.admin.email, FIXTURE_PASSWORD);
    const page = await client.open('/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<meta name="_csrf_header" content="X-CSRF-TOKEN">');
    expect(client.csrf).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const json = /<script type="application\/json" id="initial-data">(.*?)<\/script>/.exec(page.body)?.[1];
    const data = JSON.parse(json ?? 'null');
    expect(data.user).toMatchObject({
      email: tenants.customerA.admin.email,
      role: 'ROLE_CUSTOMER_ADMIN_USER',
      boltCustomer: false,
      unpaidInvoices: 0,
    });
    expect(data.user).not.toHaveProperty('passwordHash');
    // Alpha is a customer of the reseller, so it wears the reseller's branding.
    expect(data.branding).toMatchObject({ brandName: 'Resell Backup', appHeaderColour: '#123456' });
    expect(data.version).toBeTruthy();
    expect(data.commitId).toBeTruthy();
  });

  it('escapes initial data so a stored name cannot close the script element', async () => {
    const client = new TestClient(t.app);
    await client.signIn(tenants.customerB.user.email, FIXTURE_PASSWORD);
    await client.json('PUT', '/profile', {
      firstName: '</script><script>alert(1)</script>',
      surname: 'X',
      email: tenants.customerB.user.email,
      contactNumber: '1',
    });
    const page = await client.open('/');
    expect(page.body).not.toContain('</script><script>alert(1)');
  });

  it('answers an unknown page with the app and status 404, and keeps admin pages from customers', async () => {
    const client = new TestClient(t.app);
    await client.signIn(tenants.customerA.superAdmin.email, FIXTURE_PASSWORD);
    expect((await client.open('/no/such/page')).statusCode).toBe(404);
    expect((await client.open('/boltadmin/customers')).statusCode).toBe(404);
    expect((await client.open('/profile')).statusCode).toBe(200);
    const signedOut = await t.app.inject({
      method: 'GET',
      url: '/boltadmin/customers',
      headers: { accept: 'text/html' },
    });
    expect(signedOut.headers.location).toBe('/login');
  });

  it("answers a page outside the caller's audience with 404 (issue #6: account, reseller and admin pages)", async () => {
    const opened = async (email: string, paths: string[]) => {
      const client = new TestClient(t.app);
      await client.signIn(email, FIXTURE_PASSWORD);
      const statuses: Record<string, number> = {};
      for (const path of paths) statuses[path] = (await client.open(path)).statusCode;
      return statuses;
    };
    const paths = [
      '/admin/account',
      '/admin/account/users/1',
      '/admin/mycustomers',
      '/admin/mycustomers/1',
      '/boltadmin/customers/1',
    ];
    expect(await opened(tenants.customerA.user.email, paths)).toEqual({
      '/admin/account': 404,
      '/admin/account/users/1': 404,
      '/admin/mycustomers': 404,
      '/admin/mycustomers/1': 404,
      '/boltadmin/customers/1': 404,
    });
    expect(await opened(tenants.customerA.admin.email, paths)).toEqual({
      '/admin/account': 200,
      '/admin/account/users/1': 200,
      '/admin/mycustomers': 404,
      '/admin/mycustomers/1': 404,
      '/boltadmin/customers/1': 404,
    });
    expect(await opened(tenants.reseller.superAdmin.email, paths)).toEqual({
      '/admin/account': 200,
      '/admin/account/users/1': 200,
      '/admin/mycustomers': 200,
      '/admin/mycustomers/1': 200,
      '/boltadmin/customers/1': 404,
    });
    expect(await opened(tenants.providerAdmin.email, paths)).toEqual({
      '/admin/account': 404,
      '/admin/account/users/1': 404,
      '/admin/mycustomers': 404,
      '/admin/mycustomers/1': 404,
      '/boltadmin/customers/1': 200,
    });
  });
});
