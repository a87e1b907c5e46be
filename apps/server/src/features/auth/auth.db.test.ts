import { MESSAGES, THROTTLE } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditEvents, customers, sessions, signInFailures, users } from '../../db/schema/index.js';
import { signInPost, TestClient } from '../../testing/client.js';
import { FIXTURE_PASSWORD } from '../../testing/fixtures.js';
import { useTestAppWithTenants } from '../../testing/suite.js';
import { sha256 } from './tokens.js';

const ctx = useTestAppWithTenants();
beforeEach(async () => {
  await ctx.t.database.db.delete(signInFailures);
});

const auditTypes = async (email: string) =>
  (await ctx.t.database.db.select().from(auditEvents).where(eq(auditEvents.email, email))).map((e) => e.type);

describe('sign-in (issue #2)', () => {
  it('signs in with the right password, starts a fresh session and audits it', async () => {
    const client = new TestClient(ctx.t.app);
    await client.open('/login');
    expect(client.cookie('portal_session')).toBeUndefined();
    const response = await client.signIn(ctx.tenants.customerA.admin.email, FIXTURE_PASSWORD);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/');
    const cookie = response.cookies.find((c) => c.name === 'portal_session');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    const profile = await client.json('GET', '/profile');
    expect(profile.statusCode).toBe(200);
    expect(profile.json().result.email).toBe(ctx.tenants.customerA.admin.email);
    expect(await auditTypes(ctx.tenants.customerA.admin.email)).toContain('SIGN_IN_SUCCEEDED');
  });

  it('gives a different session id at every sign-in', async () => {
    const one = new TestClient(ctx.t.app);
    const two = new TestClient(ctx.t.app);
    await one.signIn(ctx.tenants.customerA.user.email, FIXTURE_PASSWORD);
    await two.signIn(ctx.tenants.customerA.user.email, FIXTURE_PASSWORD);
    expect(one.cookie('portal_session')).toBeDefined();
    expect(one.cookie('portal_session')).not.toBe(two.cookie('portal_session'));
  });

  it('sends a wrong password back to /login?error and audits the failure', async () => {
    const client = new TestClient(ctx.t.app);
    const response = await client.signIn(ctx.tenants.customerB.user.email, 'wrong password');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/login?error');
    expect(client.cookie('portal_session')).toBeUndefined();
    expect(await auditTypes(ctx.tenants.customerB.user.email)).toContain('SIGN_IN_FAILED');
  });

  it('e-mail matching ignores case', async () => {
    const client = new TestClient(ctx.t.app);
    const response = await client.signIn(ctx.tenants.customerB.admin.email.toUpperCase(), FIXTURE_PASSWORD);
    expect(response.headers.location).toBe('/');
  });

  it('refuses users of a suspended customer with their own message', async () => {
    await ctx.t.database.db
      .update(customers)
      .set({ status: 'SUSPENDED' })
      .where(eq(customers.id, ctx.tenants.customerB.customerId));
    try {
      const client = new TestClient(ctx.t.app);
      const response = await client.signIn(ctx.tenants.customerB.superAdmin.email, FIXTURE_PASSWORD);
      expect(response.headers.location).toBe('/login?error=suspended');
    } finally {
      await ctx.t.database.db
        .update(customers)
        .set({ status: 'ACTIVE' })
        .where(eq(customers.id, ctx.tenants.customerB.customerId));
    }
  });
});

describe('password hashing (issue #2)', () => {
  it('stores argon2id hashes, never the password', async () => {
    const [row] = await ctx.t.database.db.select().from(users).where(eq(users.id, ctx.tenants.customerA.user.id));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row?.passwordHash).not.toContain(FIXTURE_PASSWORD);
  });

  it('does not stall other requests while sign-ins hash', async () => {
    const signIns = Array.from({ length: 6 }, () =>
      new TestClient(ctx.t.app).signIn(ctx.tenants.customerB.user.email, FIXTURE_PASSWORD),
    );
    let healthDoneFirst = false;
    let signInsDone = false;
    const all = Promise.all(signIns).then(() => {
      signInsDone = true;
    });
    await ctx.t.app.inject({ method: 'GET', url: '/health' });
    healthDoneFirst = !signInsDone;
    await all;
    expect(healthDoneFirst).toBe(true);
  });
});

describe('CSRF (issue #2)', () => {
  it('answers a sign-in without the token with 403 and signs nobody in', async () => {
    const client = new TestClient(ctx.t.app);
    await client.open('/login');
    const response = await client.request(
      signInPost({ username: ctx.tenants.customerA.user.email, password: FIXTURE_PASSWORD }),
    );
    expect(response.statusCode).toBe(403);
    expect(response.json().messages[0].message).toBe(MESSAGES.csrfRejected);
    expect(client.cookie('portal_session')).toBeUndefined();
  });

  it('answers a state change with a wrong token with 403 and changes nothing', async () => {
    const client = new TestClient(ctx.t.app);
    await client.signIn(ctx.tenants.customerA.user.email, FIXTURE_PASSWORD);
    const before = (await client.json('GET', '/profile')).json().result;
    client.csrf = 'forged-token';
    const response = await client.json('PUT', '/profile', { ...before, firstName: 'Mallory' });
    expect(response.statusCode).toBe(403);
    const after = (await client.json('GET', '/profile')).json().result;
    expect(after.firstName).toBe(before.firstName);
  });

  it('rejects sign-out without the token, keeping the session', async () => {
    const client = new TestClient(ctx.t.app);
    await client.signIn(ctx.tenants.customerA.user.email, FIXTURE_PASSWORD);
    const response = await client.request({ method: 'POST', url: '/logout' });
    expect(response.statusCode).toBe(403);
    expect((await client.json('GET', '/profile')).statusCode).toBe(200);
  });
});

