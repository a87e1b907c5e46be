/** Fixtures shared by the machine-linking tests (server and agent). */
import type { Db } from '../../db/client.js';
import { userBackupPackages } from '../../db/schema/index.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { createTenants } from '../../testing/fixtures.js';

/** The tenants, with two active packages of Alpha (Office, Servers); Alpha's user may use Office. */
export async function linkFixtures(db: Db) {
  const tenants = await createTenants(db);
  const fixtures = backupFixtures(db);
  const packageA = await fixtures.package(tenants.customerA.customerId, { name: 'Office' });
  const secondPackageA = await fixtures.package(tenants.customerA.customerId, { name: 'Servers' });
  await db.insert(userBackupPackages).values({ userId: tenants.customerA.user.id, backupPackageId: packageA });
  return { tenants, fixtures, packageA, secondPackageA };
}
