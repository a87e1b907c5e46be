import {
  API_TOKEN_LIMITS,
  API_TOKEN_MESSAGES,
  type ApiTokenCreated,
  type ApiTokenRow,
  type ApiTokenScope,
  fieldRequired,
  ROUTES,
  withQuery,
} from '@portal/domain';
import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { apiTokens, auditEvents, userMfa, users } from '../../db/schema/index.js';
import type { TestClient } from '../../testing/client.js';
import { messagesOf, resultOf, signedInAs } from '../../testing/envelope.js';
import { useTestAppWithTenants } from '../../testing/suite.js';

const ctx = useTestAppWithTenants();

async function createToken(client: TestClient, scope: ApiTokenScope = 'READ_WRITE', name = 'script') {
  const response = await client.json('POST', ROUTES.apiTokens.create.build(), { name, scope, expiresInDays: 7 });
  return resultOf<ApiTokenCreated>(response);
}

/** A call with only the token: no cookie, no CSRF header. */
function withToken(token: string, method: InjectOptions['method'], url: string, payload?: unknown, extra = {}) {
  return ctx.t.app.inject({
    method,
    url,
    headers: { accept: 'application/json', authorization: `Bearer ${token}`, ...extra },
    ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
  });
}

const profileBody = (email: string, firstName: string) => ({ firstName, surname: 'Tester', email, contactNumber: '1' });

