import { MESSAGES, OUTCOME_TEXTS } from '@portal/domain';
import { ConfirmByNameActionDialog } from '../../ui';
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
  const mutation = useDeletePackage();
  return (
    <ConfirmByNameActionDialog
      {...dialog}
      action={{ mutation, variables: () => target, afterClose: onDeleted, ...OUTCOME_TEXTS.package.delete }}
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
