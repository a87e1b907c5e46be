import { MESSAGES, type OsFamily, volumeSnapshotsDisabledReason } from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { lazyDialog, TooltipButton } from '../../ui';

const TEXT = MESSAGES.taskOverview;
// The form loads when first opened, not with the task page that shows the button (issue 31, phones).
const VolumeSnapshotsDialog = lazyDialog(() => import('./VolumeSnapshotsDialog').then((m) => m.VolumeSnapshotsDialog));

export interface VolumeSnapshotsButtonProps {
  customerId: number;
  backupPackageId: number;
  machineId: number;
  taskId: number;
  osFamily: OsFamily;
  volumeSnapshotsEnabled: boolean;
  onSaved: () => void;
  /** Why the dialog may not open (the row's volumeSnapshotsDisabledReason); by default the machine's OS decides. */
  disabledReason?: string | null;
  /** The task's name, for the button's accessible name where several tasks share a table. */
  taskName?: string;
  /** The button's text: 'Edit backup task' in the tables (002 §2.5); on the task page, beside its Edit, another. */
  buttonText?: string;
  size?: 'sm' | 'lg';
  animation?: boolean;
}

/**
 * The provider's 'Edit backup task' dialog of customer administration (002 §2.5): one setting, volume
 * snapshots, editable only for Windows machines (002 §5.5). Elsewhere the button is disabled and its
 * tooltip says why. Saves with PUT {provider task path} (002 §7.3) and says 'Backup task has been updated'.
 */
export function VolumeSnapshotsButton({
  customerId,
  backupPackageId,
  machineId,
  taskId,
  osFamily,
  volumeSnapshotsEnabled,
  onSaved,
  disabledReason,
  taskName,
  buttonText = TEXT.editTask,
  size,
  animation,
}: VolumeSnapshotsButtonProps) {
  const [show, setShow] = useState(false);
  const reason = disabledReason !== undefined ? disabledReason : volumeSnapshotsDisabledReason({ osFamily });
  const label = taskName ? `${buttonText} ${taskName}` : buttonText;
  return (
    <>
      {reason ? (
        <TooltipButton tooltip={reason} disabled size={size} variant="outline-secondary" aria-label={label}>
          {buttonText}
        </TooltipButton>
      ) : (
        <Button
          size={size}
          variant="outline-secondary"
          aria-label={label}
          onClick={() => setShow(true)}
          {...VolumeSnapshotsDialog.preloadProps}
        >
          {buttonText}
        </Button>
      )}
      <VolumeSnapshotsDialog
        show={show}
        onHide={() => setShow(false)}
        onSaved={onSaved}
        path={{ customerId, packageId: backupPackageId, machineId, taskId }}
        osFamily={osFamily}
        volumeSnapshotsEnabled={volumeSnapshotsEnabled}
        animation={animation}
      />
    </>
  );
}
