import {
  type AggregateTaskStatus,
  ALL_CUSTOMERS_ID,
  aggregateStatusBadge,
  customerStatusBadge,
  DASHBOARD_PIES,
  type DashboardCustomerRow,
  type DashboardMachineRow,
  type DashboardTaskRow,
  MESSAGES,
  machineStatusBadge,
  ROUTES,
  taskBadge,
  taskDisplayStatusBadge,
} from '@portal/domain';
import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import { routeCall } from '../../app/api';
import { type DataTableColumn, StatusBadge } from '../../ui';
import { statusColumn } from '../../ui/statusColumn';
import { verificationColumn } from '../verification/Verification';
import type { MachineCalls } from './dashboardState';
import { useStatusTable } from './queries';
import { StatusTablePanel } from './StatusTablePanel';

const TEXT = MESSAGES.dashboard;
const COLUMNS = TEXT.columns;

/** An aggregate task status badge, with the tasks-in-progress indicator when a run is under way (000 §4). */
function AggregateStatus({ status, inProgress }: { status: AggregateTaskStatus; inProgress: boolean }) {
  const badge = aggregateStatusBadge(status);
  return (
    <span className="d-inline-flex align-items-center gap-1">
      <StatusBadge status={status} label={badge.text} variant={badge.variant} />
      {inProgress && (
        <span
          className="spinner-grow spinner-grow-sm text-info"
          role="img"
          aria-label={TEXT.tasksInProgress}
          title={TEXT.tasksInProgress}
          data-testid="tasks-in-progress"
        />
      )}
    </span>
  );
}

function ActionsHeader() {
  return <span className="visually-hidden">{COLUMNS.actions}</span>;
}

function SelectButton({ name, selected, onToggle }: { name: string; selected: boolean; onToggle: () => void }) {
  return (
    <Button
      size="sm"
      variant={selected ? 'secondary' : 'outline-primary'}
      aria-label={`${selected ? TEXT.unselect : TEXT.select} ${name}`}
      onClick={onToggle}
    >
      {selected ? TEXT.unselect : TEXT.select}
    </Button>
  );
}

function ManageLink({ name, to }: { name: string; to: string }) {
  return (
    <Link className="btn btn-sm btn-outline-secondary" to={to} aria-label={`${TEXT.manage} ${name}`}>
      {TEXT.manage}
    </Link>
  );
}

/** The Tasks status column of the customers and machines tables. */
function aggregateStatusColumn<
  R extends { taskStatus: AggregateTaskStatus; tasksInProgress: boolean },
>(): DataTableColumn<R> {
  return {
    key: 'taskStatus',
    header: COLUMNS.taskStatus,
    sortable: true,
    render: (row) => <AggregateStatus status={row.taskStatus} inProgress={row.tasksInProgress} />,
  };
}

interface Selection {
  selectedId: number | null;
  onSelect: (row: { id: number; name: string }) => void;
  onUnselect: () => void;
}

/** The actions column of the customers and machines tables: Select or Unselect, then Manage. */
function selectableActionsColumn<R extends { id: number; name: string }>(
  header: ReactNode,
  manageUrl: (row: R) => string,
  { selectedId, onSelect, onUnselect }: Selection,
): DataTableColumn<R> {
  return {
    key: 'actions',
    className: 'text-end text-nowrap',
    header,
    render: (row) => {
      const selected = row.id === selectedId;
      return (
        <span className="d-inline-flex gap-2">
          <SelectButton
            name={row.name}
            selected={selected}
            onToggle={() => (selected ? onUnselect() : onSelect({ id: row.id, name: row.name }))}
          />
          <ManageLink name={row.name} to={manageUrl(row)} />
        </span>
      );
    },
  };
}

// --- Customers tab --------------------------------------------------------------------------------

export interface CustomersPanelProps {
  title: string;
  selectAll: boolean;
  selectedId: number | null;
  onSelect: (row: { id: number; name: string | null }) => void;
  onUnselect: () => void;
}

export function CustomersPanel({ title, selectAll, selectedId, onSelect, onUnselect }: CustomersPanelProps) {
  const panel = useStatusTable(
    routeCall(ROUTES.dashboard.customers, {}),
    routeCall(ROUTES.dashboard.customerCounts, {}),
  );
  const allSelected = selectedId === ALL_CUSTOMERS_ID;

  const columns: Array<DataTableColumn<DashboardCustomerRow>> = [
    { key: 'name', header: COLUMNS.name, sortable: true, render: (row) => row.name },
    { key: 'superAdminEmail', header: COLUMNS.superAdminEmail, sortable: true, render: (row) => row.superAdminEmail },
    { ...statusColumn(COLUMNS.status, customerStatusBadge), sortable: true },
    aggregateStatusColumn<DashboardCustomerRow>(),
    selectableActionsColumn<DashboardCustomerRow>(
      selectAll ? (
        <Button
          size="sm"
          variant={allSelected ? 'secondary' : 'outline-primary'}
          onClick={() => (allSelected ? onUnselect() : onSelect({ id: ALL_CUSTOMERS_ID, name: null }))}
        >
          {allSelected ? TEXT.unselect : TEXT.selectAll}
        </Button>
      ) : (
        <ActionsHeader />
      ),
      (row) => row.customerUrl,
      { selectedId, onSelect, onUnselect },
    ),
  ];

  return (
    <StatusTablePanel<DashboardCustomerRow>
      label={title}
      pies={[
        { param: 'taskStatus', pie: DASHBOARD_PIES.customerTaskStatus, column: 'taskStatus' },
        { param: 'statusGroup', pie: DASHBOARD_PIES.customerStatus, column: 'status' },
      ]}
      {...panel}
      columns={columns}
      rowKey={(row) => row.id}
      selectedKey={selectedId}
      emptyText={TEXT.noCustomers}
    />
  );
}

