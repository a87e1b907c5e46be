import {
  ACTION_TYPE_TEXTS,
  ALL_CUSTOMERS_ID,
  DASHBOARD_PIES,
  MESSAGES,
  type PieDefinition,
  progressBar,
  ROUTES,
  type RouteEntry,
  TASK_OVERVIEW_PAGE_SIZE,
  TASK_OVERVIEW_REFRESH_MS,
  type TaskOverviewRow,
  taskDisplayStatusBadge,
} from '@portal/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { Link } from 'react-router';
import { getResult, type RouteCall, routeCall } from '../../app/api';
import {
  CursorTable,
  type DataTableColumn,
  Page,
  PieChart,
  RowLink,
  Section,
  StatusBadge,
  useCursorQuery,
} from '../../ui';
import { VolumeSnapshotsButton } from '../tasks/VolumeSnapshotsButton';
import { verificationColumn } from '../verification/Verification';
import { taskOverviewKeys } from './queries';

const TEXT = MESSAGES.taskOverview;
const COLUMNS = TEXT.columns;

/**
 * The next run in the machine's own time zone, labelled with it (issue 31): the rows' zones differ, so a time alone
 * does not say when. A zone the browser does not know: the time in the browser's own zone, labelled with that.
 */
export function formatRunTime(iso: string, timeZone: string): string {
  const at = new Date(iso);
  const style = { dateStyle: 'medium', timeStyle: 'short' } as const;
  try {
    return `${at.toLocaleString(undefined, { ...style, timeZone })} (${timeZone})`;
  } catch {
    return `${at.toLocaleString(undefined, style)} (${Intl.DateTimeFormat().resolvedOptions().timeZone})`;
  }
}

/** The columns of 002 §2.6 every dashboard shows, with links to the customer and the machine. */
function commonColumns(): Array<DataTableColumn<TaskOverviewRow>> {
  return [
    { key: 'name', header: COLUMNS.name, render: (row) => row.name },
    {
      key: 'status',
      header: COLUMNS.status,
      render: (row) => <StatusBadge status={row.displayStatus} badge={taskDisplayStatusBadge(row.displayStatus)} />,
    },
    { key: 'superAdmin', header: COLUMNS.customerSuperAdmin, render: (row) => row.customer.superAdminFullName ?? '' },
    {
      key: 'company',
      header: COLUMNS.customerCompany,
      render: (row) => <Link to={row.customerUrl}>{row.customer.companyName}</Link>,
    },
    { key: 'package', header: COLUMNS.backupPackageName, render: (row) => row.backupPackageName },
    {
      key: 'machine',
      header: COLUMNS.backupMachineName,
      render: (row) => <Link to={row.backupMachineUrl}>{row.backupMachineName}</Link>,
    },
    { key: 'timeZone', header: COLUMNS.timeZone, render: (row) => row.timeZone },
    { key: 'schedule', header: COLUMNS.backupSchedule, render: (row) => row.backupScheduleDescription },
    verificationColumn<TaskOverviewRow>(),
  ];
}

function actionsColumn(onSaved: () => void): DataTableColumn<TaskOverviewRow> {
  return {
    key: 'actions',
    header: <span className="visually-hidden">{COLUMNS.actions}</span>,
    className: 'text-end text-nowrap',
    render: (row) => (
      <span className="d-inline-flex gap-2">
        <VolumeSnapshotsButton
          customerId={row.customer.id}
          backupPackageId={row.backupPackageId}
          machineId={row.backupMachineId}
          taskId={row.id}
          osFamily={row.osFamily}
          volumeSnapshotsEnabled={row.volumeSnapshotsEnabled}
          disabledReason={row.volumeSnapshotsDisabledReason}
          taskName={row.name}
          size="sm"
          onSaved={onSaved}
        />
        <RowLink to={row.backupTaskUrl} label={TEXT.manage} name={row.name} />
      </span>
    ),
  };
}

const runningColumns: Array<DataTableColumn<TaskOverviewRow>> = [
  {
    key: 'actionType',
    header: COLUMNS.actionType,
    render: (row) => (row.inProgressActionType ? ACTION_TYPE_TEXTS[row.inProgressActionType] : ''),
  },
  {
    key: 'progress',
    header: COLUMNS.progress,
    render: (row) => {
      // Every row here is a busy action, so the bar follows the in-progress colour rule (002 §4.2).
      const bar = progressBar({ status: 'IN_PROGRESS', transferProgressPercentage: row.inProgressActionProgress ?? 0 });
      return (
        // The name goes on the inner bar, the element with the progressbar role (axe: a named progress bar).
        <ProgressBar style={{ minWidth: '6rem' }}>
          <ProgressBar
            now={bar.value}
            max={bar.max}
            variant={bar.variant}
            label={`${bar.value}%`}
            aria-label={`${COLUMNS.progress} ${row.name}`}
          />
        </ProgressBar>
      );
    },
  },
];

const nextRunColumn: DataTableColumn<TaskOverviewRow> = {
  key: 'nextRun',
  header: COLUMNS.nextRun,
  render: (row) => (row.nextRunAt ? formatRunTime(row.nextRunAt, row.timeZone) : ''),
};

