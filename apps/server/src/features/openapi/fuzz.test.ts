import {
  type AccessLevel,
  type Actor,
  mayAccess,
  type OpenApiOperationSummary,
  operationsOf,
  ROUTES,
  type Role as UserRole,
} from '@portal/domain';
import { createRandom, type Random } from '@portal/domain/testing/random-tree';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { TestClient } from '../../testing/client.js';
import { signedInAs } from '../../testing/envelope.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';

/**
 * API fuzzing from the OpenAPI document (issue 18): every operation the served document lists, called by every
 * role with generated requests (wrong types, missing required fields, huge strings and numbers, unicode with
 * RTL marks, emoji, NUL and lone surrogates, arrays where objects go, path ids out of range). Every answer must
 * be below 500, carry no stack trace or server path, and be the envelope; and a batch of refused requests
 * must leave every table as it was.
 *
 * Deterministic and bounded for CI: one seeded generator, CASES_ALLOWED requests per operation for each role
 * its audience lets in and CASES_DENIED for the others (they are refused before their input is read). Writes
 * never address an existing row except with a body that must be refused, so no accepted request removes the
 * fixtures the other cases need.
 */
const SEED = 0x18a91;
const CASES_ALLOWED = 5;
const CASES_DENIED = 1;

/** Tables that a refused request may write to by design: session activity, the throttle and the audit trail. */
const TABLES_WRITTEN_BY_REFUSALS = new Set(['sessions', 'sign_in_failures', 'audit_events', 'api_tokens']);

const NASTY_STRINGS = [
  '',
  ' ',
  'x'.repeat(20_000),
  '\u202Eevil\u202C',
  'مرحبا بالعالم',
  '😀👨‍👩‍👧‍👦',
  'a\u0000b',
  '\uD800',
  '\uDFFFx',
  "' or 1=1 --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  '{{7*7}}',
];
const NASTY_NUMBERS = [-1, 0, 1.5, 2 ** 31, 2 ** 53 + 1, 1e308, -1e308, Number.MAX_SAFE_INTEGER];
const NASTY_VALUES: unknown[] = [
  ...NASTY_STRINGS,
  ...NASTY_NUMBERS,
  null,
  true,
  [],
  [1, 'a', null],
  {},
  { nested: { deeper: [{}] } },
];
/** Path segments for an id: out of range, not numbers, or an id nobody has. */
const BAD_IDS = ['0', '-1', '2147483648', '99999999999999999999', '1e3', '1.5', 'abc', '999999', '٣', '%F0%9F%98%80'];
/** The fixtures' rows a GET (or a write whose body must be refused) may address. */
const realIds = (tenants: Tenants): Record<string, number[]> => ({
  customerId: [tenants.customerA.customerId, tenants.customerB.customerId, tenants.reseller.customerId],
  userId: [tenants.customerA.user.id, tenants.customerB.user.id],
});

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; required?: string[] } & Record<
  string,
  unknown
>;

/** A plausible value of a schema: the starting point that one mutation then breaks. */
function plausible(schema: JsonSchema | undefined, random: Random): unknown {
  if (!schema) return 'x';
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return random.pick(schema.enum);
  const anyOf = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (anyOf?.length) return plausible(random.pick(anyOf), random);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [key, plausible(value, random)]),
      );
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return 'x';
  }
}

/** One broken body: the plausible one with a field missing or of a nasty value, or something not an object. */
function brokenBody(schema: JsonSchema | undefined, random: Random): unknown {
  const base = plausible(schema, random);
  const roll = random.next();
  if (roll < 0.15 || !base || typeof base !== 'object' || Array.isArray(base)) {
    return random.pick<unknown>([[], [base], 'text', 42, null, { [random.pick(NASTY_STRINGS)]: 1 }]);
  }
  const body = { ...(base as Record<string, unknown>) };
  const keys = Object.keys(body);
  if (keys.length === 0) return random.pick(NASTY_VALUES);
  const key = random.pick(keys);
  if (roll < 0.3) delete body[key];
  else body[key] = random.pick(NASTY_VALUES);
  return body;
}

