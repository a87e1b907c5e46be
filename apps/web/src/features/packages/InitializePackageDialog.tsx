import {
  MESSAGE_ROUTING,
  MESSAGES,
  OUTCOME_TEXTS,
  PACKAGE_LABELS,
  type PackageInitializePayload,
  packageInitializeSchema,
} from '@portal/domain';
import { FormDialog, TextField, useFormDialog } from '../../ui';
import type { PackageDialogProps } from './EditPackageDialog';
import { useInitializePackage } from './mutations';

const TEXT = MESSAGES.packagePages;

/** Initialize an APPROVED package (000 §4): its owner names it, and it becomes ACTIVE. */
export function InitializePackageDialog({ pkg, ...shown }: PackageDialogProps) {
  const { field, dialog } = useFormDialog({
    ...shown,
    schema: packageInitializeSchema,
    defaults: (): PackageInitializePayload => ({ name: pkg.name }),
    mutation: useInitializePackage(),
    variables: ({ name }) => ({ packageId: pkg.id, name }),
    fieldNames: ['name'],
    routing: MESSAGE_ROUTING.packageEdit,
    idPrefix: 'initialize-',
    ...OUTCOME_TEXTS.package.initialize,
  });
  return (
    <FormDialog
      dialog={dialog}
      title={TEXT.initializeTitle}
      submitLabel={TEXT.initialize}
      data-testid="initialize-package-dialog"
    >
      <TextField {...field} name="name" label={PACKAGE_LABELS.name} />
    </FormDialog>
  );
}
