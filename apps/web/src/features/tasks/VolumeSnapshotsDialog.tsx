import { zodResolver } from '@hookform/resolvers/zod';
import {
  MESSAGE_ROUTING,
  MESSAGES,
  type OsFamily,
  type VolumeSnapshotsPayload,
  volumeSnapshotsSchema,
} from '@portal/domain';
import Form from 'react-bootstrap/Form';
import { type Resolver, useForm } from 'react-hook-form';
import { CheckboxField, FormModal, GlobalErrors, useDialogSubmit } from '../../ui';
import { useSaveVolumeSnapshots } from '../task-overview/mutations';

const TEXT = MESSAGES.taskOverview;

interface VolumeSnapshotsDialogProps {
  show: boolean;
  onHide: () => void;
  onSaved: () => void;
  path: { customerId: number; packageId: number; machineId: number; taskId: number };
  osFamily: OsFamily;
  volumeSnapshotsEnabled: boolean;
  animation?: boolean;
}

/** The dialog of VolumeSnapshotsButton: the volume snapshots setting, saved with PUT (002 §2.5, §7.3). */
export function VolumeSnapshotsDialog({
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
