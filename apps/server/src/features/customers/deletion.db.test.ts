/** Customer deletion (002 §4.1, §7.3; DESIGN §8): the request, and the job that removes the data. */
import { mkdtempSync, rmSync } from 'node:fs';
import { access, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CUSTOMER_STATUSES, type CustomerRow, MESSAGES, type Paged } from '@portal/domain';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessKeys,
  auditEvents,
  backupMachines,
  backupPackages,
  backupSnapshots,
  backupTasks,
  buckets,
  customers,
  logFiles,
  machineCommandRequests,
  machineMessages,
  packageRequests,
  packageTemplates,
  resellerSettings,
  sessions,
  storageLocations,
  storageUsers,
  taskActions,
  userBackupPackages,
  users,
} from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { TestClient } from '../../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../../testing/fixtures.js';
import { storageAccessFor, storageLocationServiceFor } from '../../testing/storage-access.js';
import { createBackupStateService } from '../backup-state/service.js';
import { eventually } from '../live/testing.js';
import { repositoryDir } from '../local-storage/paths.js';
import { createRepository } from '../local-storage/store.js';
import { createMachineCredentials } from '../machine-auth/credentials.js';
import { createCustomerDeletion } from './deletion.js';
import { createCustomersRepo } from './repo.js';
import { addCustomer, signedIn, type TestCustomer } from './testing.js';

// Repositories of this file only: the default DATA_DIR is shared with other test files running beside it.
const dataDir = mkdtempSync(join(tmpdir(), 'portal-customer-deletion-'));
let t: TestApp;
let tenants: Tenants;
let provider: TestClient;
let reseller: TestClient;
let fixtures: ReturnType<typeof backupFixtures>;

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: dataDir });
  tenants = await createTenants(t.database.db);
  fixtures = backupFixtures(t.database.db);
  provider = await signedIn(t.app, tenants.providerAdmin.email);
  reseller = await signedIn(t.app, tenants.reseller.superAdmin.email);
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

async function customerRow(customerId: number) {
  const [row] = await t.database.db.select().from(customers).where(eq(customers.id, customerId));
  return row ?? null;
}

const setLease = (customerId: number, until: Date | null) =>
  t.database.db.update(customers).set({ deletionLeaseUntil: until }).where(eq(customers.id, customerId));

/** A repository folder with one data file, as restic would leave it. */
async function repositoryWithData(place: { bucket: string; subfolder: string | null } | null, machineId: number) {
  const dir = repositoryDir(dataDir, place, machineId);
  await createRepository(dir);
  await writeFile(join(dir, 'config'), 'config');
  await writeFile(join(dir, 'data', 'ab', 'ab'.padEnd(64, '0')), 'backed up bytes');
  return dir;
}

describe('delete customer: refusals', () => {
  it('deletes only SUSPENDED customers: every other status is refused with a global message', async () => {
    const c = await addCustomer(t.database.db);
    for (const status of CUSTOMER_STATUSES.filter((s) => s !== 'SUSPENDED')) {
      await t.database.db.update(customers).set({ status }).where(eq(customers.id, c.customerId));
      const response = await provider.json('DELETE', `/boltadmin/customers/${c.customerId}`);
      expect(response.statusCode, status).toBe(400);
      expect(response.json().messages).toEqual([
        expect.objectContaining({ fieldName: '', message: MESSAGES.customer.deleteOnlySuspended }),
      ]);
      expect((await customerRow(c.customerId))?.beingDeleted).toBe(false);
    }
  });

  it('refuses a reseller that still has customers (409)', async () => {
    const parent = await addCustomer(t.database.db, { status: 'SUSPENDED', reseller: { enabled: true } });
    await addCustomer(t.database.db, { parentResellerCustomerId: parent.customerId });
    const response = await provider.json('DELETE', `/boltadmin/customers/${parent.customerId}`);
    expect(response.statusCode).toBe(409);
    expect(response.json().messages).toEqual([
      expect.objectContaining({ fieldName: '', message: MESSAGES.customer.resellerHasCustomers }),
    ]);
    const listed = (await provider.json('GET', `/boltadmin/customers/${parent.customerId}`)).json()
      .result as CustomerRow;
    expect(listed).toMatchObject({ deleteable: false, numberOfChildCustomers: 1 });
    expect((await customerRow(parent.customerId))?.beingDeleted).toBe(false);
  });

  it("answers 404 for another reseller's or the provider's customers, 403 for read-only admins and customer roles", async () => {
    const b = await addCustomer(t.database.db, { status: 'SUSPENDED' });
    expect((await reseller.json('DELETE', `/admin/mycustomers/${b.customerId}`)).statusCode).toBe(404);
    expect((await reseller.json('DELETE', `/admin/mycustomers/${tenants.reseller.customerId}`)).statusCode).toBe(404);
    const own = await addCustomer(t.database.db, {
      status: 'SUSPENDED',
      parentResellerCustomerId: tenants.reseller.customerId,
    });
    for (const email of [tenants.customerA.superAdmin.email, tenants.customerB.admin.email]) {
      const client = await signedIn(t.app, email);
      expect((await client.json('DELETE', `/admin/mycustomers/${own.customerId}`)).statusCode, email).toBe(403);
      expect((await client.json('DELETE', `/boltadmin/customers/${own.customerId}`)).statusCode, email).toBe(403);
    }
    await t.database.db.update(users).set({ readOnly: true }).where(eq(users.id, tenants.reseller.superAdmin.id));
    const readOnly = await reseller.json('DELETE', `/admin/mycustomers/${own.customerId}`);
    await t.database.db.update(users).set({ readOnly: false }).where(eq(users.id, tenants.reseller.superAdmin.id));
    expect(readOnly.statusCode).toBe(403);
    expect((await customerRow(b.customerId))?.beingDeleted).toBe(false);
    expect((await customerRow(own.customerId))?.beingDeleted).toBe(false);
  });
});

