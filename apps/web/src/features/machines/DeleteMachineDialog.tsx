import { MESSAGES } from '@portal/domain';
import { ConfirmByNameDialog, useDialogAction } from '../../ui';
import type { MachineDialogProps } from './dialogs';
import { useDeleteMachine } from './mutations';

const TEXT = MESSAGES.backupMachine;

/**
 * Delete backup machine (001 §4, §5): offered only for a SUSPENDED machine, confirmed by typing its exact
 * name. The deletion goes on in the background ('Backup machine is being deleted'); `onDeleted` leaves
 * the page.
 */
export function DeleteMachineDialog({ machine, onDeleted, ...dialog }: MachineDialogProps & { onDeleted: () => void }) {
  const action = useDialogAction({
    mutation: useDeleteMachine(),
    variables: () => ({ machineId: machine.id, packageId: machine.backupPackageId }),
    onHide: dialog.onHide,
    afterClose: onDeleted,
    successText: TEXT.beingDeleted,
    partialText: TEXT.beingDeletedWithErrors,
    unknownErrorText: TEXT.unknownWhileDeleting,
  });
  return (
    <ConfirmByNameDialog
      {...dialog}
      {...action}
      title={TEXT.deleteTitle}
      before={<p>{TEXT.deleteWarning}</p>}
      prompt={TEXT.typeNameToDelete}
      expectedName={machine.name}
      mismatchMessage={MESSAGES.confirmByName.machineDeletion}
      confirmLabel={TEXT.deleteSubmit}
      data-testid="delete-machine-dialog"
    />
  );
}
