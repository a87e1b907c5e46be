import {
  type AdminAudience,
  MESSAGE_ROUTING,
  MESSAGES,
  PACKAGE_TEMPLATE_LABELS,
  type PackageTemplateEditForm,
  type PackageTemplateRow,
  packageTemplateEditSchema,
} from '@portal/domain';
import { FormDialog, TextField, useFormDialog } from '../../ui';
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
    successText: TEXT.updated,
    partialText: TEXT.editedWithErrors,
    unknownErrorText: TEXT.unknownWhileEditing,
  });
  return (
    <FormDialog dialog={dialog} title={TEXT.editTitle} submitLabel={TEXT.editSubmit} data-testid="edit-template-dialog">
      <TextField {...field} name="name" label={PACKAGE_TEMPLATE_LABELS.name} autoComplete="off" />
      {audience === 'provider' && <ResellersOnlyField {...field} />}
    </FormDialog>
  );
}
