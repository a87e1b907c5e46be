import { type CustomerAccount, MFA_TEXTS } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn, type TestUser } from '../../app/testing';
import { ToastHost } from '../../ui';
import { fakeServer, message, ok, paged, reply, userRow } from '../users/testing';
import { AccountPage } from './AccountPage';

afterEach(() => vi.unstubAllGlobals());

const account = (overrides: Partial<CustomerAccount> = {}): CustomerAccount => ({
  id: 7,
  status: 'ACTIVE',
  displayStatus: 'ACTIVE',
  companyName: 'Contoso Ltd',
  superAdminId: 1,
  superAdminFullName: 'Alex Wilber',
  superAdminEmail: 'alex@example.test',
  cpanelPluginEnabled: false,
  allowProviderMachineControl: true,
  boltCustomer: false,
  logo: '/public/downloads/img/contoso.png',
  editable: true,
  requireMfa: false,
  adminCandidates: [
    { id: 1, fullName: 'Alex Wilber', email: 'alex@example.test' },
    { id: 2, fullName: 'Megan Bowen', email: 'megan@example.test' },
  ],
  ...overrides,
});

function serve(
  current: CustomerAccount,
  edit: (body: unknown) => Response = () => ok(current),
  policy: (body: unknown) => Response = () => ok(current),
  /** Whether the signed-in super admin uses two-factor sign-in (GET /profile/mfa); not answered when left out. */
  ownMfa?: boolean,
) {
  return fakeServer(({ method, url, body }) => {
    if (url.pathname === '/admin/account' && method === 'GET') return ok(current);
    if (url.pathname === '/admin/account' && method === 'PUT') return edit(body);
    if (url.pathname === '/admin/account/mfa/policy' && method === 'PUT') return policy(body);
    if (url.pathname === '/profile/mfa' && ownMfa !== undefined) {
      return ok({ enabled: ownMfa, enabledAt: null, recoveryCodesLeft: 0, required: false });
    }
    if (url.pathname === '/admin/restoretestsettings') return ok({ intervalDays: null, providerDefaultDays: 30 });
    if (url.pathname === '/admin/users') return ok(paged([userRow({ firstName: 'Megan' })], url));
    if (url.pathname === '/admin/account/users/roles') {
      return ok({ elements: [{ role: 'ROLE_CUSTOMER_USER', roleName: 'User' }] });
    }
    return undefined;
  });
}