describe('delete customer: the data really goes', () => {
  const db = () => t.database.db;
  let c: TestCustomer;
  let ids: {
    machines: number[];
    packages: number[];
    tasks: number[];
    location: number;
    bucket: number;
    template: number;
  };
  let folders: string[];
  let survivor: string;
  let otherPackage: number;
  let adminSession: TestClient;

  beforeAll(async () => {
    c = await addCustomer(db(), {
      parentResellerCustomerId: tenants.reseller.customerId,
      reseller: { enabled: true, brandName: 'Going Brand' },
    });
    const location = await fixtures.storageLocation(c.customerId);
    const [place] = await db()
      .select({ bucketId: buckets.id, bucket: buckets.name, subfolder: storageLocations.subfolder })
      .from(storageLocations)
      .innerJoin(buckets, eq(buckets.id, storageLocations.bucketId))
      .where(eq(storageLocations.id, location));
    if (!place) throw new Error('no location');
    const inLocation = await fixtures.package(c.customerId, { storageLocationId: location });
    const withoutLocation = await fixtures.package(c.customerId);
    const m1 = await fixtures.machine(inLocation, { assignedUserId: c.user.id });
    const m2 = await fixtures.machine(withoutLocation);
    const state = createBackupStateService({ db: db() });
    const task = await state.createTask(fixtures.task(m1));
    if (task === null) throw new Error('no task');
    const [action] = await db()
      .insert(taskActions)
      .values({ backupTaskId: task, backupMachineId: m1, type: 'BACKUP_RUN', status: 'FINISHED_SUCCESS' })
      .returning({ id: taskActions.id });
    await db()
      .insert(backupSnapshots)
      .values({ backupTaskId: task, taskActionId: action?.id ?? null });
    await db()
      .insert(machineMessages)
      .values({ backupMachineId: m1, backupTaskId: task, messageType: 'INFO', message: 'done' });
    await db().insert(logFiles).values({ backupMachineId: m1, fileName: 'agent.log', lastModified: new Date() });
    await db()
      .insert(machineCommandRequests)
      .values({ backupMachineId: m1, requestId: 'r-1', userId: c.admin.id, command: 'starttask' });
    await db().insert(userBackupPackages).values({ userId: c.user.id, backupPackageId: inLocation });
    const [template] = await db()
      .insert(packageTemplates)
      .values({ ownerCustomerId: c.customerId, name: 'Reseller template', storageQuota: 10 })
      .returning({ id: packageTemplates.id });
    if (!template) throw new Error('no template');
    await db()
      .insert(packageRequests)
      .values({ customerId: c.customerId, requestType: 'NEW_SIGNUP', requestedByUserId: c.superAdmin.id });
    // Another customer's package made from the customer's template keeps its quotas when the template goes.
    otherPackage = await fixtures.package(tenants.customerB.customerId);
    await db().update(backupPackages).set({ templateId: template.id }).where(eq(backupPackages.id, otherPackage));
    const [storageUser] = await db()
      .insert(storageUsers)
      .values({
        storageAccountId:
          (await db().select().from(buckets).where(eq(buckets.id, place.bucketId)))[0]?.storageAccountId ?? 0,
        name: `user-${c.customerId}`,
        customerId: c.customerId,
        storageLocationId: location,
        backupMachineId: m1,
      })
      .returning();
    if (!storageUser) throw new Error('no storage user');
    await db()
      .insert(accessKeys)
      .values({
        storageAccountId: storageUser.storageAccountId,
        storageUserId: storageUser.id,
        keyId: `key-${c.customerId}`,
        customerId: c.customerId,
        backupMachineId: m1,
      });
    folders = [await repositoryWithData(place, m1), await repositoryWithData(null, m2)];
    const otherMachine = await fixtures.machine(otherPackage);
    survivor = await repositoryWithData(null, otherMachine);
    ids = {
      machines: [m1, m2],
      packages: [inLocation, withoutLocation],
      tasks: [task],
      location,
      bucket: place.bucketId,
      template: template.id,
    };
    // Signed in while active; suspension ends sessions lazily, deletion removes them at once.
    adminSession = await signedIn(t.app, c.admin.email);
    await db().update(customers).set({ status: 'SUSPENDED' }).where(eq(customers.id, c.customerId));
  });

  it('answers OK at once, signs the users out and cuts the machines off, and is repeatable', async () => {
    const credential = await createMachineCredentials(db()).issue(ids.machines[0] ?? 0);
    if (!credential) throw new Error('no credential');
    expect(await createMachineCredentials(db()).verify(credential)).not.toBeNull();
    // Another instance holds the deletion for now (the app's clock): the request still answers at once.
    await setLease(c.customerId, new Date(t.clock.now.getTime() + 3_600_000));

    const first = await reseller.json('DELETE', `/admin/mycustomers/${c.customerId}`);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ status: 'OK', messages: [], result: null });
    const again = await reseller.json('DELETE', `/admin/mycustomers/${c.customerId}`);
    expect(again.statusCode).toBe(200);

    expect((await customerRow(c.customerId))?.beingDeleted).toBe(true);
    expect((await adminSession.json('GET', '/admin/account')).statusCode).toBe(401);
    expect(
      await db()
        .select()
        .from(sessions)
        .where(inArray(sessions.userId, [c.superAdmin.id, c.admin.id, c.user.id])),
    ).toEqual([]);
    expect(await createMachineCredentials(db()).verify(credential)).toBeNull();
    const mine = (await reseller.json('GET', '/admin/mycustomerspaginated?size=200')).json()
      .result as Paged<CustomerRow>;
    expect(mine.elements.map((r) => r.id)).not.toContain(c.customerId);
    expect((await reseller.json('GET', `/admin/mycustomers/${c.customerId}`)).statusCode).toBe(404);
    const signIn = await new TestClient(t.app).signIn(c.superAdmin.email, FIXTURE_PASSWORD);
    expect(signIn.headers.location).not.toBe('/');
  });

  it('removes the repositories and every row once the lease of the instance that held it has run out', async () => {
    await setLease(c.customerId, new Date(t.clock.now.getTime() - 1000));
    // Repeating the request kicks the job again (it also sweeps every few minutes).
    expect((await provider.json('DELETE', `/boltadmin/customers/${c.customerId}`)).statusCode).toBe(200);
    await eventually(async () => (await customerRow(c.customerId)) === null, 10_000);

    for (const folder of folders) expect(await exists(folder), folder).toBe(false);
    expect(await exists(survivor)).toBe(true);

    const userIds = [c.superAdmin.id, c.admin.id, c.user.id];
    expect(await db().select().from(users).where(inArray(users.id, userIds))).toEqual([]);
    expect(await db().select().from(backupMachines).where(inArray(backupMachines.id, ids.machines))).toEqual([]);
    expect(await db().select().from(backupPackages).where(inArray(backupPackages.id, ids.packages))).toEqual([]);
    expect(await db().select().from(backupTasks).where(inArray(backupTasks.id, ids.tasks))).toEqual([]);
    expect(await db().select().from(taskActions).where(inArray(taskActions.backupMachineId, ids.machines))).toEqual([]);
    expect(await db().select().from(backupSnapshots).where(inArray(backupSnapshots.backupTaskId, ids.tasks))).toEqual(
      [],
    );
    expect(
      await db().select().from(machineMessages).where(inArray(machineMessages.backupMachineId, ids.machines)),
    ).toEqual([]);
    expect(await db().select().from(storageLocations).where(eq(storageLocations.id, ids.location))).toEqual([]);
    expect(await db().select().from(resellerSettings).where(eq(resellerSettings.customerId, c.customerId))).toEqual([]);
    expect(await db().select().from(packageTemplates).where(eq(packageTemplates.id, ids.template))).toEqual([]);
    expect(await db().select().from(packageRequests).where(eq(packageRequests.customerId, c.customerId))).toEqual([]);
    expect(await db().select().from(userBackupPackages).where(inArray(userBackupPackages.userId, userIds))).toEqual([]);
    // What outlives the customer keeps no link to it.
    const [bucket] = await db().select().from(buckets).where(eq(buckets.id, ids.bucket));
    expect(bucket?.customerId).toBeNull();
    const [other] = await db().select().from(backupPackages).where(eq(backupPackages.id, otherPackage));
    expect(other?.templateId).toBeNull();
    // A machine's own storage user goes with its machine (issue 16), its keys with it.
    expect(
      await db()
        .select()
        .from(storageUsers)
        .where(eq(storageUsers.name, `user-${c.customerId}`)),
    ).toEqual([]);
    expect(
      await db()
        .select()
        .from(accessKeys)
        .where(eq(accessKeys.keyId, `key-${c.customerId}`)),
    ).toEqual([]);
    // The audit trail outlives its tenant (issue 18): its records keep the customer's id.
    const audit = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(auditEvents)
      .where(eq(auditEvents.customerId, c.customerId));
    expect(audit[0]?.n).toBeGreaterThan(0);

    const signIn = await new TestClient(t.app).signIn(c.admin.email, FIXTURE_PASSWORD);
    expect(signIn.headers.location).not.toBe('/');
    expect((await provider.json('DELETE', `/boltadmin/customers/${c.customerId}`)).statusCode).toBe(404);
  });

  it('leaves the reseller deletable once its last customer is gone', async () => {
    const parent = await addCustomer(db(), { status: 'SUSPENDED', reseller: { enabled: true } });
    const child = await addCustomer(db(), { status: 'SUSPENDED', parentResellerCustomerId: parent.customerId });
    expect((await provider.json('DELETE', `/boltadmin/customers/${parent.customerId}`)).statusCode).toBe(409);
    expect((await provider.json('DELETE', `/boltadmin/customers/${child.customerId}`)).statusCode).toBe(200);
    await eventually(async () => (await customerRow(child.customerId)) === null, 10_000);
    expect((await provider.json('DELETE', `/boltadmin/customers/${parent.customerId}`)).statusCode).toBe(200);
    await eventually(async () => (await customerRow(parent.customerId)) === null, 10_000);
  });
});

