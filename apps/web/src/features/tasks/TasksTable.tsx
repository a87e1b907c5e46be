import {
  type Audience,
  MESSAGES,
  type OsFamily,
  snapshotsToKeepText,
  TASK_PAGE_SIZE,
  type TaskRow,
  taskBadge,
  taskDisplayStatusBadge,
} from '@portal/domain';
import { routeCall } from '../../app/api';
import { PagedTable, RowLink, StatusBadge } from '../../ui';
import { verificationColumn } from '../verification/Verification';
import { taskKeys, taskRoutes } from './queries';

export interface TasksMachine {
  id: number;
  customerId: number;
  backupPackageId: number;
  osFamily: OsFamily;
}

/**
 * The machine's tasks (002 §2.6, §7.7; 'There are no backup tasks'): provider admins get a Manage button
 * to the task page, everyone else View. Cached under ['machineTasks', machineId], which the add-task
 * button refreshes.
 */
export function TasksTable({ audience, machine }: { audience: Audience; machine: TasksMachine }) {
  const ref = { customerId: machine.customerId, packageId: machine.backupPackageId, machineId: machine.id };
  const label = audience === 'provider' ? 'Manage' : 'View';
  return (
    <PagedTable
      queryKey={[...taskKeys.machineTasks(machine.id), audience]}
      call={routeCall(taskRoutes(audience).list, ref)}
      size={TASK_PAGE_SIZE}
      rowKey={(task) => task.id}
      emptyText={MESSAGES.task.empty}
      aria-label="Backup tasks"
      data-testid="tasks-table"
      columns={[
        { key: 'name', header: 'Name', render: (task) => task.name },
        {
          key: 'status',
          header: 'Status',
          render: (task) => (
            <span className="d-inline-flex gap-1 flex-wrap">
              <StatusBadge status={task.displayStatus} badge={taskDisplayStatusBadge(task.displayStatus)} />
              {task.badges.map((badge) => (
                <StatusBadge key={badge} status={badge} badge={taskBadge(badge)} />
              ))}
            </span>
          ),
        },
        { key: 'schedule', header: 'Backup schedule', render: (task) => task.backupScheduleDescription },
        verificationColumn<TaskRow>(),
        {
          key: 'snapshots',
          header: 'Number of snapshots',
          render: (task) => snapshotsToKeepText(task.numberOfSnapshotsToKeep),
        },
        {
          key: 'open',
          header: '',
          render: (task) => <RowLink to={task.backupTaskUrl} label={label} name={task.name} />,
        },
      ]}
    />
  );
}
