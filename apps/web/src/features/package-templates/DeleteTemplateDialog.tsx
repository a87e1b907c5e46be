import { type AdminAudience, confirmDeletePackageTemplate, MESSAGES, type PackageTemplateRow } from '@portal/domain';
import { ConfirmDialog, useDialogAction } from '../../ui';
import { useDeleteTemplate } from './mutations';

const TEXT = MESSAGES.packageTemplate;

export interface DeleteTemplateDialogProps {
  show: boolean;
  audience: AdminAudience;
  template: PackageTemplateRow;
  onHide: () => void;
  animation?: boolean;
}

/** Delete package template after the question of 000 §8; a template in use stays, with the server's message. */
export function DeleteTemplateDialog({ audience, template, ...dialog }: DeleteTemplateDialogProps) {
  const action = useDialogAction({
    mutation: useDeleteTemplate(audience),
    variables: () => template.id,
    onHide: dialog.onHide,
    successText: TEXT.deleted,
    partialText: TEXT.deletedWithErrors,
    unknownErrorText: TEXT.unknownWhileDeleting,
  });
  return (
    <ConfirmDialog
      {...dialog}
      {...action}
      title={TEXT.deleteTitle}
      confirmLabel={TEXT.deleteSubmit}
      data-testid="delete-template-dialog"
    >
      <p className="mb-0">{confirmDeletePackageTemplate(template.name)}</p>
    </ConfirmDialog>
  );
}
