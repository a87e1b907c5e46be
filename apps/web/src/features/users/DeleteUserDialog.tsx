import { confirmDeleteUser, fullName, MESSAGES, OUTCOME_TEXTS, type UserRow } from '@portal/domain';
import { ConfirmActionDialog, type DialogProps } from '../../ui';
import { useDeleteUser } from './mutations';

const TEXT = MESSAGES.user;

export interface DeleteUserDialogProps extends DialogProps {
  user: UserRow;
  /** The server deleted the user (also when it reported problems): leave the page. */
  onDeleted: () => void;
}

/** The delete user dialog (001 §2, 002 §2.4): DELETE /admin/account/users/{id} after a confirmation. */
export function DeleteUserDialog({ user, onDeleted, ...dialog }: DeleteUserDialogProps) {
  const mutation = useDeleteUser();
  return (
    <ConfirmActionDialog
      {...dialog}
      action={{
        mutation,
        variables: () => user.id,
        onOutcome: (outcome) => outcome.applied && onDeleted(),
        ...OUTCOME_TEXTS.user.delete,
      }}
      title={TEXT.deleteDialogTitle}
      confirmLabel={TEXT.deleteSubmit}
      data-testid="delete-user-dialog"
    >
      <p className="mb-0">{confirmDeleteUser(fullName(user))}</p>
    </ConfirmActionDialog>
  );
}
