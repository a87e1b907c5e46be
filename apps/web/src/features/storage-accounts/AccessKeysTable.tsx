import { MESSAGES, STORAGE_ACCOUNT_LABELS, STORAGE_ACCOUNT_PAGE_SIZES, type StorageAccessKeyRow } from '@portal/domain';
import { BrowserPagedTable, type DataTableColumn } from '../../ui';
import { credentialsColumn, yesNo } from './credentials';
import { useAccessKeys } from './queries';

const L = STORAGE_ACCOUNT_LABELS;

const COLUMNS: Array<DataTableColumn<StorageAccessKeyRow>> = [
  { key: 'keyId', header: L.keyId, render: (k) => k.keyId },
  { key: 'managed', header: L.managed, render: (k) => yesNo(k.managed) },
  credentialsColumn<StorageAccessKeyRow>((k) => k.storageCredentials.username),
];

/** The account's access keys (001 §2): read once, 10 a page; never a secret. */
export function AccessKeysTable({ storageAccountId }: { storageAccountId: number }) {
  const keys = useAccessKeys(storageAccountId);
  return (
    <BrowserPagedTable<StorageAccessKeyRow>
      aria-label={MESSAGES.storageAccountPages.accessKeysTitle}
      data-testid="storage-access-keys"
      columns={COLUMNS}
      rows={keys.data ?? []}
      rowKey={(k) => k.keyId}
      size={STORAGE_ACCOUNT_PAGE_SIZES.accessKeys}
      loading={keys.isFetching}
      emptyText={MESSAGES.storageAccount.noAccessKeys}
    />
  );
}
