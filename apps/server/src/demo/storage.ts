import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { locationStorageUserName } from '@portal/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { accessKeys, buckets, storageAccounts, storageLocations, storageUsers } from '../db/schema/index.js';
import { customerBucketName, storageRoot } from '../features/local-storage/paths.js';
import { bucketPolicyFor } from '../storage/policy.js';
import { type CustomerInfo, customerNamed, encryptDemoSecret, type SeedContext, zip } from './context.js';

/**
 * The embedded storage account and, for every customer past its signup, a managed bucket with its default
 * storage location, storage user and access key. Tailspin Toys also keeps the older bucket its package
 * moved from; its location's id is returned for that finished migration.
 */
export async function insertStorage(
  ctx: SeedContext,
  customers: readonly CustomerInfo[],
): Promise<{ migrationSourceLocationId: number }> {
  const [account] = await ctx.tx
    .insert(storageAccounts)
    .values({ name: 'Embedded storage', type: 'LOCAL', defaultStorageAccount: true })
    .returning({ id: storageAccounts.id });
  if (!account) throw new Error('storage account insert returned nothing');
  const storageAccountId = account.id;
  const withStorage = customers.filter((c) => c.status !== 'SIGNUP_REQUESTED');
  const migrating = customerNamed(customers, 'Tailspin Toys');
  const bucketName = (c: CustomerInfo, suffix = '') => customerBucketName(c.id, c.name, suffix);
  // The product's name for a location's user (storage-locations/service.ts), known once the location is.
  const userName = (c: CustomerInfo) => {
    if (c.locationId === null) throw new Error(`customer ${c.name} has no storage location yet`);
    return locationStorageUserName(c.locationId);
  };
  const bucketRows = withStorage.map((c) => ({ customer: c, name: bucketName(c) }));
  bucketRows.push({ customer: migrating, name: bucketName(migrating, '-old') });
  const bucketIds = await ctx.tx
    .insert(buckets)
    .values(
      bucketRows.map((b) => ({
        storageAccountId: storageAccountId,
        name: b.name,
        managed: true,
        customerId: b.customer.id,
        createdAt: b.customer.createdAt,
      })),
    )
    .returning({ id: buckets.id });
  const locationRows = zip(bucketRows, bucketIds).map(([b, { id }], i) => ({
    customerId: b.customer.id,
    bucketId: id,
    subfolder: null,
    // The extra, older bucket of the migrating customer is the source of its finished migration.
    defaultForCustomer: i < withStorage.length,
    createdAt: b.customer.createdAt,
  }));
  const locationIds = await ctx.tx.insert(storageLocations).values(locationRows).returning({ id: storageLocations.id });
  let migrationSourceLocationId = 0;
  zip(bucketRows, locationIds).forEach(([b, location], index) => {
    if (index < withStorage.length) b.customer.locationId = location.id;
    else migrationSourceLocationId = location.id;
  });
  // The policy the portal writes for a location's user: the bucket's whole folder (storage/policy.ts). The
  // older bucket still grants its customer's current location user: the demo's one inconsistent policy.
  for (const [b, { id }] of zip(bucketRows, bucketIds)) {
    const policy = bucketPolicyFor(b.name, [{ userName: userName(b.customer), role: 'location', prefix: '' }]);
    await ctx.tx.update(buckets).set({ policy }).where(eq(buckets.id, id));
  }

  const storageUserIds = await ctx.tx
    .insert(storageUsers)
    .values(
      withStorage.map((c) => ({
        storageAccountId: storageAccountId,
        name: userName(c),
        managed: true,
        customerId: c.id,
        storageLocationId: c.locationId,
        createdAt: c.createdAt,
      })),
    )
    .returning({ id: storageUsers.id });
  await ctx.tx.insert(accessKeys).values(
    zip(withStorage, storageUserIds).map(([c, { id }]) => ({
      storageAccountId: storageAccountId,
      storageUserId: id,
      keyId: `LPK${String(c.id).padStart(5, '0')}${ctx.rng.alnum(12)}`,
      secretEncrypted: encryptDemoSecret(),
      managed: true,
      customerId: c.id,
      storageLocationId: c.locationId,
      createdAt: c.createdAt,
    })),
  );
  return { migrationSourceLocationId };
}

/**
 * The embedded storage keeps a bucket as a folder under DATA_DIR/storage, made when the portal creates the
 * bucket; the seed writes only rows, so the demo's buckets are made here (every start: it is idempotent).
 */
export async function createDemoBuckets(db: Db, dataDir: string): Promise<void> {
  const rows = await db
    .select({ name: buckets.name })
    .from(buckets)
    .innerJoin(storageAccounts, eq(storageAccounts.id, buckets.storageAccountId))
    .where(eq(storageAccounts.type, 'LOCAL'));
  for (const { name } of rows) await mkdir(join(storageRoot(dataDir), name), { recursive: true });
}
