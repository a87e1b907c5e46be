import { API_TOKEN_MESSAGES, API_TOKEN_SCOPE_TEXTS, type ApiTokenCreated, type ApiTokenRow } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../app/testing';
import { fakeServer, ok } from '../users/testing';
import { ApiTokensSection } from './ApiTokensSection';

afterEach(() => vi.unstubAllGlobals());

const LIST = '/profile/apitokens';

const tokenRow = (overrides: Partial<ApiTokenRow> = {}): ApiTokenRow => ({
  id: 5,
  name: 'Nightly report',
  scope: 'READ_ONLY',
  hint: 'cpt_ab12',
  createdAt: '2026-03-01T08:00:00.000Z',
  expiresAt: '2026-03-31T08:00:00.000Z',
  lastUsedAt: '2026-03-20T06:30:00.000Z',
  ...overrides,
});

/** The server's token list, which a create adds to (without the secret) and a revoke removes from. */
function serveTokens(initial: ApiTokenRow[]) {
  let rows = initial;
  return fakeServer(({ method, url, body }) => {
    if (url.pathname === LIST && method === 'GET') return ok({ elements: rows });
    if (url.pathname === LIST && method === 'POST') {
      const created: ApiTokenCreated = {
        row: tokenRow({ id: 6, ...(body as Pick<ApiTokenRow, 'name' | 'scope'>), hint: 'cpt_9f3e', lastUsedAt: null }),
        token: 'cpt_9f3e1c0ffee5ecret',
      };
      rows = [...rows, created.row];
      return ok(created);
    }
    const revoked = /^\/profile\/apitokens\/(\d+)$/.exec(url.pathname)?.[1];
    if (revoked && method === 'DELETE') {
      rows = rows.filter((row) => row.id !== Number(revoked));
      return ok(null);
    }
    return undefined;
  });
}

const rowOf = async (name: string) =>
  (await within(screen.getByRole('table', { name: 'API tokens' })).findByText(name)).closest('tr') as HTMLElement;

describe('profile API tokens', () => {
  it('lists each token with its access, expiry and last use, never its secret', async () => {
    const used = tokenRow();
    const unused = tokenRow({ id: 7, name: 'Deploy script', scope: 'READ_WRITE', lastUsedAt: null });
    serveTokens([used, unused]);
    renderSignedIn(<ApiTokensSection />);

    const table = await screen.findByRole('table', { name: 'API tokens' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'Access', 'Token', 'Created', 'Expires', 'Last used', '']);
    const cells = async (name: string) =>
      within(await rowOf(name))
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(await cells('Nightly report')).toEqual([
      'Nightly report',
      API_TOKEN_SCOPE_TEXTS.READ_ONLY,
      'cpt_ab12…',
      new Date(used.createdAt).toLocaleString(),
      new Date(used.expiresAt).toLocaleString(),
      new Date(used.lastUsedAt ?? '').toLocaleString(),
      'Revoke',
    ]);
    const deploy = await cells('Deploy script');
    expect(deploy[1]).toBe(API_TOKEN_SCOPE_TEXTS.READ_WRITE);
    expect(deploy[5]).toBe('Never');
  });

  it('shows a created token once: in the notice, until it is dismissed, and never in the list', async () => {
    const server = serveTokens([]);
    const user = renderSignedIn(<ApiTokensSection />);
    expect(await screen.findByText(API_TOKEN_MESSAGES.none)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create API token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API token' });
    await user.type(within(dialog).getByLabelText('Name'), 'Backup monitor');
    await user.selectOptions(within(dialog).getByLabelText('Access'), API_TOKEN_SCOPE_TEXTS.READ_WRITE);
    await user.selectOptions(within(dialog).getByLabelText('Expires in'), '90 days');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    const notice = await screen.findByTestId('api-token-created');
    expect(notice).toHaveTextContent(API_TOKEN_MESSAGES.created);
    expect(within(notice).getByLabelText('New API token')).toHaveValue('cpt_9f3e1c0ffee5ecret');
    expect(server.to('POST', LIST)[0]?.body).toEqual({
      name: 'Backup monitor',
      scope: 'READ_WRITE',
      expiresInDays: 90,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const row = await rowOf('Backup monitor');
    expect(row).toHaveTextContent('cpt_9f3e…');
    expect(row).not.toHaveTextContent('cpt_9f3e1c0ffee5ecret');

    await user.click(within(notice).getByRole('button', { name: 'Close alert' }));
    await waitFor(() => expect(screen.queryByTestId('api-token-created')).toBeNull());
    expect(screen.queryByDisplayValue('cpt_9f3e1c0ffee5ecret')).toBeNull();
  });

  it('asks to confirm, naming the token, before revoking it', async () => {
    const server = serveTokens([tokenRow(), tokenRow({ id: 7, name: 'Deploy script' })]);
    const user = renderSignedIn(<ApiTokensSection />);

    await user.click(within(await rowOf('Nightly report')).getByRole('button', { name: 'Revoke' }));
    let dialog = await screen.findByRole('dialog', { name: 'Revoke API token' });
    expect(dialog).toHaveTextContent(API_TOKEN_MESSAGES.confirmRevoke('Nightly report'));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.requests.filter((r) => r.method === 'DELETE')).toEqual([]);

    await user.click(within(await rowOf('Nightly report')).getByRole('button', { name: 'Revoke' }));
    dialog = await screen.findByRole('dialog', { name: 'Revoke API token' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.requests.filter((r) => r.method === 'DELETE').map((r) => r.url.pathname)).toEqual([`${LIST}/5`]);
    await waitFor(() => expect(screen.queryByText('Nightly report')).toBeNull());
    expect(screen.getByText('Deploy script')).toBeInTheDocument();
  });
});