function renderPage(user: Partial<TestUser> = {}) {
  return renderSignedIn(
    <MemoryRouter>
      <AccountPage />
      <ToastHost />
    </MemoryRouter>,
    { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', ...user },
  );
}

describe('AccountPage', () => {
  it('shows the details, the logo and the users with Add user and Bulk import users', async () => {
    serve(account());
    renderPage();
    const details = await screen.findByRole('table', { name: 'Account details' });
    expect(
      within(details)
        .getAllByRole('rowheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Status',
      'Company name',
      'Administrator name',
      'Administrator email',
      'Allow provider machine control',
    ]);
    expect(details).toHaveTextContent('Contoso Ltd');
    expect(details).toHaveTextContent('alex@example.test');
    expect(within(details).getByText('Yes')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Logo' })).toHaveAttribute('src', '/public/downloads/img/contoso.png');
    expect(await screen.findByText('Megan')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add user' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Bulk import users' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit account details' })).toBeInTheDocument();
  });

  it('hides the provider control flag for the main brand and Edit when not editable', async () => {
    serve(account({ boltCustomer: true, editable: false }));
    renderPage({ role: 'ROLE_CUSTOMER_ADMIN_USER' });
    const details = await screen.findByRole('table', { name: 'Account details' });
    expect(details).not.toHaveTextContent('Allow provider machine control');
    expect(screen.queryByRole('button', { name: 'Edit account details' })).not.toBeInTheDocument();
  });

  it('hides Add user and Bulk import users from a read-only admin', async () => {
    serve(account({ editable: false }));
    renderPage({ readOnly: true });
    await screen.findByText('Megan');
    expect(screen.queryByRole('button', { name: 'Add user' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Bulk import users' })).not.toBeInTheDocument();
  });

  it('opens the add user and bulk import dialogs', async () => {
    serve(account());
    const events = renderPage();
    await events.click(await screen.findByRole('button', { name: 'Add user' }));
    expect(await screen.findByRole('dialog', { name: 'Add user' })).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await events.click(screen.getByRole('button', { name: 'Bulk import users' }));
    expect(await screen.findByRole('dialog', { name: 'Bulk import users' })).toBeInTheDocument();
  });
});

describe('the two-factor sign-in requirement (ours, issue 18)', () => {
  const P = MFA_TEXTS.policy;

  it('the super admin requires it after confirming; the page shows the answer', async () => {
    const server = serve(account(), undefined, (body) =>
      ok(account({ requireMfa: (body as { requireMfa: boolean }).requireMfa })),
    );
    const events = renderPage();
    expect(await screen.findByTestId('account-mfa-policy')).toHaveTextContent(P.notRequired);
    await events.click(screen.getByRole('button', { name: P.requireButton }));
    const dialog = await screen.findByRole('dialog', { name: P.requireTitle });
    expect(dialog).toHaveTextContent(P.requireQuestion('Contoso Ltd'));
    await events.click(within(dialog).getByRole('button', { name: P.requireSubmit }));
    await waitFor(() => expect(screen.getByTestId('account-mfa-policy')).toHaveTextContent(P.required));
    expect(server.to('PUT', '/admin/account/mfa/policy').map((r) => r.body)).toEqual([{ requireMfa: true }]);
    expect(await screen.findByText(P.requiredNow)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: P.stopButton })).toBeInTheDocument();
  });

  it("shows the server's refusal in the dialog and changes nothing", async () => {
    serve(account(), undefined, () => reply(400, { messages: [message('requireMfa', P.enableYourselfFirst)] }));
    const events = renderPage();
    await events.click(await screen.findByRole('button', { name: P.requireButton }));
    const dialog = await screen.findByRole('dialog', { name: P.requireTitle });
    await events.click(within(dialog).getByRole('button', { name: P.requireSubmit }));
    expect(await within(dialog).findByText(P.enableYourselfFirst)).toBeInTheDocument();
    expect(screen.getByTestId('account-mfa-policy')).toHaveTextContent(P.notRequired);
  });

  it('says before asking that the super admin must use it first, with the way to their profile', async () => {
    serve(account(), undefined, undefined, false);
    const events = renderPage();
    await events.click(await screen.findByRole('button', { name: P.requireButton }));
    const dialog = await screen.findByRole('dialog', { name: P.requireTitle });
    expect(await within(dialog).findByTestId('mfa-policy-own-off')).toHaveTextContent(P.enableYourselfFirst);
    expect(within(dialog).getByRole('link', { name: P.openProfile })).toHaveAttribute('href', '/profile');
    expect(within(dialog).getByRole('button', { name: P.requireSubmit })).toBeDisabled();
  });

  it('is shown, not offered, to an admin', async () => {
    serve(account({ editable: false, requireMfa: true }));
    renderPage({ role: 'ROLE_CUSTOMER_ADMIN_USER' });
    expect(await screen.findByTestId('account-mfa-policy')).toHaveTextContent(P.required);
    expect(screen.queryByRole('button', { name: P.stopButton })).not.toBeInTheDocument();
  });
});

describe('Edit account details', () => {
  async function openDialog(current = account(), edit?: (body: unknown) => Response) {
    const server = serve(current, edit);
    const events = renderPage();
    await events.click(await screen.findByRole('button', { name: 'Edit account details' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit account details' });
    return { server, events, dialog };
  }

  it('starts from the account, offers the admin candidates and sends the edit', async () => {
    const { server, events, dialog } = await openDialog(account(), (body) =>
      ok(account({ companyName: (body as { companyName: string }).companyName })),
    );
    expect(within(dialog).getByLabelText('Company name')).toHaveValue('Contoso Ltd');
    const select = within(dialog).getByLabelText('Super admin user');
    expect(select).toHaveValue('1');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Alex Wilber (alex@example.test)', 'Megan Bowen (megan@example.test)']);
    expect(within(dialog).getByLabelText('Allow provider machine control')).toBeChecked();
    await events.clear(within(dialog).getByLabelText('Company name'));
    await events.type(within(dialog).getByLabelText('Company name'), 'Fabrikam');
    await events.selectOptions(select, '2');
    await events.click(within(dialog).getByLabelText('cPanel plugin enabled'));
    await events.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Account edited successfully!')).toBeInTheDocument();
    expect(server.to('PUT', '/admin/account')[0]?.body).toEqual({
      companyName: 'Fabrikam',
      userIdToBeAdmin: 2,
      cpanelPluginEnabled: true,
      allowProviderMachineControl: true,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('table', { name: 'Account details' })).toHaveTextContent('Fabrikam');
  });

  it('leaves allow provider machine control out for the main brand', async () => {
    const { server, events, dialog } = await openDialog(account({ boltCustomer: true }));
    expect(within(dialog).queryByLabelText('Allow provider machine control')).not.toBeInTheDocument();
    await events.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Account edited successfully!');
    expect(server.to('PUT', '/admin/account')[0]?.body).toEqual({
      companyName: 'Contoso Ltd',
      userIdToBeAdmin: 1,
      cpanelPluginEnabled: false,
    });
  });

  it('checks the company name length before sending', async () => {
    const { server, events, dialog } = await openDialog();
    await events.type(within(dialog).getByLabelText('Company name'), 'x'.repeat(50));
    await events.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/Company name/, { selector: '.invalid-feedback' })).toBeInTheDocument();
    expect(server.to('PUT', '/admin/account')).toHaveLength(0);
  });

  it('routes messages: named ones on their field, only an empty name globally', async () => {
    const { events, dialog } = await openDialog(account(), () =>
      reply(400, {
        messages: [
          message('userIdToBeAdmin', 'Must choose an active admin user of this account'),
          message('', 'Account is locked'),
        ],
      }),
    );
    await events.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Must choose an active admin user of this account')).toHaveClass(
      'invalid-feedback',
    );
    expect(within(dialog).getByTestId('global-errors')).toHaveTextContent('Account is locked');
  });

  it('warns on an edit with messages and shows the unknown error', async () => {
    let answer = () => ok(account(), [message('companyName', 'Name trimmed')]);
    const { events, dialog } = await openDialog(account(), () => answer());
    await events.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Account updated but some errors occurred.')).toBeInTheDocument();
    expect(within(dialog).getByText('Name trimmed')).toHaveClass('invalid-feedback');
    answer = () => reply(500, {});
    await events.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Unkown error encountered while editing account.')).toBeInTheDocument();
  });
});
