import { type AdminAudience, confirmDeletePackageTemplate, MESSAGES, type PackageTemplateRow } from '@portal/domain';
import { ConfirmDialog, useDialogSubmit } from '../../ui';
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
export function DeleteTemplateDialog({ show, audience, template, onHide, animation }: DeleteTemplateDialogProps) {
  const submission = useDialogSubmit({
    mutation: useDeleteTemplate(audience),
    successText: TEXT.deleted,
    partialText: TEXT.deletedWithErrors,
    unknownErrorText: TEXT.unknownWhileDeleting,
  });
  return (
    <ConfirmDialog
      show={show}
      onHide={onHide}
      submission={submission}
      title={TEXT.deleteTitle}
      confirmLabel={TEXT.deleteSubmit}
      variant="danger"
      onConfirm={async () => {
        const outcome = await submission.submit(template.id);
        if (outcome.close) onHide();
      }}
      animation={animation}
      data-testid="delete-template-dialog"
    >
      <p className="mb-0">{confirmDeletePackageTemplate(template.name)}</p>
    </ConfirmDialog>
  );
}
