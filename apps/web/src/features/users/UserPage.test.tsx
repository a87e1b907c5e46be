import type { Audience, UserMachineRow, UserPackageRow, UserRow } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn, type TestUser } from '../../app/testing';
import { ToastHost } from '../../ui';
import { fakeServer, message, ok, paged, reply, userMachineRow, userPackageRow, userRow } from './testing';
import { UserPage } from './UserPage';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

interface Data {
  user: UserRow;
  packages: UserPackageRow[];
  machines: UserMachineRow[];
}

function serve(data: Data, base = '/admin/account/users/5', change: () => Response = () => ok(null)) {
  return fakeServer(({ method, url }) => {
    if (method === 'GET' && url.pathname === base) return ok(data.user);
    if (method === 'GET' && url.pathname === `${base}/backuppackages`) return ok(paged(data.packages, url));
    if (method === 'GET' && url.pathname === `${base}/backupmachines`) return ok(paged(data.machines, url));
    if (method === 'GET' && url.pathname === '/boltadmin/customers/7') {
      return ok({ id: 7, displayName: 'Contoso Ltd', customerUrl: '/boltadmin/customers/7' });
    }
    if (method !== 'GET') return change();
    return undefined;
  });
}

const ann = (overrides: Partial<UserRow> = {}) =>
  userRow({
    id: 5,
    firstName: 'Ann',
    surname: 'Lee',
    email: 'ann@x.test',
    contactNumber: '555',
    roleName: 'Admin',
    role: 'ROLE_CUSTOMER_ADMIN_USER',
    ...overrides,
  });

const defaultData = (): Data => ({
  user: ann(),
  packages: [
    userPackageRow({ id: 31, name: 'Office' }),
    userPackageRow({ id: 32, name: 'Home', manageable: false, unlinkable: false, unlinkTooltip: 'Cannot unlink' }),
    userPackageRow({ id: 33, name: 'Hidden', accessibleByLoggedInUser: false, unlinkable: false }),
  ],
  machines: [
    userMachineRow({ id: 41, name: 'PC-41', usedBytes: 1024 ** 3 }),
    userMachineRow({ id: 42, name: 'PC-42', manageable: false }),
  ],
});

