import type { InitialData } from '@portal/domain';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Page } from '../ui';
import { AdminShell, Shell } from './Shell';
import { SessionProvider } from './session';
import { testBranding } from './testing';

const user = (overrides: Partial<NonNullable<InitialData['user']>> = {}): InitialData['user'] => ({
  id: 1,
  firstName: 'Ana',
  surname: 'Silva',
  email: 'ana@example.test',
  role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER',
  customerId: 7,
  companyName: 'Contoso',
  boltCustomer: true,
  resellerEnabled: false,
  readOnly: false,
  unpaidInvoices: 0,
  ...overrides,
});

function renderShell(data: Partial<InitialData>, admin = false, page = <p>page body</p>) {
  const initial: InitialData = {
    user: user(),
    branding: null,
    providerSiteUrl: null,
    version: '1.2.3',
    commitId: 'abc1234',
    demo: false,
    ...data,
  };
  return render(
    <SessionProvider initial={initial}>
      <MemoryRouter initialEntries={['/']}>
        <Routes>
          <Route element={admin ? <AdminShell /> : <Shell />}>
            <Route path="/" element={page} />
            <Route path="/backupmachines" element={<p>machines page</p>} />
          </Route>
        </Routes>
      </MemoryRouter>
    </SessionProvider>,
  );
}

describe('portal shell (000 §2, 002 §2.1-2.2)', () => {
  it('shows the full name, profile, sign out and the default logo, and no invoice badge at zero, then the page', async () => {
    renderShell({});
    const header = screen.getByTestId('header');
    expect(within(header).getByTestId('user-full-name')).toHaveTextContent('Ana Silva');
    expect(within(header).getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile');
    expect(within(header).getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    expect(within(header).getByRole('img')).toHaveAttribute('src', '/img/logo.png');
    expect(within(header).queryByTestId('invoices-due')).toBeNull();
    // The page renders once the shell has painted (ShellOutlet).
    expect(screen.queryByText('page body')).toBeNull();
    expect(await screen.findByText('page body')).toBeInTheDocument();
    expect(document.title).toBe('Cloud Portal');
  });

  it("shows 'Invoices due' with the count when above zero", () => {
    renderShell({ user: user({ unpaidInvoices: 3 }) });
    expect(screen.getByTestId('invoices-due')).toHaveTextContent('Invoices due 3');
  });

  it("uses the reseller's logo, else the generic one with the brand name, and its colours", () => {
    const branding = testBranding({ logo: null, appBackgroundColour: null });
    const { unmount, container } = renderShell({ branding });
    expect(screen.getByRole('img')).toHaveAttribute('src', '/img/logo-generic.png');
    expect(screen.getByText('Northwind Cloud Backup')).toBeInTheDocument();
    const root = container.querySelector('.portal') as HTMLElement;
    expect(root.style.getPropertyValue('--portal-header-bg')).toBe('#1b3a5c');
    expect(root.style.getPropertyValue('--portal-header-text')).toBe('#ffffff');
    expect(root.style.getPropertyValue('--portal-bg')).toBe('#fff');
    expect(root.style.getPropertyValue('--portal-button-enabled')).toBe('#2a7de1');
    expect(root.style.getPropertyValue('--portal-button-disabled')).toBe('#a7b4c2');
    expect(root.style.getPropertyValue('--portal-functional-bg')).toBe('#e8eef5');
    unmount();
    renderShell({ branding: { ...branding, logo: 'north wind.png' } });
    expect(screen.getByRole('img')).toHaveAttribute('src', '/public/downloads/img/north%20wind.png');
  });

  it("names the document after the brand and shows its favicon, else the provider's", () => {
    const { unmount } = renderShell({ branding: testBranding() });
    expect(document.title).toBe('Northwind Cloud Backup');
    expect(document.head.querySelector('link[rel="icon"]')).toHaveAttribute(
      'href',
      '/public/downloads/img/northwind-favicon.png',
    );
    unmount();
    const reseller = renderShell({ branding: testBranding({ brandName: null, favicon: null, logo: null }) });
    expect(document.title).toBe('Cloud Backup');
    expect(screen.getByText('Cloud Backup')).toBeInTheDocument();
    reseller.unmount();
    renderShell({});
    expect(document.title).toBe('Cloud Portal');
    expect(document.head.querySelector('link[rel="icon"]')).toHaveAttribute('href', '/img/favicon.png');
    expect(document.head.querySelectorAll('link[rel="icon"]')).toHaveLength(1);
  });

  it("names the browser tab '<page> · <brand>' from the page inside, the admin area's title in the admin area", async () => {
    const { unmount } = renderShell({ branding: testBranding() }, false, <Page title="Machine PC-1" />);
    await waitFor(() => expect(document.title).toBe('Machine PC-1 · Northwind Cloud Backup'));
    unmount();
    const plain = renderShell({}, false, <Page title={<em>PC-1</em>} tabTitle="PC-1" />);
    await waitFor(() => expect(document.title).toBe('PC-1 · Cloud Portal'));
    plain.unmount();
    renderShell(
      { user: user({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null, resellerEnabled: true }) },
      true,
      <Page title="Customers" />,
    );
    await waitFor(() => expect(document.title).toBe('Customers · Cloud Portal > Admin Area'));
  });

  it('lists the sidebar entries of the role', () => {
    renderShell({ user: user({ role: 'ROLE_CUSTOMER_USER', boltCustomer: false }) });
    const nav = screen.getByRole('navigation', { name: 'Main menu' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Dashboard', 'Backup Machines']);
    expect(within(nav).getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('admin area: its title, links, version and commit id', () => {
    renderShell({ user: user({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null, resellerEnabled: true }) }, true);
    expect(document.title).toBe('Cloud Portal > Admin Area');
    expect(screen.getByTestId('version')).toHaveTextContent('Version 1.2.3 (abc1234)');
    const nav = screen.getByRole('navigation', { name: 'Admin area menu' });
    expect(within(nav).getByRole('link', { name: 'Leave Admin Area' })).toHaveAttribute('href', '/');
    expect(within(nav).getByRole('link', { name: 'Customers' })).toHaveAttribute('href', '/boltadmin/customers');
  });

  it('narrow screen: the menu button shows the sidebar, focuses its first entry, and Escape or a link closes it', async () => {
    renderShell({ user: user({ role: 'ROLE_CUSTOMER_USER', boltCustomer: false }) });
    const events = userEvent.setup();
    const button = screen.getByRole('button', { name: 'Menu' });
    const nav = screen.getByRole('navigation', { name: 'Main menu' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveAttribute('aria-controls', nav.id);
    expect(nav).not.toHaveClass('open');

    await events.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(nav).toHaveClass('open');
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toHaveFocus();

    await events.keyboard('{Escape}');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(nav).not.toHaveClass('open');
    expect(button).toHaveFocus();

    await events.click(button);
    await events.click(within(nav).getByRole('link', { name: 'Backup Machines' }));
    expect(screen.getByText('machines page')).toBeInTheDocument();
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(nav).not.toHaveClass('open');
  });

  it('admin area: the menu button folds its own menu', async () => {
    renderShell({ user: user({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null, resellerEnabled: true }) }, true);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Menu' }));
    expect(screen.getByRole('navigation', { name: 'Admin area menu' })).toHaveClass('open');
  });
});
