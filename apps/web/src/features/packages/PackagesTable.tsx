import {
  isPackageEditable,
  MESSAGES,
  PACKAGES_PAGE_SIZE,
  type PackageRow,
  packageChangeBadge,
  packageMachinesText,
  packageStatusBadge,
  ROUTES,
} from '@portal/domain';
import type { ReactNode } from 'react';
import { routeCall } from '../../app/api';
import { type DataTableColumn, PagedTable, RowButton, RowLink, StatusBadge } from '../../ui';
import { BillingProductButton } from './BillingProductButton';
import { PackageStorageBar } from './PackageStorageBar';
import { packageKeys } from './queries';

const TEXT = MESSAGES.packagePages;
const C = TEXT.columns;

/** What a row's buttons open; `rowActions` adds buttons of other features (e.g. Upgrade) to each row. */
export interface PackagesTableProps {
  onEdit: (pkg: PackageRow) => void;
  onInitialize: (pkg: PackageRow) => void;
  rowActions?: (pkg: PackageRow) => ReactNode;
}

function Actions({ pkg, onEdit, onInitialize, rowActions }: PackagesTableProps & { pkg: PackageRow }) {
  const notAccessible = pkg.accessibleByLoggedInUser ? undefined : MESSAGES.notAccessible;
  return (
    <div className="d-flex flex-wrap gap-1 justify-content-end">
      <RowLink
        to={pkg.backupPackageUrl}
        label={pkg.manageable ? TEXT.manage : TEXT.view}
        name={pkg.name}
        {...(notAccessible ? { disabledLabel: notAccessible } : {})}
      />
      <BillingProductButton pkg={pkg} />
      {pkg.manageable && isPackageEditable(pkg.status) && (
        <RowButton label={TEXT.edit} name={pkg.name} onClick={() => onEdit(pkg)} />
      )}
      {pkg.manageable && pkg.initializable && (
        <RowButton label={TEXT.initialize} name={pkg.name} variant="primary" onClick={() => onInitialize(pkg)} />
      )}
      {rowActions?.(pkg)}
    </div>
  );
}

/**
 * The customer's backup packages (000 §2, 001 §3): Name, Status with CHANGE REQUESTED, the storage usage
 * bar, Machines and the row's buttons; paged on the server, 5 per page; 'There are no backup packages'.
 */
export function PackagesTable(props: PackagesTableProps) {
  const columns: Array<DataTableColumn<PackageRow>> = [
    { key: 'name', header: C.name, render: (p) => p.name },
    {
      key: 'status',
      header: C.status,
      render: (p) => {
        const change = packageChangeBadge(p);
        return (
          <>
            <StatusBadge status={p.status} badge={packageStatusBadge(p.status)} />{' '}
            {change && <StatusBadge status="CHANGE_REQUESTED" badge={change} />}
          </>
        );
      },
    },
    { key: 'storage', header: C.storage, render: (p) => <PackageStorageBar packageId={p.id} version={p} /> },
    { key: 'machines', header: C.machines, render: (p) => packageMachinesText(p) },
    { key: 'actions', header: C.actions, className: 'text-end', render: (p) => <Actions pkg={p} {...props} /> },
  ];
  return (
    <PagedTable
      queryKey={packageKeys.lists()}
      call={routeCall(ROUTES.packages.list, {})}
      size={PACKAGES_PAGE_SIZE}
      aria-label={TEXT.title}
      data-testid="packages-table"
      columns={columns}
      rowKey={(p) => p.id}
      emptyText={MESSAGES.backupPackage.empty}
    />
  );
}
