import {
  type AdminAudience,
  MESSAGE_ROUTING,
  MESSAGES,
  OUTCOME_TEXTS,
  PACKAGE_TEMPLATE_LABELS,
  type PackageTemplateEditForm,
  type PackageTemplateRow,
  packageTemplateEditSchema,
} from '@portal/domain';
import { type DialogProps, FormDialog, TextField, useFormDialog } from '../../ui';
import { ResellersOnlyField } from './AddTemplateDialog';
import { useRenameTemplate } from './mutations';

const TEXT = MESSAGES.packageTemplate;

export interface EditTemplateDialogProps extends DialogProps {
  audience: AdminAudience;
  template: PackageTemplateRow;
}

/**
 * Edit package template: the name (000 §5) and, for the provider's, 'For resellers only' (ours; a reseller's form
 * sends only the name). Not dismissable while submitting.
 */
export function EditTemplateDialog({ audience, template, ...shown }: EditTemplateDialogProps) {
  const { field, dialog } = useFormDialog({
    ...shown,
    schema: packageTemplateEditSchema,
    defaults: (): PackageTemplateEditForm =>
      audience === 'provider'
        ? { name: template.name, resellersOnly: template.resellersOnly }
        : { name: template.name },
    mutation: useRenameTemplate(audience),
    variables: (payload) => ({ templateId: template.id, payload }),
    fieldNames: ['name', 'resellersOnly'],
    routing: MESSAGE_ROUTING.packageTemplateEdit,
    idPrefix: 'edit-template-',
    ...OUTCOME_TEXTS.packageTemplate.edit,
  });
  return (
    <FormDialog dialog={dialog} title={TEXT.editTitle} submitLabel={TEXT.editSubmit} data-testid="edit-template-dialog">
      <TextField {...field} name="name" label={PACKAGE_TEMPLATE_LABELS.name} autoComplete="off" />
      {audience === 'provider' && <ResellersOnlyField {...field} />}
    </FormDialog>
  );
}
