import type { PaymentMethod } from '@portal/domain';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { type Executor, oneOrNull } from '../db/client.js';
import { billingServers, customers, users } from '../db/schema/index.js';

/** A billing host server with its secrets still sealed. */
export type BillingServerRecord = typeof billingServers.$inferSelect;

export interface CustomerBillingRecord {
  customerId: number;
  whmcsClientId: number | null;
  paymentMethod: PaymentMethod;
  server: BillingServerRecord;
}

/** Queries the billing directory and the billing jobs make (customers' billing links, unpaid counts). */
export function createBillingRepo(db: Executor) {
  return {
    /**
     * The customer's billing link; null for a reseller's customer (its reseller bills it) or without a
     * server. `lock` holds the customer's row until the transaction ends.
     */
    async customerBilling(customerId: number, lock = false): Promise<CustomerBillingRecord | null> {
      const query = db
        .select({
          customerId: customers.id,
          whmcsClientId: customers.whmcsClientId,
          paymentMethod: customers.paymentMethod,
          server: billingServers,
        })
        .from(customers)
        .innerJoin(billingServers, eq(billingServers.id, customers.whmcsServerId))
        .where(and(eq(customers.id, customerId), isNull(customers.parentResellerCustomerId)));
      return oneOrNull(lock ? query.for('update', { of: customers }) : query);
    },
    async superAdminOf(customerId: number) {
      return oneOrNull(
        db
          .select({
            firstName: users.firstName,
            surname: users.surname,
            email: users.email,
            companyName: customers.companyName,
          })
          .from(customers)
          .innerJoin(users, eq(users.id, customers.superAdminUserId))
          .where(eq(customers.id, customerId)),
      );
    },
    async setClientId(customerId: number, clientId: number): Promise<void> {
      await db.update(customers).set({ whmcsClientId: clientId }).where(eq(customers.id, customerId));
    },
    /** Direct customers known to a billing server, for the unpaid-invoice sync. */
    async billedCustomerIds(): Promise<number[]> {
      const rows = await db
        .select({ id: customers.id })
        .from(customers)
        .where(
          and(
            isNull(customers.parentResellerCustomerId),
            isNotNull(customers.whmcsServerId),
            isNotNull(customers.whmcsClientId),
            eq(customers.beingDeleted, false),
          ),
        )
        .orderBy(customers.id);
      return rows.map((r) => r.id);
    },
    async serverExists(serverId: number): Promise<boolean> {
      const [row] = await db
        .select({ id: billingServers.id })
        .from(billingServers)
        .where(eq(billingServers.id, serverId));
      return Boolean(row);
    },
    /**
     * Moves a direct customer to another billing server (002 §7.3). Its client id and unpaid count belonged to
     * the old server, so both are cleared: the next order makes the client on the new one. False when the
     * customer is not a direct one.
     */
    async moveCustomer(customerId: number, serverId: number, paymentMethod: PaymentMethod): Promise<boolean> {
      const rows = await db
        .update(customers)
        .set({ whmcsServerId: serverId, paymentMethod, whmcsClientId: null, unpaidInvoices: 0 })
        .where(and(eq(customers.id, customerId), isNull(customers.parentResellerCustomerId)))
        .returning({ id: customers.id });
      return rows.length > 0;
    },
    async currentServerId(customerId: number): Promise<number | null> {
      const [row] = await db
        .select({ id: customers.whmcsServerId })
        .from(customers)
        .where(eq(customers.id, customerId));
      return row?.id ?? null;
    },
    async setUnpaidInvoices(customerId: number, count: number): Promise<void> {
      await db
        .update(customers)
        .set({ unpaidInvoices: count })
        .where(and(eq(customers.id, customerId), sql`${customers.unpaidInvoices} <> ${count}`));
    },
  };
}
export type BillingRepo = ReturnType<typeof createBillingRepo>;
