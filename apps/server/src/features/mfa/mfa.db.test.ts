import {
  API_TOKEN_LIMITS,
  API_TOKEN_MESSAGES,
  allRoutes,
  MFA_ENROLMENT_ROUTES,
  MFA_TEXTS,
  ROUTES,
  THROTTLE,
} from '@portal/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  apiTokens,
  auditEvents,
  customers,
  mfaRecoveryCodes,
  sessions,
  signInFailures,
  userMfa,
  users,
} from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { enrolMfa, secondStep } from '../../testing/mfa.js';
import { sha256 } from '../auth/tokens.js';
import { addCustomer } from '../customers/testing.js';
import { totpAt } from './totp.js';

let t: TestApp;
let tenants: Tenants;

beforeAll(async () => {
  t = await createTestApp({ MFA_REQUIRED_FOR_PROVIDER_ADMINS: 'true' });
  tenants = await createTenants(t.database.db);
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.delete(signInFailures);
});

const STEP_MS = 30_000;
/** The app's clock moved on by whole time steps, so each test's codes are of steps not used before. */
const nextStep = (steps = 1) => t.clock.advanceMinutes((steps * STEP_MS) / 60_000);
const at = (offsetSteps = 0) => new Date(t.clock.now.getTime() + offsetSteps * STEP_MS);
const auditOf = async (email: string) =>
  (await t.database.db.select().from(auditEvents).where(eq(auditEvents.email, email))).map((e) => e.type);
/** The route table's entries this app registered (the demo's own are not, outside demo mode). */
/** Asks to turn the client's two-factor sign-in off, proving it with the password and a code. */
const disableMfa = (client: TestClient, password: string, code: string) =>
  client.json('POST', '/profile/mfa/disable', { password, code });
const registered = () => {
  const keys = new Set(t.app.routeCatalogue.map((r) => `${r.method} ${r.url}`));
  return allRoutes().filter((entry) => keys.has(`${entry.method} ${entry.path}`));
};

async function signedIn(email: string): Promise<TestClient> {
  const client = new TestClient(t.app);
  const response = await client.signIn(email, FIXTURE_PASSWORD);
  expect(response.headers.location).toBe('/');
  return client;
}

/** `agent link` with the user's e-mail and password, as the agent's CLI sends it. */
const linkWithPassword = (email: string) =>
  t.app.inject({
    method: 'POST',
    url: ROUTES.machineLink.agentLink.path,
    payload: {
      email,
      password: FIXTURE_PASSWORD,
      name: 'laptop',
      osFamily: 'LINUX',
      operatingSystem: 'Debian',
      clientVersion: '1.0.0',
      fingerprint: `fingerprint-of-${email}`,
      timeZone: 'UTC',
    },
  });

/** Signs in with the password only: the client is left half signed in, with the second step's page open. */
async function halfSignedIn(email: string): Promise<TestClient> {
  const client = new TestClient(t.app);
  const response = await client.signIn(email, FIXTURE_PASSWORD);
  expect(response.headers.location).toBe('/login/mfa');
  const page = await client.open('/login/mfa');
  expect(page.statusCode).toBe(200);
  return client;
}

