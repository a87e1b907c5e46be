import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AuditRow,
  type Envelope,
  NOTIFICATION_MAIL_KINDS,
  type Paged,
  RETENTION_MESSAGES,
  ROUTES,
  TAMPERING_BURST_MINUTES,
  TAMPERING_TEXTS,
  withQuery,
} from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, mailOutbox } from '../../db/schema/index.js';
import { createTestApp, repositoryPasswordOf, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { runRestic } from '../../testing/restic.js';
import { createMachineCredentials, type MachineCredential } from '../machine-auth/credentials.js';

/**
 * Issue 32 item 6 on the embedded storage: a test acting as ransomware with a machine's own credential against the
 * portal's REST backend. It tries to delete and to replace data, index, snapshot and key files and the config, many
 * times over: every attempt is refused, `restic check` still passes, the audit trail records the burst (the first
 * attempt and the tenth, with the count) in the machine's tenant, the provider's admins get one mail at the SMTP
 * server, and another tenant sees nothing of it.
 */
let t: TestApp;
let tenants: Tenants;
let dataDir: string;
let base: string;
let machineA: number;
let machineB: number;
let credA: MachineCredential;
let credB: MachineCredential;
let password = '';

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tampering-'));
  t = await createTestApp({ DATA_DIR: dataDir });
  const db = t.database.db;
  tenants = await createTenants(db);
  const fixtures = backupFixtures(db);
  const locationId = await fixtures.storageLocation(tenants.customerA.customerId);
  machineA = await fixtures.machine(
    await fixtures.package(tenants.customerA.customerId, { storageLocationId: locationId }),
    {
      name: 'hostile-laptop',
    },
  );
  const locationB = await fixtures.storageLocation(tenants.customerB.customerId);
  machineB = await fixtures.machine(
    await fixtures.package(tenants.customerB.customerId, { storageLocationId: locationB }),
  );
  const issue = async (machineId: number) => {
    const credential = await createMachineCredentials(db).issue(machineId);
    if (!credential) throw new Error('not issued');
    return credential;
  };
  credA = await issue(machineA);
  credB = await issue(machineB);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  await t?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const repositoryOf = (credential: MachineCredential) =>
  `rest:${base.replace('//', `//${credential.machineId}:${credential.token}@`)}/restic/${credential.machineId}/`;

const restic = (args: string[], credential: MachineCredential) =>
  runRestic(args, { repository: repositoryOf(credential), password, home: dataDir });

const basic = (c: MachineCredential) => `Basic ${Buffer.from(`${c.machineId}:${c.token}`).toString('base64')}`;

async function call(credential: MachineCredential, method: string, path: string, body?: Buffer) {
  const response = await fetch(`${base}/restic/${machineA}/${path}`, {
    method,
    headers: { authorization: basic(credential), 'content-type': 'application/octet-stream' },
    ...(body ? { body } : {}),
  });
  return { status: response.status, text: (await response.text()).trim() };
}

async function names(type: string): Promise<string[]> {
  const response = await fetch(`${base}/restic/${machineA}/${type}/`, {
    headers: { authorization: basic(credA), accept: 'application/vnd.x.restic.rest.v2' },
  });
  return ((await response.json()) as Array<{ name: string }>).map((o) => o.name);
}

const signedIn = async (email: string) => {
  const client = new TestClient(t.app);
  expect((await client.signIn(email, FIXTURE_PASSWORD)).headers.location).toBe('/');
  return client;
};

const tamperingRows = async (client: TestClient, path: string) => {
  const response = await client.json('GET', withQuery(path, { size: 100 }));
  expect(response.statusCode, response.body).toBe(200);
  const page = (response.json() as Envelope<Paged<AuditRow>>).result as Paged<AuditRow>;
  return page.elements.filter((row) => row.kind === 'STORAGE_TAMPERING_REFUSED');
};

describe('a machine acting as ransomware on the embedded storage (issue 32)', () => {
  it('backs up with restic as the agent would', async () => {
    password = (await repositoryPasswordOf(t, machineA)) ?? '';
    const source = join(dataDir, 'source');
    await mkdir(source, { recursive: true });
    await writeFile(join(source, 'figures.txt'), 'quarterly figures\n');
    expect((await restic(['init'], credA)).code).toBe(0);
    const backup = await restic(['backup', source], credA);
    expect(backup.code, backup.stderr).toBe(0);
  }, 60_000);

  it('refuses every delete and replacement of data, index, snapshots, keys and config', async () => {
    const garbage = randomBytes(512);
    let attempts = 0;
    for (const type of ['data', 'index', 'snapshots', 'keys']) {
      const [name] = await names(type);
      expect(name, type).toMatch(/^[0-9a-f]{64}$/);
      const removed = await call(credA, 'DELETE', `${type}/${name}`);
      expect(removed, type).toEqual({ status: 403, text: RETENTION_MESSAGES.deleteRefused(type) });
      const replaced = await call(credA, 'POST', `${type}/${name}`, garbage);
      expect(replaced, type).toEqual({ status: 403, text: TAMPERING_TEXTS.overwriteRefused });
      attempts += 2;
    }
    expect((await call(credA, 'DELETE', 'config')).status).toBe(403);
    expect((await call(credA, 'POST', 'config', garbage)).status).toBe(403);
    attempts += 2;
    // A machine hammering: twenty more refused deletes within the burst.
    const [snapshot] = await names('snapshots');
    for (let i = 0; i < 20; i++) expect((await call(credA, 'DELETE', `snapshots/${snapshot}`)).status).toBe(403);
    attempts += 20;
    // Its lock files are its own to remove, and are no attempt on its backups.
    const lock = Buffer.from('{"pid":1}');
    const lockName = createHash('sha256').update(lock).digest('hex');
    expect((await call(credA, 'POST', `locks/${lockName}`, lock)).status).toBe(200);
    expect((await call(credA, 'DELETE', `locks/${lockName}`)).status).toBe(200);

    // Every object is as it was: restic finds the repository whole.
    const check = await restic(['check', '--read-data'], credA);
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse((await restic(['snapshots', '--json'], credA)).stdout)).toHaveLength(1);

    // One burst row counts them all; the audit trail holds the first and the tenth attempt, in the machine's tenant.
    const rows = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.type, 'STORAGE_TAMPERING_REFUSED'));
    expect(rows.map((r) => (r.detail as { attemptsInBurst: number }).attemptsInBurst)).toEqual([1, 10]);
    expect(attempts).toBeGreaterThan(20);
    expect(rows[0]).toMatchObject({
      customerId: tenants.customerA.customerId,
      outcome: 'refused',
      subjectType: 'machine',
      subjectId: machineA,
      name: 'hostile-laptop',
      detail: expect.objectContaining({ action: 'delete', object: expect.stringMatching(/^data\//), storage: 'LOCAL' }),
    });
    expect(rows[0]?.ipAddress).toBeTruthy();
  }, 120_000);

  it("mails the provider's admins once for the burst, and again only for a new burst", async () => {
    await t.app.mailDelivery.runOnce();
    await t.app.mailDelivery.runOnce();
    const mails = () => t.mails.list().filter((m) => m.subject.startsWith('Backups attacked'));
    expect(mails()).toHaveLength(1);
    const [mail] = mails();
    expect(mail?.to).toContain(tenants.providerAdmin.email);
    expect(mail?.subject).toBe(`Backups attacked: machine hostile-laptop of ${await customerName()}`);
    expect(mail?.text).toContain(`/boltadmin/customers/${tenants.customerA.customerId}/`);
    const queued = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'STORAGE_TAMPERING'));
    expect(queued.map((q) => q.recipient)).toEqual([tenants.providerAdmin.email]);
    expect(NOTIFICATION_MAIL_KINDS.STORAGE_TAMPERING).toBe('Backups attacked');

    // Quiet for the burst time: the next attempt is a new burst, alerted again.
    t.clock.advanceMinutes(TAMPERING_BURST_MINUTES + 1);
    const [index] = await names('index');
    expect((await call(credA, 'DELETE', `index/${index}`)).status).toBe(403);
    await t.app.mailDelivery.runOnce();
    expect(mails()).toHaveLength(2);
  });

  it("shows the records to the provider and the machine's customer, and nothing to another tenant", async () => {
    const provider = await signedIn(tenants.providerAdmin.email);
    expect(await tamperingRows(provider, ROUTES.audit.provider.path)).toHaveLength(3);
    const own = await tamperingRows(await signedIn(tenants.customerA.superAdmin.email), ROUTES.audit.account.path);
    expect(own.map((r) => r.kindName)).toEqual(Array(3).fill('Machine refused deleting or replacing its backups'));
    expect(own[0]?.subjectName).toBe('hostile-laptop');
    expect(await tamperingRows(await signedIn(tenants.customerB.superAdmin.email), ROUTES.audit.account.path)).toEqual(
      [],
    );
  });

  it("keeps another tenant's machine out of the repository, and records nothing of it as this machine's", async () => {
    const before = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.type, 'STORAGE_TAMPERING_REFUSED'));
    const [data] = await names('data');
    expect((await call(credB, 'DELETE', `data/${data}`)).status).toBe(403);
    expect((await call(credB, 'GET', 'config')).status).toBe(403);
    const after = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.type, 'STORAGE_TAMPERING_REFUSED'));
    expect(after).toHaveLength(before.length);
  });
});

async function customerName(): Promise<string> {
  const provider = await signedIn(tenants.providerAdmin.email);
  const rows = await tamperingRows(provider, ROUTES.audit.provider.path);
  return rows[0]?.customerName ?? '';
}
