import { MESSAGES, ROUTES } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../db/schema/index.js';
import { TestClient } from '../testing/client.js';
import { messagesOf, signedInAs } from '../testing/envelope.js';
import { useTestAppWithTenants } from '../testing/suite.js';
import { malformedTextAt } from './well-formed-text.js';

describe('malformedTextAt', () => {
  it('passes well-formed text, emoji (a surrogate pair) and right-to-left text', () => {
    expect(malformedTextAt({ name: 'Zoë 😀 مرحبا', list: ['a', { deep: '👨‍👩‍👧' }], n: 1, none: null })).toBeNull();
  });

  it('names the field of a lone high or low surrogate, in a value or a key, at any depth', () => {
    expect(malformedTextAt({ firstName: 'a\uD800' })).toBe('firstName');
    expect(malformedTextAt({ surname: '\uDC00b' })).toBe('surname');
    expect(malformedTextAt({ items: [{ name: 'ok' }, { name: 'x\uDFFF\uD800' }] })).toBe('items.1.name');
    expect(malformedTextAt({ detail: { ['\uD83D']: 1 } })).toBe('detail');
  });

  it('leaves binary bodies alone (a restic pack is a Buffer, not text)', () => {
    expect(malformedTextAt(Buffer.from([0xed, 0xa0, 0x80]))).toBeNull();
    expect(malformedTextAt({ data: Buffer.from('\uD800') })).toBeNull();
  });

  it('walks a body nested 100,000 deep without overflowing the stack', () => {
    let body: unknown = 'bottom\uD800';
    for (let i = 0; i < 100_000; i++) body = [body];
    expect(malformedTextAt(body)).toMatch(/^0(\.0)+$/);
  });
});

describe('a lone surrogate in a request body (issue 18)', () => {
  const ctx = useTestAppWithTenants();

  it('is refused with a 400 on its field and changes nothing, where it would have been stored as U+FFFD', async () => {
    const client = await signedInAs(ctx.t.app, ctx.tenants.customerA.admin.email);
    const body = {
      firstName: 'Bad\uD800',
      surname: 'Tester',
      email: ctx.tenants.customerA.admin.email,
      contactNumber: '1',
    };
    const response = await client.json('PUT', ROUTES.profile.update.build(), body);
    expect(response.statusCode).toBe(400);
    expect(messagesOf(response)).toEqual([{ fieldName: 'firstName', message: MESSAGES.textNotWellFormed }]);
    const [user] = await ctx.t.database.db.select().from(users).where(eq(users.id, ctx.tenants.customerA.admin.id));
    expect(user?.firstName).not.toContain('\uFFFD');
    expect(user?.firstName).not.toMatch(/^Bad/);
  });

  it('takes an escaped surrogate pair (an emoji spelled \\ud83d\\ude00) as the character it is', async () => {
    const client = await signedInAs(ctx.t.app, ctx.tenants.customerA.admin.email);
    const payload = `{"firstName":"Smile \\ud83d\\ude00","surname":"Tester","email":"${ctx.tenants.customerA.admin.email}","contactNumber":"1"}`;
    const response = await client.request({
      method: 'PUT',
      url: ROUTES.profile.update.build(),
      headers: { 'content-type': 'application/json', 'x-csrf-token': client.csrf, accept: 'application/json' },
      payload,
    });
    expect(response.statusCode, response.body).toBe(200);
    const [user] = await ctx.t.database.db.select().from(users).where(eq(users.id, ctx.tenants.customerA.admin.id));
    expect(user?.firstName).toBe('Smile 😀');
  });

  it("keeps Fastify's JSON checks: a prototype-poisoning body is refused, broken JSON is a 400", async () => {
    const client = await signedInAs(ctx.t.app, ctx.tenants.customerA.admin.email);
    const headers = { 'content-type': 'application/json', 'x-csrf-token': client.csrf, accept: 'application/json' };
    const url = ROUTES.profile.update.build();
    const poisoned = await client.request({ method: 'PUT', url, headers, payload: '{"__proto__":{"admin":true}}' });
    expect(poisoned.statusCode).toBe(400);
    const broken = await client.request({ method: 'PUT', url, headers, payload: '{"firstName":' });
    expect(broken.statusCode).toBe(400);
  });

  it('is checked after the access checks: a visitor is refused, not told about the field', async () => {
    const response = await new TestClient(ctx.t.app).json('PUT', ROUTES.profile.update.build(), {
      firstName: '\uD800',
    });
    expect([401, 403]).toContain(response.statusCode);
    expect(messagesOf(response).map((m) => m.fieldName)).toEqual(['']);
  });
});
