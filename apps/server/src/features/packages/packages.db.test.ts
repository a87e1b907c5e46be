/** Backup packages (000 §2–§5; issue 15): the tables, pages, edit, initialize, status change, deletion and quota. */
import { mkdtempSync, rmSync } from 'node:fs';
import { access, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Envelope,
  type MachineRow,
  MESSAGES,
  PACKAGE_STATUSES,
  type PackageDetail,
  type PackageRow,
  type PackageStatus,
  type PackageStorageDetails,
  type Paged,
  packageStatusOptions,
} from '@portal/domain';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backupMachines,
  backupPackages,
  backupTasks,
  billingServers,
  customers,
  userBackupPackages,
  users,
} from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import type { TestClient } from '../../testing/client.js';
import { resultOf } from '../../testing/envelope.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';
import { storageAccessFor } from '../../testing/storage-access.js';
import { createAgentEventsRepo } from '../agent-events/repo.js';
import { createAgentEventService } from '../agent-events/service.js';
import { createBackupStateService } from '../backup-state/service.js';
import { addCustomer, signedIn } from '../customers/testing.js';
import { eventually } from '../live/testing.js';
import { repositoryDir } from '../local-storage/paths.js';
import { createRepositoryRemoval } from '../local-storage/removal.js';
import { createRepository } from '../local-storage/store.js';
import { createPackageDeletion, PACKAGE_DELETION_LEASE_MS } from './deletion.js';
import { createPackagesRepo } from './repo.js';
import { createPackageQuota } from './service.js';

const TEXT = MESSAGES.packagePages;
const GB = 1024 ** 3;
// Repositories of this file only: the default DATA_DIR is shared with other test files running beside it.
const dataDir = mkdtempSync(join(tmpdir(), 'portal-packages-'));
let t: TestApp;
let tenants: Tenants;
let fixtures: ReturnType<typeof backupFixtures>;
let provider: TestClient;
let reseller: TestClient;
let otherReseller: TestClient;
let superA: TestClient;
let adminA: TestClient;
let userA: TestClient;
let superB: TestClient;

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: dataDir });
  tenants = await createTenants(t.database.db);
  fixtures = backupFixtures(t.database.db);
  await fixtures.setSuperAdmin(tenants.customerA.customerId, tenants.customerA.superAdmin.id);
  await fixtures.setSuperAdmin(tenants.customerB.customerId, tenants.customerB.superAdmin.id);
  const second = await addCustomer(t.database.db, { reseller: { enabled: true } });
  provider = await signedIn(t.app, tenants.providerAdmin.email);
  reseller = await signedIn(t.app, tenants.reseller.superAdmin.email);
  otherReseller = await signedIn(t.app, second.superAdmin.email);
  superA = await signedIn(t.app, tenants.customerA.superAdmin.email);
  adminA = await signedIn(t.app, tenants.customerA.admin.email);
  userA = await signedIn(t.app, tenants.customerA.user.email);
  superB = await signedIn(t.app, tenants.customerB.superAdmin.email);
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const messagesOf = (response: LightMyRequestResponse) =>
  (response.json() as Envelope<unknown>).messages.map((m) => ({ fieldName: m.fieldName, message: m.message }));

async function packageRow(packageId: number) {
  const [row] = await t.database.db.select().from(backupPackages).where(eq(backupPackages.id, packageId));
  return row ?? null;
}
const setStatus = (packageId: number, status: PackageStatus) =>
  t.database.db.update(backupPackages).set({ status }).where(eq(backupPackages.id, packageId));
const link = (userId: number, backupPackageId: number) =>
  t.database.db.insert(userBackupPackages).values({ userId, backupPackageId });
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

const customerPath = (packageId: number) => `/admin/backuppackages/${packageId}`;
const resellerPath = (customerId: number, packageId: number) =>
  `/admin/mycustomers/${customerId}/backuppackages/${packageId}`;
const providerPagePath = (customerId: number, packageId: number) =>
  `/boltadmin/customers/${customerId}/backuppackages/${packageId}`;
const providerActionPath = (packageId: number) => `/boltadmin/backuppackages/${packageId}`;

