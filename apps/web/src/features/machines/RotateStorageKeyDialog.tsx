import { MESSAGES, OUTCOME_TEXTS } from '@portal/domain';
import { ConfirmActionDialog } from '../../ui';
import { type MachineDialogProps, machineOnPackage } from './dialogs';
import { useRotateMachineStorageKey } from './mutations';

const TEXT = MESSAGES.backupMachine;

/** Ours (issue 16): the provider admin gives a machine on S3 a new storage key; the old one is removed. */
export function RotateStorageKeyDialog({ machine, ...dialog }: MachineDialogProps) {
  const mutation = useRotateMachineStorageKey();
  return (
    <ConfirmActionDialog
      {...dialog}
      action={{
        mutation,
        variables: () => ({ customerId: machine.customerId, ...machineOnPackage(machine) }),
        ...OUTCOME_TEXTS.machine.rotateStorageKey,
      }}
      title={TEXT.rotateStorageKeyTitle}
      confirmLabel={TEXT.rotateStorageKeySubmit}
      variant="warning"
      data-testid="rotate-storage-key-dialog"
    >
      <p>{TEXT.rotateStorageKeyConfirm}</p>
    </ConfirmActionDialog>
  );
}
