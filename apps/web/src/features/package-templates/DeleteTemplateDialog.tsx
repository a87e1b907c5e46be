import {
  type AdminAudience,
  confirmDeletePackageTemplate,
  MESSAGES,
  OUTCOME_TEXTS,
  type PackageTemplateRow,
} from '@portal/domain';
import { ConfirmActionDialog, type DialogProps } from '../../ui';
import { useDeleteTemplate } from './mutations';

const TEXT = MESSAGES.packageTemplate;

export interface DeleteTemplateDialogProps extends DialogProps {
  audience: AdminAudience;
  template: PackageTemplateRow;
}

/** Delete package template after the question of 000 §8; a template in use stays, with the server's message. */
export function DeleteTemplateDialog({ audience, template, ...dialog }: DeleteTemplateDialogProps) {
  const mutation = useDeleteTemplate(audience);
  return (
    <ConfirmActionDialog
      {...dialog}
      action={{ mutation, variables: () => template.id, ...OUTCOME_TEXTS.packageTemplate.delete }}
      title={TEXT.deleteTitle}
      confirmLabel={TEXT.deleteSubmit}
      data-testid="delete-template-dialog"
    >
      <p className="mb-0">{confirmDeletePackageTemplate(template.name)}</p>
    </ConfirmActionDialog>
  );
}
