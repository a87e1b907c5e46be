import type { MyPackageRequestRow, PackageRequestRow } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn, renderWithToasts } from '../../app/testing';
import { fakeServer, message, ok, paged, reply } from '../users/testing';
import { ApproveRequestDialog } from './ApproveRequestDialog';
import { DeclineRequestDialog } from './DeclineRequestDialog';
import { MyPackageRequestsTable } from './MyPackageRequestsTable';
import { PackageRequestsPage } from './PackageRequestsPage';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const provider = { role: 'ROLE_BOLT_ADMIN_USER' as const, customerId: null };

const signup = (overrides: Partial<PackageRequestRow> = {}): PackageRequestRow => ({
  id: 9,
  requestType: 'NEW_SIGNUP',
  backupPackageName: null,
  requestedBackupPackageName: 'Small',
  customerCompanyName: 'Acme',
  customerUsername: 'owner@acme.test',
  firstApprovalRequest: true,
  approveUrl: '/boltadmin/backuppackagerequests/9/approve',
  declineUrl: '/boltadmin/backuppackagerequests/9/decline',
  availableStorageItemsToLink: {
    storageItemsType: 'STORAGE_ACCOUNT',
    storageItems: [
      { id: 1, name: 'Embedded storage', capacityInBytes: -1 },
      { id: 2, name: 'Archive', capacityInBytes: 5 * 1024 ** 4 },
    ],
  },
  ...overrides,
});

function openApprove(request: PackageRequestRow) {
  const onHide = vi.fn();
  const events = renderWithToasts(
    <ApproveRequestDialog show audience="provider" request={request} onHide={onHide} animation={false} />,
    provider,
  );
  return { events, onHide };
}

describe('PackageRequestsPage', () => {
  it('lists the requests with type, customer, user, package and requested package', async () => {
    fakeServer(({ url }) =>
      url.pathname === '/boltadmin/backuppackagerequestspaginated' ? ok(paged([signup()], url, 5)) : undefined,
    );
    renderSignedIn(<PackageRequestsPage audience="provider" />, provider);
    const table = await screen.findByRole('table', { name: 'Backup package requests' });
    await waitFor(() => expect(within(table).getByText('Acme')).toBeInTheDocument());
    expect(within(table).getByText('Acme').closest('tr')).toHaveTextContent('New signupAcmeowner@acme.testSmall');
  });

  it("says 'There are no backup package requests' when there are none", async () => {
    fakeServer(({ url }) => (url.pathname.endsWith('paginated') ? ok(paged([], url, 5)) : undefined));
    renderSignedIn(<PackageRequestsPage audience="reseller" />, { resellerEnabled: true });
    expect(await screen.findByText('There are no backup package requests')).toBeInTheDocument();
  });
});

describe('ApproveRequestDialog', () => {
  it('offers the storage items with their capacity and approves with the chosen one', async () => {
    const server = fakeServer(({ method }) => (method === 'PUT' ? ok(null) : undefined));
    const { events, onHide } = openApprove(signup());
    const select = screen.getByLabelText('Storage item');
    expect(within(select).getByRole('option', { name: 'Embedded storage (Unlimited)' })).toBeInTheDocument();
    expect(within(select).getByRole('option', { name: 'Archive (5 TB)' })).toBeInTheDocument();
    await events.selectOptions(select, '2');
    await events.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Backup package request approved successfully.')).toBeInTheDocument();
    expect(server.to('PUT', '/boltadmin/backuppackagerequests/9/approve')[0]?.body).toEqual({ storageItemId: 2 });
    expect(onHide).toHaveBeenCalled();
  });

  it('requires a storage item, and shows the server messages and the unknown error', async () => {
    let answer = () => reply(400, { messages: [message('storageItemId', 'Storage item is not available')] });
    const server = fakeServer(({ method }) => (method === 'PUT' ? answer() : undefined));
    const { events, onHide } = openApprove(signup());
    await events.selectOptions(screen.getByLabelText('Storage item'), '');
    await events.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Storage item is required', { exact: false })).toBeInTheDocument();
    expect(server.requests).toHaveLength(0);

    await events.selectOptions(screen.getByLabelText('Storage item'), '1');
    await events.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Storage item is not available')).toHaveClass('invalid-feedback');

    answer = () => reply(500, {});
    await events.click(screen.getByRole('button', { name: 'Approve' }));
    expect(
      await screen.findByText('Unkown error encountered while approving backup package request.'),
    ).toBeInTheDocument();
    expect(onHide).not.toHaveBeenCalled();
  });

  it('approves a change request without a storage item', async () => {
    const server = fakeServer(({ method }) => (method === 'PUT' ? ok(null) : undefined));
    const { events } = openApprove(
      signup({ requestType: 'CHANGE_PACKAGE', backupPackageName: 'Office', availableStorageItemsToLink: null }),
    );
    expect(screen.queryByLabelText('Storage item')).not.toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Backup package request approved successfully.')).toBeInTheDocument();
    expect(server.to('PUT', '/boltadmin/backuppackagerequests/9/approve')[0]?.body).toEqual({});
  });
});

describe('DeclineRequestDialog', () => {
  it('asks, declines and toasts; a failure shows the unknown error', async () => {
    let answer = () => reply(500, {});
    const server = fakeServer(({ method }) => (method === 'PUT' ? answer() : undefined));
    const onHide = vi.fn();
    const events = renderWithToasts(
      <DeclineRequestDialog show audience="reseller" request={signup()} onHide={onHide} animation={false} />,
      { resellerEnabled: true },
    );
    expect(screen.getByText('Are you sure you want to decline this backup package request?')).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Decline' }));
    expect(
      await screen.findByText('Unkown error encountered while declining backup package request.'),
    ).toBeInTheDocument();
    answer = () => ok(null);
    await events.click(screen.getByRole('button', { name: 'Decline' }));
    expect(await screen.findByText('Backup package request declined successfully.')).toBeInTheDocument();
    expect(server.to('PUT', '/admin/backuppackagerequests/9/decline')).toHaveLength(2);
    expect(onHide).toHaveBeenCalledTimes(1);
  });
});

describe('MyPackageRequestsTable', () => {
  it("shows the customer's own requests with their status", async () => {
    const row: MyPackageRequestRow = {
      id: 3,
      requestType: 'CHANGE_PACKAGE',
      status: 'PENDING',
      backupPackageName: 'Office',
      requestedBackupPackageName: 'Large',
      createdAt: '2026-01-02T10:00:00.000Z',
      decidedAt: null,
    };
    fakeServer(({ url }) =>
      url.pathname === '/admin/account/backuppackagerequestspaginated' ? ok(paged([row], url, 5)) : undefined,
    );
    renderSignedIn(<MyPackageRequestsTable />, { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' });
    const table = await screen.findByRole('table', { name: 'My backup package requests' });
    await waitFor(() => expect(within(table).getByText('Office')).toBeInTheDocument());
    expect(within(table).getByText('Office').closest('tr')).toHaveTextContent('Change packageOfficeLargePending');
  });
});
