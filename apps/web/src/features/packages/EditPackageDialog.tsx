import { zodResolver } from '@hookform/resolvers/zod';
import {
  MESSAGE_ROUTING,
  MESSAGES,
  onPerMachineLimitToggled,
  PACKAGE_LABELS,
  type PackageEditForm,
  type PackageRow,
  packageEditForm,
  packageEditSchema,
  packageQuotaInMb,
} from '@portal/domain';
import Form from 'react-bootstrap/Form';
import { type Resolver, useForm } from 'react-hook-form';
import { FormModal, GlobalErrors, TextField, useDialogSubmit, useOnOpen } from '../../ui';
import { useEditPackage } from './mutations';

const TEXT = MESSAGES.packagePages;

export interface PackageDialogProps {
  show: boolean;
  onHide: () => void;
  pkg: PackageRow;
  animation?: boolean;
}

/**
 * Edit backup package (000 §5): the name, and 'Limit backup size per machine?': on, the limit (MB, at least
 * 10 and at most the quota) is required; off, the quota is sent. Turning it on starts from 10 MB.
 */
export function EditPackageDialog({ show, onHide, pkg, animation }: PackageDialogProps) {
  const schema = packageEditSchema(packageQuotaInMb(pkg.packageQuotaSizeInBytes));
  const form = useForm<PackageEditForm>({
    resolver: zodResolver(schema) as unknown as Resolver<PackageEditForm>,
    defaultValues: packageEditForm(pkg),
  });
  useOnOpen(show, () => form.reset(packageEditForm(pkg)));
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useEditPackage(),
    successText: MESSAGES.backupPackage.edited,
    partialText: MESSAGES.backupPackage.editedWithErrors,
    unknownErrorText: MESSAGES.backupPackage.unknownWhileEditing,
    form: {
      setError: form.setError,
      fieldNames: ['name', 'maxBackupSizePerMachine'],
      globalFieldNames: MESSAGE_ROUTING.packageEdit.globalFieldNames,
    },
  });
  const save = form.handleSubmit(async (values) => {
    const outcome = await submit({ packageId: pkg.id, payload: schema.parse(values) });
    if (outcome.close) onHide();
  });
  const limited = form.watch('limitBackupSizePerMachine') !== false;
  return (
    <FormModal
      show={show}
      title={TEXT.editTitle}
      onHide={onHide}
      onSubmit={save}
      submitting={form.formState.isSubmitting}
      submitLabel={TEXT.save}
      onExited={() => {
        form.reset(packageEditForm(pkg));
        clearErrors();
      }}
      animation={animation}
      data-testid="edit-package-dialog"
    >
      <TextField form={form} idPrefix="package-" name="name" label={PACKAGE_LABELS.name} />
      <Form.Group className="mb-3" controlId="package-limitBackupSizePerMachine">
        <Form.Check
          type="checkbox"
          label={TEXT.limitPerMachine}
          checked={limited}
          onChange={(event) => form.reset(onPerMachineLimitToggled(form.getValues(), event.target.checked))}
        />
      </Form.Group>
      {limited && (
        <TextField
          form={form}
          idPrefix="package-"
          name="maxBackupSizePerMachine"
          type="number"
          label={`${PACKAGE_LABELS.maxBackupSizePerMachine} (MB)`}
        />
      )}
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}
