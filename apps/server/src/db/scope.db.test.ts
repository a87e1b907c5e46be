import type { ManagedCustomers } from '@portal/domain';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../testing/database.js';
import { createTenants, type Tenants } from '../testing/fixtures.js';
import type { Database } from './client.js';
import { customers } from './schema/index.js';
import { managedCustomersCondition } from './scope.js';

let database: Database;
let tenants: Tenants;

beforeAll(async () => {
  database = await openTestDatabase();
  tenants = await createTenants(database.db);
});
afterAll(() => database.close());

const visible = async (scope: ManagedCustomers) =>
  (
    await database.db
      .select({ id: customers.id })
      .from(customers)
      .where(managedCustomersCondition(scope))
      .orderBy(asc(customers.id))
  ).map((r) => r.id);

describe('managed customers in queries (DESIGN §4)', () => {
  it('the provider manages every customer', async () => {
    expect(await visible({ kind: 'all' })).toEqual(
      [tenants.reseller.customerId, tenants.customerA.customerId, tenants.customerB.customerId].sort((a, b) => a - b),
    );
  });

  it('a reseller manages its child customers only: not itself, not another tenant', async () => {
    expect(await visible({ kind: 'childrenOf', resellerCustomerId: tenants.reseller.customerId })).toEqual([
      tenants.customerA.customerId,
    ]);
    expect(await visible({ kind: 'childrenOf', resellerCustomerId: tenants.customerB.customerId })).toEqual([]);
  });
});
