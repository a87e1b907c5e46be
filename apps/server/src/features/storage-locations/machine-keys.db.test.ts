import { spawnSync } from 'node:child_process';
import { ROUTES } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backupPackages,
  buckets,
  customers,
  storageAccounts,
  storageLocations,
  storageUsers,
} from '../../db/schema/index.js';
import { createSecretBox } from '../../secrets.js';
import type { StorageProviders } from '../../storage/provider.js';
import { createS3Provider, processEnvFor } from '../../storage/s3.js';
import type { TestApp } from '../../testing/app.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { signedInAs } from '../../testing/envelope.js';
import type { Tenants } from '../../testing/fixtures.js';
import { loopbackGuard, type Rgw, rgwAccountValues } from '../../testing/rgw.js';
import { startS3TestApp } from '../../testing/s3-app.js';
import { storageUsersWithKeys } from '../../testing/storage-users.js';
import { useTempDir } from '../../testing/suite.js';
import { addCustomer } from '../customers/testing.js';
import { eventually } from '../live/testing.js';
import { createRepositorySettings } from '../local-storage/repository-settings.js';
import { createMachineStorageKeys } from './machine-keys.js';
import { createStorageLocationService } from './service.js';

/**
 * Each machine's own storage user and key on an S3 location (issue 16), against the real Ceph RGW of the
 * test run (testing/rgw.ts): the location's bucket, users, keys and policies are made there, and restic
 * reaches the machine's repository with the settings its agent is sent.
 */
const dataDir = useTempDir('machine-keys');
let t: TestApp;
let tenants: Tenants;
let s3AccountId: number;
let machineId: number;
let packageId: number;
let bucketName: string;
const changed: number[] = [];

const db = () => t.database.db;
const secrets = () => createSecretBox(t.config.masterKey ?? '');
let rgw: Rgw;
const serviceOf = (storageAccountId: number) =>
  createS3Provider(rgw.connection({ id: storageAccountId }), { guard: loopbackGuard(), timeoutMs: 20_000 });
const providers = (): StorageProviders => ({
  forAccount: async (id) => serviceOf(id),
  forConnection: (connection) => serviceOf(connection.id),
  forget: () => {},
});
const keys = () =>
  createMachineStorageKeys({
    db: db(),
    providers: providers(),
    secrets: secrets(),
    repositoryChanged: async (id) => {
      changed.push(id);
    },
    warn: () => {},
  });

const machineUsers = (backupMachineId: number) => storageUsersWithKeys(db(), { backupMachineId });

async function policyOf(name: string) {
  const [row] = await db().select({ policy: buckets.policy }).from(buckets).where(eq(buckets.name, name));
  return JSON.parse(row?.policy ?? '{"Statement":[]}') as {
    Statement: Array<{ Principal: { AWS: string[] }; Action: string[]; Resource: string[] }>;
  };
}

beforeAll(async () => {
  // The app's own deletion jobs reach the RGW too: a loopback endpoint and the account's admin key.
  ({ rgw, t, tenants } = await startS3TestApp(dataDir));
  const [account] = await db()
    .insert(storageAccounts)
    .values(rgwAccountValues(rgw, secrets()))
    .returning({ id: storageAccounts.id });
  s3AccountId = account?.id ?? 0;
  const locations = createStorageLocationService({
    db: db(),
    providers: providers(),
    secrets: secrets(),
    warn: () => {},
  });
  const location = await locations.create(tenants.customerB.customerId, s3AccountId);
  bucketName = location.bucketName;
  const fixtures = backupFixtures(db());
  packageId = await fixtures.package(tenants.customerB.customerId, { storageLocationId: location.id });
  machineId = await fixtures.machine(packageId);
}, 120_000);

afterAll(() => t?.close());

