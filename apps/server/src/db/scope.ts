import type { ManagedCustomers } from '@portal/domain';
import { eq, type SQL } from 'drizzle-orm';
import { customers } from './schema/index.js';

/**
 * The condition on `customers` for the customers a caller manages (the domain's managedCustomers): none
 * for the provider, the reseller's child customers otherwise. The customer lists and pages of both the
 * dashboard and customer administration use it, so a reseller never reaches another tenant's customer.
 */
export const managedCustomersCondition = (scope: ManagedCustomers): SQL | undefined =>
  scope.kind === 'all' ? undefined : eq(customers.parentResellerCustomerId, scope.resellerCustomerId);
