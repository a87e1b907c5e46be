import { eq, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupFixtures } from '../testing/backup-fixtures.js';
import { openTestDatabase } from '../testing/database.js';
import type { Database } from './client.js';
import {
  backupTasks,
  buckets,
  customers,
  machineMessages,
  packageMigrations,
  realtimeCommands,
  storageAccounts,
  storageLocations,
  users,
} from './schema/index.js';

const TABLES = [
  'access_keys',
  'audit_events',
  'backup_machines',
  'backup_packages',
  'backup_snapshots',
  'backup_tasks',
  'billing_servers',
  'buckets',
  'customers',
  'download_ids',
  'log_files',
  'machine_linking_codes',
  'machine_messages',
  'package_migrations',
  'package_requests',
  'package_templates',
  'password_reset_tokens',
  'realtime_command_output',
  'realtime_commands',
  'reseller_settings',
  'run_account_snapshots',
  'sessions',
  'sign_in_failures',
  'storage_accounts',
  'storage_locations',
  'storage_users',
  'task_actions',
  'user_backup_packages',
  'users',
];

let database: Database;

/** Raw SQL rows; PGlite and node-postgres both answer with { rows }. */
async function rows<T>(query: SQL): Promise<T[]> {
  const result = (await database.db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

beforeAll(async () => {
  database = await openTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

/** The SQLSTATE with which the database refused the statement, or null when it accepted it. */
async function refusal(run: () => Promise<unknown>): Promise<string | null> {
  try {
    await run();
    return null;
  } catch (error) {
    return sqlState(error) ?? 'unknown';
  }
}

/** drizzle wraps driver errors; the SQLSTATE sits on the error or on one of its causes. */
function sqlState(error: unknown): string | undefined {
  let current: unknown = error;
  while (current instanceof Error || (typeof current === 'object' && current !== null)) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

const UNIQUE_VIOLATION = '23505';
/** ON DELETE RESTRICT: PostgreSQL 15 reports foreign_key_violation, PGlite (17) restrict_violation. */
const RESTRICT_VIOLATIONS = ['23503', '23001'];
const CHECK_VIOLATION = '23514';

async function fixture(label: string) {
  const { db } = database;
  const [account] = await db
    .insert(storageAccounts)
    .values({ name: `Account ${label}`, type: 'LOCAL' })
    .returning({ id: storageAccounts.id });
  const [customer] = await db
    .insert(customers)
    .values({ companyName: `Company ${label}`, status: 'ACTIVE' })
    .returning({ id: customers.id });
  if (!account || !customer) throw new Error('fixture insert returned nothing');
  const [bucketA, bucketB] = await db
    .insert(buckets)
    .values([
      { storageAccountId: account.id, name: `bucket-${label}-a`, managed: true, customerId: customer.id },
      { storageAccountId: account.id, name: `bucket-${label}-b`, managed: true, customerId: customer.id },
    ])
    .returning({ id: buckets.id });
  if (!bucketA || !bucketB) throw new Error('fixture insert returned nothing');
  return { accountId: account.id, customerId: customer.id, bucketA: bucketA.id, bucketB: bucketB.id };
}

describe('database schema', () => {
  it('has every table of the model after the migration', async () => {
    const result = await rows<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    const names = result.map((row) => row.table_name).sort();
    for (const table of TABLES) expect(names).toContain(table);
  });

  it('refuses a second user with the same e-mail in another case', async () => {
    const { db } = database;
    const base = { firstName: 'Ana', surname: 'Silva', passwordHash: 'x', role: 'ROLE_BOLT_ADMIN_USER' as const };
    await db.insert(users).values({ ...base, email: 'ana.silva@example.test' });
    expect(await refusal(() => db.insert(users).values({ ...base, email: 'Ana.Silva@Example.TEST' }))).toBe(
      UNIQUE_VIOLATION,
    );
  });

  it('allows one default storage location per customer', async () => {
    const { db } = database;
    const f = await fixture('default-location');
    await db
      .insert(storageLocations)
      .values({ customerId: f.customerId, bucketId: f.bucketA, defaultForCustomer: true });
    expect(
      await refusal(() =>
        db.insert(storageLocations).values({ customerId: f.customerId, bucketId: f.bucketB, defaultForCustomer: true }),
      ),
    ).toBe(UNIQUE_VIOLATION);
    // Non-default locations are not limited.
    await db.insert(storageLocations).values({ customerId: f.customerId, bucketId: f.bucketB, subfolder: 'archive' });
  });

  it('allows one default storage account', async () => {
    const { db } = database;
    await db.insert(storageAccounts).values({ name: 'First default', type: 'LOCAL', defaultStorageAccount: true });
    expect(
      await refusal(() =>
        db.insert(storageAccounts).values({ name: 'Second default', type: 'S3', defaultStorageAccount: true }),
      ),
    ).toBe(UNIQUE_VIOLATION);
  });

  it('refuses a duplicate bucket name within one account', async () => {
    const { db } = database;
    const f = await fixture('bucket-name');
    expect(
      await refusal(() => db.insert(buckets).values({ storageAccountId: f.accountId, name: 'bucket-bucket-name-a' })),
    ).toBe(UNIQUE_VIOLATION);
  });

  it('refuses a realtime command without a target', async () => {
    const { db } = database;
    expect(
      await refusal(() =>
        db
          .insert(realtimeCommands)
          .values({ commandId: 'req-1', commandType: 'RESTIC_COMMAND', baseCommand: 'snapshots' }),
      ),
    ).toBe(CHECK_VIOLATION);
  });

  it('deletes a customer with its whole tree, and keeps a location in use', async () => {
    const { db } = database;
    const f = await fixture('cascade');
    const [location, other] = await db
      .insert(storageLocations)
      .values([
        { customerId: f.customerId, bucketId: f.bucketA, defaultForCustomer: true },
        { customerId: f.customerId, bucketId: f.bucketB },
      ])
      .returning({ id: storageLocations.id });
    if (!location || !other) throw new Error('insert returned nothing');
    const fixtures = backupFixtures(db);
    const packageId = await fixtures.package(f.customerId, { name: 'Main', storageLocationId: location.id });
    const machineId = await fixtures.machine(packageId, { name: 'PC-1', osFamily: 'WINDOWS' });
    const [task] = await db
      .insert(backupTasks)
      .values({
        backupMachineId: machineId,
        customerId: f.customerId,
        backupPackageId: packageId,
        name: 'Documents',
        scheduleCron: '0 2 * * *',
      })
      .returning({ id: backupTasks.id });
    if (!task) throw new Error('insert returned nothing');
    const actionId = await fixtures.backupRun({ taskId: task.id, machineId }, 'a'.repeat(64));
    await db.insert(machineMessages).values({
      backupMachineId: machineId,
      backupTaskId: task.id,
      taskActionId: actionId,
      messageType: 'INFO',
      message: 'Backup finished',
    });
    await db.insert(packageMigrations).values({
      backupPackageId: packageId,
      sourceStorageLocationId: location.id,
      destinationStorageLocationId: other.id,
    });

    // A location that still holds a package cannot simply be removed.
    expect(RESTRICT_VIOLATIONS).toContain(
      await refusal(() => db.delete(storageLocations).where(eq(storageLocations.id, location.id))),
    );

    await db.delete(customers).where(eq(customers.id, f.customerId));
    const left = await rows<{ n: number }>(sql`
      select (select count(*) from backup_packages where customer_id = ${f.customerId})
           + (select count(*) from backup_machines where customer_id = ${f.customerId})
           + (select count(*) from backup_tasks where customer_id = ${f.customerId})
           + (select count(*) from task_actions where backup_machine_id = ${machineId})
           + (select count(*) from machine_messages where backup_machine_id = ${machineId})
           + (select count(*) from storage_locations where customer_id = ${f.customerId})
           + (select count(*) from package_migrations where backup_package_id = ${packageId}) as n`);
    expect(Number(left[0]?.n)).toBe(0);
    // The buckets (and their data) stay, detached from the customer, for the storage clean-up.
    const kept = await rows<{ n: number }>(
      sql`select count(*) as n from buckets where id in (${f.bucketA}, ${f.bucketB}) and customer_id is null`,
    );
    expect(Number(kept[0]?.n)).toBe(2);
  });
});