describe('enrolment from /profile (issue 18)', () => {
  it('starts with a key, QR code and otpauth URI, confirms with a code, answers ten recovery codes once', async () => {
    const user = tenants.customerA.user;
    const client = await signedIn(user.email);
    expect((await client.json('GET', '/profile/mfa')).json().result).toEqual({
      enabled: false,
      enabledAt: null,
      recoveryCodesLeft: 0,
      required: false,
    });
    const started = await client.json('POST', '/profile/mfa/enrolment', {});
    const { secret, otpauthUri, qrSvg } = started.json().result;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // Listed in the app under the user's brand (customer A's reseller's).
    expect(otpauthUri).toBe(
      `otpauth://totp/Resell%20Backup:${encodeURIComponent(user.email)}?secret=${secret}&issuer=Resell+Backup&algorithm=SHA1&digits=6&period=30`,
    );
    expect(qrSvg).toMatch(/^<svg[\s\S]*<\/svg>$/);
    // Kept sealed, not in the clear.
    const [row] = await t.database.db.select().from(userMfa).where(eq(userMfa.userId, user.id));
    expect(row?.secretSealed).not.toContain(secret);
    expect(row?.enabledAt).toBeNull();

    const wrong = await client.json('POST', '/profile/mfa/enrolment/confirm', { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().messages[0]).toMatchObject({ fieldName: 'code', message: MFA_TEXTS.codeInvalid });
    const empty = await client.json('POST', '/profile/mfa/enrolment/confirm', { code: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().messages[0].fieldName).toBe('code');

    const confirmed = await client.json('POST', '/profile/mfa/enrolment/confirm', { code: totpAt(secret, at()) });
    expect(confirmed.statusCode).toBe(200);
    const codes: string[] = confirmed.json().result.recoveryCodes;
    expect(codes).toHaveLength(10);
    // Only their hashes are kept.
    const stored = await t.database.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, user.id));
    expect(stored.map((r) => r.codeHash).sort()).toEqual(codes.map((c) => sha256(c.replace('-', ''))).sort());

    const status = (await client.json('GET', '/profile/mfa')).json().result;
    expect(status).toMatchObject({ enabled: true, recoveryCodesLeft: 10, required: false });
    // The key is never answered again: a new enrolment is refused while it is on.
    const again = await client.json('POST', '/profile/mfa/enrolment', {});
    expect(again.statusCode).toBe(409);
    expect(JSON.stringify(status)).not.toContain(secret);
    expect((await client.json('GET', '/profile')).body).not.toContain(secret);
    expect(await auditOf(user.email)).toContain('MFA_ENABLED');
    nextStep();
  });
});