/** A path segment of a string; a lone surrogate has no UTF-8, so it becomes the bytes of one (invalid UTF-8). */
function segmentOf(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

function pathOf(operation: OpenApiOperationSummary, random: Random, real: Record<string, number[]>, useReal: boolean) {
  return operation.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => {
    const existing = real[name];
    if (useReal && existing) return String(random.pick(existing));
    if (name.endsWith('Id')) return random.pick(BAD_IDS);
    return segmentOf(random.pick(NASTY_STRINGS.filter((s) => s.length < 100)));
  });
}

function queryOf(operation: OpenApiOperationSummary, random: Random): string {
  const pairs: string[] = [];
  for (const parameter of operation.parameters.filter((p) => p.in === 'query')) {
    if (random.next() < 0.3) continue;
    const values = random.next() < 0.2 ? ['1', '2'] : [String(random.pick(NASTY_VALUES.filter((v) => v !== null)))];
    for (const value of values) pairs.push(`${parameter.name}=${segmentOf(value.slice(0, 2000))}`);
  }
  if (random.next() < 0.2) pairs.push('unknown=1');
  return pairs.length ? `?${pairs.join('&')}` : '';
}

const STACK_TRACE = /\n\s+at .+:\d+:\d+|\bat (?:async )?[\w.<>]+ \(/;
const SERVER_PATH = /\/(?:work|home|usr|app)\/|node_modules|apps\/server|\.ts:\d+/;

function checkAnswer(label: string, response: LightMyRequestResponse): void {
  expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
  expect(STACK_TRACE.test(response.body), `${label} shows a stack trace`).toBe(false);
  expect(SERVER_PATH.test(response.body), `${label} shows a server path`).toBe(false);
  if (!String(response.headers['content-type'] ?? '').includes('json')) return;
  const body = response.json() as Record<string, unknown>;
  expect(body, label).toEqual(
    expect.objectContaining({
      status: expect.stringMatching(/^(OK|ERROR)$/),
      messages: expect.any(Array),
      responseSummaryCode: expect.any(String),
    }),
  );
  expect('result' in body, `${label} has a result`).toBe(true);
}

type Role = 'providerAdmin' | 'resellerAdmin' | 'customerSuperAdmin' | 'customerUser' | 'signedOut' | 'otherTenant';

let t: TestApp;
let tenants: Tenants;
let document: unknown;
const clients = new Map<Role, TestClient>();
/** Which roles an access level lets in: these get the full number of cases. */
let allowed: (operation: OpenApiOperationSummary, role: Role) => boolean;

/** One digest per table of everything in it, to compare before and after refused requests. */
async function digest(): Promise<Record<string, string>> {
  const tables = rowsOf<{ name: string }>(
    await t.database.db.execute(
      sql`select table_name as name from information_schema.tables
          where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
    ),
  );
  const parts = tables
    .map((row) => row.name)
    .filter((name) => !TABLES_WRITTEN_BY_REFUSALS.has(name))
    .map(
      (name) =>
        // A sum of row hashes needs no sort: cheap enough to take around every write operation.
        sql`select ${name}::text as name, count(*)::text || ':' || coalesce(sum(hashtextextended(r::text, 0)), 0)::text as sum from ${sql.identifier(name)} r`,
    );
  const rows = rowsOf<{ name: string; sum: string }>(await t.database.db.execute(sql.join(parts, sql` union all `)));
  return Object.fromEntries(rows.map((row) => [row.name, row.sum]));
}

beforeAll(async () => {
  t = await createTestApp();
  tenants = await createTenants(t.database.db);
  const emails: Record<Exclude<Role, 'signedOut'>, string> = {
    providerAdmin: tenants.providerAdmin.email,
    resellerAdmin: tenants.reseller.superAdmin.email,
    customerSuperAdmin: tenants.customerA.superAdmin.email,
    customerUser: tenants.customerA.user.email,
    otherTenant: tenants.customerB.admin.email,
  };
  for (const [role, email] of Object.entries(emails) as [Role, string][]) {
    clients.set(role, await signedInAs(t.app, email));
  }
  const signedOut = new TestClient(t.app);
  await signedOut.open('/login');
  clients.set('signedOut', signedOut);
  document = (await t.app.inject({ method: 'GET', url: ROUTES.openApi.document.build() })).json();
  const actors: Record<Role, Actor | null> = {
    providerAdmin: actor('ROLE_BOLT_ADMIN_USER', null, true),
    resellerAdmin: actor('ROLE_CUSTOMER_SUPER_ADMIN_USER', tenants.reseller.customerId, true),
    customerSuperAdmin: actor('ROLE_CUSTOMER_SUPER_ADMIN_USER', tenants.customerA.customerId, false),
    customerUser: actor('ROLE_CUSTOMER_USER', tenants.customerA.customerId, false),
    otherTenant: actor('ROLE_CUSTOMER_ADMIN_USER', tenants.customerB.customerId, false),
    signedOut: null,
  };
  allowed = (operation, role) => mayAccess(actors[role], operation.access as AccessLevel);
});
afterAll(() => t.close());

function actor(role: UserRole, customerId: number | null, resellerEnabled: boolean): Actor {
  return { userId: 0, role, customerId, resellerEnabled, boltCustomer: false, readOnly: false };
}

/** Routes whose accepted call would end the caller's session for the rest of the run. */
const SKIPPED = new Set(['auth.signOut']);

describe('API fuzzing from the OpenAPI document (issue 18)', () => {
  it('lists the operations it fuzzes', () => {
    expect(operationsOf(document).length).toBeGreaterThan(150);
  });

  it('answers every generated request of every operation and role below 500, as an envelope, and a refusal changes nothing', async () => {
    const random = createRandom(SEED);
    const real = realIds(tenants);
    const failures: string[] = [];
    let requests = 0;
    for (const operation of operationsOf(document)) {
      if (SKIPPED.has(operation.operationId)) continue;
      const isWrite = operation.method !== 'GET';
      const bodySchema = bodySchemaOf(document, operation);
      // One digest around each operation, compared when every request of it was refused (a GET: always).
      const before = await digest();
      let allRefused = true;
      for (const [role, client] of clients) {
        const cases = allowed(operation, role) ? CASES_ALLOWED : CASES_DENIED;
        for (let i = 0; i < cases; i++) {
          // A GET may address real rows; a write only with a body its schema must refuse.
          const useReal = (!isWrite || bodySchema !== undefined) && random.next() < 0.5;
          const url = `${pathOf(operation, random, real, useReal)}${queryOf(operation, random)}`;
          const label = `${role} ${operation.method} ${url.slice(0, 200)}`;
          const headers: Record<string, string> = { accept: 'application/json', 'x-csrf-token': client.csrf };
          const options: InjectOptions = { method: operation.method as InjectOptions['method'], url, headers };
          if (isWrite) {
            headers['content-type'] = 'application/json';
            options.payload = JSON.stringify(brokenBody(bodySchema, random));
          }
          const response = await client.request(options);
          requests++;
          try {
            checkAnswer(label, response);
          } catch (error) {
            failures.push((error as Error).message.split('\n')[0] ?? label);
          }
          if (response.statusCode < 400) allRefused = false;
        }
      }
      if (allRefused || !isWrite) {
        const after = await digest();
        const changed = Object.keys(after).filter((table) => after[table] !== before[table]);
        if (changed.length) failures.push(`${operation.operationId}: refused requests changed ${changed}`);
      }
    }
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(1200);
  }, 600_000);
});

function bodySchemaOf(doc: unknown, operation: OpenApiOperationSummary): JsonSchema | undefined {
  const paths = (doc as { paths: Record<string, Record<string, Record<string, unknown>>> }).paths;
  const body = paths[operation.path]?.[operation.method.toLowerCase()]?.requestBody as
    | { content: { 'application/json': { schema: JsonSchema } } }
    | undefined;
  return body?.content['application/json'].schema;
}