describe('the customer admins’ packages table (000 §2, 001 §3)', () => {
  let customer: Awaited<ReturnType<typeof addCustomer>>;
  let client: TestClient;
  let admin: TestClient;

  beforeAll(async () => {
    customer = await addCustomer(t.database.db);
    client = await signedIn(t.app, customer.superAdmin.email);
    admin = await signedIn(t.app, customer.admin.email);
  });

  it('pages the super admin’s packages 5 at a time by name, with every field of the row', async () => {
    const ids: number[] = [];
    for (const name of ['f', 'b', 'e', 'a', 'd', 'c']) ids.push(await fixtures.package(customer.customerId, { name }));
    const first = resultOf<Paged<PackageRow>>(await client.json('GET', '/admin/backuppackages?page=0&size=5'));
    expect(first.totalElements).toBe(6);
    expect(first.totalPages).toBe(2);
    expect(first.elements.map((p) => p.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
    const a = first.elements[0] as PackageRow;
    expect(a).toEqual({
      id: ids[3],
      customerId: customer.customerId,
      name: 'a',
      status: 'ACTIVE',
      packageQuotaSizeInBytes: 100 * GB,
      maxBackupSizePerMachineInMbs: 10 * 1024,
      noOfMachinesLimit: 0,
      numberOfBackupMachines: 0,
      upOrDownGradeRequested: false,
      requestedBackupPackageTemplateName: null,
      templateId: null,
      initializable: false,
      manageable: true,
      accessibleByLoggedInUser: true,
      backupPackageUrl: `/admin/backuppackages/${ids[3]}`,
      paymentUrl: null,
      storageLocation: null,
      storageAccount: null,
    });
  });

  it('shows an admin who is not the super admin only the packages linked to them', async () => {
    const linked = await fixtures.package(customer.customerId, { name: 'linked' });
    await link(customer.admin.id, linked);
    const page = resultOf<Paged<PackageRow>>(await admin.json('GET', '/admin/backuppackages?page=0&size=5'));
    expect(page.elements.map((p) => p.id)).toEqual([linked]);
    expect(page.elements[0]).toMatchObject({ accessibleByLoggedInUser: true, manageable: true });
  });

  it('gives the billing product page when the customer has a billing server and the package a service', async () => {
    const [server] = await t.database.db
      .insert(billingServers)
      .values({
        description: 'Billing',
        whmcsHost: 'billing.example.com',
        whmcsPort: 443,
        whmcsPath: '/whmcs',
        whmcsIdentifier: 'id',
        whmcsSecretEncrypted: 'x',
      })
      .returning({ id: billingServers.id });
    await t.database.db
      .update(customers)
      .set({ whmcsServerId: server?.id })
      .where(eq(customers.id, customer.customerId));
    const billed = await fixtures.package(customer.customerId, { name: 'aa billed' });
    await t.database.db.update(backupPackages).set({ whmcsServiceId: 77 }).where(eq(backupPackages.id, billed));
    const page = resultOf<Paged<PackageRow>>(await client.json('GET', '/admin/backuppackages?page=0&size=5'));
    expect(page.elements.find((p) => p.id === billed)?.paymentUrl).toBe(
      'https://billing.example.com/whmcs/clientarea.php?action=productdetails&id=77',
    );
    expect(page.elements.find((p) => p.id !== billed)?.paymentUrl).toBeNull();
  });

  it('is for customer admins only', async () => {
    expect((await userA.json('GET', '/admin/backuppackages')).statusCode).toBe(403);
    expect((await provider.json('GET', '/admin/backuppackages')).statusCode).toBe(403);
  });
});

describe('the package page and its storage (000 §2, §3)', () => {
  let pkg: number;
  let machine: number;

  beforeAll(async () => {
    pkg = await fixtures.package(tenants.customerA.customerId, { name: 'Page package' });
    machine = await fixtures.machine(pkg, { name: 'Server' });
    await fixtures.machine(pkg, { name: 'Laptop' });
    await t.database.db
      .update(backupMachines)
      .set({ usedSpaceBytes: 3 * GB })
      .where(eq(backupMachines.backupPackageId, pkg));
  });

  it('answers storage details from the sum of its machines’ usage', async () => {
    expect(resultOf<PackageStorageDetails>(await superA.json('GET', `/backuppackages/${pkg}/storage`))).toEqual({
      packageQuotaSizeInBytes: 100 * GB,
      usedSpaceInBytes: 6 * GB,
      availableSpaceInBytes: 94 * GB,
    });
  });

  it('answers each audience on its own path, with the links of that audience', async () => {
    const own = resultOf<PackageDetail>(await superA.json('GET', customerPath(pkg)));
    expect(own).toMatchObject({ id: pkg, usedSpaceInBytes: 6 * GB, administrable: false, statusOptions: [] });
    const asReseller = resultOf<PackageDetail>(
      await reseller.json('GET', resellerPath(tenants.customerA.customerId, pkg)),
    );
    expect(asReseller).toMatchObject({
      administrable: true,
      deleteable: false,
      statusOptions: packageStatusOptions('ACTIVE'),
      backupPackageUrl: resellerPath(tenants.customerA.customerId, pkg),
    });
    const asProvider = resultOf<PackageDetail>(
      await provider.json('GET', providerPagePath(tenants.customerA.customerId, pkg)),
    );
    expect(asProvider.backupPackageUrl).toBe(providerPagePath(tenants.customerA.customerId, pkg));
  });

  it('lists its machines as the caller sees the package', async () => {
    const page = resultOf<Paged<MachineRow>>(await provider.json('GET', `/backuppackages/${pkg}/backupmachines`));
    expect(page.elements.map((m) => m.name)).toEqual(['Laptop', 'Server']);
    expect(page.elements.find((m) => m.id === machine)?.backupMachineUrl).toBe(
      `${providerPagePath(tenants.customerA.customerId, pkg)}/backupmachines/${machine}`,
    );
  });

  it('is not found for another tenant, another reseller, a wrong customer on the path and an unlinked user', async () => {
    for (const [client, url] of [
      [superB, customerPath(pkg)],
      [superB, `/backuppackages/${pkg}/storage`],
      [superB, `/backuppackages/${pkg}/backupmachines`],
      [otherReseller, resellerPath(tenants.customerA.customerId, pkg)],
      [otherReseller, `/backuppackages/${pkg}/storage`],
      [reseller, resellerPath(tenants.customerB.customerId, pkg)],
      [provider, providerPagePath(tenants.customerB.customerId, pkg)],
      [adminA, customerPath(pkg)],
      [userA, `/backuppackages/${pkg}/storage`],
    ] as const) {
      expect((await client.json('GET', url)).statusCode, url).toBe(404);
    }
  });
});

describe('the package pages in a browser', () => {
  it('answers a browser navigation with the web app, and an audience outside the page with 404', async () => {
    const pkg = await fixtures.package(tenants.customerA.customerId);
    const navigate = (client: TestClient, url: string) =>
      client.request({ method: 'GET', url, headers: { accept: 'text/html' } });
    const page = await navigate(provider, providerPagePath(tenants.customerA.customerId, pkg));
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect((await navigate(superA, providerPagePath(tenants.customerA.customerId, pkg))).statusCode).toBe(404);
    expect((await navigate(superA, customerPath(pkg))).statusCode).toBe(200);
    expect((await navigate(userA, '/admin/backuppackages')).statusCode).toBe(404);
  });
});

describe('edit and initialize (000 §4, §5)', () => {
  it('renames and limits per machine; the limit is at least 10 MB and at most the quota', async () => {
    const pkg = await fixtures.package(tenants.customerA.customerId, { name: 'Before' });
    const edited = resultOf<PackageRow>(
      await superA.json('PUT', customerPath(pkg), {
        name: 'After',
        limitBackupSizePerMachine: true,
        maxBackupSizePerMachine: 2048,
      }),
    );
    expect(edited).toMatchObject({ name: 'After', maxBackupSizePerMachineInMbs: 2048 });
    const tooBig = await superA.json('PUT', customerPath(pkg), {
      name: 'After',
      limitBackupSizePerMachine: true,
      maxBackupSizePerMachine: 100 * 1024 + 1,
    });
    expect(tooBig.statusCode).toBe(400);
    expect(messagesOf(tooBig)[0]?.fieldName).toBe('maxBackupSizePerMachine');
    const unlimited = resultOf<PackageRow>(
      await superA.json('PUT', customerPath(pkg), { name: 'After', limitBackupSizePerMachine: false }),
    );
    expect(unlimited.maxBackupSizePerMachineInMbs).toBe(100 * 1024);
  });

  it('puts machines above a new per-machine limit OVER_PER_MACHINE_QUOTA, and back when it is lifted', async () => {
    const pkg = await fixtures.package(tenants.customerA.customerId, { name: 'Limits' });
    const [big, small] = [await fixtures.machine(pkg), await fixtures.machine(pkg)];
    await t.database.db
      .update(backupMachines)
      .set({ usedSpaceBytes: 3 * GB })
      .where(eq(backupMachines.id, big));
    await t.database.db.update(backupMachines).set({ usedSpaceBytes: GB }).where(eq(backupMachines.id, small));
    const statusOf = async (id: number) =>
      (await t.database.db.select().from(backupMachines).where(eq(backupMachines.id, id)))[0]?.status;
    resultOf(
      await superA.json('PUT', customerPath(pkg), {
        name: 'Limits',
        limitBackupSizePerMachine: true,
        maxBackupSizePerMachine: 2048,
      }),
    );
    expect(await statusOf(big)).toBe('OVER_PER_MACHINE_QUOTA');
    expect(await statusOf(small)).toBe('ACTIVE');
    resultOf(await superA.json('PUT', customerPath(pkg), { name: 'Limits', limitBackupSizePerMachine: false }));
    expect(await statusOf(big)).toBe('ACTIVE');
  });

  it('refuses packages that are not ACTIVE or OVER_QUOTA, and leaves them unchanged', async () => {
    for (const status of PACKAGE_STATUSES.filter((s) => s !== 'ACTIVE' && s !== 'OVER_QUOTA')) {
      const pkg = await fixtures.package(tenants.customerA.customerId, { name: 'Fixed', status });
      const response = await superA.json('PUT', customerPath(pkg), {
        name: 'Changed',
        limitBackupSizePerMachine: false,
      });
      expect(response.statusCode, status).toBe(400);
      expect(messagesOf(response)).toEqual([{ fieldName: '', message: TEXT.notEditable }]);
      expect((await packageRow(pkg))?.name).toBe('Fixed');
    }
  });

  it('is not found for another customer’s admin and forbidden to a read-only admin', async () => {
    const pkg = await fixtures.package(tenants.customerA.customerId, { name: 'Mine' });
    const body = { name: 'Theirs', limitBackupSizePerMachine: false };
    expect((await superB.json('PUT', customerPath(pkg), body)).statusCode).toBe(404);
    expect((await reseller.json('PUT', customerPath(pkg), body)).statusCode).toBe(404);
    await t.database.db.update(users).set({ readOnly: true }).where(eq(users.id, tenants.customerA.superAdmin.id));
    const readOnly = await superA.json('PUT', customerPath(pkg), body);
    await t.database.db.update(users).set({ readOnly: false }).where(eq(users.id, tenants.customerA.superAdmin.id));
    expect(readOnly.statusCode).toBe(403);
    expect((await packageRow(pkg))?.name).toBe('Mine');
  });

  it('initializes an APPROVED package: the owner names it and it becomes ACTIVE', async () => {
    const pkg = await fixtures.package(tenants.customerA.customerId, { name: 'Approved', status: 'APPROVED' });
    const listed = resultOf<Paged<PackageRow>>(await superA.json('GET', '/admin/backuppackages?page=0&size=100'));
    expect(listed.elements.find((p) => p.id === pkg)?.initializable).toBe(true);
    const empty = await superA.json('PUT', `${customerPath(pkg)}?initialize=true`, { name: '' });
    expect(messagesOf(empty)[0]?.fieldName).toBe('name');
    const done = resultOf<PackageRow>(
      await superA.json('PUT', `${customerPath(pkg)}?initialize=true`, { name: 'Office' }),
    );
    expect(done).toMatchObject({ name: 'Office', status: 'ACTIVE', initializable: false });
    const again = await superA.json('PUT', `${customerPath(pkg)}?initialize=true`, { name: 'Twice' });
    expect(messagesOf(again)).toEqual([{ fieldName: '', message: TEXT.notInitializable }]);
  });
});

describe('status change (000 §4)', () => {
  it('suspends through the backup state: the tasks are NOT_RUNNABLE on the dashboard’s read model, and back', async () => {
    const pkg = await fixtures.package(tenants.customerA.customerId, { name: 'Suspend me' });
    const machine = await fixtures.machine(pkg);
    const backupState = createBackupStateService({ db: t.database.db });
    const task = (await backupState.createTask(fixtures.task(machine))) as number;
    const displayStatus = async () =>
      (await t.database.db.select().from(backupTasks).where(eq(backupTasks.id, task)))[0]?.displayStatus;
    expect(await displayStatus()).toBe('NOT_COMPLETED_YET');

    resultOf(await provider.json('PUT', `${providerActionPath(pkg)}?status=SUSPENDED`));
    expect((await packageRow(pkg))?.status).toBe('SUSPENDED');
    expect(await displayStatus()).toBe('NOT_RUNNABLE');

    resultOf(await reseller.json('PUT', `${resellerPath(tenants.customerA.customerId, pkg)}?status=ACTIVE`));
    expect((await packageRow(pkg))?.status).toBe('ACTIVE');
    expect(await displayStatus()).toBe('NOT_COMPLETED_YET');
  });

  it('offers only the transitions of 000 §4', async () => {
    for (const from of PACKAGE_STATUSES) {
      for (const to of PACKAGE_STATUSES) {
        const pkg = await fixtures.package(tenants.customerB.customerId, { status: from });
        const response = await provider.json('PUT', `${providerActionPath(pkg)}?status=${to}`);
        const allowed = packageStatusOptions(from).includes(to);
        expect(response.statusCode, `${from} → ${to}`).toBe(allowed ? 200 : 400);
        expect((await packageRow(pkg))?.status).toBe(allowed ? to : from);
        if (!allowed) expect(messagesOf(response)).toEqual([{ fieldName: '', message: TEXT.statusChangeNotAllowed }]);
      }
    }
  });

  it('is not found for another reseller, a reseller on a direct customer and customer admins on the admin paths', async () => {
    const pkg = await fixtures.package(tenants.customerA.customerId);
    const direct = await fixtures.package(tenants.customerB.customerId);
    expect(
      (await otherReseller.json('PUT', `${resellerPath(tenants.customerA.customerId, pkg)}?status=SUSPENDED`))
        .statusCode,
    ).toBe(404);
    expect(
      (await reseller.json('PUT', `${resellerPath(tenants.customerB.customerId, direct)}?status=SUSPENDED`)).statusCode,
    ).toBe(404);
    expect((await superA.json('PUT', `${providerActionPath(pkg)}?status=SUSPENDED`)).statusCode).toBe(403);
    expect((await packageRow(pkg))?.status).toBe('ACTIVE');
    expect((await packageRow(direct))?.status).toBe('ACTIVE');
  });
});

describe('deletion (000 §4: SUSPENDED only, asynchronous)', () => {
  /** A repository folder with one data file, as restic would leave it. */
  async function repositoryOf(machineId: number) {
    const dir = repositoryDir(dataDir, null, machineId);
    await createRepository(dir);
    await writeFile(join(dir, 'config'), 'config');
    await writeFile(join(dir, 'data', 'ab', 'ab'.padEnd(64, '0')), 'backed up bytes');
    return dir;
  }

  it('refuses every status but SUSPENDED', async () => {
    for (const status of PACKAGE_STATUSES.filter((s) => s !== 'SUSPENDED')) {
      const pkg = await fixtures.package(tenants.customerA.customerId, { status });
      const response = await provider.json('PUT', `${providerActionPath(pkg)}?delete=true`);
      expect(response.statusCode, status).toBe(400);
      expect(messagesOf(response)).toEqual([{ fieldName: '', message: TEXT.deleteOnlySuspended }]);
      expect((await packageRow(pkg))?.beingDeleted).toBe(false);
    }
  });

  it('is not found for another reseller and another customer', async () => {
    const pkg = await fixtures.package(tenants.customerA.customerId, { status: 'SUSPENDED' });
    const url = `${resellerPath(tenants.customerA.customerId, pkg)}?delete=true`;
    expect((await otherReseller.json('PUT', url)).statusCode).toBe(404);
    expect((await superB.json('PUT', url)).statusCode).toBe(403);
    expect((await packageRow(pkg))?.beingDeleted).toBe(false);
  });

  it('marks the package, removes every machine’s repository and then the rows; asking again is harmless', async () => {
    const pkg = await fixtures.package(tenants.customerA.customerId, { status: 'SUSPENDED', name: 'Doomed' });
    const machines = [await fixtures.machine(pkg), await fixtures.machine(pkg)];
    const dirs = await Promise.all(machines.map(repositoryOf));
    const kept = await fixtures.machine(await fixtures.package(tenants.customerA.customerId));
    const keptDir = await repositoryOf(kept);

    resultOf(await reseller.json('PUT', `${resellerPath(tenants.customerA.customerId, pkg)}?delete=true`));
    resultOf(await provider.json('PUT', `${providerActionPath(pkg)}?delete=true`));
    expect((await superA.json('GET', customerPath(pkg))).statusCode).toBe(404);
    await eventually(async () => (await packageRow(pkg)) === null);
    for (const dir of dirs) expect(await exists(dir)).toBe(false);
    const left = await t.database.db.select().from(backupMachines).where(eq(backupMachines.backupPackageId, pkg));
    expect(left).toEqual([]);
    expect(await exists(keptDir)).toBe(true);
    expect((await provider.json('PUT', `${providerActionPath(pkg)}?delete=true`)).statusCode).toBe(404);
  });
});

describe('the package deletion job: safe to run again and on several instances', () => {
  const removal = () =>
    createRepositoryRemoval({
      storage: storageAccessFor(t.database.db, dataDir, t.config.masterKey ?? ''),
      disconnectMachine: async () => undefined,
      // The embedded storage: its machines have no storage users of their own.
      removeMachineStorageUser: async () => undefined,
    });
  /** The deletion job as one portal instance runs it. */
  const deletion = (deleteRows: (packageId: number) => Promise<boolean>, now?: () => Date) =>
    createPackageDeletion({ repo: createPackagesRepo(t.database.db), removal: removal(), deleteRows, now });

  /** A suspended package marked for deletion, with one machine whose repository is on disk. */
  async function suspendedPackageBeingDeleted() {
    const pkg = await fixtures.package(tenants.customerB.customerId, { status: 'SUSPENDED' });
    const dir = repositoryDir(dataDir, null, await fixtures.machine(pkg));
    await createRepository(dir);
    await t.database.db.update(backupPackages).set({ beingDeleted: true }).where(eq(backupPackages.id, pkg));
    return { pkg, dir };
  }

  it('lets one of two instances take a package; the other finds nothing, and a second pass does nothing', async () => {
    const { pkg, dir } = await suspendedPackageBeingDeleted();
    const backupState = createBackupStateService({ db: t.database.db });
    const instance = () => deletion((id) => backupState.deletePackage(id));
    const [first, second] = [instance(), instance()];
    const deleted = await Promise.all([first.runPending(), second.runPending()]);
    expect(deleted.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect(await packageRow(pkg)).toBeNull();
    expect(await exists(dir)).toBe(false);
    expect(await first.runPending()).toBe(0);
    expect(await first.removePackage(pkg)).toBe(false);
  });

  it('takes up a deletion an instance left half-done once its lease has ended', async () => {
    const { pkg, dir } = await suspendedPackageBeingDeleted();
    const backupState = createBackupStateService({ db: t.database.db });
    const crashing = deletion(async () => {
      throw new Error('instance stopped');
    });
    await expect(crashing.runPending()).rejects.toThrow('instance stopped');
    expect(await exists(dir)).toBe(false);
    expect((await packageRow(pkg))?.beingDeleted).toBe(true);

    const later = new Date(Date.now() + PACKAGE_DELETION_LEASE_MS + 1000);
    const early = deletion((id) => backupState.deletePackage(id));
    // Still held by the instance that stopped: not taken before its lease ends.
    expect(await early.runPending()).toBe(0);
    expect(await packageRow(pkg)).not.toBeNull();
    const next = deletion(
      (id) => backupState.deletePackage(id),
      () => later,
    );
    expect(await next.runPending()).toBe(1);
    expect(await packageRow(pkg)).toBeNull();
  });
});

describe('package quota (000 §4, DESIGN §8)', () => {
  it('goes OVER_QUOTA on a usage report above the quota, its tasks NOT_RUNNABLE, and back to ACTIVE below it', async () => {
    const db = t.database.db;
    const backupState = createBackupStateService({ db });
    const synced: number[] = [];
    const quota = createPackageQuota({
      repo: createPackagesRepo(db),
      backupState,
      syncTasks: async (machineId) => {
        synced.push(machineId);
      },
    });
    const events = createAgentEventService({
      repo: createAgentEventsRepo(db),
      backupState,
      usageChanged: (machineId) => quota.evaluateForMachine(machineId),
    });
    const pkg = await fixtures.package(tenants.customerA.customerId);
    // No per-machine limit in the way: only the package's quota (100 GB) decides.
    await db
      .update(backupPackages)
      .set({ maxBackupSizePerMachineInMbs: 200 * 1024 })
      .where(eq(backupPackages.id, pkg));
    const [first, second] = [await fixtures.machine(pkg), await fixtures.machine(pkg)];
    await db.update(backupMachines).set({ online: true }).where(eq(backupMachines.id, second));
    const task = (await backupState.createTask(fixtures.task(first))) as number;
    const displayStatus = async () =>
      (await db.select().from(backupTasks).where(eq(backupTasks.id, task)))[0]?.displayStatus;
    const usage = (machineId: number, usedSpaceBytes: number) =>
      events.handle(
        { id: machineId, customerId: tenants.customerA.customerId, backupPackageId: pkg },
        {
          type: 'usage',
          usedSpaceBytes,
        },
      );

    await usage(first, 60 * GB);
    expect((await packageRow(pkg))?.status).toBe('ACTIVE');
    await usage(second, 41 * GB);
    expect((await packageRow(pkg))?.status).toBe('OVER_QUOTA');
    expect(await displayStatus()).toBe('NOT_RUNNABLE');
    expect(synced).toContain(second);

    await usage(second, 40 * GB);
    expect((await packageRow(pkg))?.status).toBe('ACTIVE');
    expect(await displayStatus()).toBe('NOT_COMPLETED_YET');

    // A suspended package stays suspended whatever its usage.
    await setStatus(pkg, 'SUSPENDED');
    await usage(second, 90 * GB);
    expect((await packageRow(pkg))?.status).toBe('SUSPENDED');
  });

  it('evaluates a package on its own (after a quota change) and after a machine is removed', async () => {
    const db = t.database.db;
    const backupState = createBackupStateService({ db });
    const quota = createPackageQuota({ repo: createPackagesRepo(db), backupState, syncTasks: async () => undefined });
    const pkg = await fixtures.package(tenants.customerA.customerId, { status: 'OVER_QUOTA' });
    const machine = await fixtures.machine(pkg);
    await db
      .update(backupMachines)
      .set({ usedSpaceBytes: 150 * GB })
      .where(eq(backupMachines.id, machine));
    expect(await quota.evaluatePackageQuota(pkg)).toBe(false);
    await db
      .update(backupPackages)
      .set({ packageQuotaSizeInBytes: 200 * GB })
      .where(eq(backupPackages.id, pkg));
    expect(await quota.evaluatePackageQuota(pkg)).toBe(true);
    expect((await packageRow(pkg))?.status).toBe('ACTIVE');

    await db
      .update(backupPackages)
      .set({ packageQuotaSizeInBytes: 100 * GB })
      .where(eq(backupPackages.id, pkg));
    await quota.evaluatePackageQuota(pkg);
    expect((await packageRow(pkg))?.status).toBe('OVER_QUOTA');
    expect(await quota.removingMachine(machine, () => backupState.deleteMachine(machine))).toBe(true);
    expect((await packageRow(pkg))?.status).toBe('ACTIVE');
  });
});
