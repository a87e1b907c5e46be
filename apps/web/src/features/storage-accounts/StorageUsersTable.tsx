import {
  confirmDeleteStorageUser,
  MESSAGES,
  STORAGE_ACCOUNT_LABELS,
  STORAGE_ACCOUNT_PAGE_SIZES,
  type StorageAccountUserRow,
} from '@portal/domain';
import { useState } from 'react';
import { BrowserPagedTable, ConfirmDialog, type DataTableColumn, TooltipButton, useDialogAction } from '../../ui';
import { credentialsColumn, yesNo } from './credentials';
import { useDeleteStorageUser } from './mutations';
import { useStorageUsers } from './queries';

const TEXT = MESSAGES.storageAccount;
const PAGE = MESSAGES.storageAccountPages;
const L = STORAGE_ACCOUNT_LABELS;

/** The account's storage users (001 §2): read once, 10 a page, delete user with a confirmation. */
export function StorageUsersTable({ storageAccountId }: { storageAccountId: number }) {
  const users = useStorageUsers(storageAccountId);
  const [deleting, setDeleting] = useState<StorageAccountUserRow | null>(null);
  const action = useDialogAction({
    mutation: useDeleteStorageUser(storageAccountId),
    variables: () => deleting?.name ?? null,
    onHide: () => setDeleting(null),
    successText: TEXT.userDeleted,
    successToast: 'warning',
    partialText: TEXT.userDeletedWithErrors,
    unknownErrorText: TEXT.unknownWhileDeletingUser,
  });
  const columns: Array<DataTableColumn<StorageAccountUserRow>> = [
    { key: 'name', header: L.name, render: (u) => u.name },
    { key: 'managed', header: L.managed, render: (u) => yesNo(u.managed) },
    credentialsColumn<StorageAccountUserRow>((u) => u.storageCredentials.keyId),
    {
      key: 'actions',
      header: L.actions,
      render: (u) => (
        <TooltipButton
          size="sm"
          variant="outline-danger"
          disabled={!u.deleteable}
          tooltip={u.deleteable ? PAGE.deleteUser : PAGE.userInUse}
          aria-label={`${PAGE.deleteUser} ${u.name}`}
          onClick={() => setDeleting(u)}
        >
          {PAGE.deleteUser}
        </TooltipButton>
      ),
    },
  ];
  return (
    <>
      <BrowserPagedTable<StorageAccountUserRow>
        aria-label={PAGE.usersTitle}
        data-testid="storage-users"
        columns={columns}
        rows={users.data ?? []}
        rowKey={(u) => u.name}
        size={STORAGE_ACCOUNT_PAGE_SIZES.users}
        loading={users.isFetching}
        emptyText={TEXT.noUsers}
      />
      <ConfirmDialog
        show={deleting !== null}
        onHide={() => setDeleting(null)}
        title={PAGE.deleteUserTitle}
        confirmLabel={PAGE.deleteUser}
        {...action}
        data-testid="delete-storage-user-dialog"
      >
        <p className="mb-0">{deleting && confirmDeleteStorageUser(deleting.name)}</p>
      </ConfirmDialog>
    </>
  );
}
