import {
  MESSAGE_ROUTING,
  MESSAGES,
  OUTCOME_TEXTS,
  onPerMachineLimitToggled,
  PACKAGE_LABELS,
  type PackageEditForm,
  type PackageRow,
  packageEditForm,
  packageEditSchema,
  packageQuotaInMb,
} from '@portal/domain';
import Form from 'react-bootstrap/Form';
import { type DialogProps, FormDialog, TextField, useFormDialog } from '../../ui';
import { useEditPackage } from './mutations';

const TEXT = MESSAGES.packagePages;

export interface PackageDialogProps extends DialogProps {
  pkg: PackageRow;
}

/**
 * Edit backup package (000 §5): the name, and 'Limit backup size per machine?': on, the limit (MB, at least
 * 10 and at most the quota) is required; off, the quota is sent. Turning it on starts from 10 MB.
 */
export function EditPackageDialog({ pkg, ...shown }: PackageDialogProps) {
  const { form, field, dialog } = useFormDialog({
    ...shown,
    schema: packageEditSchema(packageQuotaInMb(pkg.packageQuotaSizeInBytes)),
    defaults: (): PackageEditForm => packageEditForm(pkg),
    mutation: useEditPackage(),
    variables: (payload) => ({ packageId: pkg.id, payload }),
    fieldNames: ['name', 'maxBackupSizePerMachine'],
    routing: MESSAGE_ROUTING.packageEdit,
    idPrefix: 'package-',
    ...OUTCOME_TEXTS.package.edit,
  });
  const limited = form.watch('limitBackupSizePerMachine') !== false;
  return (
    <FormDialog dialog={dialog} title={TEXT.editTitle} submitLabel={TEXT.save} data-testid="edit-package-dialog">
      <TextField {...field} name="name" label={PACKAGE_LABELS.name} />
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
          {...field}
          name="maxBackupSizePerMachine"
          type="number"
          label={`${PACKAGE_LABELS.maxBackupSizePerMachine} (MB)`}
        />
      )}
    </FormDialog>
  );
}
