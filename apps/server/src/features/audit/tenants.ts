import { sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.js';

/**
 * Where a call's tenant comes from when its path does not name the customer: the most specific id that belongs
 * to one, looked up with one small query.
 */
const OWNED_BY = [
  ['taskId', sql`select customer_id as c from backup_tasks where id = `],
  ['machineId', sql`select customer_id as c from backup_machines where id = `],
  ['packageId', sql`select customer_id as c from backup_packages where id = `],
  ['storageLocationId', sql`select customer_id as c from storage_locations where id = `],
  ['requestId', sql`select customer_id as c from package_requests where id = `],
  ['userId', sql`select customer_id as c from users where id = `],
  ['templateId', sql`select owner_customer_id as c from package_templates where id = `],
] as const;

export function createTenantLookup(db: Executor) {
  return {
    /**
     * The customer whose data a call touched: the path's customer, else the owner of its most specific id, else
     * the caller's own customer (an act on one's own account, or the provider's own infrastructure: null).
     */
    async of(ids: Readonly<Record<string, number>>, own: number | null): Promise<number | null> {
      if (ids.customerId !== undefined) return ids.customerId;
      for (const [name, query] of OWNED_BY) {
        const id = ids[name];
        if (id === undefined) continue;
        const rows = rowsOf<{ c: number | null }>(await db.execute(sql`${query}${id}`));
        return rows[0]?.c ?? own;
      }
      return own;
    },
  };
}
export type TenantLookup = ReturnType<typeof createTenantLookup>;
