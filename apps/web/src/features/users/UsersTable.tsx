import type { UserRow } from '@portal/domain';
import { fullName, MESSAGES, USERS_PAGE_SIZE, userStatusBadge } from '@portal/domain';
import type { ReactNode } from 'react';
import { type DataTableColumn, PagedTable, RowLink } from '../../ui';
import { statusColumn } from '../../ui/statusColumn';
import type { UsersListCall } from './queries';

const TEXT = MESSAGES.user;
const C = TEXT.columns;

export interface UsersTableProps {
  /** The paged users call: /admin/users, /boltadmin/customers/{id}/users or /admin/mycustomers/{id}/users. */
  call: UsersListCall;
  queryKey: readonly unknown[];
  /** Buttons shown above the table (Add user, Bulk import users). */
  toolbar?: ReactNode;
}

const COLUMNS: Array<DataTableColumn<UserRow>> = [
  { key: 'firstName', header: C.firstName, render: (u) => u.firstName },
  { key: 'surname', header: C.surname, render: (u) => u.surname },
  statusColumn(C.status, userStatusBadge),
  { key: 'role', header: C.role, render: (u) => u.roleName },
  { key: 'email', header: C.email, render: (u) => u.email },
  { key: 'contactNumber', header: C.contactNumber, render: (u) => u.contactNumber },
  { key: 'readOnly', header: C.readOnly, render: (u) => (u.readOnly ? MESSAGES.yes : MESSAGES.no) },
  { key: 'linkedPackages', header: C.linkedPackages, render: (u) => u.numberOfLinkedBackupPackages },
  { key: 'linkedMachines', header: C.linkedMachines, render: (u) => u.numberOfLinkedBackupMachines },
  {
    key: 'actions',
    header: C.actions,
    render: (u) => (
      <RowLink to={u.userUrl} label={u.manageableByLoggedInUser ? TEXT.manage : TEXT.view} name={fullName(u)} />
    ),
  },
];

/** The users of one customer (002 §2.4): paged on the server, 10 per page, no search box. */
export function UsersTable({ call, queryKey, toolbar }: UsersTableProps) {
  return (
    <>
      {toolbar !== undefined && (
        <div className="d-flex flex-wrap justify-content-end gap-2 mb-2" data-testid="users-toolbar">
          {toolbar}
        </div>
      )}
      <PagedTable
        aria-label={TEXT.tableLabel}
        data-testid="users-table"
        queryKey={queryKey}
        call={call}
        size={USERS_PAGE_SIZE}
        columns={COLUMNS}
        rowKey={(u) => u.id}
        emptyText={TEXT.empty}
      />
    </>
  );
}
