import { MACHINE_STATUS_TEXTS, MESSAGES } from '@portal/domain';
import { ChangeStatusDialog, useDialogSubmit } from '../../ui';
import type { MachineDialogProps } from './dialogs';
import { useChangeMachineStatus } from './mutations';

const TEXT = MESSAGES.backupMachine;

/**
 * Change status (001 §4, §5): only the changes the transition table allows from the current status, the
 * first preselected, confirmed by typing the machine's exact name.
 */
export function ChangeMachineStatusDialog({ show, onHide, machine, animation }: MachineDialogProps) {
  const submission = useDialogSubmit({
    mutation: useChangeMachineStatus(),
    successText: TEXT.statusUpdated,
    partialText: TEXT.statusUpdatedWithErrors,
    unknownErrorText: TEXT.unknownWhileChangingStatus,
  });
  return (
    <ChangeStatusDialog
      show={show}
      onHide={onHide}
      submission={submission}
      title={TEXT.changeStatusTitle}
      statusOptions={machine.statusOptions}
      statusTexts={MACHINE_STATUS_TEXTS}
      statusLabel={TEXT.newStatusLabel}
      prompt={TEXT.typeNameToChangeStatus}
      expectedName={machine.name}
      mismatchMessage={MESSAGES.confirmByName.machineStatusChange}
      confirmLabel={TEXT.changeStatusSubmit}
      onConfirm={async (status) => {
        const outcome = await submission.submit({ machineId: machine.id, packageId: machine.backupPackageId, status });
        if (outcome.close) onHide();
      }}
      animation={animation}
      data-testid="change-machine-status-dialog"
    />
  );
}
