/**
 * Control characters in text fields (a NUL byte above all, which PostgreSQL cannot store in text) are a
 * field error like any other invalid input, never a 500, on every form that writes or looks up text.
 */
import { fieldNotValid } from '@portal/domain';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { customers, users } from '../db/schema/index.js';
import { signInPost, TestClient } from '../testing/client.js';
import { FIXTURE_PASSWORD } from '../testing/fixtures.js';
import { useTestAppWithTenants } from '../testing/suite.js';

const ctx = useTestAppWithTenants();

async function signedIn(email: string): Promise<TestClient> {
  const client = new TestClient(ctx.t.app);
  expect((await client.signIn(email, FIXTURE_PASSWORD)).headers.location).toBe('/');
  return client;
}

/** The field messages of a 400 answer. */
function fieldErrors(response: LightMyRequestResponse): Record<string, string> {
  expect(response.statusCode, response.body).toBe(400);
  const messages = response.json().messages as Array<{ fieldName: string; message: string }>;
  return Object.fromEntries(messages.map((m) => [m.fieldName, m.message]));
}

const CONTROL_CHARACTERS = ['\u0000', '\u0007', '\u001b', '\u007f', '\u0085'];

describe('control characters in text fields', () => {
  it('the profile answers a field error on the field and keeps the stored name', async () => {
    const { email } = ctx.tenants.customerA.user;
    const client = await signedIn(email);
    for (const control of CONTROL_CHARACTERS) {
      const response = await client.json('PUT', '/profile', {
        firstName: `Ana${control}`,
        surname: 'Silva',
        email,
        contactNumber: `555${control}0100`,
      });
      expect(fieldErrors(response), JSON.stringify(control)).toEqual({
        firstName: fieldNotValid('First name'),
        contactNumber: fieldNotValid('Contact number'),
      });
    }
    const [row] = await ctx.t.database.db.select().from(users).where(eq(users.id, ctx.tenants.customerA.user.id));
    expect(row?.firstName).not.toContain('Ana');
  });

  it('adding a user answers a field error on each field and adds nobody', async () => {
    const client = await signedIn(ctx.tenants.customerA.superAdmin.email);
    const response = await client.json('POST', '/admin/account/users', {
      firstName: 'Nul\u0000',
      surname: 'Byte\u0000',
      email: 'nul\u0000@contoso.test',
      contactNumber: '\u00005',
      password: 'long enough',
      confirmPassword: 'long enough',
      readOnly: false,
      role: 'ROLE_CUSTOMER_USER',
    });
    expect(fieldErrors(response)).toEqual({
      firstName: fieldNotValid('First name'),
      surname: fieldNotValid('Surname'),
      email: 'Email must be a valid email',
      contactNumber: fieldNotValid('Contact number'),
    });
    expect(await ctx.t.database.db.select().from(users).where(eq(users.surname, 'Byte'))).toEqual([]);
  });

  it('the account page answers a field error on the company name and keeps it', async () => {
    const client = await signedIn(ctx.tenants.customerA.superAdmin.email);
    const response = await client.json('PUT', '/admin/account', {
      companyName: 'Contoso\u0000',
      userIdToBeAdmin: ctx.tenants.customerA.superAdmin.id,
      cpanelPluginEnabled: false,
    });
    expect(fieldErrors(response)).toEqual({ companyName: fieldNotValid('Company name') });
    const [row] = await ctx.t.database.db
      .select()
      .from(customers)
      .where(eq(customers.id, ctx.tenants.customerA.customerId));
    expect(row?.companyName).not.toContain('\u0000');
  });

  it('sign-in answers as for any invalid form: back to the sign-in page with an error', async () => {
    const client = new TestClient(ctx.t.app);
    await client.open('/login');
    for (const [username, password] of [
      [`${ctx.tenants.customerA.user.email}\u0000`, FIXTURE_PASSWORD],
      [ctx.tenants.customerA.user.email, `${FIXTURE_PASSWORD}\u0000`],
    ] as const) {
      const response = await client.request(
        signInPost({ username, password, _csrf: client.csrf }, { accept: 'text/html' }),
      );
      expect(response.statusCode, response.body).toBe(302);
      expect(response.headers.location).toBe('/login?error');
    }
  });
});
