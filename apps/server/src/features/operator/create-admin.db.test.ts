import { describe, expect, it } from 'vitest';
import { TestClient } from '../../testing/client.js';
import { useTestApp } from '../../testing/suite.js';
import { createAdminInputFromArgs, createProviderAdmin } from './create-admin.js';

const ctx = useTestApp();

describe('create-admin command (production first account)', () => {
  it('reads flags and the password from the environment', () => {
    expect(
      createAdminInputFromArgs(
        ['create-admin', '--email', 'ops@example.com', '--first-name', 'Ops', '--surname', 'Team'],
        {
          ADMIN_PASSWORD: 's3cret-pass',
        },
      ),
    ).toEqual({ email: 'ops@example.com', firstName: 'Ops', surname: 'Team', password: 's3cret-pass' });
  });

  it('creates a provider admin who can sign in and reach the admin area', async () => {
    const result = await createProviderAdmin(ctx.t.database.db, {
      email: 'ops@example.com',
      firstName: 'Ops',
      surname: 'Team',
      password: 'long enough password',
    });
    expect(result.ok).toBe(true);
    const client = new TestClient(ctx.t.app);
    expect((await client.signIn('ops@example.com', 'long enough password')).headers.location).toBe('/');
    expect((await client.open('/boltadmin/customers')).statusCode).toBe(200);
    const page = await client.open('/');
    expect(page.body).toContain('"role":"ROLE_BOLT_ADMIN_USER"');
  });

  it('refuses a missing password, a bad e-mail and a taken e-mail with clear lines', async () => {
    expect(await createProviderAdmin(ctx.t.database.db, { email: 'x', firstName: 'A', surname: 'B' })).toEqual({
      ok: false,
      errors: ['email: Email must be a valid email', 'password: Password is required'],
    });
    expect(
      await createProviderAdmin(ctx.t.database.db, {
        email: 'OPS@example.com',
        firstName: 'A',
        surname: 'B',
        password: 'another password',
      }),
    ).toEqual({ ok: false, errors: ['email: This e-mail address is already in use'] });
  });

  it('refuses names the user form refuses: an invisible or direction-changing character (issue 29)', async () => {
    expect(
      await createProviderAdmin(ctx.t.database.db, {
        email: 'ops2@example.com',
        firstName: '\u200b',
        surname: 'Ops\u202e',
        password: 'another password',
      }),
    ).toEqual({
      ok: false,
      errors: [
        'firstName: First name cannot contain invisible or direction-changing characters',
        'surname: Surname cannot contain invisible or direction-changing characters',
      ],
    });
  });
});
