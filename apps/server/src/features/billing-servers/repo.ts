import { count, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { billingServers, customers } from '../../db/schema/index.js';

export type BillingServerRecord = typeof billingServers.$inferSelect & { numberOfCustomers: number };

/** The sealed values a billing host server is stored with (secrets already encrypted). */
export type BillingServerValues = Omit<typeof billingServers.$inferSelect, 'id' | 'createdAt'>;

const customersUsing = sql<number>`(select count(*)::int from ${customers} where ${customers.whmcsServerId} = ${billingServers.id})`;

/** Billing host servers (001 §2); only provider admins reach them, so there is no tenant scope. */
export function createBillingServersRepo(db: Executor) {
  const select = () => db.select({ server: billingServers, numberOfCustomers: customersUsing }).from(billingServers);
  const flatten = (row: { server: typeof billingServers.$inferSelect; numberOfCustomers: number }) => ({
    ...row.server,
    numberOfCustomers: Number(row.numberOfCustomers),
  });
  return {
    async list(): Promise<BillingServerRecord[]> {
      return (await select().orderBy(billingServers.description, billingServers.id)).map(flatten);
    },
    async byId(id: number): Promise<BillingServerRecord | null> {
      const [row] = await select().where(eq(billingServers.id, id));
      return row ? flatten(row) : null;
    },
    async insert(values: BillingServerValues): Promise<number> {
      const [row] = await db.insert(billingServers).values(values).returning({ id: billingServers.id });
      if (!row) throw new Error('billing server insert returned nothing');
      return row.id;
    },
    async update(id: number, values: Partial<BillingServerValues>): Promise<boolean> {
      const rows = await db
        .update(billingServers)
        .set(values)
        .where(eq(billingServers.id, id))
        .returning({ id: billingServers.id });
      return rows.length > 0;
    },
    /** Deletes a server no customer uses; answers how many use it (0: deleted, or there was none). */
    async deleteUnused(id: number): Promise<{ deleted: boolean; inUse: number }> {
      // The server's row is locked first, so no customer can be moved to it between the count and the delete.
      const [locked] = await db
        .select({ id: billingServers.id })
        .from(billingServers)
        .where(eq(billingServers.id, id))
        .for('update');
      if (!locked) return { deleted: false, inUse: 0 };
      const [using] = await db.select({ n: count() }).from(customers).where(eq(customers.whmcsServerId, id));
      const inUse = Number(using?.n ?? 0);
      if (inUse > 0) return { deleted: false, inUse };
      await db.delete(billingServers).where(eq(billingServers.id, id));
      return { deleted: true, inUse: 0 };
    },
  };
}
export type BillingServersRepo = ReturnType<typeof createBillingServersRepo>;
