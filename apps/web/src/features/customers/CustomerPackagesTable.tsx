import {
  type AdminAudience,
  CUSTOMERS_PAGE_SIZE,
  type CustomerPackageRow,
  MESSAGES,
  packageStatusBadge,
  ROUTES,
  storageFigures,
} from '@portal/domain';
import { routeCall } from '../../app/api';
import { type DataTableColumn, PagedTable, RowLink, StatusBadge, UsageBar } from '../../ui';
import { customerKeys } from './queries';

const TEXT = MESSAGES.customer;
const C = TEXT.packageColumns;

const COLUMNS: Array<DataTableColumn<CustomerPackageRow>> = [
  { key: 'name', header: C.name, render: (p) => p.name },
  {
    key: 'status',
    header: C.status,
    render: (p) => <StatusBadge status={p.status} badge={packageStatusBadge(p.status)} />,
  },
  {
    key: 'storage',
    header: C.storageSpace,
    render: (p) => <UsageBar state={{ kind: 'loaded', ...storageFigures(p.usedBytes, p.packageQuotaSizeInBytes) }} />,
  },
  { key: 'machines', header: C.numberOfBackupMachines, className: 'text-end', render: (p) => p.numberOfBackupMachines },
  {
    key: 'children',
    header: C.numberOfChildCustomerPackages,
    className: 'text-end',
    render: (p) => p.numberOfChildCustomerPackages,
  },
  { key: 'account', header: C.storageAccount, render: (p) => p.storageAccount?.name ?? '' },
  {
    key: 'actions',
    header: C.actions,
    className: 'text-end',
    render: (p) => <RowLink to={p.backupPackageUrl} label={TEXT.manage} name={p.name} />,
  },
];

/**
 * The packages of one customer (002 §3 'Backup package (as listed under a customer)'), paged on the
 * server with the 10 rows of the customer tables (002 §9; the spec gives this table no size of its own).
 */
export function CustomerPackagesTable({ audience, customerId }: { audience: AdminAudience; customerId: number }) {
  return (
    <PagedTable
      queryKey={customerKeys.packages(audience, customerId)}
      call={routeCall(ROUTES.customers[audience].packages, { customerId })}
      size={CUSTOMERS_PAGE_SIZE}
      aria-label={TEXT.packagesTitle}
      data-testid="customer-packages-table"
      columns={COLUMNS}
      rowKey={(p) => p.id}
      emptyText={TEXT.noPackages}
    />
  );
}
