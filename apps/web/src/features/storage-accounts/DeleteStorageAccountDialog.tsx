import { confirmDeleteStorageAccount, MESSAGES, OUTCOME_TEXTS, type StorageAccountDetail } from '@portal/domain';
import { ConfirmActionDialog, type DialogProps } from '../../ui';
import { useDeleteStorageAccount } from './mutations';

const PAGE = MESSAGES.storageAccountPages;

export interface DeleteStorageAccountDialogProps extends DialogProps {
  account: StorageAccountDetail;
  /** The server deleted the account: leave its page. */
  onDeleted: () => void;
}

/** Delete a storage account (ours): the server refuses the default and one still holding backups. */
export function DeleteStorageAccountDialog({ account, onDeleted, ...dialog }: DeleteStorageAccountDialogProps) {
  const mutation = useDeleteStorageAccount();
  return (
    <ConfirmActionDialog
      {...dialog}
      action={{
        mutation,
        variables: () => account.id,
        onOutcome: (outcome) => outcome.applied && onDeleted(),
        ...OUTCOME_TEXTS.storageAccount.remove,
      }}
      title={PAGE.remove}
      confirmLabel={PAGE.remove}
      data-testid="delete-storage-account-dialog"
    >
      <p className="mb-0">{confirmDeleteStorageAccount(account.name)}</p>
    </ConfirmActionDialog>
  );
}
