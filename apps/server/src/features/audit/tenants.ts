import { type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.js';

/** The tenant of a record, and whose account page shows it besides the tenant's own (its reseller, else itself). */
export interface AuditTenant {
  customerId: number | null;
  accountCustomerId: number | null;
}

/**
 * Where a call's tenant comes from when its path does not name the customer: the most specific id that belongs
 * to one, looked up with one small query that also reads the tenant's reseller.
 */
const OWNED_BY = [
  ['taskId', sql`backup_tasks`, sql`t.customer_id`],
  ['machineId', sql`backup_machines`, sql`t.customer_id`],
  ['packageId', sql`backup_packages`, sql`t.customer_id`],
  ['storageLocationId', sql`storage_locations`, sql`t.customer_id`],
  ['requestId', sql`package_requests`, sql`t.customer_id`],
  ['userId', sql`users`, sql`t.customer_id`],
  ['templateId', sql`package_templates`, sql`t.owner_customer_id`],
] as const;

/** The caller's own tenant: a customer user's customer and its reseller, or the provider's (null). */
export function ownTenant(user: { customerId: number | null; parentResellerCustomerId: number | null } | null) {
  const customerId = user?.customerId ?? null;
  return { customerId, accountCustomerId: user?.parentResellerCustomerId ?? customerId };
}

/** A record's account in SQL, from its tenant (a column or a value): the tenant's reseller, else the tenant. */
export const accountOf = (customer: SQL) =>
  sql`coalesce((select parent_reseller_customer_id from customers where id = ${customer}), ${customer})`;

export function createTenantLookup(db: Executor) {
  async function first(query: SQL): Promise<AuditTenant | undefined> {
    return rowsOf<{ c: number | null; a: number | null }>(await db.execute(query)).map((row) => ({
      customerId: row.c,
      accountCustomerId: row.a,
    }))[0];
  }
  return {
    /**
     * The customer whose data a call touches: the path's customer, else the owner of its most specific id, else
     * the caller's own (an act on one's own account, or the provider's own infrastructure: null). Called before
     * the handler, since a call that removes its subject leaves nothing to look up afterwards.
     */
    async of(ids: Readonly<Record<string, number>>, own: AuditTenant): Promise<AuditTenant> {
      if (ids.customerId !== undefined) {
        const customer = sql`${ids.customerId}::int`;
        return (await first(sql`select ${customer} as c, ${accountOf(customer)} as a`)) ?? own;
      }
      for (const [name, table, customer] of OWNED_BY) {
        const id = ids[name];
        if (id === undefined) continue;
        const found = await first(
          sql`select ${customer} as c, ${accountOf(customer)} as a from ${table} t where t.id = ${id}`,
        );
        // A row of the provider's own (no customer) is the caller's business, as before the row existed.
        return found === undefined || found.customerId === null ? own : found;
      }
      return own;
    },
  };
}
export type TenantLookup = ReturnType<typeof createTenantLookup>;
