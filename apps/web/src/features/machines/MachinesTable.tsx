import {
  type Answer,
  type MachineRow,
  MESSAGES,
  machineStatusBadge,
  type Paged,
  type RouteEntry,
} from '@portal/domain';
import { Link } from 'react-router';
import type { RouteCall } from '../../app/api';
import { type DataTableColumn, PagedTable, RowLink } from '../../ui';
import { statusColumn } from '../../ui/statusColumn';
import { MachineStorageBar } from './MachineStorageBar';

const TEXT = MESSAGES.backupMachine;
const C = TEXT.columns;

/** The page size of a machines table (ours: the spec names none for this table). */
export const MACHINES_PAGE_SIZE = 10;

const COLUMNS: Array<DataTableColumn<MachineRow>> = [
  { key: 'name', header: C.name, render: (m) => m.name },
  statusColumn(C.status, machineStatusBadge),
  { key: 'description', header: C.description, render: (m) => m.description },
  {
    key: 'storage',
    header: C.storageSpace,
    // The row's own fields are its version: a changed row reads its storage again (001 §4).
    render: (m) => <MachineStorageBar machineId={m.id} version={m} />,
  },
  {
    key: 'user',
    header: C.assignedUser,
    render: (m) => (m.assignedUserUrl ? <Link to={m.assignedUserUrl}>{m.assignedUser}</Link> : m.assignedUser),
  },
  { key: 'tasks', header: C.numberOfBackupTasks, className: 'text-end', render: (m) => m.numberOfBackupTasks },
  {
    key: 'actions',
    header: C.actions,
    render: (m) => <RowLink to={m.backupMachineUrl} label={m.manageable ? TEXT.manage : TEXT.view} name={m.name} />,
  },
];

/** A paged call answering machines-table rows (/backupmachines, a package's machines, ...). */
export type MachineListRoute = RouteEntry & { response: Answer<Paged<MachineRow>> };

export interface MachinesTableProps<R extends MachineListRoute> {
  call: RouteCall<R>;
  /** Where the rows are cached; under machineKeys.lists() so machine changes refresh it. */
  queryKey: readonly unknown[];
  'aria-label'?: string;
}

/**
 * The machines table (001 §2): Name, Status, Description, Storage space, Assigned user, Number of backup
 * tasks, and Manage or View by `manageable`; 'There are no backup machines' when empty (002 §2.6). One
 * component for every list of machines: it shows the list of the call it is given.
 */
export function MachinesTable<R extends MachineListRoute>({
  call,
  queryKey,
  'aria-label': label = TEXT.ownTitle,
}: MachinesTableProps<R>) {
  return (
    <PagedTable<R>
      aria-label={label}
      data-testid="machines-table"
      queryKey={queryKey}
      call={call}
      size={MACHINES_PAGE_SIZE}
      // RowOf<R> is MachineRow for every R this table takes.
      columns={COLUMNS as unknown as Parameters<typeof PagedTable<R>>[0]['columns']}
      rowKey={(m) => (m as MachineRow).id}
      emptyText={TEXT.empty}
    />
  );
}
