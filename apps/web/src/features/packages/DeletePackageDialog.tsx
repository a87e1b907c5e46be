import { MESSAGES } from '@portal/domain';
import { ConfirmByNameDialog, useDialogSubmit } from '../../ui';
import type { AdminPackageDialogProps } from './ChangePackageStatusDialog';
import { useDeletePackage } from './mutations';

const TEXT = MESSAGES.packagePages;

/**
 * Delete backup package (000 §4, §5): offered only for a SUSPENDED package, confirmed by typing its exact
 * name. Its machines' data is removed in the background ('Backup package is being deleted'); `onDeleted`
 * leaves the page.
 */
export function DeletePackageDialog({
  show,
  onHide,
  pkg,
  target,
  animation,
  onDeleted,
}: AdminPackageDialogProps & { onDeleted: () => void }) {
  const submission = useDialogSubmit({
    mutation: useDeletePackage(),
    successText: MESSAGES.backupPackage.beingDeleted,
    partialText: MESSAGES.backupPackage.beingDeletedWithErrors,
    unknownErrorText: MESSAGES.backupPackage.unknownWhileDeleting,
  });
  const confirm = async () => {
    const outcome = await submission.submit(target);
    if (outcome.close) {
      onHide();
      onDeleted();
    }
  };
  return (
    <ConfirmByNameDialog
      show={show}
      onHide={onHide}
      submission={submission}
      title={TEXT.deleteTitle}
      before={<p>{TEXT.deleteWarning}</p>}
      prompt={TEXT.typeNameToConfirm}
      expectedName={pkg.name}
      mismatchMessage={MESSAGES.confirmByName.packageDeletion}
      confirmLabel={TEXT.delete}
      onConfirm={confirm}
      animation={animation}
      data-testid="delete-package-dialog"
    />
  );
}
