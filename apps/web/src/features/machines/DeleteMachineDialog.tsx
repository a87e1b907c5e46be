import { MESSAGES, OUTCOME_TEXTS } from '@portal/domain';
import { ConfirmByNameActionDialog } from '../../ui';
import { type MachineDialogProps, machineOnPackage } from './dialogs';
import { useDeleteMachine } from './mutations';

const TEXT = MESSAGES.backupMachine;

/**
 * Delete backup machine (001 §4, §5): offered only for a SUSPENDED machine, confirmed by typing its exact
 * name. The deletion goes on in the background ('Backup machine is being deleted'); `onDeleted` leaves
 * the page.
 */
export function DeleteMachineDialog({ machine, onDeleted, ...dialog }: MachineDialogProps & { onDeleted: () => void }) {
  const mutation = useDeleteMachine();
  return (
    <ConfirmByNameActionDialog
      {...dialog}
      action={{
        mutation,
        variables: () => machineOnPackage(machine),
        afterClose: onDeleted,
        ...OUTCOME_TEXTS.machine.delete,
      }}
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
