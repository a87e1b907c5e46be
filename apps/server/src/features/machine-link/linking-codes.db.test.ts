import {
  LINKING_CODE,
  type LinkingCodeResult,
  type MachineLinkResult,
  MESSAGES,
  ROUTES,
  THROTTLE,
} from '@portal/domain';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, backupMachines, machineLinkingCodes, userBackupPackages, users } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { TestClient } from '../../testing/client.js';
import { FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { sha256 } from '../auth/tokens.js';
import { createMachineCredentials } from '../machine-auth/credentials.js';
import { createMachineLinkRepo } from './repo.js';
import { linkFixtures } from './testing.js';

const TEXT = MESSAGES.machineLink;
const CODE_PATTERN = new RegExp(
  `^[${LINKING_CODE.alphabet}]{4}-[${LINKING_CODE.alphabet}]{4}-[${LINKING_CODE.alphabet}]{4}$`,
);

let t: TestApp;
let tenants: Tenants;
let packageA: number;
let secondPackageA: number;
let packageB: number;
let fingerprints = 0;

/** The machine facts an agent sends; every call a new device unless told otherwise. */
const device = (overrides: Record<string, unknown> = {}) => ({
  name: 'code-linked',
  osFamily: 'LINUX',
  operatingSystem: 'Debian 12',
  clientVersion: '1.0.0',
  fingerprint: `code-device-${String(++fingerprints).padStart(4, '0')}`,
  timeZone: 'Europe/Paris',
  ...overrides,
});

/** POST ROUTES.machineLink.agentLink.build() as an agent would, from an address of its own (failures count per address). */
const link = (body: Record<string, unknown>, remoteAddress = '192.0.2.10') =>
  t.app.inject({ method: 'POST', url: ROUTES.machineLink.agentLink.build(), payload: body, remoteAddress });

async function signedIn(email: string): Promise<TestClient> {
  const client = new TestClient(t.app);
  const response = await client.signIn(email, FIXTURE_PASSWORD);
  expect(response.headers.location).toBe('/');
  return client;
}

async function makeCode(client: TestClient): Promise<LinkingCodeResult> {
  const response = await client.json('POST', ROUTES.machineLink.linkingCodes.build(), {});
  expect(response.statusCode, response.body).toBe(200);
  return response.json().result as LinkingCodeResult;
}

async function machineCount(): Promise<number> {
  const [row] = await t.database.db.select({ n: count() }).from(backupMachines);
  return row?.n ?? 0;
}

/** A link answered OK: its result and the machine row it linked. */
async function linked(response: Awaited<ReturnType<typeof link>>) {
  expect(response.statusCode, response.body).toBe(200);
  const result = response.json().result as MachineLinkResult;
  const [machine] = await t.database.db.select().from(backupMachines).where(eq(backupMachines.id, result.machineId));
  return { result, machine };
}

const refusedAsInvalid = (response: Awaited<ReturnType<typeof link>>) => {
  expect(response.statusCode, response.body).toBe(401);
  expect(response.json().messages).toEqual([
    expect.objectContaining({ fieldName: 'linkingCode', message: TEXT.linkingCodeInvalid }),
  ]);
};

beforeAll(async () => {
  t = await createTestApp();
  const made = await linkFixtures(t.database.db);
  ({ tenants, packageA, secondPackageA } = made);
  packageB = await made.fixtures.package(tenants.customerB.customerId, { name: 'Beta' });
  await t.database.db
    .insert(userBackupPackages)
    .values({ userId: tenants.customerB.user.id, backupPackageId: packageB });
});
afterAll(() => t.close());

describe('linking codes made in the portal (issue #5)', () => {
  it('a customer user makes a code, kept only hashed, that links one machine for them, once', async () => {
    const alex = await signedIn(tenants.customerA.user.email);
    const made = await makeCode(alex);
    expect(made.code).toMatch(CODE_PATTERN);
    expect(made.packages).toEqual([{ id: packageA, name: 'Office' }]);
    expect(new Date(made.expiresAt).getTime()).toBe(t.clock.now.getTime() + LINKING_CODE.lifetimeMinutes * 60_000);
    const rows = await t.database.db
      .select()
      .from(machineLinkingCodes)
      .where(eq(machineLinkingCodes.userId, tenants.customerA.user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.codeHash).toBe(sha256(made.code.replaceAll('-', '')));
    expect(JSON.stringify(rows)).not.toContain(made.code.replaceAll('-', ''));

    // Typed in lower case without dashes, as a person might.
    const { result, machine } = await linked(
      await link(device({ linkingCode: made.code.replaceAll('-', '').toLowerCase() })),
    );
    expect(result.relinked).toBe(false);
    expect(machine).toMatchObject({
      customerId: tenants.customerA.customerId,
      backupPackageId: packageA,
      assignedUserId: tenants.customerA.user.id,
      name: 'code-linked',
      timeZone: 'Europe/Paris',
    });
    expect(await createMachineCredentials(t.database.db).verify(result)).not.toBeNull();
    const [used] = await t.database.db
      .select()
      .from(machineLinkingCodes)
      .where(eq(machineLinkingCodes.codeHash, sha256(made.code.replaceAll('-', ''))));
    expect(used).toMatchObject({ backupMachineId: result.machineId });
    expect(used?.usedAt).not.toBeNull();

    // Used: refused, whatever device tries, and nothing is created.
    const before = await machineCount();
    refusedAsInvalid(await link(device({ linkingCode: made.code })));
    expect(await machineCount()).toBe(before);

    const activity = await t.database.db
      .select({ type: auditEvents.type })
      .from(auditEvents)
      .where(eq(auditEvents.userId, tenants.customerA.user.id));
    expect(activity.map((a) => a.type)).toEqual(expect.arrayContaining(['LINKING_CODE_CREATED', 'LINKING_CODE_USED']));
  });

  it('refuses unknown, malformed and expired codes with the one message, creating nothing', async () => {
    const before = await machineCount();
    refusedAsInvalid(await link(device({ linkingCode: 'ABCD-EFGH-JK23' })));
    const malformed = await link(device({ linkingCode: 'hello' }));
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().messages[0]).toMatchObject({ fieldName: 'linkingCode', message: TEXT.linkingCodeInvalid });
    const both = await link(
      device({ linkingCode: 'ABCD-EFGH-JK23', email: tenants.customerA.user.email, password: FIXTURE_PASSWORD }),
    );
    expect(both.statusCode).toBe(400);
    expect(both.json().messages.map((m: { fieldName: string }) => m.fieldName)).toEqual(['email', 'password']);

    const made = await makeCode(await signedIn(tenants.customerA.user.email));
    // The clock only moves forward: failures recorded "in the future" would throttle what follows.
    t.clock.advanceMinutes(LINKING_CODE.lifetimeMinutes + 1);
    refusedAsInvalid(await link(device({ linkingCode: made.code })));
    expect(await machineCount()).toBe(before);
  });

  it('links exactly one machine when two agents race with the same code', async () => {
    const made = await makeCode(await signedIn(tenants.customerA.user.email));
    const before = await machineCount();
    const answers = await Promise.all([
      link(device({ linkingCode: made.code, name: 'racer-1' })),
      link(device({ linkingCode: made.code, name: 'racer-2' })),
      link(device({ linkingCode: made.code, name: 'racer-3' })),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401, 401]);
    for (const loser of answers.filter((a) => a.statusCode === 401)) refusedAsInvalid(loser);
    expect(await machineCount()).toBe(before + 1);
  });

  it("registers the machine for the code's maker under the maker's customer, whoever runs the agent", async () => {
    // Beta's admin makes the code; an agent that also knows Alpha's user's password uses the code only.
    const made = await makeCode(await signedIn(tenants.customerB.admin.email));
    const { machine } = await linked(await link(device({ linkingCode: made.code })));
    expect(machine).toMatchObject({
      customerId: tenants.customerB.customerId,
      backupPackageId: packageB,
      assignedUserId: tenants.customerB.admin.id,
    });
  });

  it('asks for a package as password linking does, without using up the code', async () => {
    const made = await makeCode(await signedIn(tenants.customerA.admin.email));
    expect(made.packages).toEqual([
      { id: packageA, name: 'Office' },
      { id: secondPackageA, name: 'Servers' },
    ]);
    const choose = await link(device({ linkingCode: made.code, fingerprint: 'admin-code-device' }));
    expect(choose.statusCode).toBe(409);
    expect(choose.json().messages[0]).toMatchObject({ fieldName: 'backupPackageId' });
    expect(choose.json().messages[0].message).toContain(`${secondPackageA} (Servers)`);
    const chosen = await link(
      device({ linkingCode: made.code, fingerprint: 'admin-code-device', backupPackageId: secondPackageA }),
    );
    const { machine } = await linked(chosen);
    expect(machine).toMatchObject({ backupPackageId: secondPackageA, assignedUserId: tenants.customerA.admin.id });
  });

  it('refuses anonymous callers, provider admins, read-only users, users without a package and missing CSRF', async () => {
    const anonymous = new TestClient(t.app);
    await anonymous.open('/login');
    expect((await anonymous.json('POST', ROUTES.machineLink.linkingCodes.build(), {})).statusCode).toBe(401);

    const provider = await signedIn(tenants.providerAdmin.email);
    const refused = await provider.json('POST', ROUTES.machineLink.linkingCodes.build(), {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json().status).toBe('ERROR');

    const superB = await signedIn(tenants.customerB.superAdmin.email);
    await t.database.db.update(users).set({ readOnly: true }).where(eq(users.id, tenants.customerB.superAdmin.id));
    try {
      const readOnly = await superB.json('POST', ROUTES.machineLink.linkingCodes.build(), {});
      expect(readOnly.statusCode).toBe(403);
      expect(readOnly.json().messages[0].message).toBe(TEXT.readOnlyCannotLink);
    } finally {
      await t.database.db.update(users).set({ readOnly: false }).where(eq(users.id, tenants.customerB.superAdmin.id));
    }

    // The reseller's super admin is a customer-side user, but the reseller keeps no package of its own.
    const reseller = await signedIn(tenants.reseller.superAdmin.email);
    const noPackage = await reseller.json('POST', ROUTES.machineLink.linkingCodes.build(), {});
    expect(noPackage.statusCode).toBe(409);
    expect(noPackage.json().messages[0].message).toBe(TEXT.noPackage);

    const alex = await signedIn(tenants.customerA.user.email);
    alex.csrf = 'forged';
    const forged = await alex.json('POST', ROUTES.machineLink.linkingCodes.build(), {});
    expect(forged.statusCode).toBe(403);
    expect(forged.json().responseSummaryCode).toBe('CSRF_REJECTED');
  });

  it('refuses a code whose maker became read-only after making it', async () => {
    const made = await makeCode(await signedIn(tenants.customerB.user.email));
    await t.database.db.update(users).set({ readOnly: true }).where(eq(users.id, tenants.customerB.user.id));
    try {
      const response = await link(device({ linkingCode: made.code }));
      expect(response.statusCode).toBe(403);
      expect(response.json().messages[0].message).toBe(TEXT.readOnlyCannotLink);
    } finally {
      await t.database.db.update(users).set({ readOnly: false }).where(eq(users.id, tenants.customerB.user.id));
    }
    // Not used up: once allowed again, it links.
    expect((await link(device({ linkingCode: made.code }))).statusCode).toBe(200);
  });

  it('caps the live codes of a user; used and expired codes no longer count', async () => {
    const superA = await signedIn(tenants.customerA.superAdmin.email);
    const codes: LinkingCodeResult[] = [];
    for (let i = 0; i < LINKING_CODE.maxLivePerUser; i++) codes.push(await makeCode(superA));
    const capped = await superA.json('POST', ROUTES.machineLink.linkingCodes.build(), {});
    expect(capped.statusCode).toBe(409);
    expect(capped.json().messages[0].message).toBe(TEXT.tooManyLinkingCodes);

    const used = await link(device({ linkingCode: codes[0]?.code, backupPackageId: packageA }));
    expect(used.statusCode, used.body).toBe(200);
    await makeCode(superA);
    expect((await superA.json('POST', ROUTES.machineLink.linkingCodes.build(), {})).statusCode).toBe(409);

    // Past the codes' lifetime (and the session's idle limit: sign in again).
    t.clock.advanceMinutes(LINKING_CODE.lifetimeMinutes + 1);
    await makeCode(await signedIn(tenants.customerA.superAdmin.email));
  });

  it('slows down an address that guesses codes, like failed sign-ins, before looking at the code', async () => {
    const made = await makeCode(await signedIn(tenants.customerA.user.email));
    const guesser = '198.51.100.7';
    for (let i = 0; i < THROTTLE.freeAttemptsPerAddress; i++) {
      const guess = `ABCD-EFGH-${LINKING_CODE.alphabet[i]}${LINKING_CODE.alphabet[i + 1]}AB`;
      refusedAsInvalid(await link(device({ linkingCode: guess }), guesser));
    }
    const throttled = await link(device({ linkingCode: made.code }), guesser);
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json().messages[0].message).toBe(TEXT.throttled);
    // The right code from elsewhere still works: it was not used up by the throttled attempt.
    expect((await link(device({ linkingCode: made.code }))).statusCode).toBe(200);
  });

  it('housekeeping removes expired codes, used or not', async () => {
    const repo = createMachineLinkRepo(t.database.db);
    await makeCode(await signedIn(tenants.customerB.user.email));
    const later = new Date(t.clock.now.getTime() + (LINKING_CODE.lifetimeMinutes + 1) * 60_000);
    await repo.deleteExpiredCodes(t.clock.now);
    expect((await t.database.db.select().from(machineLinkingCodes)).length).toBeGreaterThan(0);
    await repo.deleteExpiredCodes(later);
    expect(await t.database.db.select().from(machineLinkingCodes)).toEqual([]);
  });
});
