import { MESSAGES } from '@portal/domain';
import { ConfirmByNameDialog, useDialogSubmit } from '../../ui';
import type { MachineDialogProps } from './dialogs';
import { useDeleteMachine } from './mutations';

const TEXT = MESSAGES.backupMachine;

/**
 * Delete backup machine (001 §4, §5): offered only for a SUSPENDED machine, confirmed by typing its exact
 * name. The deletion goes on in the background ('Backup machine is being deleted'); `onDeleted` leaves
 * the page.
 */
export function DeleteMachineDialog({
  show,
  onHide,
  machine,
  animation,
  onDeleted,
}: MachineDialogProps & { onDeleted: () => void }) {
  const submission = useDialogSubmit({
    mutation: useDeleteMachine(),
    successText: TEXT.beingDeleted,
    partialText: TEXT.beingDeletedWithErrors,
    unknownErrorText: TEXT.unknownWhileDeleting,
  });
  const confirm = async () => {
    const outcome = await submission.submit({ machineId: machine.id, packageId: machine.backupPackageId });
    if (outcome.close) {
      onHide();
      onDeleted();
    }
  };
  return (
    <ConfirmByNameDialog
      show={show}
      onHide={onHide}
      submission={submission}
      title={TEXT.deleteTitle}
      before={<p>{TEXT.deleteWarning}</p>}
      prompt={TEXT.typeNameToDelete}
      expectedName={machine.name}
      mismatchMessage={MESSAGES.confirmByName.machineDeletion}
      confirmLabel={TEXT.deleteSubmit}
      onConfirm={confirm}
      animation={animation}
      data-testid="delete-machine-dialog"
    ></ConfirmByNameDialog>
  );
}
