import type { OsFamily } from '@portal/domain';

// SKELETON (helper "task-overview" replaces): the provider's 'Edit backup task' dialog (002 §2.5, §5.5, §7.3).
export function VolumeSnapshotsButton(_props: {
  customerId: number;
  backupPackageId: number;
  machineId: number;
  taskId: number;
  osFamily: OsFamily;
  volumeSnapshotsEnabled: boolean;
  onSaved: () => void;
}) {
  return null;
}