describe('the deletion job with several server instances', () => {
  it('deletes each customer once when two instances run at once, and skips one another holds', async () => {
    const db = t.database.db;
    const marked: number[] = [];
    for (let i = 0; i < 4; i++) {
      const c = await addCustomer(db, { status: 'SUSPENDED' });
      await fixtures.machine(await fixtures.package(c.customerId));
      marked.push(c.customerId);
    }
    await db.update(customers).set({ beingDeleted: true }).where(inArray(customers.id, marked));
    const held = marked[3] ?? 0;
    // These instances read the real time.
    await setLease(held, new Date(Date.now() + 3_600_000));
    const instance = () =>
      createCustomerDeletion({
        repo: createCustomersRepo(db),
        storage: storageAccessFor(db, dataDir, t.config.masterKey ?? ''),
        disconnectMachine: async () => {},
        // The embedded storage: its machines have no storage users of their own.
        removeMachineStorageUser: async () => {},
        locations: storageLocationServiceFor(db, dataDir, t.config.masterKey ?? ''),
        warn: () => {},
      });
    const [one, two] = await Promise.all([instance().runPending(), instance().runPending()]);
    expect(one + two).toBe(3);
    expect(await db.select({ id: customers.id }).from(customers).where(inArray(customers.id, marked))).toEqual([
      { id: held },
    ]);
    expect(await instance().runPending()).toBe(0);
    await setLease(held, null);
    expect(await instance().runPending()).toBe(1);
  });
});