describe('sign-in with two-factor (issue 18)', () => {
  let secret: string;
  let recoveryCodes: string[];
  const user = () => tenants.customerB.user;

  beforeAll(async () => {
    ({ secret, recoveryCodes } = await enrolMfa(await signedIn(user().email), at()));
    nextStep();
  });

  it('asks for the code after the password; a right code makes a new, whole session', async () => {
    const client = await halfSignedIn(user().email);
    const halfToken = client.cookie('portal_session');
    expect((await client.json('GET', '/profile')).statusCode).toBe(401);
    // The page data of the second step carries no user.
    expect((await client.open('/login/mfa')).body).toContain('"user":null');

    const wrong = await client.json('POST', '/login/mfa', {
      code: '123456' === totpAt(secret, at()) ? '654321' : '123456',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().messages[0]).toMatchObject({ fieldName: 'code', message: MFA_TEXTS.codeInvalid });
    expect(await auditOf(user().email)).toContain('MFA_CODE_FAILED');

    const right = await secondStep(client, totpAt(secret, at()));
    expect(right.statusCode).toBe(200);
    expect(right.json().result).toEqual({ redirect: '/' });
    expect(client.cookie('portal_session')).not.toBe(halfToken);
    expect((await client.json('GET', '/profile')).statusCode).toBe(200);
    // The half session is gone: its token signs nothing in.
    const [old] = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sha256(halfToken ?? '')));
    expect(old).toBeUndefined();
    expect((await auditOf(user().email)).at(-1)).toBe('SIGN_IN_SUCCEEDED');
    nextStep();
  });

  it('refuses a code used before (replay), even in another session', async () => {
    const code = totpAt(secret, at());
    expect((await secondStep(await halfSignedIn(user().email), code)).statusCode).toBe(200);
    const again = await secondStep(await halfSignedIn(user().email), code);
    expect(again.statusCode).toBe(400);
    // An earlier step's code is refused too once a later one was used.
    expect((await secondStep(await halfSignedIn(user().email), totpAt(secret, at(-1)))).statusCode).toBe(400);
    nextStep(3);
  });

  it('accepts a code one step early or late, not two', async () => {
    expect((await secondStep(await halfSignedIn(user().email), totpAt(secret, at(-2)))).statusCode).toBe(400);
    expect((await secondStep(await halfSignedIn(user().email), totpAt(secret, at(-1)))).statusCode).toBe(200);
    expect((await secondStep(await halfSignedIn(user().email), totpAt(secret, at(2)))).statusCode).toBe(400);
    expect((await secondStep(await halfSignedIn(user().email), totpAt(secret, at(1)))).statusCode).toBe(200);
    nextStep(3);
  });

  it('accepts a recovery code once, typed in any case with or without the dash', async () => {
    const code = recoveryCodes[0] as string;
    const client = await halfSignedIn(user().email);
    expect((await secondStep(client, code.replace('-', '').toLowerCase())).statusCode).toBe(200);
    expect((await client.json('GET', '/profile/mfa')).json().result.recoveryCodesLeft).toBe(9);
    expect(await auditOf(user().email)).toContain('MFA_RECOVERY_CODE_USED');
    const again = await secondStep(await halfSignedIn(user().email), code);
    expect(again.statusCode).toBe(400);
  });

  it('throttles wrong codes like passwords, and a right password does not reset the count', async () => {
    const wrong = totpAt(secret, at(5));
    for (let i = 0; i < THROTTLE.freeAttemptsPerAccount; i++) {
      const client = await halfSignedIn(user().email);
      expect((await client.json('POST', '/login/mfa', { code: wrong })).statusCode).toBe(400);
    }
    const client = await halfSignedIn(user().email);
    const throttled = await client.json('POST', '/login/mfa', { code: totpAt(secret, at()) });
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json().messages[0].fieldName).toBe('code');
    expect(await auditOf(user().email)).toContain('SIGN_IN_THROTTLED');
    t.clock.advanceMinutes(1);
    expect((await secondStep(client, totpAt(secret, at()))).statusCode).toBe(200);
    nextStep();
  });

  it('a half-signed-in session lasts a few minutes only', async () => {
    const client = await halfSignedIn(user().email);
    t.clock.advanceMinutes(6);
    const late = await client.json('POST', '/login/mfa', { code: totpAt(secret, at()) });
    // As any expired session: signed out, and the old session's CSRF token no longer applies.
    expect([401, 403]).toContain(late.statusCode);
    expect((await client.open('/login/mfa')).headers.location).toBe('/login');
    nextStep();
  });

  it('a half-signed-in session reaches nothing but the second step and sign-out', async () => {
    const half = await halfSignedIn(user().email);
    const anonymous = new TestClient(t.app);
    await anonymous.open('/login');
    for (const entry of registered()) {
      if (entry.path.startsWith('/restic/') || entry.path.startsWith('/agent/') || entry.path === '/logout') continue;
      if (entry.path === '/login' || entry.path === '/assets/*' || entry.path === '/img/*') continue;
      const body = entry.method === 'GET' ? undefined : {};
      const answer = await half.json(entry.method, entry.path, body);
      const key = `${entry.method} ${entry.path}`;
      if (entry.access === 'mfaPending') {
        // Let in: the empty body is refused on its field, not for who is calling.
        expect({ key, status: answer.statusCode }).toEqual({ key, status: 400 });
        continue;
      }
      const asAnonymous = await anonymous.json(entry.method, entry.path, body);
      const denied = (status: number) => status === 401 || status === 403;
      expect({ key, denied: denied(answer.statusCode) }).toEqual({ key, denied: denied(asAnonymous.statusCode) });
      if (entry.access !== 'public') expect({ key, status: answer.statusCode }).toEqual({ key, status: 401 });
    }
    // Pages: every page that is not public sends it to the second step.
    for (const page of ['/', '/profile', '/boltadmin/customers', '/login/mfa/enrol', '/no/such/page']) {
      expect((await half.open(page)).headers.location).toBe('/login/mfa');
    }
    expect((await half.open('/login/mfa')).statusCode).toBe(200);
    // Sign-out ends it.
    const out = await half.json('POST', '/logout', {});
    expect(out.statusCode).toBe(200);
    expect((await half.open('/login/mfa')).headers.location).toBe('/login');
  });

  it('the agent cannot link with the password alone: the refusal says to use a linking code', async () => {
    const response = await linkWithPassword(user().email);
    expect(response.statusCode).toBe(401);
    expect(response.json().messages[0].message).toBe(MFA_TEXTS.agentLinkNeedsCode);
  });
});

