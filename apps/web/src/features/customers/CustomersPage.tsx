import type { AdminAudience } from '@portal/domain';
import { MESSAGES } from '@portal/domain';
import { Page, RowLink } from '../../ui';
import { customerPagesOf } from './audience';
import { CustomersTable } from './CustomersTable';
import { customersListOf } from './queries';

const TEXT = MESSAGES.customer;

/**
 * The customers of the provider (/boltadmin/customers, 002 §2.5) or of the signed-in reseller
 * (/admin/mycustomers, 002 §6): search, page, and Manage each one.
 */
export function CustomersPage({ audience }: { audience: AdminAudience }) {
  const pages = customerPagesOf(audience);
  return (
    <Page title={pages.listTitle} breadcrumbs={[...pages.crumbs, { label: pages.listTitle }]}>
      <CustomersTable
        list={customersListOf(audience)}
        label={pages.listTitle}
        emptyText={TEXT.empty}
        action={(row) => <RowLink to={row.customerUrl} label={TEXT.manage} name={row.displayName} />}
      />
    </Page>
  );
}