function renderPage(path = '/admin/account/users/5', audience: Audience = 'customer', user: Partial<TestUser> = {}) {
  return renderSignedIn(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/admin/account/users/:userId" element={<UserPage audience="customer" />} />
        <Route path="/boltadmin/customers/:customerId/users/:userId" element={<UserPage audience={audience} />} />
        <Route path="/admin/account" element={<p>Account page</p>} />
      </Routes>
      <ToastHost />
    </MemoryRouter>,
    { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', ...user },
  );
}

const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

describe('UserPage (customer admin)', () => {
  it('shows the summary, the actions, and the user packages and machines', async () => {
    serve(defaultData());
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Ann Lee' })).toBeInTheDocument();
    const summary = screen.getByRole('table', { name: 'User details' });
    expect(
      within(summary)
        .getAllByRole('rowheader')
        .map((h) => h.textContent),
    ).toEqual(['First name', 'Surname', 'Status', 'Email', 'Contact number', 'Read only', 'Role']);
    expect(summary).toHaveTextContent('ann@x.test');
    expect(summary).toHaveTextContent('Admin');
    expect(screen.getByRole('link', { name: 'Account Settings' })).toHaveAttribute('href', '/admin/account');
    for (const name of ['Edit', 'Link to backup package', 'Delete']) {
      expect(screen.getByRole('button', { name })).toBeEnabled();
    }

    await screen.findByText('Office');
    expect(within(rowOf('Office')).getByRole('link', { name: 'Manage Office' })).toHaveAttribute(
      'href',
      '/admin/backuppackages/31',
    );
    expect(within(rowOf('Office')).getByText('10 GB')).toBeInTheDocument();
    expect(within(rowOf('Office')).getByRole('button', { name: 'Unlink Office' })).toBeEnabled();
    expect(within(rowOf('Home')).getByRole('link', { name: 'View Home' })).toBeInTheDocument();
    expect(within(rowOf('Home')).getByRole('button', { name: 'Unlink Home' })).toBeDisabled();
    expect(within(rowOf('Hidden')).getByRole('button', { name: 'Not accessible' })).toBeDisabled();

    await screen.findByText('PC-41');
    expect(within(rowOf('PC-41')).getByText('1 GB')).toBeInTheDocument();
    expect(within(rowOf('PC-41')).getByRole('link', { name: 'Manage PC-41' })).toHaveAttribute(
      'href',
      '/backupmachines/41',
    );
    expect(within(rowOf('PC-42')).getByRole('link', { name: 'View PC-42' })).toBeInTheDocument();
  });

  it('gives the unlink tooltip of each row', async () => {
    serve(defaultData());
    const events = renderPage();
    await screen.findByText('Home');
    await events.hover(within(rowOf('Home')).getByTestId('tooltip-button'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Cannot unlink');
  });

  it('hides Link and Unlink for a super admin, who has every package', async () => {
    const data = defaultData();
    data.user = ann({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', roleName: 'Super admin' });
    serve(data);
    renderPage();
    await screen.findByText('Office');
    expect(screen.queryByRole('button', { name: 'Link to backup package' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Unlink/ })).not.toBeInTheDocument();
  });

  it('disables Delete with the reason as tooltip, and hides Edit and Link for a user not manageable', async () => {
    const data = defaultData();
    data.user = ann({
      deleteable: false,
      deleteBlockedReason: 'User has linked packages and/or machines, cannot be deleted',
      manageableByLoggedInUser: false,
    });
    serve(data);
    const events = renderPage();
    const remove = await screen.findByRole('button', { name: 'Delete' });
    expect(remove).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Link to backup package' })).not.toBeInTheDocument();
    await events.hover(remove.parentElement as HTMLElement);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'User has linked packages and/or machines, cannot be deleted',
    );
  });

  it('deletes after confirmation and goes back to the account page', async () => {
    const server = serve(defaultData());
    const events = renderPage();
    await events.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete user' });
    expect(dialog).toHaveTextContent('Are you sure you want to delete the user Ann Lee?');
    await events.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('User deleted successfully!')).toBeInTheDocument();
    expect(await screen.findByText('Account page')).toBeInTheDocument();
    expect(server.to('DELETE', '/admin/account/users/5')).toHaveLength(1);
  });

  it('shows a refused delete in the dialog, and the unknown error', async () => {
    let answer = () => reply(400, { messages: [message('', 'Cannot delete super admin user')] });
    serve(defaultData(), undefined, () => answer());
    const events = renderPage();
    await events.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete user' });
    await events.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText('Cannot delete super admin user')).toBeInTheDocument();
    answer = () => reply(500, {});
    await events.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText('Unkown error encountered while deleting user.')).toBeInTheDocument();
    expect(screen.queryByText('Account page')).not.toBeInTheDocument();
  });

  it('unlinks after confirmation and refreshes the packages after 500 ms', async () => {
    const data = defaultData();
    const server = serve(data);
    const events = renderPage();
    await screen.findByText('Office');
    await events.click(within(rowOf('Office')).getByRole('button', { name: 'Unlink Office' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unlink user from backup package' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to unlink the user Ann Lee from the backup package Office?',
    );
    const before = server.to('GET', '/admin/account/users/5/backuppackages').length;
    data.packages = data.packages.slice(1);
    await events.click(within(dialog).getByRole('button', { name: 'Unlink' }));
    expect(await screen.findByText('User unlinked successfully!')).toBeInTheDocument();
    const put = server.to('PUT', '/admin/account/users/5/backuppackages/31')[0];
    expect(put?.url.search).toBe('?unlink=true');
    await waitFor(() => expect(screen.queryByText('Office')).not.toBeInTheDocument());
    expect(server.to('GET', '/admin/account/users/5/backuppackages').length).toBeGreaterThan(before);
  });

  it('shows the unlink warning and unknown error', async () => {
    let answer = () => ok(null, [message('backupPackageId', 'Package is busy')]);
    serve(defaultData(), undefined, () => answer());
    const events = renderPage();
    await screen.findByText('Office');
    await events.click(within(rowOf('Office')).getByRole('button', { name: 'Unlink Office' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unlink user from backup package' });
    await events.click(within(dialog).getByRole('button', { name: 'Unlink' }));
    expect(await screen.findByText('User unlinked but some errors occurred.')).toBeInTheDocument();
    expect(within(dialog).getByText('Package is busy')).toBeInTheDocument();
    answer = () => reply(500, {});
    await events.click(within(dialog).getByRole('button', { name: 'Unlink' }));
    expect(await within(dialog).findByText('Unkown error encountered while unlinking user.')).toBeInTheDocument();
  });

  it('opens the edit dialog with the user', async () => {
    serve(defaultData());
    const events = renderPage();
    await events.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit user' });
    expect(within(dialog).getByLabelText('Email')).toHaveValue('ann@x.test');
  });

  it('shows not found for a user outside the account', async () => {
    fakeServer(() => undefined);
    renderPage('/admin/account/users/99');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});

describe('UserPage (provider admin, read only)', () => {
  it('reads the provider calls and offers no change', async () => {
    const data = defaultData();
    data.user = ann({ manageableByLoggedInUser: false, deleteable: false, deleteBlockedReason: 'Deletion disabled' });
    const server = serve(data, '/boltadmin/customers/7/users/5');
    renderPage('/boltadmin/customers/7/users/5', 'provider', { role: 'ROLE_BOLT_ADMIN_USER', customerId: null });
    expect(await screen.findByRole('heading', { name: 'Ann Lee' })).toBeInTheDocument();
    await screen.findByText('Office');
    await screen.findByText('PC-41');
    expect(await screen.findByRole('link', { name: 'Contoso Ltd' })).toHaveAttribute('href', '/boltadmin/customers/7');
    for (const name of ['Edit', 'Link to backup package', 'Delete', 'Unlink Office']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
    expect(server.to('GET', '/boltadmin/customers/7/users/5/backuppackages')).toHaveLength(1);
    expect(server.to('GET', '/boltadmin/customers/7/users/5/backupmachines')).toHaveLength(1);
  });
});
