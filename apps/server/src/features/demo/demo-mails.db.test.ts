import { MESSAGES } from '@portal/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';

/**
 * The demo mail viewer shows every mail the demo sent, password reset links included, so it is a way into
 * every account: only a signed-in provider admin may read it, and only in demo mode.
 */

let demo: TestApp;
let plain: TestApp;
let tenants: Tenants;

beforeAll(async () => {
  demo = await createTestApp({ DEMO: 'true' });
  plain = await createTestApp({ DEMO: 'false' });
  tenants = await createTenants(demo.database.db);
  await createTenants(plain.database.db);
});
afterAll(async () => {
  await demo?.close();
  await plain?.close();
});

async function signedIn(app: TestApp, email: string) {
  const client = new TestClient(app.app);
  const response = await client.signIn(email, FIXTURE_PASSWORD);
  expect(response.headers.location).toBe('/');
  return client;
}

async function anonymous(app: TestApp) {
  const client = new TestClient(app.app);
  await client.open('/login');
  return client;
}

/** Asks for a reset link of the provider admin's account, as anyone may, and waits for its mail. */
async function resetMailOfProviderAdmin(): Promise<void> {
  const visitor = await anonymous(demo);
  const response = await visitor.json('POST', '/forgot-password', { email: tenants.providerAdmin.email });
  expect(response.json().result.message).toBe(MESSAGES.resetMailSent);
  for (let i = 0; i < 100; i++) {
    if (demo.mails.list().some((m) => m.to.includes(tenants.providerAdmin.email))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no reset mail');
}

describe('GET /demo/mails', () => {
  it('hands the caught mails to a signed-in provider admin and to nobody else', async () => {
    await resetMailOfProviderAdmin();
    const visitor = await anonymous(demo);
    const refusedVisitor = await visitor.json('GET', '/demo/mails');
    expect(refusedVisitor.statusCode).toBe(401);
    expect(refusedVisitor.body).not.toContain('reset-password');
    for (const email of [
      tenants.reseller.superAdmin.email,
      tenants.customerA.superAdmin.email,
      tenants.customerA.admin.email,
      tenants.customerA.user.email,
    ]) {
      const refused = await (await signedIn(demo, email)).json('GET', '/demo/mails');
      expect(refused.statusCode, email).toBe(403);
      expect(refused.body).not.toContain('reset-password');
    }

    const provider = await signedIn(demo, tenants.providerAdmin.email);
    const mails = await provider.json('GET', '/demo/mails');
    expect(mails.statusCode).toBe(200);
    expect(mails.json().result.elements[0]).toMatchObject({ to: expect.stringContaining(tenants.providerAdmin.email) });
    expect(mails.json().result.elements[0].text).toContain('/reset-password?token=');
  });

  it('opens the mail viewer page for the provider admin only: visitors go to sign in, others get not found', async () => {
    expect((await (await anonymous(demo)).open('/demo/mails')).headers.location).toBe('/login');
    const user = await signedIn(demo, tenants.customerA.superAdmin.email);
    expect((await user.open('/demo/mails')).statusCode).toBe(404);
    const provider = await signedIn(demo, tenants.providerAdmin.email);
    expect((await provider.open('/demo/mails')).statusCode).toBe(200);
  });

  it('does not exist outside demo mode, not even for the provider admin', async () => {
    const provider = await signedIn(plain, tenants.providerAdmin.email);
    expect((await provider.json('GET', '/demo/mails')).statusCode).toBe(404);
    expect((await provider.open('/demo/mails')).statusCode).toBe(404);
  });
});
