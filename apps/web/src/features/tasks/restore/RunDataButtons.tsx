export interface RunDataProps {
  machineId: number;
  taskId: number;
  runId: number;
  /** 002 §4.2: download is disabled while an action of the task is in progress or the task is being deleted. */
  disabled?: boolean;
}

// SKELETON (helper "restore" replaces): download (002 §7.6) and restore to the machine (BACKUP_RESTORE) of a
// run's snapshot, and the archive deletion of a snapshot (002 §5.8, §7.5).
export function DownloadButton(_props: RunDataProps) {
  return null;
}

export function RestoreButton(_props: RunDataProps & { onStarted: () => void }) {
  return null;
}

export function DeleteArchiveButton(_props: {
  machineId: number;
  taskId: number;
  taskName: string;
  snapshotId: number;
  disabled?: boolean;
  onDeleted: () => void;
}) {
  return null;
}
