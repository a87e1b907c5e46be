import {
  MESSAGES,
  PAGES,
  STORAGE_ACCOUNT_LABELS,
  STORAGE_ACCOUNT_TYPE_TEXTS,
  STORAGE_USER_API_TEXTS,
  type StorageAccountDetail,
} from '@portal/domain';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useNavigate } from 'react-router';
import { ByPathId, DetailTable, Section, StatusBadge } from '../../ui';
import { DetailPage } from '../../ui/DetailPage';
import { MigrateStorageAccountButton } from '../migrations/MigrateStorageAccountDialog';
import { AccessKeysTable } from './AccessKeysTable';
import { BucketsTable } from './BucketsTable';
import { yesNo } from './credentials';
import { DeleteStorageAccountDialog } from './DeleteStorageAccountDialog';
import { useStorageAccount, useStorageAccountChoices } from './queries';
import { StorageAccountDialog } from './StorageAccountDialog';
import { StorageUsersTable } from './StorageUsersTable';
import { useSetAsDefault } from './useSetAsDefault';

const TEXT = MESSAGES.storageAccount;
const PAGE = MESSAGES.storageAccountPages;
const L = STORAGE_ACCOUNT_LABELS;

function AccountDetails({ account }: { account: StorageAccountDetail }) {
  return (
    <DetailTable
      aria-label={PAGE.detailsTitle}
      data-testid="storage-account-details"
      rows={[
        {
          label: L.name,
          value: (
            <>
              {account.name}{' '}
              {account.defaultStorageAccount && (
                <StatusBadge status="DEFAULT" label={TEXT.defaultBadge} variant="primary" />
              )}
            </>
          ),
        },
        { label: L.defaultStorageAccount, value: yesNo(account.defaultStorageAccount) },
        { label: L.type, value: STORAGE_ACCOUNT_TYPE_TEXTS[account.type] },
        account.type === 'S3' && { label: L.endpoint, value: account.endpoint },
        account.type === 'S3' && {
          label: L.userApi,
          value: account.userApi && STORAGE_USER_API_TEXTS[account.userApi],
        },
        { label: L.objectLock, value: yesNo(account.requireObjectLock) },
      ]}
    />
  );
}

/** /boltadmin/storageaccounts/{id} (001 §2): the account's details, buckets, users and access keys. */
export function StorageAccountPage() {
  return <ByPathId param="storageAccountId">{(id) => <AccountScreen storageAccountId={id} />}</ByPathId>;
}

function AccountScreen({ storageAccountId }: { storageAccountId: number }) {
  const query = useStorageAccount(storageAccountId);
  const choices = useStorageAccountChoices();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<'edit' | 'delete' | null>(null);
  const setAsDefault = useSetAsDefault();
  return (
    <DetailPage
      query={query}
      title={query.data?.name ?? PAGE.detailsTitle}
      breadcrumbs={[
        { label: 'Admin Area', href: '/boltadmin' },
        { label: PAGE.title, href: PAGES.providerStorageAccounts },
        { label: query.data?.name ?? '' },
      ]}
      actions={(account) => (
        <>
          {!account.defaultStorageAccount && (
            <Button
              variant="outline-primary"
              disabled={setAsDefault.pending}
              onClick={() => void setAsDefault.run(account.id)}
            >
              {PAGE.setDefault}
            </Button>
          )}
          <Button variant="outline-primary" onClick={() => setDialog('edit')}>
            {PAGE.edit}
          </Button>
          {!account.defaultStorageAccount && (
            <Button variant="outline-danger" onClick={() => setDialog('delete')}>
              {PAGE.remove}
            </Button>
          )}
          <MigrateStorageAccountButton
            storageAccountId={account.id}
            accounts={(choices.data ?? []).filter((other) => other.id !== account.id)}
          />
        </>
      )}
    >
      {(account) => (
        <>
          <Section title={PAGE.detailsTitle}>
            <AccountDetails account={account} />
          </Section>
          <Section title={PAGE.bucketsTitle}>
            <BucketsTable storageAccountId={account.id} />
          </Section>
          <Section title={PAGE.usersTitle}>
            <StorageUsersTable storageAccountId={account.id} />
          </Section>
          <Section title={PAGE.accessKeysTitle}>
            <AccessKeysTable storageAccountId={account.id} />
          </Section>
          <StorageAccountDialog show={dialog === 'edit'} account={account} onHide={() => setDialog(null)} />
          <DeleteStorageAccountDialog
            show={dialog === 'delete'}
            account={account}
            onHide={() => setDialog(null)}
            onDeleted={() => navigate(PAGES.providerStorageAccounts)}
          />
        </>
      )}
    </DetailPage>
  );
}