// --- Machines tab ---------------------------------------------------------------------------------

export interface MachinesPanelProps extends MachineCalls {
  title: string;
  selectedId: number | null;
  onSelect: (row: { id: number; name: string }) => void;
  onUnselect: () => void;
}

export function MachinesPanel({
  title,
  list: listCall,
  counts: countsCall,
  selectedId,
  onSelect,
  onUnselect,
}: MachinesPanelProps) {
  const panel = useStatusTable(listCall, countsCall);

  const columns: Array<DataTableColumn<DashboardMachineRow>> = [
    {
      key: 'name',
      header: COLUMNS.name,
      sortable: true,
      className: 'text-nowrap',
      render: (row) => (
        <span className="d-inline-flex align-items-center gap-2">
          <span
            className={`d-inline-block rounded-circle ${row.online ? 'bg-success' : 'bg-secondary opacity-50'}`}
            style={{ width: '0.5rem', height: '0.5rem' }}
            role="img"
            aria-label={row.online ? TEXT.online : TEXT.offline}
            title={row.online ? TEXT.online : TEXT.offline}
          />
          {row.name}
        </span>
      ),
    },
    { key: 'user', header: COLUMNS.user, sortable: true, render: (row) => row.user ?? '' },
    { key: 'os', header: COLUMNS.os, sortable: true, render: (row) => row.operatingSystem },
    { key: 'softwareVersion', header: COLUMNS.softwareVersion, sortable: true, render: (row) => row.softwareVersion },
    { ...statusColumn(COLUMNS.status, machineStatusBadge), sortable: true },
    aggregateStatusColumn<DashboardMachineRow>(),
    selectableActionsColumn<DashboardMachineRow>(<ActionsHeader />, (row) => row.backupMachineUrl, {
      selectedId,
      onSelect,
      onUnselect,
    }),
  ];

  return (
    <StatusTablePanel<DashboardMachineRow>
      label={title}
      pies={[
        { param: 'taskStatus', pie: DASHBOARD_PIES.machineTaskStatus, column: 'taskStatus' },
        { param: 'status', pie: DASHBOARD_PIES.machineStatus, column: 'status' },
      ]}
      {...panel}
      columns={columns}
      rowKey={(row) => row.id}
      selectedKey={selectedId}
      emptyText={TEXT.noMachines}
    />
  );
}

// --- Tasks tab ------------------------------------------------------------------------------------

export function TasksPanel({ title, machineId }: { title: string; machineId: number }) {
  const panel = useStatusTable(
    routeCall(ROUTES.dashboard.machineTasks, { machineId }),
    routeCall(ROUTES.dashboard.machineTaskCounts, { machineId }),
  );

  const columns: Array<DataTableColumn<DashboardTaskRow>> = [
    { key: 'name', header: COLUMNS.name, sortable: true, render: (row) => row.name },
    { key: 'schedule', header: COLUMNS.schedule, sortable: true, render: (row) => row.scheduleDescription },
    {
      key: 'status',
      header: COLUMNS.status,
      sortable: true,
      render: (row) => {
        const badge = taskDisplayStatusBadge(row.displayStatus);
        return (
          <span className="d-inline-flex flex-wrap align-items-center gap-1">
            <StatusBadge status={row.displayStatus} label={badge.text} variant={badge.variant} />
            {row.badges.map((b) => {
              const extra = taskBadge(b);
              return <StatusBadge key={b} status={b} label={extra.text} variant={extra.variant} />;
            })}
          </span>
        );
      },
    },
    verificationColumn<DashboardTaskRow>(),
    {
      key: 'actions',
      className: 'text-end text-nowrap',
      header: <ActionsHeader />,
      render: (row) => <ManageLink name={row.name} to={row.backupTaskUrl} />,
    },
  ];

  return (
    <StatusTablePanel<DashboardTaskRow>
      label={title}
      pies={[{ param: 'taskStatus', pie: DASHBOARD_PIES.taskStatus, column: 'status' }]}
      {...panel}
      columns={columns}
      rowKey={(row) => row.id}
      emptyText={TEXT.noTasks}
    />
  );
}
