import { zodResolver } from '@hookform/resolvers/zod';
import {
  type AdminAudience,
  MESSAGE_ROUTING,
  MESSAGES,
  PACKAGE_TEMPLATE_LABELS,
  type PackageTemplateEditPayload,
  type PackageTemplateRow,
  packageTemplateEditSchema,
} from '@portal/domain';
import { useForm } from 'react-hook-form';
import { FormModal, GlobalErrors, TextField, useDialogSubmit, useOnOpen } from '../../ui';
import { useRenameTemplate } from './mutations';

const TEXT = MESSAGES.packageTemplate;

export interface EditTemplateDialogProps {
  show: boolean;
  audience: AdminAudience;
  template: PackageTemplateRow;
  onHide: () => void;
  animation?: boolean;
}

/** Edit package template: the name only (000 §5). Not dismissable while submitting. */
export function EditTemplateDialog({ show, audience, template, onHide, animation }: EditTemplateDialogProps) {
  const form = useForm<PackageTemplateEditPayload>({
    resolver: zodResolver(packageTemplateEditSchema),
    defaultValues: { name: template.name },
  });
  const { isSubmitting } = form.formState;
  useOnOpen(show, () => form.reset({ name: template.name }));
  const { submit, globalErrors, clearErrors } = useDialogSubmit({
    mutation: useRenameTemplate(audience),
    successText: TEXT.updated,
    partialText: TEXT.editedWithErrors,
    unknownErrorText: TEXT.unknownWhileEditing,
    form: {
      setError: form.setError,
      fieldNames: ['name'],
      globalFieldNames: MESSAGE_ROUTING.packageTemplateEdit.globalFieldNames,
    },
  });
  const save = form.handleSubmit(async (payload) => {
    const outcome = await submit({ templateId: template.id, payload });
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
      <GlobalErrors messages={globalErrors} />
    </FormModal>
  );
}
