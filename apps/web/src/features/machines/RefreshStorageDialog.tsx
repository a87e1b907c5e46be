import { MESSAGES } from '@portal/domain';
import { ConfirmDialog, useDialogSubmit } from '../../ui';
import type { MachineDialogProps } from './dialogs';
import { useRefreshMachineStorage } from './mutations';

const TEXT = MESSAGES.backupMachine;

/** Refresh storage space (001 §4, §7): asks the agent to measure again; the widget reloads 500 ms after. */
export function RefreshStorageDialog({ show, onHide, machine, animation }: MachineDialogProps) {
  const submission = useDialogSubmit({
    mutation: useRefreshMachineStorage(),
    successText: TEXT.storageRefreshing,
    partialText: TEXT.storageRefreshingWithErrors,
    unknownErrorText: TEXT.unknownWhileRefreshingStorage,
  });
  const confirm = async () => {
    const outcome = await submission.submit({ machineId: machine.id, packageId: machine.backupPackageId });
    if (outcome.close) onHide();
  };
  return (
    <ConfirmDialog
      show={show}
      onHide={onHide}
      submission={submission}
      title={TEXT.refreshStorageTitle}
      confirmLabel={TEXT.refreshStorageSubmit}
      variant="primary"
      onConfirm={confirm}
      animation={animation}
      data-testid="refresh-storage-dialog"
    >
      <p>{TEXT.refreshStorageConfirm}</p>
    </ConfirmDialog>
  );
}
