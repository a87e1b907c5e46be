import { MESSAGES, type OsFamily, type SnapshotTreeItem } from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { ConfirmByNameDialog, DialogButton, lazyDialog, useDialogAction } from '../../../ui';
import { useDeleteArchive } from './mutations';

// The dialogs with their snapshot tree load when first opened, not with the task page (issue 31, phones).
const DownloadDialog = lazyDialog(() => import('./DownloadDialog').then((m) => m.DownloadDialog));
const RestoreDialog = lazyDialog(() => import('./RestoreDialog').then((m) => m.RestoreDialog));

const TEXT = MESSAGES.restore;

export interface RunDataProps {
  machineId: number;
  taskId: number;
  runId: number;
  /** 002 §4.2: download is disabled while an action of the task is in progress or the task is being deleted. */
  disabled?: boolean;
  /** Chosen when the dialog opens (a file's history: that file). */
  initialItems?: readonly SnapshotTreeItem[];
}

/** Download of a run's snapshot (002 §7.6): opens the dialog with the snapshot's tree. */
export function DownloadButton({ machineId, taskId, runId, disabled, initialItems }: RunDataProps) {
  return (
    <DialogButton
      size="sm"
      variant="outline-primary"
      disabled={disabled}
      {...DownloadDialog.preloadProps}
      dialog={(open) => <DownloadDialog {...open} run={{ machineId, taskId, runId }} initialItems={initialItems} />}
    >
      {TEXT.downloadButton}
    </DialogButton>
  );
}

/** Restore to the machine (issue 14): opens the dialog with the snapshot's tree and the target. */
export function RestoreButton({
  machineId,
  taskId,
  runId,
  disabled,
  osFamily,
  onStarted,
  initialItems,
}: RunDataProps & { osFamily: OsFamily; onStarted: () => void }) {
  return (
    <DialogButton
      size="sm"
      variant="outline-primary"
      disabled={disabled}
      {...RestoreDialog.preloadProps}
      dialog={(open) => (
        <RestoreDialog
          {...open}
          run={{ machineId, taskId, runId }}
          osFamily={osFamily}
          onStarted={onStarted}
          initialItems={initialItems}
        />
      )}
    >
      {TEXT.restoreButton}
    </DialogButton>
  );
}

/**
 * Delete snapshot archive (002 §5.8, §7.5): confirmed by typing the task's exact name ('Must complete correct
 * backup task name to confirm deletion of archive'); the archive then shows BEING DELETED until it is gone.
 */
export function DeleteArchiveButton({
  machineId,
  taskId,
  taskName,
  snapshotId,
  disabled,
  onDeleted,
}: {
  machineId: number;
  taskId: number;
  taskName: string;
  snapshotId: number;
  disabled?: boolean;
  onDeleted: () => void;
}) {
  const [open, setOpen] = useState(false);
  const action = useDialogAction({
    mutation: useDeleteArchive(),
    variables: () => ({ machineId, taskId, snapshotId }),
    onHide: () => setOpen(false),
    onOutcome: (outcome) => {
      if (!outcome.applied) return;
      setOpen(false);
      onDeleted();
    },
    successText: MESSAGES.task.archiveBeingDeleted,
    successToast: 'warning',
    partialText: MESSAGES.task.archiveBeingDeleted,
    unknownErrorText: TEXT.unknownWhileDeletingArchive,
  });
  return (
    <>
      <Button size="sm" variant="outline-danger" disabled={disabled} onClick={() => setOpen(true)}>
        {TEXT.deleteArchiveButton}
      </Button>
      <ConfirmByNameDialog
        show={open}
        onHide={() => setOpen(false)}
        {...action}
        title={TEXT.deleteArchiveTitle}
        prompt={TEXT.deleteArchivePrompt}
        expectedName={taskName}
        mismatchMessage={MESSAGES.confirmByName.archiveDeletion}
        confirmLabel={TEXT.deleteArchiveButton}
        data-testid="delete-archive-dialog"
      />
    </>
  );
}
