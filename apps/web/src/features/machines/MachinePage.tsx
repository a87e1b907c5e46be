import type { Audience } from '@portal/domain';
import { useParams } from 'react-router';
import { Page } from '../../ui';
import { ResticDiagnosticsButton } from '../diagnostics/ResticDiagnosticsButton';
import { TasksTable } from '../tasks/TasksTable';

// SKELETON (helper "machines" replaces): the machine page of each audience. Whatever replaces it keeps
// mounting <TasksTable> (helper "task-page") and, for provider admins, <ResticDiagnosticsButton> (helper
// "diagnostics") with these props.
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
      <TasksTable audience={audience} machine={machine} />
    </Page>
  );
}
