import { confirmDeleteStorageAccount, MESSAGES, type StorageAccountDetail } from '@portal/domain';
import { ConfirmDialog, useDialogAction } from '../../ui';
import { useDeleteStorageAccount } from './mutations';

const PAGE = MESSAGES.storageAccountPages;

export interface DeleteStorageAccountDialogProps {
  show: boolean;
  account: StorageAccountDetail;
  onHide: () => void;
  /** The server deleted the account: leave its page. */
  onDeleted: () => void;
}

/** Delete a storage account (ours): the server refuses the default and one still holding backups. */
export function DeleteStorageAccountDialog({ account, onDeleted, ...dialog }: DeleteStorageAccountDialogProps) {
  const action = useDialogAction({
    mutation: useDeleteStorageAccount(),
    variables: () => account.id,
    onHide: dialog.onHide,
    onOutcome: (outcome) => outcome.applied && onDeleted(),
    successText: PAGE.removed,
    partialText: PAGE.removedWithErrors,
    unknownErrorText: PAGE.unknownWhileRemoving,
  });
  return (
    <ConfirmDialog
      {...dialog}
      {...action}
      title={PAGE.remove}
      confirmLabel={PAGE.remove}
      data-testid="delete-storage-account-dialog"
    >
      <p className="mb-0">{confirmDeleteStorageAccount(account.name)}</p>
    </ConfirmDialog>
  );
}
