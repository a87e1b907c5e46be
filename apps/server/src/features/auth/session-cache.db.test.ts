import { ROUTES } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { sessions } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import type { TestClient } from '../../testing/client.js';
import { openTestDatabase } from '../../testing/database.js';
import { resultOf, signedInAs } from '../../testing/envelope.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { addCustomer } from '../customers/testing.js';
import { createInProcessBus, type LiveBus } from '../live/bus.js';
import { listenOnLoopback } from '../live/testing.js';
import { sha256 } from './tokens.js';

/**
 * Sessions resolved from each instance's cache (issue 33 item 5): two instances on one database, sharing the bus
 * through Redis when REDIS_URL is set (createTestApp opens it), else through one in-process bus that claims to be
 * shared. The cache keeps a session a minute here, far longer than any test: only the portal's own change messages
 * can drop it in time.
 */
const withRedis = Boolean(process.env.REDIS_URL);
const CACHED = { SESSION_CACHE_MS: '60000' };
const PROFILE = ROUTES.profile.get.build();

let database: Database;
let a: TestApp;
let b: TestApp;
/** B's HTTP origin: requests to B travel over a socket, as a browser's do (see `onB`). */
let bOrigin: string;
let tenants: Tenants;

beforeAll(async () => {
  database = await openTestDatabase();
  const sharedBus: LiveBus | undefined = withRedis ? undefined : { ...createInProcessBus(), shared: true };
  const live = sharedBus ? { bus: sharedBus } : undefined;
  a = await createTestApp(CACHED, { database, live });
  b = await createTestApp(CACHED, { database, live });
  bOrigin = (await listenOnLoopback(b.app)).replace('ws://', 'http://');
  tenants = await createTenants(database.db);
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await database?.close();
});

/**
 * A GET to B with the session cookie a client has (or had): the browser's next request, sent by a load balancer to
 * another instance. Over a socket, not app.inject: Redis delivers B its message before A's publish is answered,
 * hence before A answers and the browser asks B; B reads its sockets in the order their data came, which an
 * in-process inject would skip.
 */
async function onB(cookie: string, url = PROFILE) {
  const response = await fetch(`${bOrigin}${url}`, { headers: { cookie, accept: 'application/json' } });
  const body = (await response.json()) as { result: unknown };
  return { statusCode: response.status, result: body.result };
}
const on = (client: TestClient, url = PROFILE) => onB(client.cookieHeader(), url);
const resultOn = async <T>(client: TestClient) => {
  const answer = await on(client);
  expect(answer.statusCode).toBe(200);
  return answer.result as T;
};

const sessionIdOf = (client: TestClient) => sha256(client.cookie('portal_session') ?? '');

describe(`two instances, sessions cached (${withRedis ? 'Redis' : 'in-process'} bus)`, () => {
  it('answers from the cache: a session row removed behind the portal still answers until the portal is told', async () => {
    const client = await signedInAs(a.app, tenants.customerA.user.email);
    expect((await on(client)).statusCode).toBe(200);
    await database.db.delete(sessions).where(eq(sessions.id, sessionIdOf(client)));
    // No round trip for the session: B still knows it.
    expect((await on(client)).statusCode).toBe(200);
  });

  it('refuses the cookie on B as soon as it signed out on A; another session of the user stays', async () => {
    const leaving = await signedInAs(a.app, tenants.customerA.admin.email);
    const staying = await signedInAs(a.app, tenants.customerA.admin.email);
    expect((await on(leaving)).statusCode).toBe(200);
    expect((await on(staying)).statusCode).toBe(200);
    const cookie = leaving.cookieHeader();
    const out = await leaving.request({
      method: 'POST',
      url: '/logout',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${leaving.csrf}`,
    });
    expect(out.statusCode).toBe(302);
    // The cookie as it was before signing out (the answer cleared it in the client), as a copied cookie would be.
    expect((await onB(cookie)).statusCode).toBe(401);
    expect((await on(staying)).statusCode).toBe(200);
  });

  it("ends the user's other sessions on B when they change their password on A", async () => {
    const c = await addCustomer(database.db);
    const here = await signedInAs(a.app, c.admin.email);
    const there = await signedInAs(b.app, c.admin.email);
    expect((await on(there)).statusCode).toBe(200);
    resultOf(
      await here.json('PUT', ROUTES.profile.changePassword.build(), {
        currentPassword: FIXTURE_PASSWORD,
        password: 'a new long password',
        confirmPassword: 'a new long password',
      }),
    );
    expect((await on(there)).statusCode).toBe(401);
    expect((await on(here)).statusCode).toBe(200);
  });

  it("shows on B a user's details changed on A, and refuses them on B once deleted on A", async () => {
    const c = await addCustomer(database.db);
    const superAdmin = await signedInAs(a.app, c.superAdmin.email);
    const user = await signedInAs(b.app, c.user.email);
    expect((await resultOn<{ firstName: string }>(user)).firstName).not.toBe('Renamed');
    resultOf(
      await superAdmin.json('PUT', `/admin/account/users/${c.user.id}`, {
        firstName: 'Renamed',
        surname: 'User',
        email: c.user.email,
        contactNumber: '1',
        password: '',
        confirmPassword: '',
      }),
    );
    expect((await resultOn<{ firstName: string }>(user)).firstName).toBe('Renamed');
    resultOf(await superAdmin.json('DELETE', `/admin/account/users/${c.user.id}`));
    expect((await on(user)).statusCode).toBe(401);
  });

  it("refuses a customer's users on B as soon as the provider suspends it on A, and lets them in again", async () => {
    const c = await addCustomer(database.db);
    const provider = await signedInAs(a.app, tenants.providerAdmin.email);
    const user = await signedInAs(b.app, c.admin.email);
    expect((await on(user)).statusCode).toBe(200);
    resultOf(await provider.json('PUT', `/boltadmin/customers/${c.customerId}?status=SUSPENDED`));
    expect((await on(user)).statusCode).toBe(401);
    resultOf(await provider.json('PUT', `/boltadmin/customers/${c.customerId}?status=ACTIVE`));
    const again = await signedInAs(b.app, c.admin.email);
    expect((await on(again)).statusCode).toBe(200);
  });

  it('gives the super admin role to another admin on A: both sessions on B carry their new roles at once', async () => {
    const c = await addCustomer(database.db);
    const owner = await signedInAs(a.app, c.superAdmin.email);
    const successor = await signedInAs(b.app, c.admin.email);
    const ownerOnB = await signedInAs(b.app, c.superAdmin.email);
    const roleOn = async (client: TestClient) => (await resultOn<{ role: string }>(client)).role;
    expect(await roleOn(successor)).toBe('ROLE_CUSTOMER_ADMIN_USER');
    expect(await roleOn(ownerOnB)).toBe('ROLE_CUSTOMER_SUPER_ADMIN_USER');
    const account = resultOf<{ companyName: string; cpanelPluginEnabled: boolean }>(
      await owner.json('GET', '/admin/account'),
    );
    resultOf(
      await owner.json('PUT', '/admin/account', {
        companyName: account.companyName,
        cpanelPluginEnabled: account.cpanelPluginEnabled,
        userIdToBeAdmin: c.admin.id,
      }),
    );
    expect(await roleOn(successor)).toBe('ROLE_CUSTOMER_SUPER_ADMIN_USER');
    expect(await roleOn(ownerOnB)).toBe('ROLE_CUSTOMER_ADMIN_USER');
  });
});
