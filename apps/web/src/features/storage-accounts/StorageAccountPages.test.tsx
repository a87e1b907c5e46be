import {
  type BucketWithPolicyInfo,
  MESSAGES,
  type PolicyPrincipal,
  type StorageAccountDetail,
  type StorageAccountRow,
  type StorageAccountUserRow,
} from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../customers/testing';
import { fakeServer, ok, paged, reply } from '../users/testing';
import { StorageAccountPage } from './StorageAccountPage';
import { StorageAccountsPage } from './StorageAccountsPage';

const TEXT = MESSAGES.storageAccount;
const PAGE = MESSAGES.storageAccountPages;

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const account = (overrides: Partial<StorageAccountRow> = {}): StorageAccountRow => ({
  id: 1,
  name: 'Embedded storage',
  defaultStorageAccount: true,
  type: 'LOCAL',
  ...overrides,
});

const detail = (overrides: Partial<StorageAccountDetail> = {}): StorageAccountDetail => ({
  ...account(),
  endpoint: null,
  iamEndpoint: null,
  region: null,
  forcePathStyle: false,
  userApi: null,
  accessKeyId: null,
  secretSet: false,
  requireObjectLock: false,
  ...overrides,
});

const principal = (name: string): PolicyPrincipal => ({
  name,
  managed: true,
  storageCredentials: { type: 'STORAGE_LOCATION' },
  entityExists: true,
  entityType: 'CUSTOMER',
  linkedEntityId: 7,
  backupTaskActionType: null,
  backupTaskActionStatus: null,
});

const bucket = (name: string, overrides: Partial<BucketWithPolicyInfo> = {}): BucketWithPolicyInfo => ({
  bucket: { name, managed: true, customerId: 7 },
  bucketPolicy: '{"Version":"2012-10-17","Statement":[]}',
  policyContainsInconsistencies: false,
  policyDifferences: [],
  bucketPolicyPrincipals: [principal(`user-of-${name}`)],
  ...overrides,
});

describe('StorageAccountsPage (001 §2)', () => {
  it('shows the Default badge, offers Set as default on the others only and toasts the outcome', async () => {
    let fail = false;
    const server = fakeServer(({ url }) => {
      if (url.pathname === '/boltadmin/storageaccountspaginated')
        return ok(
          paged([account(), account({ id: 2, name: 'Ceph', defaultStorageAccount: false, type: 'S3' })], url, 5),
        );
      if (url.pathname === '/boltadmin/storageaccounts/setDefaultStorageAccount')
        return fail ? reply(500, {}) : ok(account({ id: 2, name: 'Ceph' }));
      return undefined;
    });
    const events = renderAt('/boltadmin/storageaccounts', '/boltadmin/storageaccounts', <StorageAccountsPage />);
    const table = await screen.findByRole('table', { name: PAGE.title });
    const ceph = await within(table).findByRole('row', { name: /Ceph/ });
    const embedded = within(table).getByRole('row', { name: /Embedded storage/ });
    expect(within(embedded).getByTestId('status-badge')).toHaveTextContent(TEXT.defaultBadge);
    expect(within(embedded).queryByRole('button', { name: PAGE.setDefault })).toBeNull();
    expect(within(ceph).queryByTestId('status-badge')).toBeNull();
    expect(within(ceph).getByRole('link', { name: `${PAGE.view} Ceph` })).toHaveAttribute(
      'href',
      '/boltadmin/storageaccounts/2',
    );
    expect(server.to('GET', '/boltadmin/storageaccountspaginated')[0]?.url.searchParams.get('size')).toBe('5');

    await events.click(within(ceph).getByRole('button', { name: PAGE.setDefault }));
    expect(await screen.findByText(TEXT.defaultUpdated)).toBeInTheDocument();
    expect(server.to('GET', '/boltadmin/storageaccounts/setDefaultStorageAccount')[0]?.url.search).toBe(
      '?storageAccountId=2',
    );
    fail = true;
    await events.click(within(ceph).getByRole('button', { name: PAGE.setDefault }));
    expect(await screen.findByText(MESSAGES.communicationError)).toBeInTheDocument();
  });

  it("says 'There are no storage accounts' when there are none", async () => {
    fakeServer(({ url }) =>
      url.pathname === '/boltadmin/storageaccountspaginated' ? ok(paged([], url, 5)) : undefined,
    );
    renderAt('/boltadmin/storageaccounts', '/boltadmin/storageaccounts', <StorageAccountsPage />);
    expect(await screen.findByText(TEXT.empty)).toBeInTheDocument();
  });
});

