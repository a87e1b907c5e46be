import { MESSAGES, OUTCOME_TEXTS } from '@portal/domain';
import { ConfirmActionDialog } from '../../ui';
import { type MachineDialogProps, machineOnPackage } from './dialogs';
import { useRefreshMachineStorage } from './mutations';

const TEXT = MESSAGES.backupMachine;

/** Refresh storage space (001 §4, §7): asks the agent to measure again; the widget reloads 500 ms after. */
export function RefreshStorageDialog({ machine, ...dialog }: MachineDialogProps) {
  const mutation = useRefreshMachineStorage();
  return (
    <ConfirmActionDialog
      {...dialog}
      action={{ mutation, variables: () => machineOnPackage(machine), ...OUTCOME_TEXTS.machine.refreshStorage }}
      title={TEXT.refreshStorageTitle}
      confirmLabel={TEXT.refreshStorageSubmit}
      variant="primary"
      data-testid="refresh-storage-dialog"
    >
      <p>{TEXT.refreshStorageConfirm}</p>
    </ConfirmActionDialog>
  );
}
