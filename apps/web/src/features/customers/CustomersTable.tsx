import { CUSTOMERS_PAGE_SIZE, type CustomerList, type CustomerRow, MESSAGES } from '@portal/domain';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { type DataTableColumn, SearchBox, ServerPagedTable, usePagedQuery, useTableState } from '../../ui';
import { CustomerStatusBadge, CustomerTypeBadges } from './CustomerBadges';
import { customerKeys, customerListCall } from './queries';

const TEXT = MESSAGES.customer;

export interface CustomersTableProps {
  /** Which paged list of 002 §7.3 (or the reseller's own customers) the table shows. */
  list: CustomerList;
  /** The table's accessible name. */
  label: string;
  emptyText: string;
  /** The row's action: a Manage link, or Select in the new reseller dialog. */
  action: (row: CustomerRow) => ReactNode;
  /** Controls beside the search box, e.g. 'New reseller'. */
  toolbar?: ReactNode;
}

/**
 * A customers table of 002 §2.5: server-side paging, 10 rows per page, and a search box (company, super
 * admin name or e-mail) that goes back to the first page on each new search.
 */
export function CustomersTable({ list, label, emptyText, action, toolbar }: CustomersTableProps) {
  const table = useTableState<{ search?: string }>({ size: CUSTOMERS_PAGE_SIZE });
  const rows = usePagedQuery(customerKeys.list(list), customerListCall(list), table.params);

  const columns: Array<DataTableColumn<CustomerRow>> = [
    { key: 'name', header: TEXT.columns.name, render: (row) => row.displayName },
    {
      key: 'superAdmin',
      header: TEXT.columns.superAdmin,
      render: (row) => (
        <>
          <div>{row.superAdminFullName}</div>
          <div className="small text-muted">{row.superAdminEmail}</div>
        </>
      ),
    },
    { key: 'type', header: TEXT.columns.type, render: (row) => <CustomerTypeBadges customer={row} /> },
    { key: 'status', header: TEXT.columns.status, render: (row) => <CustomerStatusBadge status={row.displayStatus} /> },
    {
      key: 'packages',
      header: TEXT.columns.numberOfBackupPackages,
      className: 'text-end',
      render: (row) => <Link to={row.backupPackagesUrl}>{row.numberOfBackupPackages}</Link>,
    },
    { key: 'actions', header: TEXT.columns.actions, className: 'text-end', render: action },
  ];

  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <SearchBox
          label={`${TEXT.searchLabel} ${label}`}
          placeholder={TEXT.searchPlaceholder}
          className="w-auto flex-grow-1"
          onSearch={(search) => table.setFilters({ search })}
        />
        {toolbar}
      </div>
      <ServerPagedTable<CustomerRow>
        aria-label={label}
        data-testid={`customers-table-${list}`}
        columns={columns}
        table={table}
        list={rows}
        rowKey={(row) => row.id}
        emptyText={emptyText}
      />
    </>
  );
}
