import { ROUTES } from '@portal/domain';
import { useQueryClient } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { routeCall } from '../../app/api';
import { renderSignedIn } from '../../app/testing';
import { fakeServer, ok, paged, userRow } from './testing';
import { UsersTable } from './UsersTable';

afterEach(() => vi.unstubAllGlobals());

const users = Array.from({ length: 12 }, (_, i) =>
  userRow({ id: i + 1, firstName: `First${i + 1}`, surname: `Surname${i + 1}` }),
);

function serve(rows = users) {
  return fakeServer(({ url }) => (url.pathname === '/admin/users' ? ok(paged(rows, url)) : undefined));
}

function renderTable(props: Partial<Parameters<typeof UsersTable>[0]> = {}) {
  return renderSignedIn(
    <MemoryRouter>
      <UsersTable call={routeCall(ROUTES.users.list, {})} queryKey={['users']} {...props} />
    </MemoryRouter>,
    { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' },
  );
}

describe('UsersTable', () => {
  it('shows the columns of 002 §2.4 and ten users per page, asking the server for page 0 size 10', async () => {
    const server = serve();
    renderTable();
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'First name',
      'Surname',
      'Status',
      'Role',
      'Email',
      'Contact number',
      'Read only',
      'Number of linked packages',
      'Number of linked machines',
      'Actions',
    ]);
    await within(table).findByText('First1');
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    const query = server.to('GET', '/admin/users')[0]?.url.searchParams;
    expect(query?.get('page')).toBe('0');
    expect(query?.get('size')).toBe('10');
    expect(screen.queryByRole('searchbox')).not.toBeInTheDocument();
  });

  it('pages on the server', async () => {
    const server = serve();
    const user = renderTable();
    await screen.findByText('First1');
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByText('First11')).toBeInTheDocument();
    expect(server.to('GET', '/admin/users').at(-1)?.url.searchParams.get('page')).toBe('1');
  });

  it('shows read only as Yes/No, the status badge, and Manage or View linking to the user page', async () => {
    serve([
      userRow({ id: 1, firstName: 'Ann', surname: 'Lee', readOnly: true, status: 'INACTIVE', roleName: 'Admin' }),
      userRow({
        id: 2,
        firstName: 'Bob',
        surname: 'Ray',
        manageableByLoggedInUser: false,
        userUrl: '/boltadmin/customers/7/users/2',
      }),
    ]);
    renderTable();
    const ann = (await screen.findByText('Ann')).closest('tr') as HTMLElement;
    expect(within(ann).getByText('Yes')).toBeInTheDocument();
    expect(within(ann).getByText('Inactive')).toBeInTheDocument();
    expect(within(ann).getByText('Admin')).toBeInTheDocument();
    expect(within(ann).getByRole('link', { name: 'Manage Ann Lee' })).toHaveAttribute('href', '/admin/account/users/1');
    const bob = screen.getByText('Bob').closest('tr') as HTMLElement;
    expect(within(bob).getByText('No')).toBeInTheDocument();
    expect(within(bob).getByRole('link', { name: 'View Bob Ray' })).toHaveAttribute(
      'href',
      '/boltadmin/customers/7/users/2',
    );
  });

  it('shows the toolbar and reloads when a change refreshes its query', async () => {
    const server = serve();
    function Harness() {
      const client = useQueryClient();
      return (
        <UsersTable
          call={routeCall(ROUTES.users.list, {})}
          queryKey={['users']}
          toolbar={
            <button type="button" onClick={() => void client.invalidateQueries({ queryKey: ['users'] })}>
              Refresh
            </button>
          }
        />
      );
    }
    const user = renderSignedIn(
      <MemoryRouter>
        <Harness />
      </MemoryRouter>,
    );
    await screen.findByText('First1');
    expect(server.to('GET', '/admin/users')).toHaveLength(1);
    await user.click(within(screen.getByTestId('users-toolbar')).getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(server.to('GET', '/admin/users')).toHaveLength(2));
  });

  it('shows an empty list when the call fails', async () => {
    fakeServer(() => undefined);
    renderTable();
    expect(await screen.findByText('There are no users')).toBeInTheDocument();
  });
});
