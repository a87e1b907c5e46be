import { MESSAGES } from '@portal/domain';
import { ConfirmByNameDialog, useDialogAction } from '../../ui';
import type { AdminPackageDialogProps } from './ChangePackageStatusDialog';
import { useDeletePackage } from './mutations';

const TEXT = MESSAGES.packagePages;

/**
 * Delete backup package (000 §4, §5): offered only for a SUSPENDED package, confirmed by typing its exact
 * name. Its machines' data is removed in the background ('Backup package is being deleted'); `onDeleted`
 * leaves the page.
 */
export function DeletePackageDialog({
  pkg,
  target,
  onDeleted,
  ...dialog
}: AdminPackageDialogProps & { onDeleted: () => void }) {
  const action = useDialogAction({
    mutation: useDeletePackage(),
    variables: () => target,
    onHide: dialog.onHide,
    afterClose: onDeleted,
    successText: MESSAGES.backupPackage.beingDeleted,
    partialText: MESSAGES.backupPackage.beingDeletedWithErrors,
    unknownErrorText: MESSAGES.backupPackage.unknownWhileDeleting,
  });
  return (
    <ConfirmByNameDialog
      {...dialog}
      {...action}
      title={TEXT.deleteTitle}
      before={<p>{TEXT.deleteWarning}</p>}
      prompt={TEXT.typeNameToConfirm}
      expectedName={pkg.name}
      mismatchMessage={MESSAGES.confirmByName.packageDeletion}
      confirmLabel={TEXT.delete}
      data-testid="delete-package-dialog"
    />
  );
}
