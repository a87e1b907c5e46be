import { MESSAGES, STORAGE_LOCATION_TEXTS } from '@portal/domain';
import { ConfirmDialog, useDialogAction } from '../../ui';
import type { MachineDialogProps } from './dialogs';
import { useRotateMachineStorageKey } from './mutations';

const TEXT = MESSAGES.backupMachine;

/** Ours (issue 16): the provider admin gives a machine on S3 a new storage key; the old one is removed. */
export function RotateStorageKeyDialog({ machine, ...dialog }: MachineDialogProps) {
  const action = useDialogAction({
    mutation: useRotateMachineStorageKey(),
    variables: () => ({ customerId: machine.customerId, packageId: machine.backupPackageId, machineId: machine.id }),
    onHide: dialog.onHide,
    successText: STORAGE_LOCATION_TEXTS.machineKeyRotated,
    partialText: TEXT.storageKeyRotatedWithErrors,
    unknownErrorText: TEXT.unknownWhileRotatingStorageKey,
  });
  return (
    <ConfirmDialog
      {...dialog}
      {...action}
      title={TEXT.rotateStorageKeyTitle}
      confirmLabel={TEXT.rotateStorageKeySubmit}
      variant="warning"
      data-testid="rotate-storage-key-dialog"
    >
      <p>{TEXT.rotateStorageKeyConfirm}</p>
    </ConfirmDialog>
  );
}
