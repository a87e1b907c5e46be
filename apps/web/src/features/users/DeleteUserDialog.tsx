import { confirmDeleteUser, fullName, MESSAGES, type UserRow } from '@portal/domain';
import { ConfirmDialog, useDialogAction } from '../../ui';
import { useDeleteUser } from './mutations';

const TEXT = MESSAGES.user;

export interface DeleteUserDialogProps {
  show: boolean;
  user: UserRow;
  onHide: () => void;
  /** The server deleted the user (also when it reported problems): leave the page. */
  onDeleted: () => void;
  animation?: boolean;
}

/** The delete user dialog (001 §2, 002 §2.4): DELETE /admin/account/users/{id} after a confirmation. */
export function DeleteUserDialog({ user, onDeleted, ...dialog }: DeleteUserDialogProps) {
  const action = useDialogAction({
    mutation: useDeleteUser(),
    variables: () => user.id,
    onHide: dialog.onHide,
    onOutcome: (outcome) => outcome.applied && onDeleted(),
    successText: TEXT.deleted,
    partialText: TEXT.deletedWithErrors,
    unknownErrorText: TEXT.unknownWhileDeleting,
  });
  return (
    <ConfirmDialog
      {...dialog}
      {...action}
      title={TEXT.deleteDialogTitle}
      confirmLabel={TEXT.deleteSubmit}
      data-testid="delete-user-dialog"
    >
      <p className="mb-0">{confirmDeleteUser(fullName(user))}</p>
    </ConfirmDialog>
  );
}
