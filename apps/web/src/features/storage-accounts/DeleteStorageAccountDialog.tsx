import { confirmDeleteStorageAccount, MESSAGES, type StorageAccountDetail } from '@portal/domain';
import { ConfirmDialog, useDialogSubmit } from '../../ui';
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
export function DeleteStorageAccountDialog({ show, account, onHide, onDeleted }: DeleteStorageAccountDialogProps) {
  const submission = useDialogSubmit({
    mutation: useDeleteStorageAccount(),
    successText: PAGE.removed,
    partialText: PAGE.removedWithErrors,
    unknownErrorText: PAGE.unknownWhileRemoving,
  });
  return (
    <ConfirmDialog
      show={show}
      onHide={onHide}
      title={PAGE.remove}
      confirmLabel={PAGE.remove}
      submission={submission}
      onConfirm={async () => {
        const outcome = await submission.submit(account.id);
        if (outcome.applied) onDeleted();
      }}
      data-testid="delete-storage-account-dialog"
    >
      <p className="mb-0">{confirmDeleteStorageAccount(account.name)}</p>
    </ConfirmDialog>
  );
}
