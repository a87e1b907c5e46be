import { MACHINE_STATUS_TEXTS, type MachineStatus, MESSAGES, preselectedStatusOption } from '@portal/domain';
import { useId, useState } from 'react';
import Form from 'react-bootstrap/Form';
import { ConfirmByNameDialog, GlobalErrors, useDialogSubmit, useOnOpen } from '../../ui';
import type { MachineDialogProps } from './dialogs';
import { useChangeMachineStatus } from './mutations';

const TEXT = MESSAGES.backupMachine;

/**
 * Change status (001 §4, §5): only the changes the transition table allows from the current status, the
 * first preselected, confirmed by typing the machine's exact name.
 */
export function ChangeMachineStatusDialog({ show, onHide, machine, animation }: MachineDialogProps) {
  const selectId = useId();
  const first = preselectedStatusOption(machine.statusOptions);
  const [status, setStatus] = useState<MachineStatus | null>(first);
  useOnOpen(show, () => setStatus(first));
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useChangeMachineStatus(),
    successText: TEXT.statusUpdated,
    partialText: TEXT.statusUpdatedWithErrors,
    unknownErrorText: TEXT.unknownWhileChangingStatus,
  });
  const confirm = async () => {
    if (status === null) return;
    const outcome = await submit({ machineId: machine.id, packageId: machine.backupPackageId, status });
    if (outcome.close) onHide();
  };
  return (
    <ConfirmByNameDialog
      show={show}
      onHide={onHide}
      onExited={clearErrors}
      title={TEXT.changeStatusTitle}
      before={
        <Form.Group className="mb-3" controlId={selectId}>
          <Form.Label>{TEXT.newStatusLabel}</Form.Label>
          <Form.Select value={status ?? ''} onChange={(event) => setStatus(event.target.value as MachineStatus)}>
            {machine.statusOptions.map((option) => (
              <option key={option} value={option}>
                {MACHINE_STATUS_TEXTS[option]}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      }
      prompt={TEXT.typeNameToChangeStatus}
      expectedName={machine.name}
      mismatchMessage={MESSAGES.confirmByName.machineStatusChange}
      confirmLabel={TEXT.changeStatusSubmit}
      variant="primary"
      onConfirm={confirm}
      animation={animation}
      data-testid="change-machine-status-dialog"
    >
      <GlobalErrors messages={globalErrors} />
    </ConfirmByNameDialog>
  );
}