describe("a machine's own storage key on an S3 location", () => {
  it('is made on first need: managed user linked to customer, location and machine; its repository and env', async () => {
    const settings = createRepositorySettings({
      db: db(),
      secrets: secrets(),
      publicBase: 'http://portal.test',
      s3Access: (id) => keys().repositoryAccess(id),
    });
    const first = await settings.repositorySettingsFor(machineId);
    const users = await machineUsers(machineId);
    expect(users).toEqual([
      {
        name: `portal-machine-${machineId}`,
        managed: true,
        customerId: tenants.customerB.customerId,
        locationId: expect.any(Number),
        machineId,
        keyId: expect.any(String),
        sealed: expect.any(String),
        keyManaged: true,
        keyLocation: expect.any(Number),
      },
    ]);
    // Its repository is the machine's folder of the location's bucket, reached with its own key.
    expect(first?.repository).toBe(serviceOf(s3AccountId).folderAccess(bucketName, String(machineId)).resticRepository);
    // The second call uses the same key.
    await settings.repositorySettingsFor(machineId);
    expect(await machineUsers(machineId)).toHaveLength(1);

    // The policy grants it its own folder: write, and delete only restic's locks.
    const statements = (await policyOf(bucketName)).Statement.filter((s) =>
      s.Principal.AWS.includes(`arn:aws:iam:::user/portal-machine-${machineId}`),
    );
    const deletes = statements.filter((s) => s.Action.includes('s3:DeleteObject')).flatMap((s) => s.Resource);
    expect(deletes).toEqual([`arn:aws:s3:::${bucketName}/${machineId}/locks/*`]);
    expect(statements.some((s) => s.Action.includes('s3:PutObject'))).toBe(true);

    // The settings the agent is sent open its repository at the service with its own key.
    expect(first?.env?.AWS_ACCESS_KEY_ID).toBe(users[0]?.keyId);
    const access = { resticRepository: first?.repository ?? '', rclonePath: '', env: first?.env ?? {} };
    const init = spawnSync('/usr/bin/restic', ['--no-cache', 'init'], {
      env: {
        ...processEnvFor(access),
        RESTIC_REPOSITORY: access.resticRepository,
        RESTIC_PASSWORD: first?.password ?? '',
      },
      encoding: 'utf8',
    });
    expect(init.status, init.stderr).toBe(0);
  }, 60_000);

  it('is rotated by the provider admin: a new key, the agent told, the old key gone', async () => {
    const [before] = await machineUsers(machineId);
    const path = ROUTES.storageLocations.rotateMachineKey.build({
      customerId: tenants.customerB.customerId,
      packageId,
      machineId,
    });
    await keys().rotateFor({ customerId: tenants.customerB.customerId, packageId, machineId });
    const after = await machineUsers(machineId);
    expect(after).toHaveLength(1);
    expect(after[0]?.keyId).not.toBe(before?.keyId);
    expect(changed).toContain(machineId);
    // Another customer's path does not reach it; a customer may not rotate.
    await expect(
      keys().rotateFor({ customerId: tenants.customerA.customerId, packageId, machineId }),
    ).rejects.toThrow();
    const customer = await signedInAs(t.app, tenants.customerB.superAdmin.email);
    expect((await customer.json('PUT', path)).statusCode).toBe(403);
    // The machine page offers the rotation to the provider admin only.
    const detail = ROUTES.machines.detail.build({ machineId });
    const provider = await signedInAs(t.app, tenants.providerAdmin.email);
    expect((await provider.json('GET', detail)).json().result.storageKeyRotatable).toBe(true);
    expect((await customer.json('GET', detail)).json().result.storageKeyRotatable).toBe(false);
  });

  it('goes with the machine: its user and keys removed, the policy without it', async () => {
    await keys().remove(machineId);
    expect(await machineUsers(machineId)).toEqual([]);
    const principals = (await policyOf(bucketName)).Statement.flatMap((s) => s.Principal.AWS);
    expect(principals).not.toContain(`arn:aws:iam:::user/portal-machine-${machineId}`);
  });

  it('is not made for a machine on the embedded storage (its machine credential is its key)', async () => {
    const fixtures = backupFixtures(db());
    const location = await fixtures.storageLocation(tenants.customerA.customerId);
    const localPackage = await fixtures.package(tenants.customerA.customerId, { storageLocationId: location });
    const localMachine = await fixtures.machine(localPackage);
    expect(await keys().repositoryAccess(localMachine)).toBeNull();
    expect(await machineUsers(localMachine)).toEqual([]);
    const provider = await signedInAs(t.app, tenants.providerAdmin.email);
    const detail = await provider.json('GET', ROUTES.machines.detail.build({ machineId: localMachine }));
    expect(detail.json().result.storageKeyRotatable).toBe(false);
  });
});

