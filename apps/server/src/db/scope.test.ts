import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../testing/database.js';
import { createTenants, type Tenants } from '../testing/fixtures.js';
import type { Database } from './client.js';
import { customers } from './schema/index.js';
import { customerScopeCondition } from './scope.js';

let database: Database;
let tenants: Tenants;

beforeAll(async () => {
  database = await openTestDatabase();
  tenants = await createTenants(database.db);
});
afterAll(() => database.close());

const visible = async (scope: Parameters<typeof customerScopeCondition>[0]) =>
  (
    await database.db
      .select({ id: customers.id })
      .from(customers)
      .where(customerScopeCondition(scope, customers.id))
      .orderBy(asc(customers.id))
  ).map((r) => r.id);

describe('customer scope in queries (DESIGN §4)', () => {
  it('the provider sees every customer', async () => {
    expect(await visible({ kind: 'all' })).toEqual(
      [tenants.reseller.customerId, tenants.customerA.customerId, tenants.customerB.customerId].sort((a, b) => a - b),
    );
  });

  it('a reseller admin sees its own customer and its children, not another tenant', async () => {
    const ids = await visible({ kind: 'ownAndChildren', customerId: tenants.reseller.customerId });
    expect(ids).toContain(tenants.reseller.customerId);
    expect(ids).toContain(tenants.customerA.customerId);
    expect(ids).not.toContain(tenants.customerB.customerId);
  });

  it('a customer sees only itself, and no scope sees nothing', async () => {
    expect(await visible({ kind: 'own', customerId: tenants.customerB.customerId })).toEqual([
      tenants.customerB.customerId,
    ]);
    expect(await visible({ kind: 'own', customerId: tenants.customerA.customerId })).toEqual([
      tenants.customerA.customerId,
    ]);
    expect(await visible({ kind: 'none' })).toEqual([]);
  });
});
