import { type Actor, isCustomerUser, isProviderAdmin, isResellerAdmin } from '@portal/domain';
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.js';
import { forbidden } from '../../http/errors.js';

/**
 * Whose tasks and machines the dashboard's 'Last verified' and 'Needs attention' cover: every tenant's (the
 * provider), these customers' (a customer's admins: their own; a reseller admin's: its own and its child customers)
 * or only the machines assigned to one user of them (a customer user).
 */
export type TenantScope =
  | { kind: 'all' }
  | { kind: 'customers'; customerIds: readonly number[]; assignedUserId: number | null };

/** The caller's scope, as their machine links reach (machineAudience). */
export async function tenantScopeOf(db: Executor, actor: Actor): Promise<TenantScope> {
  if (isProviderAdmin(actor)) return { kind: 'all' };
  if (actor.customerId === null) throw forbidden();
  const children = isResellerAdmin(actor) ? await childCustomerIds(db, actor.customerId) : [];
  return {
    kind: 'customers',
    customerIds: [actor.customerId, ...children],
    assignedUserId: isCustomerUser(actor) ? actor.userId : null,
  };
}

/** A reseller's child customers, whose tasks and machines its admins see besides their own. */
async function childCustomerIds(db: Executor, resellerCustomerId: number): Promise<number[]> {
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`select id from customers where parent_reseller_customer_id = ${resellerCustomerId}`),
  );
  return rows.map((row) => Number(row.id));
}

/**
 * The scope as a condition on a customer column (`customer`: a machine's, or a task's copy of it) and on the
 * assigned user of the machine aliased `machine`.
 */
export function tenantScopeCondition(scope: TenantScope, customer: SQL, machine: string): SQL {
  if (scope.kind === 'all') return sql`true`;
  // One customer by equality, so that its per-customer index gives its rows in order; several as one array.
  const [only, ...others] = scope.customerIds;
  const customers =
    only !== undefined && others.length === 0
      ? sql`${customer} = ${only}`
      : sql`${customer} = any(${`{${scope.customerIds.join(',')}}`}::int[])`;
  if (scope.assignedUserId === null) return customers;
  return sql`${customers} and ${sql.raw(machine)}.assigned_user_id = ${scope.assignedUserId}`;
}
