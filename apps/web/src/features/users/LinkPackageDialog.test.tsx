import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithToasts, watchRefreshes } from '../../app/testing';
import { LinkPackageDialog } from './LinkPackageDialog';
import { userKeys } from './queries';
import { fakeServer, message, ok, reply, userRow } from './testing';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const PACKAGES = [
  { id: 31, name: 'Office' },
  { id: 32, name: 'Home' },
];

function serve(linkable = PACKAGES, link: () => Response = () => ok(userRow({ id: 5 }))) {
  return fakeServer(({ method, url }) => {
    if (url.pathname === '/admin/account/users/5/linkablebackuppackages') return ok({ elements: linkable });
    if (method === 'PUT' && url.pathname === '/admin/account/users/5') return link();
    return undefined;
  });
}

function open() {
  const onHide = vi.fn();
  const refreshed = watchRefreshes();
  const events = renderWithToasts(
    <LinkPackageDialog show user={userRow({ id: 5 })} onHide={onHide} animation={false} />,
    { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' },
  );
  return { events, onHide, refreshed };
}

describe('LinkPackageDialog', () => {
  it('offers the linkable packages, the first preselected, and links with ?link=true', async () => {
    const server = serve();
    const { events, onHide, refreshed } = open();
    expect(screen.getByRole('dialog', { name: 'Link user to backup package' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Backup package')).toHaveValue('31'));
    await events.selectOptions(screen.getByLabelText('Backup package'), '32');
    await events.click(screen.getByRole('button', { name: 'Link' }));
    expect(await screen.findByText('User linked successfully!')).toBeInTheDocument();
    const put = server.to('PUT', '/admin/account/users/5')[0];
    expect(put?.url.search).toBe('?link=true');
    expect(put?.body).toEqual({ backupPackageId: 32 });
    // The user's page: its summary at once, its packages and machines after 500 ms (002 §9).
    expect(refreshed()).toContainEqual([...userKeys.page('/admin/account/users/5'), 'summary']);
    expect(onHide).toHaveBeenCalled();
  });

  it('disables Link with the tooltip "No packages to link to" when there are none', async () => {
    serve([]);
    const { events } = open();
    await events.hover(await screen.findByTestId('tooltip-button'));
    expect(screen.getByRole('button', { name: 'Link' })).toBeDisabled();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('No packages to link to');
  });

  it('shows a message on the package field, a global one, the warning and the unknown error', async () => {
    let answer = () => reply(400, { messages: [message('backupPackageId', 'Backup package is not valid')] });
    serve(PACKAGES, () => answer());
    const { events, onHide } = open();
    await waitFor(() => expect(screen.getByLabelText('Backup package')).toHaveValue('31'));
    await events.click(screen.getByRole('button', { name: 'Link' }));
    expect(await screen.findByText('Backup package is not valid')).toHaveClass('invalid-feedback');

    answer = () => ok(userRow(), [message('', 'Machine limit reached')]);
    await events.click(screen.getByRole('button', { name: 'Link' }));
    expect(await screen.findByText('User linked but some errors occurred.')).toBeInTheDocument();
    expect(screen.getByTestId('global-errors')).toHaveTextContent('Machine limit reached');

    answer = () => reply(500, {});
    await events.click(screen.getByRole('button', { name: 'Link' }));
    expect(await screen.findByText('Unkown error encountered while linking user.')).toBeInTheDocument();
    expect(onHide).not.toHaveBeenCalled();
  });
});
