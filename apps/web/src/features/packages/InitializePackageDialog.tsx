import { zodResolver } from '@hookform/resolvers/zod';
import {
  MESSAGE_ROUTING,
  MESSAGES,
  PACKAGE_LABELS,
  type PackageInitializePayload,
  packageInitializeSchema,
} from '@portal/domain';
import { type Resolver, useForm } from 'react-hook-form';
import { FormModal, GlobalErrors, TextField, useDialogSubmit, useOnOpen } from '../../ui';
import type { PackageDialogProps } from './EditPackageDialog';
import { useInitializePackage } from './mutations';

const TEXT = MESSAGES.packagePages;

/** Initialize an APPROVED package (000 §4): its owner names it, and it becomes ACTIVE. */
export function InitializePackageDialog({ show, onHide, pkg, animation }: PackageDialogProps) {
  const form = useForm<PackageInitializePayload>({
    resolver: zodResolver(packageInitializeSchema) as unknown as Resolver<PackageInitializePayload>,
    defaultValues: { name: pkg.name },
  });
  useOnOpen(show, () => form.reset({ name: pkg.name }));
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useInitializePackage(),
    successText: TEXT.initialized,
    partialText: MESSAGES.backupPackage.editedWithErrors,
    unknownErrorText: TEXT.unknownWhileInitializing,
    form: {
      setError: form.setError,
      fieldNames: ['name'],
      globalFieldNames: MESSAGE_ROUTING.packageEdit.globalFieldNames,
    },
  });
  const save = form.handleSubmit(async (values) => {
    const outcome = await submit({ packageId: pkg.id, name: values.name });
    if (outcome.close) onHide();
  });
  return (
    <FormModal
      show={show}
      title={TEXT.initializeTitle}
      onHide={onHide}
      onSubmit={save}
      submitting={form.formState.isSubmitting}
      submitLabel={TEXT.initialize}
      onExited={() => clearErrors()}
      animation={animation}
      data-testid="initialize-package-dialog"
    >
      <TextField form={form} idPrefix="initialize-" name="name" label={PACKAGE_LABELS.name} />
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}
