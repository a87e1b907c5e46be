import {
  type AdminAudience,
  type CustomerPackageRow,
  MESSAGES,
  PACKAGES_PAGE_SIZE,
  packageStatusBadge,
  ROUTES,
  storageFigures,
} from '@portal/domain';
import { routeCall } from '../../app/api';
import { type DataTableColumn, PagedTable, RowLink, UsageBar } from '../../ui';
import { statusColumn } from '../../ui/statusColumn';
import { BillingProductButton } from '../packages/BillingProductButton';
import { customerKeys } from './queries';

const TEXT = MESSAGES.customer;
const C = TEXT.packageColumns;

const COLUMNS: Array<DataTableColumn<CustomerPackageRow>> = [
  { key: 'name', header: C.name, render: (p) => p.name },
  statusColumn(C.status, packageStatusBadge),
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
    render: (p) => (
      <div className="d-flex flex-wrap gap-1 justify-content-end">
        <RowLink to={p.backupPackageUrl} label={TEXT.manage} name={p.name} />
        <BillingProductButton pkg={p} />
      </div>
    ),
  },
];

/**
 * The packages of one customer (002 §3 'Backup package (as listed under a customer)') on the provider's and
 * reseller's customer page, each row with Manage and the billing product button (002 §2.3), paged on the server
 * 5 rows a page like every packages table (000 §9).
 */
export function CustomerPackagesTable({ audience, customerId }: { audience: AdminAudience; customerId: number }) {
  return (
    <PagedTable
      queryKey={customerKeys.packages(audience, customerId)}
      call={routeCall(ROUTES.customers[audience].packages, { customerId })}
      size={PACKAGES_PAGE_SIZE}
      aria-label={TEXT.packagesTitle}
      data-testid="customer-packages-table"
      columns={COLUMNS}
      rowKey={(p) => p.id}
      emptyText={TEXT.noPackages}
    />
  );
}
