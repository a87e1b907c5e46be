import type { Audience } from '@portal/domain';
import { useParams } from 'react-router';
import { Page } from '../../ui';
import { ResticDiagnosticsButton } from '../diagnostics/ResticDiagnosticsButton';
import { AddTaskButton } from '../tasks/form/TaskFormDialog';
import { TasksTable } from '../tasks/TasksTable';

// SKELETON (helper "machines" replaces): the machine page of each audience. Whatever replaces it keeps
// mounting, with these props, the tasks section: <AddTaskButton> (helper "task-form"; its onSaved refreshes
// the tasks table) above <TasksTable> (helper "task-page"); and, for provider admins,
// <ResticDiagnosticsButton> (helper "diagnostics").
export function MachinePage({ audience }: { audience: Audience }) {
  const params = useParams();
  const machine = {
    id: Number(params.machineId),
    name: '',
    customerId: Number(params.customerId ?? 0),
    backupPackageId: Number(params.packageId ?? 0),
    osFamily: 'LINUX' as const,
  };
  return (
    <Page title="Backup machine" actions={audience === 'provider' && <ResticDiagnosticsButton machine={machine} />}>
      <AddTaskButton machineId={machine.id} osFamily={machine.osFamily} onSaved={() => undefined} />
      <TasksTable audience={audience} machine={machine} />
    </Page>
  );
}
