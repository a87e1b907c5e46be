import {
  MESSAGES,
  ROUTES,
  STORAGE_ACCOUNT_LABELS,
  STORAGE_ACCOUNT_PAGE_SIZES,
  STORAGE_ACCOUNT_TYPE_TEXTS,
  type StorageAccountRow,
  storageAccountUrl,
} from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { routeCall } from '../../app/api';
import { type DataTableColumn, Page, PagedTable, RowLink, StatusBadge } from '../../ui';
import { storageAccountKeys } from './queries';
import { StorageAccountDialog } from './StorageAccountDialog';
import { useSetAsDefault } from './useSetAsDefault';

const TEXT = MESSAGES.storageAccount;
const PAGE = MESSAGES.storageAccountPages;
const L = STORAGE_ACCOUNT_LABELS;

/** /boltadmin/storageaccounts (001 §2): the paged table (5), the Default badge, Set as default and View. */
export function StorageAccountsPage() {
  const [adding, setAdding] = useState(false);
  const setAsDefault = useSetAsDefault();
  const columns: Array<DataTableColumn<StorageAccountRow>> = [
    {
      key: 'name',
      header: L.name,
      render: (a) => (
        <>
          {a.name}{' '}
          {a.defaultStorageAccount && <StatusBadge status="DEFAULT" label={TEXT.defaultBadge} variant="primary" />}
        </>
      ),
    },
    { key: 'type', header: L.type, render: (a) => STORAGE_ACCOUNT_TYPE_TEXTS[a.type] },
    {
      key: 'actions',
      header: L.actions,
      render: (a) => (
        <div className="d-flex gap-2">
          {!a.defaultStorageAccount && (
            <Button
              size="sm"
              variant="outline-primary"
              disabled={setAsDefault.pending}
              onClick={() => void setAsDefault.run(a.id)}
            >
              {PAGE.setDefault}
            </Button>
          )}
          <RowLink to={storageAccountUrl(a.id)} label={PAGE.view} name={a.name} />
        </div>
      ),
    },
  ];
  return (
    <Page
      title={PAGE.title}
      breadcrumbs={[{ label: 'Admin Area', href: '/boltadmin' }, { label: PAGE.title }]}
      actions={
        <Button variant="primary" onClick={() => setAdding(true)} data-testid="add-storage-account">
          {PAGE.add}
        </Button>
      }
    >
      <PagedTable
        queryKey={storageAccountKeys.list()}
        call={routeCall(ROUTES.storageAccounts.list, {})}
        size={STORAGE_ACCOUNT_PAGE_SIZES.accounts}
        columns={columns}
        rowKey={(a) => a.id}
        emptyText={TEXT.empty}
        aria-label={PAGE.title}
        data-testid="storage-accounts"
      />
      <StorageAccountDialog show={adding} onHide={() => setAdding(false)} />
    </Page>
  );
}