describe('turning off and new recovery codes (issue 18)', () => {
  it('needs the password and a code; another user keeps theirs', async () => {
    const other = tenants.customerA.admin;
    const { secret: otherSecret } = await enrolMfa(await signedIn(other.email), at());
    const user = tenants.customerB.admin;
    const client = await signedIn(user.email);
    const { secret, recoveryCodes } = await enrolMfa(client, at());
    nextStep();

    const wrongPassword = await disableMfa(client, 'not it', totpAt(secret, at()));
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().messages[0].fieldName).toBe('password');
    const wrongCode = await disableMfa(client, FIXTURE_PASSWORD, 'AAAAA-AAAAA');
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().messages[0].fieldName).toBe('code');

    const regenerated = await client.json('POST', '/profile/mfa/recoverycodes', {
      password: FIXTURE_PASSWORD,
      code: recoveryCodes[0],
    });
    expect(regenerated.statusCode).toBe(200);
    const fresh: string[] = regenerated.json().result.recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(recoveryCodes[1]);
    expect(await auditOf(user.email)).toContain('MFA_RECOVERY_CODES_REGENERATED');
    // The old codes are gone, the new ones work.
    expect((await secondStep(await halfSignedIn(user.email), recoveryCodes[1] as string)).statusCode).toBe(400);
    expect((await secondStep(await halfSignedIn(user.email), fresh[0] as string)).statusCode).toBe(200);

    const off = await disableMfa(client, FIXTURE_PASSWORD, totpAt(secret, at()));
    expect(off.statusCode).toBe(200);
    expect(off.json().result.enabled).toBe(false);
    expect(await auditOf(user.email)).toContain('MFA_DISABLED');
    expect(await t.database.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, user.id))).toEqual([]);
    await signedIn(user.email);
    // The other user's two-factor sign-in is untouched.
    const [otherRow] = await t.database.db
      .select()
      .from(userMfa)
      .where(and(eq(userMfa.userId, other.id)));
    expect(otherRow?.enabledAt).not.toBeNull();
    expect((await halfSignedIn(other.email)).cookie('portal_session')).toBeDefined();
    expect(otherSecret).not.toBe(secret);
    nextStep();
  });
});