describe("a machine's own storage user goes with its package and with its customer (the app's deletion jobs)", () => {
  /** A suspended package of the customer on an S3 location, with a machine whose own key was made. */
  async function machineWithKey(customerId: number, storageLocationId: number) {
    const fixtures = backupFixtures(db());
    const pkg = await fixtures.package(customerId, { status: 'SUSPENDED', storageLocationId });
    const machine = await fixtures.machine(pkg);
    expect(await keys().repositoryAccess(machine)).not.toBeNull();
    expect(await serviceOf(s3AccountId).listUsers()).toContain(`portal-machine-${machine}`);
    return { pkg, machine };
  }

  async function expectGoneAtService(machine: number, bucket: string) {
    expect(await serviceOf(s3AccountId).listUsers()).not.toContain(`portal-machine-${machine}`);
    expect(await machineUsers(machine)).toEqual([]);
    const principals = (await policyOf(bucket)).Statement.flatMap((s) => s.Principal.AWS);
    expect(principals).not.toContain(`arn:aws:iam:::user/portal-machine-${machine}`);
  }

  it("removes the user of each machine of a deleted package, at the service and from the bucket's policy", async () => {
    const [location] = await db()
      .select({ id: storageLocations.id })
      .from(storageLocations)
      .innerJoin(buckets, eq(buckets.id, storageLocations.bucketId))
      .where(eq(buckets.name, bucketName));
    const { pkg, machine } = await machineWithKey(tenants.customerB.customerId, location?.id ?? 0);
    const provider = await signedInAs(t.app, tenants.providerAdmin.email);
    const asked = await provider.json('PUT', `${ROUTES.packages.providerAction.build({ packageId: pkg })}?delete=true`);
    expect(asked.statusCode).toBe(200);
    await eventually(async () => {
      const [row] = await db().select().from(backupPackages).where(eq(backupPackages.id, pkg));
      return row === undefined;
    }, 30_000);
    await expectGoneAtService(machine, bucketName);
  }, 60_000);

  it("removes a deleted customer's machine users, location users and keys, and its managed bucket, at the service", async () => {
    const customer = await addCustomer(db(), { status: 'SUSPENDED' });
    const locations = createStorageLocationService({
      db: db(),
      providers: providers(),
      secrets: secrets(),
      warn: () => {},
    });
    const location = await locations.create(customer.customerId, s3AccountId);
    const { machine } = await machineWithKey(customer.customerId, location.id);
    const locationUsers = (
      await db()
        .select({ name: storageUsers.name })
        .from(storageUsers)
        .where(eq(storageUsers.storageLocationId, location.id))
    ).map((u) => u.name);
    expect(locationUsers).not.toEqual([]);
    const service = serviceOf(s3AccountId);
    expect(await service.listUsers()).toEqual(expect.arrayContaining([...locationUsers, `portal-machine-${machine}`]));
    const provider = await signedInAs(t.app, tenants.providerAdmin.email);
    const asked = await provider.json(
      'DELETE',
      ROUTES.customers.provider.remove.build({ customerId: customer.customerId }),
    );
    expect(asked.statusCode).toBe(200);
    await eventually(async () => {
      const [row] = await db().select().from(customers).where(eq(customers.id, customer.customerId));
      return row === undefined;
    }, 30_000);
    // The service's side follows the commit of the rows' deletion.
    await eventually(async () => !(await service.listBuckets()).includes(location.bucketName), 30_000);
    const left = await service.listUsers();
    for (const name of [...locationUsers, `portal-machine-${machine}`]) expect(left).not.toContain(name);
    expect(await machineUsers(machine)).toEqual([]);
    expect(await db().select().from(buckets).where(eq(buckets.name, location.bucketName))).toEqual([]);
  }, 60_000);
});
