import { MESSAGES, STORAGE_LOCATION_TEXTS } from '@portal/domain';
import { ConfirmDialog, useDialogSubmit } from '../../ui';
import type { MachineDialogProps } from './dialogs';
import { useRotateMachineStorageKey } from './mutations';

const TEXT = MESSAGES.backupMachine;

/** Ours (issue 16): the provider admin gives a machine on S3 a new storage key; the old one is removed. */
export function RotateStorageKeyDialog({ show, onHide, machine, animation }: MachineDialogProps) {
  const submission = useDialogSubmit({
    mutation: useRotateMachineStorageKey(),
    successText: STORAGE_LOCATION_TEXTS.machineKeyRotated,
    partialText: TEXT.storageKeyRotatedWithErrors,
    unknownErrorText: TEXT.unknownWhileRotatingStorageKey,
  });
  const confirm = async () => {
    const outcome = await submission.submit({
      customerId: machine.customerId,
      packageId: machine.backupPackageId,
      machineId: machine.id,
    });
    if (outcome.close) onHide();
  };
  return (
    <ConfirmDialog
      show={show}
      onHide={onHide}
      submission={submission}
      title={TEXT.rotateStorageKeyTitle}
      confirmLabel={TEXT.rotateStorageKeySubmit}
      variant="warning"
      onConfirm={confirm}
      animation={animation}
      data-testid="rotate-storage-key-dialog"
    >
      <p>{TEXT.rotateStorageKeyConfirm}</p>
    </ConfirmDialog>
  );
}
