import { MACHINE_STATUS_TEXTS, MESSAGES, OUTCOME_TEXTS } from '@portal/domain';
import { ChangeStatusActionDialog } from '../../ui';
import { type MachineDialogProps, machineOnPackage } from './dialogs';
import { useChangeMachineStatus } from './mutations';

const TEXT = MESSAGES.backupMachine;

/**
 * Change status (001 §4, §5): only the changes the transition table allows from the current status, the
 * first preselected, confirmed by typing the machine's exact name.
 */
export function ChangeMachineStatusDialog({ machine, ...dialog }: MachineDialogProps) {
  const mutation = useChangeMachineStatus();
  return (
    <ChangeStatusActionDialog
      {...dialog}
      action={{
        mutation,
        variables: (status) => ({ ...machineOnPackage(machine), status }),
        ...OUTCOME_TEXTS.machine.changeStatus,
      }}
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
