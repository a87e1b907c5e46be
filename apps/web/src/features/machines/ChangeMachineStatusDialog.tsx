import { MACHINE_STATUS_TEXTS, MESSAGES } from '@portal/domain';
import { ChangeStatusDialog, useDialogAction } from '../../ui';
import type { MachineDialogProps } from './dialogs';
import { useChangeMachineStatus } from './mutations';

const TEXT = MESSAGES.backupMachine;

/**
 * Change status (001 §4, §5): only the changes the transition table allows from the current status, the
 * first preselected, confirmed by typing the machine's exact name.
 */
export function ChangeMachineStatusDialog({ machine, ...dialog }: MachineDialogProps) {
  const action = useDialogAction({
    mutation: useChangeMachineStatus(),
    variables: (status: (typeof machine.statusOptions)[number]) => ({
      machineId: machine.id,
      packageId: machine.backupPackageId,
      status,
    }),
    onHide: dialog.onHide,
    successText: TEXT.statusUpdated,
    partialText: TEXT.statusUpdatedWithErrors,
    unknownErrorText: TEXT.unknownWhileChangingStatus,
  });
  return (
    <ChangeStatusDialog
      {...dialog}
      {...action}
      title={TEXT.changeStatusTitle}
      statusOptions={machine.statusOptions}
      statusTexts={MACHINE_STATUS_TEXTS}
      statusLabel={TEXT.newStatusLabel}
      prompt={TEXT.typeNameToChangeStatus}
      expectedName={machine.name}
      mismatchMessage={MESSAGES.confirmByName.machineStatusChange}
      confirmLabel={TEXT.changeStatusSubmit}
      data-testid="change-machine-status-dialog"
    />
  );
}
