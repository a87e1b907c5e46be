import { zodResolver } from '@hookform/resolvers/zod';
import {
  type AdminAudience,
  MESSAGE_ROUTING,
  MESSAGES,
  PACKAGE_TEMPLATE_LABELS,
  type PackageTemplateEditForm,
  type PackageTemplateRow,
  packageTemplateEditSchema,
} from '@portal/domain';
import { type Resolver, useForm } from 'react-hook-form';
import { FormModal, GlobalErrors, TextField, useDialogSubmit, useOnOpen } from '../../ui';
import { ResellersOnlyField } from './AddTemplateDialog';
import { useRenameTemplate } from './mutations';

const TEXT = MESSAGES.packageTemplate;

export interface EditTemplateDialogProps {
  show: boolean;
  audience: AdminAudience;
  template: PackageTemplateRow;
  onHide: () => void;
  animation?: boolean;
}

/**
 * Edit package template: the name (000 §5) and, for the provider's, 'For resellers only' (ours; a reseller's form
 * sends only the name). Not dismissable while submitting.
 */
export function EditTemplateDialog({ show, audience, template, onHide, animation }: EditTemplateDialogProps) {
  const values = (): PackageTemplateEditForm =>
    audience === 'provider' ? { name: template.name, resellersOnly: template.resellersOnly } : { name: template.name };
  const form = useForm<PackageTemplateEditForm>({
    resolver: zodResolver(packageTemplateEditSchema) as unknown as Resolver<PackageTemplateEditForm>,
    defaultValues: values(),
  });
  const { isSubmitting } = form.formState;
  useOnOpen(show, () => form.reset(values()));
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useRenameTemplate(audience),
    successText: TEXT.updated,
    partialText: TEXT.editedWithErrors,
    unknownErrorText: TEXT.unknownWhileEditing,
    form: {
      setError: form.setError,
      fieldNames: ['name', 'resellersOnly'],
      globalFieldNames: MESSAGE_ROUTING.packageTemplateEdit.globalFieldNames,
    },
  });
  const save = form.handleSubmit(async (edited) => {
    const outcome = await submit({ templateId: template.id, payload: packageTemplateEditSchema.parse(edited) });
    if (outcome.close) onHide();
  });
  return (
    <FormModal
      show={show}
      title={TEXT.editTitle}
      onHide={onHide}
      onSubmit={save}
      submitting={isSubmitting}
      submitLabel={TEXT.editSubmit}
      onExited={clearErrors}
      animation={animation}
      data-testid="edit-template-dialog"
    >
      <TextField
        form={form}
        idPrefix="edit-template-"
        name="name"
        label={PACKAGE_TEMPLATE_LABELS.name}
        autoComplete="off"
      />
      {audience === 'provider' && <ResellersOnlyField form={form} idPrefix="edit-template-" />}
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}