describe('sign-out (issue #2)', () => {
  it('ends the session and redirects to /login?logout', async () => {
    const client = new TestClient(ctx.t.app);
    await client.signIn(ctx.tenants.customerA.superAdmin.email, FIXTURE_PASSWORD);
    const token = client.cookie('portal_session');
    const response = await client.request({
      method: 'POST',
      url: '/logout',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${client.csrf}`,
    });
    expect(response.headers.location).toBe('/login?logout');
    expect(client.cookie('portal_session')).toBeUndefined();
    // The old cookie is worthless even if replayed.
    const replay = await ctx.t.app.inject({
      method: 'GET',
      url: '/profile',
      headers: { accept: 'application/json', cookie: `portal_session=${token}` },
    });
    expect(replay.statusCode).toBe(401);
    expect(await auditTypes(ctx.tenants.customerA.superAdmin.email)).toContain('SIGNED_OUT');
  });
});

describe('throttling (issue #2)', () => {
  it('slows an account down after repeated failures, with a growing delay and a clear message, then lets it in', async () => {
    const client = new TestClient(ctx.t.app);
    const email = ctx.tenants.customerB.admin.email;
    for (let i = 0; i < THROTTLE.freeAttemptsPerAccount; i++) {
      expect((await client.signIn(email, 'nope')).headers.location).toBe('/login?error');
    }
    const throttled = await client.signIn(email, FIXTURE_PASSWORD);
    expect(throttled.headers.location).toMatch(/^\/login\?error=throttled&wait=\d+$/);
    const firstWait = Number(/wait=(\d+)/.exec(throttled.headers.location as string)?.[1]);
    expect(firstWait).toBeGreaterThan(0);
    expect(client.cookie('portal_session')).toBeUndefined();

    // Another failure after the wait makes the next wait longer.
    ctx.t.clock.advanceMinutes(firstWait / 60 + 0.1);
    await client.signIn(email, 'nope');
    const longer = await client.signIn(email, FIXTURE_PASSWORD);
    const secondWait = Number(/wait=(\d+)/.exec(longer.headers.location as string)?.[1]);
    expect(secondWait).toBeGreaterThan(firstWait);

    // No permanent lock-out: once the wait has passed the right password works.
    ctx.t.clock.advanceMinutes(secondWait / 60 + 0.1);
    expect((await client.signIn(email, FIXTURE_PASSWORD)).headers.location).toBe('/');
    expect(await auditTypes(email)).toContain('SIGN_IN_THROTTLED');
  });

  it('slows an address down that tries many accounts', async () => {
    const client = new TestClient(ctx.t.app);
    for (let i = 0; i < THROTTLE.freeAttemptsPerAddress; i++) {
      expect((await client.signIn(`nobody${i}@nowhere.test`, 'guess')).headers.location).toBe('/login?error');
    }
    const next = await client.signIn(ctx.tenants.customerA.superAdmin.email, FIXTURE_PASSWORD);
    expect(next.headers.location).toMatch(/^\/login\?error=throttled&wait=\d+$/);
  });

  it('the login page text for a throttled attempt names the wait', () => {
    expect(MESSAGES.throttled(4)).toBe('Too many failed sign-in attempts. Please wait 4 seconds and try again.');
  });
});

describe('session expiry (issue #2)', () => {
  it('ends a session idle for longer than the idle timeout', async () => {
    const client = new TestClient(ctx.t.app);
    await client.signIn(ctx.tenants.customerA.admin.email, FIXTURE_PASSWORD);
    ctx.t.clock.advanceMinutes(ctx.t.config.sessionIdleMinutes - 1);
    expect((await client.json('GET', '/profile')).statusCode).toBe(200);
    ctx.t.clock.advanceMinutes(ctx.t.config.sessionIdleMinutes + 1);
    expect((await client.json('GET', '/profile')).statusCode).toBe(401);
  });

  it('ends an active session at its absolute lifetime', async () => {
    const client = new TestClient(ctx.t.app);
    await client.signIn(ctx.tenants.customerA.admin.email, FIXTURE_PASSWORD);
    const token = client.cookie('portal_session');
    const steps = Math.ceil((ctx.t.config.sessionMaxHours * 60) / 20);
    let status = 200;
    for (let i = 0; i < steps + 1 && status === 200; i++) {
      ctx.t.clock.advanceMinutes(20);
      status = (await client.json('GET', '/profile')).statusCode;
    }
    expect(status).toBe(401);
    const id = sha256(token ?? '');
    expect(await ctx.t.database.db.select().from(sessions).where(eq(sessions.id, id))).toEqual([]);
  });

  it('sends a navigation without a session to the sign-in page', async () => {
    const response = await ctx.t.app.inject({ method: 'GET', url: '/profile', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/login');
  });
});
