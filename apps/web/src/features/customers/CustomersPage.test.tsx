import { type CustomerRow, MESSAGES } from '@portal/domain';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, ok, paged, reply } from '../users/testing';
import { CustomersPage } from './CustomersPage';
import { customerRow, RESELLER, renderAt } from './testing';

const TEXT = MESSAGES.customer;

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const CUSTOMERS = Array.from({ length: 23 }, (_, i) =>
  customerRow({ id: i + 1, companyName: `Company ${String(i + 1).padStart(2, '0')}` }),
);

/** A server that searches (case-insensitive contains over company, admin name and e-mail) and pages. */
function serve(path: string, rows: CustomerRow[] = CUSTOMERS) {
  return fakeServer(({ url }) => {
    if (url.pathname !== path) return undefined;
    const search = url.searchParams.get('search')?.toLowerCase();
    const found = search
      ? rows.filter((r) =>
          [r.companyName, r.superAdminFullName, r.superAdminEmail].some((v) => v?.toLowerCase().includes(search)),
        )
      : rows;
    return ok(paged(found, url));
  });
}

const table = () => screen.findByRole('table', { name: TEXT.customersTitle });
const bodyRows = (t: HTMLElement) => within(t).getAllByRole('row').slice(1);

describe('provider customers table (002 §2.5)', () => {
  it('shows name, super admin, type badges, status, packages and Manage, ten per page', async () => {
    serve('/boltadmin/customerspaginated', [
      customerRow({ id: 1, companyName: 'Alpha', superAdminFullName: 'Ann Lee', superAdminEmail: 'ann@alpha.test' }),
      customerRow({ id: 2, companyName: 'Beta', parentResellerCustomerId: 9, numberOfBackupPackages: 4 }),
      customerRow({
        id: 3,
        companyName: 'Gamma',
        resellerSettingsDisplayDto: { resellerEnabled: true, brandName: 'G' },
      }),
      customerRow({ id: 4, companyName: 'Delta', newSignup: true, displayStatus: 'SIGNUP_REQUESTED' }),
    ]);
    renderAt('/boltadmin/customers', '/boltadmin/customers', <CustomersPage audience="provider" />);
    const t = await table();
    expect(
      within(t)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(Object.values(TEXT.columns));
    await within(t).findByText('Alpha');
    const [alpha, beta, gamma, delta] = bodyRows(t) as [HTMLElement, HTMLElement, HTMLElement, HTMLElement];
    expect(alpha).toHaveTextContent('Alpha');
    expect(within(alpha).getByText('Ann Lee')).toBeInTheDocument();
    expect(within(alpha).getByText('ann@alpha.test')).toBeInTheDocument();
    expect(within(alpha).getByTestId('customer-type-badges')).toHaveTextContent(/^DIRECT$/);
    expect(within(alpha).getByText('Active')).toBeInTheDocument();
    expect(within(alpha).getByRole('link', { name: 'Manage Alpha' })).toHaveAttribute('href', '/boltadmin/customers/1');
    expect(within(beta).getByTestId('customer-type-badges')).toHaveTextContent(/^RESELLER CLIENT$/);
    expect(within(beta).getByRole('link', { name: '4' })).toHaveAttribute('href', '/boltadmin/customers/2#packages');
    expect(within(gamma).getByTestId('customer-type-badges')).toHaveTextContent(/^DIRECTRESELLER$/);
    expect(within(delta).getByTestId('customer-type-badges')).toHaveTextContent(/^DIRECTNEW SIGNUP$/);
    expect(within(delta).getByText('Signup requested')).toBeInTheDocument();
    expect(screen.getByTestId('breadcrumbs')).toHaveTextContent(`${TEXT.adminAreaCrumb}${TEXT.customersTitle}`);
  });

  it('pages on the server, 10 rows a page', async () => {
    const server = serve('/boltadmin/customerspaginated');
    const user = renderAt('/boltadmin/customers', '/boltadmin/customers', <CustomersPage audience="provider" />);
    const t = await table();
    await within(t).findByText('Company 01');
    expect(bodyRows(t)).toHaveLength(10);
    const first = server.to('GET', '/boltadmin/customerspaginated')[0]?.url.searchParams;
    expect(first?.get('page')).toBe('0');
    expect(first?.get('size')).toBe('10');
    expect(first?.has('search')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await within(t).findByText('Company 21')).toBeInTheDocument();
    expect(bodyRows(t)).toHaveLength(3);
    expect(server.to('GET', '/boltadmin/customerspaginated').at(-1)?.url.searchParams.get('page')).toBe('2');
  });

  it('searches once typing pauses, from the first page', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = serve('/boltadmin/customerspaginated');
    renderAt('/boltadmin/customers', '/boltadmin/customers', <CustomersPage audience="provider" />);
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const t = await table();
    await within(t).findByText('Company 01');
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await within(t).findByText('Company 11');

    await user.type(screen.getByRole('searchbox', { name: `${TEXT.searchLabel} ${TEXT.customersTitle}` }), 'company 2');
    // Each keystroke is not a request: only the text once typing pauses.
    expect(
      server.to('GET', '/boltadmin/customerspaginated').filter((r) => r.url.searchParams.has('search')),
    ).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(300));
    await waitFor(() => expect(bodyRows(t)).toHaveLength(4));
    expect(within(t).getByText('Company 20')).toBeInTheDocument();
    const searches = server.to('GET', '/boltadmin/customerspaginated').filter((r) => r.url.searchParams.has('search'));
    expect(searches).toHaveLength(1);
    expect(searches[0]?.url.searchParams.get('search')).toBe('company 2');
    expect(searches[0]?.url.searchParams.get('page')).toBe('0');
  });

  it('shows an empty list when nothing matches or the call fails', async () => {
    fakeServer(() => reply(500, {}));
    renderAt('/boltadmin/customers', '/boltadmin/customers', <CustomersPage audience="provider" />);
    const t = await table();
    expect(await within(t).findByText(TEXT.empty)).toBeInTheDocument();
  });
});

describe("reseller's customers (002 §6)", () => {
  it('lists the reseller’s own customers from /admin/mycustomerspaginated under the dashboard', async () => {
    const server = serve('/admin/mycustomerspaginated', [
      customerRow({
        id: 5,
        companyName: 'Contoso Ltd',
        customerUrl: '/admin/mycustomers/5',
        parentResellerCustomerId: 3,
      }),
    ]);
    renderAt('/admin/mycustomers', '/admin/mycustomers', <CustomersPage audience="reseller" />, RESELLER);
    const t = await screen.findByRole('table', { name: TEXT.myCustomersTitle });
    expect(await within(t).findByRole('link', { name: 'Manage Contoso Ltd' })).toHaveAttribute(
      'href',
      '/admin/mycustomers/5',
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(TEXT.myCustomersTitle);
    expect(screen.getByRole('link', { name: TEXT.dashboardCrumb })).toHaveAttribute('href', '/');
    expect(screen.getByRole('searchbox')).toBeInTheDocument();
    expect(server.to('GET', '/admin/mycustomerspaginated')).toHaveLength(1);
  });
});
