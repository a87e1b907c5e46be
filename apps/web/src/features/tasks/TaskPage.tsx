import type { Audience } from '@portal/domain';
import { useParams } from 'react-router';
import { Page } from '../../ui';
import { EditTaskButton } from './form/TaskFormDialog';

// SKELETON (helper "task-page" replaces): the task page of each audience (002 §2.6). Whatever replaces it
// mounts <EditTaskButton> (helper "task-form") in the page actions as here, <DownloadButton>,
// <RestoreButton> and <DeleteArchiveButton> (helper "restore") in the runs and snapshots rows,
// <MessageLogDialog> (helper "machines") for 'View log' and, for provider admins, <VolumeSnapshotsButton>
// (helper "task-overview").
export function TaskPage(_props: { audience: Audience }) {
  const params = useParams();
  return (
    <Page
      title="Backup task"
      actions={
        <EditTaskButton
          machineId={Number(params.machineId)}
          taskId={Number(params.taskId)}
          osFamily="LINUX"
          onSaved={() => undefined}
        />
      }
    />
  );
}
