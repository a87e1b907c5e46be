import type { UserRow } from '@portal/domain';
import { confirmDeleteUser, fullName, MESSAGES, userPath } from '@portal/domain';
import { call } from '../../app/api';
import { ConfirmDialog, GlobalErrors } from '../../ui';
import { useConfirmedAction } from './useConfirmedAction';

const TEXT = MESSAGES.user;
const TEXTS = { successText: TEXT.deleted, actionText: 'User deleted', unknownErrorText: TEXT.unknownWhileDeleting };

export interface DeleteUserDialogProps {
  show: boolean;
  user: UserRow;
  onHide: () => void;
  /** The server deleted the user (also when it reported problems). */
  onDeleted: () => void;
  animation?: boolean;
}

/** The delete user dialog (001 §2, 002 §2.4): DELETE /admin/account/users/{id} after a confirmation. */
export function DeleteUserDialog({ show, user, onHide, onDeleted, animation }: DeleteUserDialogProps) {
  const action = useConfirmedAction(TEXTS);
  return (
    <ConfirmDialog
      show={show}
      onHide={onHide}
      title={TEXT.deleteDialogTitle}
      confirmLabel={TEXT.deleteSubmit}
      onConfirm={async () => {
        const outcome = await action.run(call<null>('DELETE', userPath(user.id)));
        if (outcome.applied) onDeleted();
      }}
      onExited={action.clear}
      animation={animation}
      data-testid="delete-user-dialog"
    >
      <p className="mb-0">{confirmDeleteUser(fullName(user))}</p>
      <GlobalErrors messages={action.errors} />
    </ConfirmDialog>
  );
}
