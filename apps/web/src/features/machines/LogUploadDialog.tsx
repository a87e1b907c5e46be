import { zodResolver } from '@hookform/resolvers/zod';
import { type LogUploadPayload, logUploadSchema, MACHINE_FORM_LABELS, MESSAGE_ROUTING, MESSAGES } from '@portal/domain';
import { type Resolver, useForm } from 'react-hook-form';
import { CheckboxField, FormModal, GlobalErrors, useDialogSubmit } from '../../ui';
import type { MachineDialogProps } from './dialogs';
import { useRequestLogUpload } from './mutations';

const TEXT = MESSAGES.backupMachine;

/** Request upload of log files (001 §5, §7; provider admins): optionally the updater's logs too. */
export function LogUploadDialog({ show, onHide, machine, animation }: MachineDialogProps) {
  const form = useForm<LogUploadPayload>({
    resolver: zodResolver(logUploadSchema) as unknown as Resolver<LogUploadPayload>,
    defaultValues: { uploadupdaterfiles: false },
  });
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useRequestLogUpload(),
    successText: TEXT.logUploadSubmitted,
    partialText: TEXT.logUploadSubmittedWithErrors,
    unknownErrorText: TEXT.unknownWhileSubmittingLogUpload,
    form: {
      setError: form.setError,
      fieldNames: ['uploadupdaterfiles'],
      globalFieldNames: MESSAGE_ROUTING.machineLogUpload.globalFieldNames,
    },
  });
  const request = form.handleSubmit(async (values) => {
    const outcome = await submit({
      customerId: machine.customerId,
      packageId: machine.backupPackageId,
      machineId: machine.id,
      uploadupdaterfiles: values.uploadupdaterfiles,
    });
    if (outcome.close) onHide();
  });
  return (
    <FormModal
      show={show}
      title={TEXT.logUploadTitle}
      onHide={onHide}
      onSubmit={request}
      submitting={form.formState.isSubmitting}
      submitLabel={TEXT.logUploadSubmit}
      onExited={() => {
        form.reset({ uploadupdaterfiles: false });
        clearErrors();
      }}
      animation={animation}
      data-testid="log-upload-dialog"
    >
      <CheckboxField
        form={form}
        idPrefix="log-"
        name="uploadupdaterfiles"
        label={MACHINE_FORM_LABELS.uploadupdaterfiles}
      />
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}
