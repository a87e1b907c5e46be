import { MESSAGES } from '@portal/domain';
import { ConfirmDialog, useDialogAction } from '../../ui';
import type { MachineDialogProps } from './dialogs';
import { useRefreshMachineStorage } from './mutations';

const TEXT = MESSAGES.backupMachine;

/** Refresh storage space (001 §4, §7): asks the agent to measure again; the widget reloads 500 ms after. */
export function RefreshStorageDialog({ machine, ...dialog }: MachineDialogProps) {
  const action = useDialogAction({
    mutation: useRefreshMachineStorage(),
    variables: () => ({ machineId: machine.id, packageId: machine.backupPackageId }),
    onHide: dialog.onHide,
    successText: TEXT.storageRefreshing,
    partialText: TEXT.storageRefreshingWithErrors,
    unknownErrorText: TEXT.unknownWhileRefreshingStorage,
  });
  return (
    <ConfirmDialog
      {...dialog}
      {...action}
      title={TEXT.refreshStorageTitle}
      confirmLabel={TEXT.refreshStorageSubmit}
      variant="primary"
      data-testid="refresh-storage-dialog"
    >
      <p>{TEXT.refreshStorageConfirm}</p>
    </ConfirmDialog>
  );
}