describe('personal API tokens (issue 18)', () => {
  it('creates a token shown once, stores only its hash, lists it without the secret, and audits it', async () => {
    const client = await signedInAs(ctx.t.app, ctx.tenants.customerA.user.email);
    const created = await createToken(client, 'READ_ONLY', 'nightly report');
    expect(created.token).toMatch(/^cpt_[A-Za-z0-9_-]{43}$/);
    expect(created.row).toMatchObject({ name: 'nightly report', scope: 'READ_ONLY', lastUsedAt: null });
    expect(created.token.startsWith(created.row.hint)).toBe(true);
    const expires = new Date(created.row.expiresAt).getTime() - new Date(created.row.createdAt).getTime();
    expect(expires).toBe(7 * 86_400_000);

    const listed = resultOf<{ elements: ApiTokenRow[] }>(await client.json('GET', ROUTES.apiTokens.list.build()));
    expect(listed.elements.map((row) => row.id)).toContain(created.row.id);
    expect(JSON.stringify(listed)).not.toContain(created.token);

    const [stored] = await ctx.t.database.db.select().from(apiTokens).where(eq(apiTokens.id, created.row.id));
    expect(stored?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(created.token);
    const audited = await ctx.t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.type, 'API_TOKEN_CREATED'), eq(auditEvents.userId, ctx.tenants.customerA.user.id)));
    expect(audited).toHaveLength(1);
    expect(JSON.stringify(audited)).not.toContain(created.token);
  });

  it('refuses a name, scope or expiry that is not valid, on its field', async () => {
    const client = await signedInAs(ctx.t.app, ctx.tenants.customerA.user.email);
    const response = await client.json('POST', ROUTES.apiTokens.create.build(), {
      name: ' ',
      scope: 'ADMIN',
      expiresInDays: 10_000,
    });
    expect(response.statusCode).toBe(400);
    expect(messagesOf(response)).toEqual([
      { fieldName: 'name', message: fieldRequired('Name') },
      { fieldName: 'scope', message: API_TOKEN_MESSAGES.scopeRequired },
      { fieldName: 'expiresInDays', message: API_TOKEN_MESSAGES.expiryRequired },
    ]);
  });

  it('works on GET and PUT with the owner’s rights, without CSRF, and records the last use at most once a minute', async () => {
    const client = await signedInAs(ctx.t.app, ctx.tenants.customerA.admin.email);
    const { token, row } = await createToken(client);
    const profile = await withToken(token, 'GET', ROUTES.profile.get.build());
    expect(resultOf<{ email: string }>(profile).email).toBe(ctx.tenants.customerA.admin.email);
    expect(profile.headers['set-cookie']).toBeUndefined();

    const put = await withToken(token, 'PUT', ROUTES.profile.update.build(), {
      ...profileBody(ctx.tenants.customerA.admin.email, 'Scripted'),
    });
    expect(put.statusCode, put.body).toBe(200);
    const [user] = await ctx.t.database.db.select().from(users).where(eq(users.id, ctx.tenants.customerA.admin.id));
    expect(user?.firstName).toBe('Scripted');
    await ctx.t.app.auditSettled();
    const recorded = await ctx.t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.type, 'profile.update'), eq(auditEvents.userId, ctx.tenants.customerA.admin.id)));
    expect(recorded.map((r) => r.detail)).toEqual([expect.objectContaining({ apiTokenId: row.id })]);

    const lastUsed = async () =>
      (await ctx.t.database.db.select().from(apiTokens).where(eq(apiTokens.id, row.id)))[0]?.lastUsedAt?.getTime();
    const first = await lastUsed();
    expect(first).toBeDefined();
    ctx.t.clock.advanceMinutes(0.5);
    await withToken(token, 'GET', ROUTES.profile.get.build());
    expect(await lastUsed()).toBe(first);
    ctx.t.clock.advanceMinutes(1);
    await withToken(token, 'GET', ROUTES.profile.get.build());
    expect(await lastUsed()).toBeGreaterThan(first ?? 0);
  });

  it('refuses a read-only token on POST, PUT and DELETE with a clear 403, and changes nothing', async () => {
    const client = await signedInAs(ctx.t.app, ctx.tenants.customerA.superAdmin.email);
    const { token } = await createToken(client, 'READ_ONLY');
    expect((await withToken(token, 'GET', ROUTES.users.list.build())).statusCode).toBe(200);
    const put = await withToken(token, 'PUT', ROUTES.profile.update.build(), {
      ...profileBody(ctx.tenants.customerA.superAdmin.email, 'Changed'),
    });
    expect(put.statusCode).toBe(403);
    expect(put.json()).toMatchObject({ status: 'ERROR', responseSummaryCode: 'FORBIDDEN', result: null });
    expect(messagesOf(put)).toEqual([{ fieldName: '', message: API_TOKEN_MESSAGES.readOnlyToken }]);
    const del = await withToken(token, 'DELETE', ROUTES.users.remove.build({ userId: ctx.tenants.customerA.user.id }));
    expect(del.statusCode).toBe(403);
    const [user] = await ctx.t.database.db
      .select()
      .from(users)
      .where(eq(users.id, ctx.tenants.customerA.superAdmin.id));
    expect(user?.firstName).not.toBe('Changed');
    const [member] = await ctx.t.database.db.select().from(users).where(eq(users.id, ctx.tenants.customerA.user.id));
    expect(member).toBeDefined();
  });

  it('refuses a read-only token on a GET that changes state (setting the default storage account)', async () => {
    const client = await signedInAs(ctx.t.app, ctx.tenants.providerAdmin.email);
    const { token } = await createToken(client, 'READ_ONLY');
    const answer = await withToken(
      token,
      'GET',
      withQuery(ROUTES.storageAccounts.setDefault.build(), { storageAccountId: 1 }),
    );
    expect(answer.statusCode).toBe(403);
    expect(messagesOf(answer)).toEqual([{ fieldName: '', message: API_TOKEN_MESSAGES.readOnlyToken }]);
  });

  it('gives exactly the owner’s rights: a customer user’s token reaches no admin route and no other tenant', async () => {
    const client = await signedInAs(ctx.t.app, ctx.tenants.customerA.user.email);
    const { token } = await createToken(client);
    expect((await withToken(token, 'GET', ROUTES.users.list.build())).statusCode).toBe(403);
    expect((await withToken(token, 'GET', ROUTES.customers.lists.customers.build())).statusCode).toBe(403);
    const other = await withToken(token, 'GET', ROUTES.users.detail.build({ userId: ctx.tenants.customerB.user.id }));
    expect(other.statusCode).toBe(403);

    const reseller = await signedInAs(ctx.t.app, ctx.tenants.reseller.superAdmin.email);
    const resellerToken = (await createToken(reseller, 'READ_ONLY')).token;
    const own = ROUTES.customers.reseller.detail.build({ customerId: ctx.tenants.customerA.customerId });
    expect((await withToken(resellerToken, 'GET', own)).statusCode).toBe(200);
    const notOwn = ROUTES.customers.reseller.detail.build({ customerId: ctx.tenants.customerB.customerId });
    expect([403, 404]).toContain((await withToken(resellerToken, 'GET', notOwn)).statusCode);
  });

  it('ignores a session cookie sent with a token: the token alone decides', async () => {
    const provider = await signedInAs(ctx.t.app, ctx.tenants.providerAdmin.email);
    const userClient = await signedInAs(ctx.t.app, ctx.tenants.customerA.user.email);
    const { token } = await createToken(userClient, 'READ_ONLY');
    const headers = { cookie: provider.cookieHeader(), 'x-csrf-token': provider.csrf };
    const admin = await withToken(token, 'GET', ROUTES.customers.lists.customers.build(), undefined, headers);
    expect(admin.statusCode).toBe(403);
    const who = await withToken(token, 'GET', ROUTES.profile.get.build(), undefined, headers);
    expect(resultOf<{ email: string }>(who).email).toBe(ctx.tenants.customerA.user.email);
    const write = await withToken(
      token,
      'PUT',
      ROUTES.profile.update.build(),
      profileBody(ctx.tenants.customerA.user.email, 'Cookie'),
      headers,
    );
    expect(write.statusCode).toBe(403);
  });

  it('cannot list, make or revoke tokens: that needs a session', async () => {
    const client = await signedInAs(ctx.t.app, ctx.tenants.customerB.admin.email);
    const { token, row } = await createToken(client);
    for (const [method, url] of [
      ['GET', ROUTES.apiTokens.list.build()],
      ['POST', ROUTES.apiTokens.create.build()],
      ['DELETE', ROUTES.apiTokens.revoke.build({ tokenId: row.id })],
    ] as const) {
      const response = await withToken(token, method, url, method === 'POST' ? { name: 'x' } : undefined);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(messagesOf(response)).toEqual([{ fieldName: '', message: API_TOKEN_MESSAGES.sessionRequired }]);
    }
    // Nor two-factor sign-in: a leaked token must not enrol its holder's authenticator or take the recovery codes.
    for (const entry of [ROUTES.mfa.status, ROUTES.mfa.start, ROUTES.mfa.confirm, ROUTES.mfa.disable]) {
      const response = await withToken(token, entry.method, entry.build(), entry.method === 'GET' ? undefined : {});
      expect(response.statusCode, `${entry.method} ${entry.path}`).toBe(403);
      expect(messagesOf(response)).toEqual([{ fieldName: '', message: API_TOKEN_MESSAGES.sessionRequired }]);
    }
    // Refused before its body is looked at: a body the server would refuse anyway (a lone surrogate, spelt as JSON
    // escapes) still gets the token's refusal, not the body's.
    const broken = await withToken(token, 'POST', ROUTES.apiTokens.create.build(), '{"name":"\\ud800"}', {
      'content-type': 'application/json',
    });
    expect(broken.statusCode).toBe(403);
    expect(messagesOf(broken)).toEqual([{ fieldName: '', message: API_TOKEN_MESSAGES.sessionRequired }]);
    expect(
      await ctx.t.database.db.select().from(userMfa).where(eq(userMfa.userId, ctx.tenants.customerB.admin.id)),
    ).toEqual([]);
    expect(
      await ctx.t.database.db.select().from(apiTokens).where(eq(apiTokens.userId, ctx.tenants.customerB.admin.id)),
    ).toHaveLength(1);
  });

  it('refuses unknown and malformed tokens with 401, and a token on the live channel', async () => {
    for (const header of ['Bearer cpt_unknown', 'Bearer', 'Bearer a b', `Bearer ${'x'.repeat(500)}`]) {
      const response = await ctx.t.app.inject({
        method: 'GET',
        url: ROUTES.profile.get.build(),
        headers: { accept: 'application/json', authorization: header },
      });
      expect(response.statusCode, header).toBe(401);
      expect(response.json()).toMatchObject({ status: 'ERROR', responseSummaryCode: 'UNAUTHENTICATED' });
    }
    const client = await signedInAs(ctx.t.app, ctx.tenants.customerB.user.email);
    const { token } = await createToken(client);
    expect((await withToken(token, 'GET', ROUTES.live.customer.build())).statusCode).toBe(401);
  });

  it('revokes the own token only (another user’s answers 404 and keeps working), and a revoked token is refused', async () => {
    const owner = await signedInAs(ctx.t.app, ctx.tenants.customerB.superAdmin.email);
    const other = await signedInAs(ctx.t.app, ctx.tenants.customerA.superAdmin.email);
    const { token, row } = await createToken(owner);
    const foreign = await other.json('DELETE', ROUTES.apiTokens.revoke.build({ tokenId: row.id }));
    expect(foreign.statusCode).toBe(404);
    expect((await withToken(token, 'GET', ROUTES.profile.get.build())).statusCode).toBe(200);

    expect((await owner.json('DELETE', ROUTES.apiTokens.revoke.build({ tokenId: row.id }))).statusCode).toBe(200);
    expect((await withToken(token, 'GET', ROUTES.profile.get.build())).statusCode).toBe(401);
    const audited = await ctx.t.database.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.type, 'API_TOKEN_REVOKED'), eq(auditEvents.userId, ctx.tenants.customerB.superAdmin.id)),
      );
    expect(audited).toHaveLength(1);
  });

  it('refuses a token whose owner may no longer sign in', async () => {
    const client = await signedInAs(ctx.t.app, ctx.tenants.customerB.user.email);
    const { token } = await createToken(client);
    await ctx.t.database.db
      .update(users)
      .set({ status: 'INACTIVE' })
      .where(eq(users.id, ctx.tenants.customerB.user.id));
    try {
      expect((await withToken(token, 'GET', ROUTES.profile.get.build())).statusCode).toBe(401);
    } finally {
      await ctx.t.database.db
        .update(users)
        .set({ status: 'ACTIVE' })
        .where(eq(users.id, ctx.tenants.customerB.user.id));
    }
  });

  it(`allows at most ${API_TOKEN_LIMITS.maxPerUser} live tokens a user`, async () => {
    const client = await signedInAs(ctx.t.app, ctx.tenants.reseller.superAdmin.email);
    const live = (await client.json('GET', ROUTES.apiTokens.list.build())).json().result.elements.length;
    for (let i = live; i < API_TOKEN_LIMITS.maxPerUser; i++) await createToken(client, 'READ_ONLY', `t${i}`);
    const refused = await client.json('POST', ROUTES.apiTokens.create.build(), {
      name: 'one too many',
      scope: 'READ_ONLY',
      expiresInDays: 7,
    });
    expect(refused.statusCode).toBe(409);
    expect(messagesOf(refused)).toEqual([{ fieldName: '', message: API_TOKEN_MESSAGES.tooMany }]);
  });

  // Last: it moves the clock past every session's idle time.
  it('refuses an expired token with 401', async () => {
    const client = await signedInAs(ctx.t.app, ctx.tenants.customerA.admin.email);
    const { token } = await createToken(client);
    expect((await withToken(token, 'GET', ROUTES.profile.get.build())).statusCode).toBe(200);
    ctx.t.clock.advanceMinutes(7 * 24 * 60 + 1);
    expect((await withToken(token, 'GET', ROUTES.profile.get.build())).statusCode).toBe(401);
  });
});
