import { MESSAGES, type PackageDetail, packageStatusChangeWarning } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchRefreshes } from '../../app/testing';
import { customerKeys } from '../customers/queries';
import { PROVIDER, RESELLER, renderAt } from '../customers/testing';
import { machineRow } from '../machines/testing';
import { fakeServer, ok, paged, reply } from '../users/testing';
import { PackagePage } from './PackagePage';
import { packageDetail, storageOf } from './testing';

const TEXT = MESSAGES.packagePages;

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function setup(pkg: PackageDetail, audience: 'provider' | 'reseller' = 'provider', action = () => ok(null)) {
  const base =
    audience === 'provider'
      ? '/boltadmin/customers/:customerId/backuppackages/:packageId'
      : '/admin/mycustomers/:customerId/backuppackages/:packageId';
  const path = base.replace(':customerId', '7').replace(':packageId', String(pkg.id));
  const server = fakeServer(({ method, url }) => {
    if (method === 'PUT') return action();
    if (url.pathname === path) return ok(pkg);
    if (url.pathname === `/backuppackages/${pkg.id}/storage`) return ok(storageOf(4));
    if (url.pathname === `/backuppackages/${pkg.id}/backupmachines`)
      return ok(paged([machineRow({ id: 9, name: 'Server' })], url));
    return undefined;
  });
  const events = renderAt(
    base,
    path,
    <PackagePage audience={audience} />,
    audience === 'provider' ? PROVIDER : RESELLER,
  );
  return { server, events };
}

describe('PackagePage', () => {
  it('shows the details, the usage bar and the package’s machines', async () => {
    setup(packageDetail({ id: 21, name: 'Office' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Office' })).toBeInTheDocument();
    const details = screen.getByTestId('package-details');
    await waitFor(() => expect(within(details).getByTestId('usage-label')).toHaveTextContent(/^Used: /));
    expect(details).toHaveTextContent('Max number of machines5');
    expect(await screen.findByText('Server')).toBeInTheDocument();
  });

  it('changes the status with the suspension warning and the typed name', async () => {
    const refreshed = watchRefreshes();
    const { events, server } = setup(packageDetail({ id: 21, name: 'Office', statusOptions: ['SUSPENDED'] }));
    await events.click(await screen.findByRole('button', { name: TEXT.changeStatus }));
    const dialog = await screen.findByRole('dialog', { name: TEXT.changeStatusTitle });
    expect(within(dialog).getByTestId('status-change-warning')).toHaveTextContent(
      packageStatusChangeWarning('SUSPENDED') ?? '',
    );
    await events.type(within(dialog).getByTestId('confirm-name-input'), 'Offic');
    await events.click(within(dialog).getByRole('button', { name: TEXT.changeStatus }));
    expect(await within(dialog).findByText(MESSAGES.confirmByName.packageStatusChange)).toBeInTheDocument();
    expect(server.to('PUT', '/boltadmin/backuppackages/21')).toEqual([]);
    await events.type(within(dialog).getByTestId('confirm-name-input'), 'e');
    await events.click(within(dialog).getByRole('button', { name: TEXT.changeStatus }));
    expect(await screen.findByText(MESSAGES.backupPackage.statusUpdated)).toBeInTheDocument();
    expect(server.to('PUT', '/boltadmin/backuppackages/21')[0]?.url.search).toBe('?status=SUSPENDED');
    // The customer's page lists the package with its status.
    expect(refreshed()).toContainEqual(customerKeys.customer('provider', 7));
  });

  it('offers no warning when the target is not SUSPENDED', async () => {
    const { events } = setup(packageDetail({ id: 21, name: 'Office', status: 'SUSPENDED', statusOptions: ['ACTIVE'] }));
    await events.click(await screen.findByRole('button', { name: TEXT.changeStatus }));
    const dialog = await screen.findByRole('dialog', { name: TEXT.changeStatusTitle });
    expect(within(dialog).queryByTestId('status-change-warning')).toBeNull();
  });

  it('deletes a SUSPENDED package on the reseller’s path by its typed name and goes back to the customer', async () => {
    const refreshed = watchRefreshes();
    const { events, server } = setup(
      packageDetail({ id: 21, name: 'Office', status: 'SUSPENDED', deleteable: true, statusOptions: ['ACTIVE'] }),
      'reseller',
    );
    await events.click(await screen.findByRole('button', { name: TEXT.delete }));
    const dialog = await screen.findByRole('dialog', { name: TEXT.deleteTitle });
    await events.type(within(dialog).getByTestId('confirm-name-input'), 'Other');
    await events.click(within(dialog).getByRole('button', { name: TEXT.delete }));
    expect(await within(dialog).findByText(MESSAGES.confirmByName.packageDeletion)).toBeInTheDocument();
    await events.clear(within(dialog).getByTestId('confirm-name-input'));
    await events.type(within(dialog).getByTestId('confirm-name-input'), 'Office');
    await events.click(within(dialog).getByRole('button', { name: TEXT.delete }));
    expect(await screen.findByText(MESSAGES.backupPackage.beingDeleted)).toBeInTheDocument();
    expect(server.to('PUT', '/admin/mycustomers/7/backuppackages/21')[0]?.url.search).toBe('?delete=true');
    expect(await screen.findByText('elsewhere')).toBeInTheDocument();
    // Back on the customer's page, read again: the package no longer listed (its data may still be fresh).
    expect(refreshed()).toContainEqual(customerKeys.customer('reseller', 7));
  });

  it('offers no Delete unless the package may be deleted, and is not found when the server says so', async () => {
    setup(packageDetail({ id: 21, name: 'Office' }));
    await screen.findByRole('heading', { level: 1, name: 'Office' });
    expect(screen.queryByRole('button', { name: TEXT.delete })).toBeNull();
    vi.unstubAllGlobals();
    fakeServer(() => reply(404, {}));
    renderAt(
      '/boltadmin/customers/:customerId/backuppackages/:packageId',
      '/boltadmin/customers/7/backuppackages/22',
      <PackagePage audience="provider" />,
    );
    expect(await screen.findByRole('heading', { name: /not found/i })).toBeInTheDocument();
  });
});
