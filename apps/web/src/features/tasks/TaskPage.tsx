import type { Audience } from '@portal/domain';
import { Page } from '../../ui';

// SKELETON (helper "task-page" replaces): the task page of each audience (002 §2.6). It mounts
// <EditTaskButton> (helper "task-form"), <DownloadButton>, <RestoreButton> and <DeleteArchiveButton>
// (helper "restore"), <MessageLogDialog> (helper "machines") and, for provider admins,
// <VolumeSnapshotsButton> (helper "task-overview").
export function TaskPage(_props: { audience: Audience }) {
  return <Page title="Backup task" />;
}
