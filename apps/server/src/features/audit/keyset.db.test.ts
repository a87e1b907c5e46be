/**
 * Keyset paging of the audit trail (issue 33 item 6): pages by cursor hold what the page numbers hold, over records
 * that tie in time (microseconds included); a cursor of one tenant's trail reads nothing of another's.
 */
import {
  type AuditRow,
  CURSOR_MESSAGES,
  type CursorPaged,
  type Envelope,
  encodeCursor,
  ROUTES,
  withQuery,
} from '@portal/domain';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';

let t: TestApp;
let tenants: Tenants;
let superA: TestClient;
let superB: TestClient;
let provider: TestClient;

const signedIn = async (email: string) => {
  const client = new TestClient(t.app);
  const response = await client.signIn(email, FIXTURE_PASSWORD);
  expect(response.headers.location, `sign-in of ${email}`).toBe('/');
  return client;
};

function pageOf(response: LightMyRequestResponse): CursorPaged<AuditRow> {
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as Envelope<CursorPaged<AuditRow>>).result as CursorPaged<AuditRow>;
}

async function walkByCursor(client: TestClient, path: string, size: number): Promise<number[]> {
  const ids: number[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 500; guard++) {
    const page: CursorPaged<AuditRow> = pageOf(
      await client.json('GET', withQuery(path, { size, ...(cursor ? { cursor } : {}) })),
    );
    ids.push(...page.elements.map((row) => row.id));
    cursor = page.nextCursor;
    if (!cursor) return ids;
  }
  throw new Error('the cursor never ended');
}

async function walkByPage(client: TestClient, path: string, size: number): Promise<number[]> {
  const first = pageOf(await client.json('GET', withQuery(path, { size, page: 0 })));
  const ids = first.elements.map((row) => row.id);
  for (let page = 1; page < first.totalPages; page++) {
    ids.push(...pageOf(await client.json('GET', withQuery(path, { size, page }))).elements.map((row) => row.id));
  }
  return ids;
}

/** A tenant's records newest first, straight from the table. */
const recordsOf = async (customerId: number) =>
  rowsOf<{ id: number }>(
    await t.database.db.execute(
      sql`select id from audit_events where customer_id = ${customerId} order by at desc, id desc`,
    ),
  ).map((row) => Number(row.id));

beforeAll(async () => {
  t = await createTestApp();
  tenants = await createTenants(t.database.db);
  superA = await signedIn(tenants.customerA.superAdmin.email);
  superB = await signedIn(tenants.customerB.superAdmin.email);
  provider = await signedIn(tenants.providerAdmin.email);
  // Each tenant's records at four instants, so most tie with others; two of the instants carry microseconds.
  const instants = [
    '2026-12-01 10:00:00.654321+00',
    '2026-12-01 10:00:00+00',
    '2026-12-01 09:00:00.000001+00',
    '2026-11-30 23:59:59+00',
  ];
  for (const customerId of [tenants.customerA.customerId, tenants.customerB.customerId]) {
    for (let i = 0; i < 23; i++) {
      await t.database.db.execute(sql`
        insert into audit_events (at, type, customer_id, account_customer_id, actor_customer_id, outcome, http_status)
        values (${instants[i % 4]}::timestamptz, 'machines.edit', ${customerId}, ${customerId}, ${customerId},
                'succeeded', 200)`);
    }
  }
  await t.app.auditSettled();
});
afterAll(async () => t.close());

describe('the audit trail by cursor', () => {
  it("walks a tenant's records once each, newest first, as the page numbers do, at every page size", async () => {
    const expected = await recordsOf(tenants.customerA.customerId);
    expect(expected.length).toBeGreaterThanOrEqual(23);
    for (const size of [1, 2, 3, 5, 25, 100]) {
      expect(await walkByCursor(superA, ROUTES.audit.account.path, size), `size ${size}`).toEqual(expected);
      expect(await walkByPage(superA, ROUTES.audit.account.path, size), `size ${size}`).toEqual(expected);
    }
  });

  it("gives another tenant nothing for a tenant's cursor: 400 on the cursor, no records", async () => {
    const first = pageOf(await superA.json('GET', withQuery(ROUTES.audit.account.path, { size: 2 })));
    const cursor = first.nextCursor ?? '';
    expect(cursor).not.toBe('');
    for (const [client, path] of [
      [superB, ROUTES.audit.account.path],
      [provider, ROUTES.audit.provider.path],
    ] as const) {
      const response = await client.json('GET', withQuery(path, { size: 2, cursor }));
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({
        result: null,
        messages: [{ fieldName: 'cursor', message: CURSOR_MESSAGES.otherList }],
      });
    }
    // A cursor made up in A's own scope (it is not signed) still reads A's records only: every query is scoped by
    // the caller, whatever the cursor says.
    const forged = encodeCursor({
      list: 'audit',
      scope: `customer:${tenants.customerA.customerId}`,
      key: '2100-01-01 00:00:00+00',
      id: 0,
    });
    const own = pageOf(await superA.json('GET', withQuery(ROUTES.audit.account.path, { size: 100, cursor: forged })));
    expect(own.elements.every((row) => row.customerId === tenants.customerA.customerId)).toBe(true);
    const provided = pageOf(await provider.json('GET', withQuery(ROUTES.audit.provider.path, { size: 2 })));
    const providerCursor = provided.nextCursor ?? '';
    const refused = await superA.json('GET', withQuery(ROUTES.audit.account.path, { cursor: providerCursor }));
    expect(refused.statusCode).toBe(400);
  });

  it('refuses a cursor that is not one, on its field', async () => {
    const response = await superA.json('GET', withQuery(ROUTES.audit.account.path, { cursor: 'not a cursor' }));
    expect(response.statusCode).toBe(400);
    expect(response.json().messages).toEqual([
      expect.objectContaining({ fieldName: 'cursor', message: CURSOR_MESSAGES.invalid }),
    ]);
  });
});