describe('StorageAccountPage (001 §2)', () => {
  const users: StorageAccountUserRow[] = [
    {
      name: 'leftover',
      managed: false,
      storageCredentials: { keyId: 'KEY1', type: null, storageLocation: null },
      deleteable: true,
    },
  ];
  const buckets = [
    ...Array.from({ length: 11 }, (_, i) => bucket(`b${String(i).padStart(2, '0')}`)),
    bucket('found', {
      bucket: { name: 'found', managed: false, customerId: null },
      bucketPolicy: null,
      policyContainsInconsistencies: true,
      policyDifferences: ['Bucket not found at the service'],
      bucketPolicyPrincipals: [],
    }),
  ];

  function serve() {
    return fakeServer(({ method, url }) => {
      const base = '/boltadmin/storageaccounts/1';
      if (url.pathname === base) return ok(detail());
      if (url.pathname === `${base}/bucketswithpolicyinfo`) return ok({ elements: buckets });
      if (url.pathname === `${base}/users`) return ok({ elements: users });
      if (url.pathname === `${base}/accesskeys`) return ok({ elements: [] });
      if (method === 'PUT' && url.pathname === `${base}/deleteuser`) return ok(null);
      return undefined;
    });
  }
  const open = () =>
    renderAt('/boltadmin/storageaccounts/:storageAccountId', '/boltadmin/storageaccounts/1', <StorageAccountPage />);

  it('shows the details, the Migrate button, and the buckets 10 a page with their filters and actions', async () => {
    serve();
    const events = open();
    const details = await screen.findByTestId('storage-account-details');
    expect(within(details).getByRole('row', { name: /Default Storage Account/ })).toHaveTextContent(PAGE.yes);
    expect(screen.getByRole('button', { name: TEXT.migrateButton })).toBeInTheDocument();

    const table = await screen.findByRole('table', { name: PAGE.bucketsTitle });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(11));
    expect(within(screen.getByTestId('storage-buckets')).getByTestId('paging-text')).toBeInTheDocument();
    const first = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(within(first).getByRole('link', { name: `${PAGE.manageCustomer} b00` })).toHaveAttribute(
      'href',
      '/boltadmin/customers/7',
    );

    await events.click(screen.getByLabelText(TEXT.showOnlyPolicyInconsistent));
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(2);
    // Found at the service only: no customer to manage, no policy to manage.
    expect(within(rows[1] as HTMLElement).queryByRole('link')).toBeNull();
    expect(within(rows[1] as HTMLElement).queryByRole('button')).toBeNull();
    await events.click(screen.getByLabelText(TEXT.showOnlyManaged));
    expect(await within(table).findByText(TEXT.noBuckets)).toBeInTheDocument();
  });

  it('opens Manage policy titled with the bucket, with its principals and the raw policy pretty-printed', async () => {
    serve();
    const events = open();
    await events.click(await screen.findByRole('button', { name: `${PAGE.managePolicy} b00` }));
    const dialog = await screen.findByRole('dialog', { name: 'b00' });
    const principals = within(dialog).getByRole('table', { name: TEXT.managePrincipalsTab });
    expect(within(principals).getByRole('row', { name: /user-of-b00/ })).toHaveTextContent('Customer 7');
    await events.click(within(dialog).getByRole('tab', { name: TEXT.rawPolicyTab }));
    expect(within(dialog).getByTestId('raw-policy').textContent).toBe(
      '{\n  "Version": "2012-10-17",\n  "Statement": []\n}',
    );
  });

  it('deletes a storage user after a confirmation, with the warning-style toast', async () => {
    const server = serve();
    const events = open();
    const usersTable = await screen.findByRole('table', { name: PAGE.usersTitle });
    await events.click(await within(usersTable).findByRole('button', { name: `${PAGE.deleteUser} leftover` }));
    const confirm = await screen.findByRole('dialog', { name: PAGE.deleteUserTitle });
    await events.click(within(confirm).getByRole('button', { name: PAGE.deleteUser }));
    expect(await screen.findByText(TEXT.userDeleted)).toBeInTheDocument();
    expect(server.to('PUT', '/boltadmin/storageaccounts/1/deleteuser')[0]?.body).toEqual({ username: 'leftover' });
    expect(await screen.findByText(TEXT.noAccessKeys)).toBeInTheDocument();
  });

  it('deletes an account that is not the default, then goes back to the list; the default has no Delete', async () => {
    const server = fakeServer(({ method, url }) => {
      if (url.pathname === '/boltadmin/storageaccounts/2')
        return method === 'DELETE' ? ok(null) : ok(detail({ id: 2, name: 'Spare', defaultStorageAccount: false }));
      if (url.pathname.startsWith('/boltadmin/storageaccounts/2/')) return ok({ elements: [] });
      return undefined;
    });
    const events = renderAt(
      '/boltadmin/storageaccounts/:storageAccountId',
      '/boltadmin/storageaccounts/2',
      <StorageAccountPage />,
    );
    await events.click(await screen.findByRole('button', { name: PAGE.remove }));
    const confirm = await screen.findByRole('dialog', { name: PAGE.remove });
    await events.click(within(confirm).getByRole('button', { name: PAGE.remove }));
    expect(await screen.findByText(PAGE.removed)).toBeInTheDocument();
    expect(server.to('DELETE', '/boltadmin/storageaccounts/2')).toHaveLength(1);
    expect(screen.getByTestId('location')).toHaveTextContent('/boltadmin/storageaccounts');
  });

  it('offers no Delete on the default account', async () => {
    serve();
    open();
    await screen.findByTestId('storage-account-details');
    expect(screen.queryByRole('button', { name: PAGE.remove })).toBeNull();
  });
});
