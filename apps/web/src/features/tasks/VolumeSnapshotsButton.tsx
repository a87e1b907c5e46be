import { zodResolver } from '@hookform/resolvers/zod';
import {
  MESSAGE_ROUTING,
  MESSAGES,
  type OsFamily,
  type VolumeSnapshotsPayload,
  volumeSnapshotsDisabledReason,
  volumeSnapshotsSchema,
} from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { type Resolver, useForm } from 'react-hook-form';
import { CheckboxField, FormModal, GlobalErrors, TooltipButton, useDialogSubmit } from '../../ui';
import { useSaveVolumeSnapshots } from '../task-overview/mutations';

const TEXT = MESSAGES.taskOverview;

export interface VolumeSnapshotsButtonProps {
  customerId: number;
  backupPackageId: number;
  machineId: number;
  taskId: number;
  osFamily: OsFamily;
  volumeSnapshotsEnabled: boolean;
  onSaved: () => void;
  /** Why the dialog may not open (the row's volumeSnapshotsDisabledReason); by default the machine's OS decides. */
  disabledReason?: string | null;
  /** The task's name, for the button's accessible name where several tasks share a table. */
  taskName?: string;
  /** The button's text: 'Edit backup task' in the tables (002 §2.5); on the task page, beside its Edit, another. */
  buttonText?: string;
  size?: 'sm' | 'lg';
  animation?: boolean;
}

/**
 * The provider's 'Edit backup task' dialog of customer administration (002 §2.5): one setting, volume
 * snapshots, editable only for Windows machines (002 §5.5). Elsewhere the button is disabled and its
 * tooltip says why. Saves with PUT {provider task path} (002 §7.3) and says 'Backup task has been updated'.
 */
export function VolumeSnapshotsButton({
  customerId,
  backupPackageId,
  machineId,
  taskId,
  osFamily,
  volumeSnapshotsEnabled,
  onSaved,
  disabledReason,
  taskName,
  buttonText = TEXT.editTask,
  size,
  animation,
}: VolumeSnapshotsButtonProps) {
  const [show, setShow] = useState(false);
  const reason = disabledReason !== undefined ? disabledReason : volumeSnapshotsDisabledReason({ osFamily });
  const label = taskName ? `${buttonText} ${taskName}` : buttonText;
  return (
    <>
      {reason ? (
        <TooltipButton tooltip={reason} disabled size={size} variant="outline-secondary" aria-label={label}>
          {buttonText}
        </TooltipButton>
      ) : (
        <Button size={size} variant="outline-secondary" aria-label={label} onClick={() => setShow(true)}>
          {buttonText}
        </Button>
      )}
      <VolumeSnapshotsDialog
        show={show}
        onHide={() => setShow(false)}
        onSaved={onSaved}
        path={{ customerId, packageId: backupPackageId, machineId, taskId }}
        osFamily={osFamily}
        volumeSnapshotsEnabled={volumeSnapshotsEnabled}
        animation={animation}
      />
    </>
  );
}

interface VolumeSnapshotsDialogProps {
  show: boolean;
  onHide: () => void;
  onSaved: () => void;
  path: { customerId: number; packageId: number; machineId: number; taskId: number };
  osFamily: OsFamily;
  volumeSnapshotsEnabled: boolean;
  animation?: boolean;
}

function VolumeSnapshotsDialog({
  show,
  onHide,
  onSaved,
  path,
  osFamily,
  volumeSnapshotsEnabled,
  animation,
}: VolumeSnapshotsDialogProps) {
  const schema = volumeSnapshotsSchema(osFamily);
  const form = useForm<VolumeSnapshotsPayload>({
    // The checkbox gives a boolean; the schema also takes 'true'/'false', hence the cast.
    resolver: zodResolver(schema) as unknown as Resolver<VolumeSnapshotsPayload>,
    values: { volumeSnapshotsEnabled },
  });
  const { submit, globalErrors, clearErrors, submitting } = useDialogSubmit({
    mutation: useSaveVolumeSnapshots(),
    successText: MESSAGES.customer.backupTaskUpdated,
    partialText: MESSAGES.customer.backupTaskUpdatedWithErrors,
    unknownErrorText: MESSAGES.customer.unknownWhileUpdatingBackupTask,
    form: {
      setError: form.setError,
      fieldNames: ['volumeSnapshotsEnabled'],
      globalFieldNames: MESSAGE_ROUTING.taskVolumeSnapshots.globalFieldNames,
    },
  });

  const save = form.handleSubmit(async (values) => {
    const outcome = await submit({ ...path, payload: schema.parse(values) });
    if (outcome.close) {
      onHide();
      onSaved();
    }
  });

  return (
    <FormModal
      show={show}
      title={TEXT.editTaskTitle}
      onHide={onHide}
      onSubmit={save}
      submitting={submitting || form.formState.isSubmitting}
      submitLabel={TEXT.save}
      onExited={() => {
        form.reset({ volumeSnapshotsEnabled });
        clearErrors();
      }}
      animation={animation}
      data-testid="volume-snapshots-dialog"
    >
      <CheckboxField
        form={form}
        idPrefix="task-edit-"
        name="volumeSnapshotsEnabled"
        label={TEXT.volumeSnapshotsLabel}
      />
      <Form.Text className="d-block mb-2">{TEXT.volumeSnapshotsHelp}</Form.Text>
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}
