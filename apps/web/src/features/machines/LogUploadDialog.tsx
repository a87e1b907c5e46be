import { logUploadSchema, MACHINE_FORM_LABELS, MESSAGE_ROUTING, MESSAGES, OUTCOME_TEXTS } from '@portal/domain';
import { CheckboxField, FormDialog, useFormDialog } from '../../ui';
import type { MachineDialogProps } from './dialogs';
import { useRequestLogUpload } from './mutations';

const TEXT = MESSAGES.backupMachine;

/** Request upload of log files (001 §5, §7; provider admins): optionally the updater's logs too. */
export function LogUploadDialog({ machine, ...shown }: MachineDialogProps) {
  const { field, dialog } = useFormDialog({
    ...shown,
    schema: logUploadSchema,
    defaults: () => ({ uploadupdaterfiles: false }),
    mutation: useRequestLogUpload(),
    variables: (payload) => ({
      customerId: machine.customerId,
      packageId: machine.backupPackageId,
      machineId: machine.id,
      ...payload,
    }),
    fieldNames: ['uploadupdaterfiles'],
    routing: MESSAGE_ROUTING.machineLogUpload,
    idPrefix: 'log-',
    ...OUTCOME_TEXTS.machine.requestLogUpload,
  });
  return (
    <FormDialog
      dialog={dialog}
      title={TEXT.logUploadTitle}
      submitLabel={TEXT.logUploadSubmit}
      data-testid="log-upload-dialog"
    >
      <CheckboxField {...field} name="uploadupdaterfiles" label={MACHINE_FORM_LABELS.uploadupdaterfiles} />
    </FormDialog>
  );
}
