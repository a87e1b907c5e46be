import type { CustomerScope } from '@portal/domain';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { customers } from './schema/index.js';

/**
 * The predicate every tenant-scoped query adds on its customer id column (DESIGN §4), so a
 * repository cannot return rows of a customer the caller may not see.
 */
export function customerScopeCondition(scope: CustomerScope, customerIdColumn: AnyPgColumn): SQL {
  switch (scope.kind) {
    case 'all':
      return sql`true`;
    case 'none':
      return sql`false`;
    case 'own':
      return eq(customerIdColumn, scope.customerId);
    case 'ownAndChildren':
      return sql`(${customerIdColumn} = ${scope.customerId} or ${customerIdColumn} in (select ${customers.id} from ${customers} where ${customers.parentResellerCustomerId} = ${scope.customerId}))`;
  }
}