describe('provider admins must enrol first (issue 18, MFA_REQUIRED_FOR_PROVIDER_ADMINS)', () => {
  it('a personal API token of an admin who must enrol reaches no more than a session would', async () => {
    // A token made before the requirement was turned on: it must not be a way around the enrolment.
    const token = `${API_TOKEN_LIMITS.prefix}${'t'.repeat(43)}`;
    await t.database.db.insert(apiTokens).values({
      userId: tenants.providerAdmin.id,
      name: 'older script',
      scope: 'READ_WRITE',
      tokenHash: sha256(token),
      hint: token.slice(0, 8),
      expiresAt: new Date(t.clock.now.getTime() + 86_400_000),
    });
    const answer = await t.app.inject({
      method: 'GET',
      url: ROUTES.customers.lists.customers.build(),
      headers: { accept: 'application/json', authorization: `Bearer ${token}` },
    });
    expect(answer.statusCode).toBe(403);
    expect(answer.json().messages[0].responseCode).toBe('MFA_ENROLMENT_REQUIRED');
  });

  it('reach only the enrolment, sign-out and public routes until enrolled; cannot turn it off', async () => {
    const admin = await signedIn(tenants.providerAdmin.email);
    expect((await admin.open('/')).headers.location).toBe('/login/mfa/enrol');
    expect((await admin.open('/boltadmin/customers')).headers.location).toBe('/login/mfa/enrol');
    const page = await admin.open('/login/mfa/enrol');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('"mfaEnrolmentRequired":true');
    const allowed = new Set(MFA_ENROLMENT_ROUTES.map((r) => `${r.method} ${r.path}`));
    for (const entry of registered()) {
      const key = `${entry.method} ${entry.path}`;
      if (entry.access === 'public' || entry.access === 'mfaPending' || allowed.has(key)) continue;
      const answer = await admin.json(entry.method, entry.path, entry.method === 'GET' ? undefined : {});
      expect({ key, status: answer.statusCode, code: answer.json().messages?.[0]?.responseCode }).toEqual({
        key,
        status: 403,
        code: 'MFA_ENROLMENT_REQUIRED',
      });
    }
    expect((await admin.json('GET', '/profile/mfa')).json().result.required).toBe(true);
    const { secret } = await enrolMfa(admin, at());
    nextStep();
    expect((await admin.json('GET', '/boltadmin/customerspaginated')).statusCode).toBe(200);
    expect((await admin.open('/boltadmin/customers')).statusCode).toBe(200);
    const off = await disableMfa(admin, FIXTURE_PASSWORD, totpAt(secret, at()));
    expect(off.statusCode).toBe(409);
    expect(off.json().messages[0].message).toBe(MFA_TEXTS.requiredForRole);
  });

  it('customer users are not required to enrol', async () => {
    const client = await signedIn(tenants.customerB.superAdmin.email);
    expect((await client.open('/')).statusCode).toBe(200);
    expect((await client.json('GET', '/profile/mfa')).json().result.required).toBe(false);
  });
});

