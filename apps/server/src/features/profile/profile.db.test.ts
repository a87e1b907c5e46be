import { MESSAGES, mailTextPart, signInEmailChangedMail, THROTTLE } from '@portal/domain';
import { describe, expect, it } from 'vitest';
import { signInFailures } from '../../db/schema/index.js';
import { TestClient } from '../../testing/client.js';
import { messagesOf } from '../../testing/envelope.js';
import { FIXTURE_PASSWORD } from '../../testing/fixtures.js';
import { FIXTURE_RESELLER_BRAND } from '../../testing/mail.js';
import { useTestAppWithTenants } from '../../testing/suite.js';

const ctx = useTestAppWithTenants();

const profileOf = (email: string) => ({ firstName: 'Ana', surname: 'Silva', email, contactNumber: '+351 555 0101' });

describe('profile (issue #2)', () => {
  it('shows and saves the own name, e-mail and contact number', async () => {
    const client = new TestClient(ctx.t.app);
    await client.signIn(ctx.tenants.customerA.user.email, FIXTURE_PASSWORD);
    const saved = await client.json('PUT', '/profile', profileOf(ctx.tenants.customerA.user.email));
    expect(saved.statusCode).toBe(200);
    const shown = (await client.json('GET', '/profile')).json().result;
    expect(shown).toMatchObject({
      firstName: 'Ana',
      surname: 'Silva',
      contactNumber: '+351 555 0101',
      roleName: 'User',
    });
    expect(shown).not.toHaveProperty('passwordHash');
  });

  it('puts validation messages on their fields and keeps the stored data', async () => {
    const client = new TestClient(ctx.t.app);
    await client.signIn(ctx.tenants.customerA.admin.email, FIXTURE_PASSWORD);
    const before = (await client.json('GET', '/profile')).json().result;
    const response = await client.json('PUT', '/profile', {
      firstName: '',
      surname: 'x'.repeat(51),
      email: 'not-an-email',
      contactNumber: '1',
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.status).toBe('ERROR');
    expect(body.messages).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ fieldName: 'firstName', message: 'First name is required' }),
        expect.objectContaining({ fieldName: 'surname', message: 'Surname must be at most 50 characters' }),
        expect.objectContaining({ fieldName: 'email', message: 'Email must be a valid email' }),
      ]),
    );
    expect((await client.json('GET', '/profile')).json().result).toEqual(before);
  });

  it("refuses another user's e-mail address on the email field", async () => {
    const client = new TestClient(ctx.t.app);
    await client.signIn(ctx.tenants.customerB.user.email, FIXTURE_PASSWORD);
    const response = await client.json('PUT', '/profile', {
      ...profileOf(ctx.tenants.customerA.superAdmin.email.toUpperCase()),
      currentPassword: FIXTURE_PASSWORD,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().messages[0]).toMatchObject({ fieldName: 'email', message: MESSAGES.emailTaken });
  });

  it('changes the sign-in e-mail only with the current password, on its field', async () => {
    const { email } = ctx.tenants.customerB.superAdmin;
    const client = new TestClient(ctx.t.app);
    await client.signIn(email, FIXTURE_PASSWORD);
    const before = ctx.t.lastMailId();
    const missing = await client.json('PUT', '/profile', profileOf('taken.over@attacker.test'));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().messages).toEqual([
      expect.objectContaining({ fieldName: 'currentPassword', message: 'Current password is required' }),
    ]);
    const wrong = await client.json('PUT', '/profile', {
      ...profileOf('taken.over@attacker.test'),
      currentPassword: 'guess',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().messages).toEqual([
      expect.objectContaining({ fieldName: 'currentPassword', message: MESSAGES.currentPasswordWrong }),
    ]);
    expect((await client.json('GET', '/profile')).json().result.email).toBe(email);
    // The same address in other letters is no change: no password, no mail.
    expect((await client.json('PUT', '/profile', profileOf(email.toUpperCase()))).statusCode).toBe(200);
    expect((await client.json('PUT', '/profile', profileOf(email))).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect(ctx.t.lastMailId()).toBe(before);
  });

  it('changes the sign-in e-mail with the current password and tells the old address', async () => {
    const old = ctx.tenants.customerA.user.email;
    const client = new TestClient(ctx.t.app);
    await client.signIn(old, FIXTURE_PASSWORD);
    expect((await client.json('PUT', '/profile', profileOf(old))).statusCode).toBe(200);
    const before = ctx.t.lastMailId();
    const changed = await client.json('PUT', '/profile', {
      ...profileOf('ana.new@contoso.test'),
      currentPassword: FIXTURE_PASSWORD,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().result.email).toBe('ana.new@contoso.test');
    expect((await new TestClient(ctx.t.app).signIn('ana.new@contoso.test', FIXTURE_PASSWORD)).headers.location).toBe(
      '/',
    );
    expect((await new TestClient(ctx.t.app).signIn(old, FIXTURE_PASSWORD)).headers.location).toBe('/login?error');

    const mail = await ctx.t.waitForMail(old, before);
    const expected = signInEmailChangedMail(FIXTURE_RESELLER_BRAND.name, 'Ana', {
      newEmail: 'ana.new@contoso.test',
      at: ctx.t.clock.now,
    });
    expect(mail).toMatchObject({
      to: old,
      subject: expected.subject,
      text: mailTextPart(expected, FIXTURE_RESELLER_BRAND),
    });
    expect(mail.text).toContain('ana.new@contoso.test');
    expect(mail.text).toContain('If you did not make this change');
    expect(ctx.t.mails.list().filter((m) => m.id > before && m.to.includes('ana.new@contoso.test'))).toEqual([]);

    // Back to the old address, so the other tests find the user as they left it.
    const back = await client.json('PUT', '/profile', { ...profileOf(old), currentPassword: FIXTURE_PASSWORD });
    expect(back.statusCode).toBe(200);
  });

  it('checks the current password under the sign-in throttle: a session guesses no faster than the sign-in form', async () => {
    const client = new TestClient(ctx.t.app);
    await client.signIn(ctx.tenants.customerA.superAdmin.email, FIXTURE_PASSWORD);
    const change = (currentPassword: string) =>
      client.json('PUT', '/profile/password', {
        currentPassword,
        password: 'throttled 1',
        confirmPassword: 'throttled 1',
      });
    for (let i = 0; i < THROTTLE.freeAttemptsPerAccount; i++) expect((await change(`guess ${i}`)).statusCode).toBe(400);
    const throttled = await change(FIXTURE_PASSWORD);
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json().messages[0]).toMatchObject({ fieldName: 'currentPassword' });
    ctx.t.clock.advanceMinutes(60);
    await client.signIn(ctx.tenants.customerA.superAdmin.email, FIXTURE_PASSWORD);
    expect((await change(FIXTURE_PASSWORD)).statusCode).toBe(200);
    await ctx.t.database.db.delete(signInFailures);
  });

  it('changes the password only with the current one, and ends the other sessions', async () => {
    const email = ctx.tenants.customerB.admin.email;
    const other = new TestClient(ctx.t.app);
    await other.signIn(email, FIXTURE_PASSWORD);
    const client = new TestClient(ctx.t.app);
    await client.signIn(email, FIXTURE_PASSWORD);

    const changeTo = (currentPassword: string, confirmPassword: string) =>
      client.json('PUT', '/profile/password', { currentPassword, password: 'new password 1', confirmPassword });
    const wrong = await changeTo('guess', 'new password 1');
    expect(wrong.statusCode).toBe(400);
    expect(messagesOf(wrong)[0]).toEqual({ fieldName: 'currentPassword', message: MESSAGES.currentPasswordWrong });
    const mismatch = await changeTo(FIXTURE_PASSWORD, 'new password 2');
    expect(messagesOf(mismatch)[0]).toEqual({ fieldName: 'confirmPassword', message: MESSAGES.passwordsDoNotMatch });

    const changed = await changeTo(FIXTURE_PASSWORD, 'new password 1');
    expect(changed.statusCode).toBe(200);
    expect((await client.json('GET', '/profile')).statusCode).toBe(200);
    expect((await other.json('GET', '/profile')).statusCode).toBe(401);
    expect((await new TestClient(ctx.t.app).signIn(email, 'new password 1')).headers.location).toBe('/');

    const activity = (await client.json('GET', '/profile/activity?page=0&size=10')).json().result;
    expect(activity.elements.map((e: { type: string }) => e.type)).toContain('PASSWORD_CHANGED');
  });
});
