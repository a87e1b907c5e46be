import { confirmDeleteUser, fullName, MESSAGES, type UserRow } from '@portal/domain';
import { ConfirmDialog, useDialogSubmit } from '../../ui';
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
export function DeleteUserDialog({ show, user, onHide, onDeleted, animation }: DeleteUserDialogProps) {
  const submission = useDialogSubmit({
    mutation: useDeleteUser(),
    successText: TEXT.deleted,
    partialText: TEXT.deletedWithErrors,
    unknownErrorText: TEXT.unknownWhileDeleting,
  });
  return (
    <ConfirmDialog
      show={show}
      onHide={onHide}
      submission={submission}
      title={TEXT.deleteDialogTitle}
      confirmLabel={TEXT.deleteSubmit}
      onConfirm={async () => {
        const outcome = await submission.submit(user.id);
        if (outcome.applied) onDeleted();
      }}
      animation={animation}
      data-testid="delete-user-dialog"
    >
      <p className="mb-0">{confirmDeleteUser(fullName(user))}</p>
    </ConfirmDialog>
  );
}