describe("a customer's super admin requires two-factor sign-in of the account's users (ours, issue 18)", () => {
  const policy = ROUTES.account.mfaPolicy.path;

  it('needs it on for themself first; then every user of the account must enrol, until it is no longer required', async () => {
    // A customer of its own: nobody in it has two-factor sign-in from the tests above.
    const a = await addCustomer(t.database.db);
    const superAdmin = await signedIn(a.superAdmin.email);
    const admin = await signedIn(a.admin.email);
    const otherTenant = await signedIn(tenants.customerB.admin.email);

    const early = await superAdmin.json('PUT', policy, { requireMfa: true });
    expect(early.statusCode).toBe(400);
    expect(early.json().messages).toEqual([
      expect.objectContaining({ fieldName: 'requireMfa', message: MFA_TEXTS.policy.enableYourselfFirst }),
    ]);
    const wrong = await superAdmin.json('PUT', policy, { requireMfa: 'yes' });
    expect(wrong.json().messages).toEqual([
      expect.objectContaining({ fieldName: 'requireMfa', message: MFA_TEXTS.policy.requireMfaInvalid }),
    ]);
    // Only the super admin decides; an admin of the account gets 403.
    expect((await admin.json('PUT', policy, { requireMfa: true })).statusCode).toBe(403);
    // Tokens made before the requirement: the admin's is held to it, and the super admin's cannot change it.
    const tokenOf = async (client: TestClient) =>
      (
        await client.json('POST', ROUTES.apiTokens.create.path, {
          name: 'script',
          scope: 'READ_WRITE',
          expiresInDays: 7,
        })
      ).json().result.token as string;
    const withToken = (token: string, method: 'GET' | 'PUT', url: string, payload?: object) =>
      t.app.inject({
        method,
        url,
        headers: { accept: 'application/json', authorization: `Bearer ${token}` },
        ...(payload ? { payload } : {}),
      });
    const adminToken = await tokenOf(admin);
    const superAdminToken = await tokenOf(superAdmin);

    const { secret } = await enrolMfa(superAdmin, at());
    nextStep();
    const on = await superAdmin.json('PUT', policy, { requireMfa: true });
    expect(on.statusCode).toBe(200);
    expect(on.json().result).toMatchObject({ id: a.customerId, requireMfa: true });
    expect((await superAdmin.json('GET', ROUTES.account.get.path)).json().result.requireMfa).toBe(true);
    expect(await auditOf(a.superAdmin.email)).toEqual(
      expect.arrayContaining(['account.mfaPolicy', 'ACCOUNT_MFA_REQUIRED']),
    );

    // The admin's session, signed in before, is held to it from its next request; the other tenant is not.
    const refused = await admin.json('GET', ROUTES.account.get.path);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().messages[0].responseCode).toBe('MFA_ENROLMENT_REQUIRED');
    expect((await admin.open('/')).headers.location).toBe('/login/mfa/enrol');
    expect((await admin.json('GET', '/profile/mfa')).json().result.required).toBe(true);
    expect((await otherTenant.open('/')).statusCode).toBe(200);
    const byToken = await withToken(adminToken, 'GET', ROUTES.account.get.path);
    expect(byToken.statusCode).toBe(403);
    expect(byToken.json().messages[0].responseCode).toBe('MFA_ENROLMENT_REQUIRED');
    const offByToken = await withToken(superAdminToken, 'PUT', policy, { requireMfa: false });
    expect(offByToken.statusCode).toBe(403);
    expect(offByToken.json().messages[0].message).toBe(API_TOKEN_MESSAGES.sessionRequired);
    // Nor does the agent link a machine with that admin's password alone.
    const link = await linkWithPassword(a.admin.email);
    expect(link.statusCode).toBe(401);
    expect(link.json().messages[0].message).toBe(MFA_TEXTS.agentLinkMustEnrol);
    // The super admin keeps signing in as before and cannot turn it off for themself.
    expect((await superAdmin.open('/')).statusCode).toBe(200);
    const off = await disableMfa(superAdmin, FIXTURE_PASSWORD, totpAt(secret, at()));
    expect(off.statusCode).toBe(409);
    expect(off.json().messages[0].message).toBe(MFA_TEXTS.requiredForRole);

    // A read-only super admin looks, and does not change it.
    const readOnly = (value: boolean) =>
      t.database.db.update(users).set({ readOnly: value }).where(eq(users.id, a.superAdmin.id));
    await readOnly(true);
    expect((await superAdmin.json('PUT', policy, { requireMfa: false })).statusCode).toBe(403);
    await readOnly(false);

    nextStep();
    const stopped = await superAdmin.json('PUT', policy, { requireMfa: false });
    expect(stopped.json().result.requireMfa).toBe(false);
    expect(await auditOf(a.superAdmin.email)).toContain('ACCOUNT_MFA_NOT_REQUIRED');
    expect((await admin.json('GET', ROUTES.account.get.path)).statusCode).toBe(200);
    expect((await admin.open('/')).statusCode).toBe(200);
  });

  it("a reseller's requirement is for its own users, not its customers' users", async () => {
    const reseller = await addCustomer(t.database.db, { reseller: { enabled: true } });
    const client = await addCustomer(t.database.db, { parentResellerCustomerId: reseller.customerId });
    await t.database.db.update(customers).set({ requireMfa: true }).where(eq(customers.id, reseller.customerId));
    expect((await (await signedIn(reseller.admin.email)).open('/')).headers.location).toBe('/login/mfa/enrol');
    expect((await (await signedIn(client.admin.email)).open('/')).statusCode).toBe(200);
  });
});
