import type { UserMachineRow } from '@portal/domain';
import { formatBytes, MESSAGES, machineStatusBadge, USERS_PAGE_SIZE } from '@portal/domain';
import { type DataTableColumn, PagedTable, RowLink } from '../../ui';
import { statusColumn } from '../../ui/statusColumn';
import { type UserPageCalls, userKeys } from './queries';

const TEXT = MESSAGES.user;
const C = TEXT.machineColumns;

const COLUMNS: Array<DataTableColumn<UserMachineRow>> = [
  { key: 'name', header: C.name, render: (m) => m.name },
  statusColumn(C.status, machineStatusBadge),
  { key: 'description', header: C.description, render: (m) => m.description },
  { key: 'os', header: C.operatingSystem, render: (m) => m.operatingSystem },
  { key: 'storage', header: C.storageSpace, render: (m) => formatBytes(m.usedBytes) },
  { key: 'tasks', header: C.numberOfBackupTasks, render: (m) => m.numberOfBackupTasks },
  {
    key: 'actions',
    header: C.actions,
    render: (m) => <RowLink to={m.backupMachineUrl} label={m.manageable ? TEXT.manage : TEXT.view} name={m.name} />,
  },
];

export interface UserMachinesTableProps {
  /** The user page's address (its cache key) and calls. */
  base: string;
  calls: UserPageCalls;
}

/** The machines assigned to a user (001 §2 customer-side tables), paged on the server. */
export function UserMachinesTable({ base, calls }: UserMachinesTableProps) {
  return (
    <PagedTable
      aria-label={TEXT.machinesTitle}
      data-testid="user-machines-table"
      queryKey={userKeys.page(base)}
      call={calls.machines}
      size={USERS_PAGE_SIZE}
      columns={COLUMNS}
      rowKey={(m) => m.id}
      emptyText={MESSAGES.backupMachine.empty}
    />
  );
}