type ListName = 'running' | 'nextPeriod' | 'beingDeleted';

/** One dashboard: a server-paged table that refreshes while shown. */
function TaskList({
  name,
  title,
  emptyText,
  extraColumns,
  rowKey,
  onSaved,
}: {
  name: ListName;
  title: string;
  emptyText: string;
  extraColumns: Array<DataTableColumn<TaskOverviewRow>>;
  rowKey: (row: TaskOverviewRow) => number;
  onSaved: () => void;
}) {
  // Deep lists (100,000 tasks may be due within the hour): read by cursor, 'Load more' for the next page.
  const list = useCursorQuery(
    taskOverviewKeys.list(name),
    routeCall(ROUTES.taskOverview[name], {}),
    TASK_OVERVIEW_PAGE_SIZE,
    {
      refetchInterval: TASK_OVERVIEW_REFRESH_MS,
    },
  );
  const [nameColumn, ...rest] = commonColumns();
  const columns = [...(nameColumn ? [nameColumn] : []), ...extraColumns, ...rest, actionsColumn(onSaved)];
  return (
    <Section title={title}>
      <CursorTable<TaskOverviewRow>
        aria-label={title}
        data-testid={`task-overview-${name}`}
        columns={columns}
        list={list}
        rowKey={rowKey}
        emptyText={emptyText}
      />
    </Section>
  );
}

/** Counts of one scope, refreshed while shown (the pies count the whole provider; DESIGN §9 read model). */
function useCounts<R extends RouteEntry>(call: RouteCall<R>) {
  return useQuery({
    queryKey: [...taskOverviewKeys.counts(), call.path],
    queryFn: () => getResult(call),
    refetchInterval: TASK_OVERVIEW_REFRESH_MS,
  }).data;
}

function CountsPie<S extends string>({
  pie,
  title,
  counts,
  testId,
}: {
  pie: PieDefinition<S>;
  title: string;
  counts: Readonly<Record<S, number>> | undefined;
  testId: string;
}) {
  return (
    <PieChart
      title={title}
      data-testid={testId}
      emptyText={MESSAGES.dashboard.noData}
      data={pie.slices.map((slice) => ({
        key: slice.key,
        label: slice.label,
        colour: slice.colour,
        count: slice.statuses.reduce((sum, status) => sum + (counts?.[status] ?? 0), 0),
      }))}
    />
  );
}

/**
 * Task Status Overview (002 §2.2 /boltadmin/backuptasks/statusoverview, §2.6): the whole provider's task
 * status pies (every task by status; customers and machines by their aggregate task status, 000 §2), then
 * the dashboards of tasks running now (action type, progress), running in the next hour and being
 * deleted. Each row links to its customer, machine and provider task page (Manage) and opens the 'Edit
 * backup task' dialog (volume snapshots, Windows machines only).
 */
export function TaskStatusOverviewPage() {
  const client = useQueryClient();
  const refresh = () => void client.invalidateQueries({ queryKey: taskOverviewKeys.all });
  const taskCounts = useCounts(routeCall(ROUTES.taskOverview.counts, {}));
  const customerCounts = useCounts(routeCall(ROUTES.dashboard.customerCounts, {}));
  const machineCounts = useCounts(routeCall(ROUTES.dashboard.customerMachineCounts, { customerId: ALL_CUSTOMERS_ID }));
  return (
    <Page title={TEXT.title} subtitle={TEXT.subtitle}>
      <div className="d-flex flex-wrap align-items-start gap-4 mb-4" data-testid="task-overview-pies">
        <CountsPie
          pie={DASHBOARD_PIES.taskStatus}
          title={TEXT.taskStatusPie}
          counts={taskCounts?.taskStatus}
          testId="pie-task-status"
        />
        <CountsPie
          pie={DASHBOARD_PIES.customerTaskStatus}
          title={TEXT.customerTaskStatusPie}
          counts={customerCounts?.taskStatus}
          testId="pie-customer-task-status"
        />
        <CountsPie
          pie={DASHBOARD_PIES.machineTaskStatus}
          title={TEXT.machineTaskStatusPie}
          counts={machineCounts?.taskStatus}
          testId="pie-machine-task-status"
        />
      </div>
      <TaskList
        name="running"
        title={TEXT.runningTitle}
        emptyText={TEXT.runningEmpty}
        extraColumns={runningColumns}
        rowKey={(row) => row.inProgressActionId ?? row.id}
        onSaved={refresh}
      />
      <TaskList
        name="nextPeriod"
        title={TEXT.nextPeriodTitle}
        emptyText={TEXT.nextPeriodEmpty}
        extraColumns={[nextRunColumn]}
        rowKey={(row) => row.id}
        onSaved={refresh}
      />
      <TaskList
        name="beingDeleted"
        title={TEXT.beingDeletedTitle}
        emptyText={TEXT.beingDeletedEmpty}
        extraColumns={[]}
        rowKey={(row) => row.id}
        onSaved={refresh}
      />
    </Page>
  );
}
