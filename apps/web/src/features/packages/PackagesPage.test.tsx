import { billingRedirectHref, MESSAGES, packageEditSchema, STORAGE_TEXTS } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn, type TestUser } from '../../app/testing';
import { ToastHost } from '../../ui';
import { fakeServer, message, ok, paged, reply } from '../users/testing';
import { PackagesPage } from './PackagesPage';
import { packageRow, storageOf } from './testing';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const TEXT = MESSAGES.packagePages;

function open(
  rows = [packageRow({ id: 1, name: 'Office' })],
  storage: (id: number) => Response | Promise<Response>,
  user: Partial<TestUser> = {},
) {
  const server = fakeServer(({ method, url }) => {
    if (url.pathname === '/admin/backuppackages') return ok(paged(rows, url, 5));
    const m = /^\/backuppackages\/(\d+)\/storage$/.exec(url.pathname);
    if (m) return storage(Number(m[1]));
    if (method === 'PUT' && url.pathname.startsWith('/admin/backuppackages/')) return ok(rows[0]);
    return undefined;
  });
  const events = renderSignedIn(
    <MemoryRouter>
      <PackagesPage />
      <ToastHost />
    </MemoryRouter>,
    { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', ...user },
  );
  return { server, events };
}

const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;

describe('PackagesPage: the usage bar', () => {
  it("shows 'Calculating...' while the storage loads", async () => {
    open(undefined, () => new Promise<Response>(() => undefined));
    const row = await rowOf('Office');
    expect(within(row).getByTestId('usage-label')).toHaveTextContent(STORAGE_TEXTS.calculating);
  });

  it("shows 'Could not obtain storage size' when the storage call fails", async () => {
    open(undefined, () => reply(500, {}));
    const row = await rowOf('Office');
    await waitFor(() => expect(within(row).getByTestId('usage-label')).toHaveTextContent(STORAGE_TEXTS.failed));
  });

  it('colours the bar green, orange and red by the domain thresholds', async () => {
    const rows = [
      packageRow({ id: 1, name: 'Low' }),
      packageRow({ id: 2, name: 'Warning' }),
      packageRow({ id: 3, name: 'Danger' }),
    ];
    const used: Record<number, number> = { 1: 1, 2: 8, 3: 9.8 };
    open(rows, (id) => ok(storageOf(used[id] ?? 0)));
    for (const [name, variant] of [
      ['Low', 'bg-success'],
      ['Warning', 'bg-warning'],
      ['Danger', 'bg-danger'],
    ] as const) {
      const row = await rowOf(name);
      await waitFor(() => expect(within(row).getByRole('progressbar')).toHaveClass(variant));
    }
  });
});

describe('PackagesPage: rows', () => {
  it('shows CHANGE REQUESTED, machines of the limit, Not accessible and the billing button state', async () => {
    const rows = [
      packageRow({ id: 1, name: 'Changing', upOrDownGradeRequested: true, paymentUrl: 'https://billing.test/p?id=1' }),
      packageRow({ id: 2, name: 'Closed', accessibleByLoggedInUser: false, manageable: false, noOfMachinesLimit: 0 }),
    ];
    const opened = vi.spyOn(window, 'open').mockReturnValue(null);
    const { events } = open(rows, () => ok(storageOf(1)));
    const changing = await rowOf('Changing');
    expect(within(changing).getByText('CHANGE REQUESTED')).toBeInTheDocument();
    expect(within(changing).getByText('2 of 5')).toBeInTheDocument();
    expect(within(changing).getByRole('link', { name: 'Manage Changing' })).toHaveAttribute(
      'href',
      '/admin/backuppackages/1',
    );
    await events.click(within(changing).getByRole('button', { name: 'Billing Changing' }));
    expect(opened).toHaveBeenCalledWith('https://billing.test/p?id=1', '_blank', 'noopener');

    const closed = await rowOf('Closed');
    expect(within(closed).getByText('2 of Unlimited')).toBeInTheDocument();
    expect(within(closed).getByRole('button', { name: MESSAGES.notAccessible })).toBeDisabled();
    expect(within(closed).getByRole('button', { name: 'Billing Closed' })).toBeDisabled();
    expect(within(closed).queryByRole('button', { name: 'Edit Closed' })).toBeNull();
  });

  it("says 'There are no backup packages' when there are none", async () => {
    open([], () => ok(storageOf(0)));
    expect(await screen.findByText(MESSAGES.backupPackage.empty)).toBeInTheDocument();
  });
});

describe('PackagesPage: the edit dialog (000 §5)', () => {
  it('starts unlimited when the limit is the quota, starts from 10 MB when ticked, and saves', async () => {
    const { events, server } = open([packageRow({ id: 1, name: 'Office' })], () => ok(storageOf(1)));
    await events.click(await screen.findByRole('button', { name: 'Edit Office' }));
    const dialog = await screen.findByRole('dialog', { name: TEXT.editTitle });
    const checkbox = within(dialog).getByLabelText(TEXT.limitPerMachine);
    expect(checkbox).not.toBeChecked();
    expect(within(dialog).queryByLabelText(/Max backup size per machine/)).toBeNull();
    await events.click(checkbox);
    const limit = within(dialog).getByLabelText(/Max backup size per machine/);
    expect(limit).toHaveValue(10);

    await events.clear(limit);
    await events.type(limit, String(10 * 1024 + 1));
    await events.click(within(dialog).getByRole('button', { name: TEXT.save }));
    const tooBig = packageEditSchema(10 * 1024).safeParse({
      name: 'Office',
      limitBackupSizePerMachine: true,
      maxBackupSizePerMachine: 10 * 1024 + 1,
    });
    expect(await within(dialog).findByText(tooBig.error?.issues[0]?.message ?? '?')).toHaveClass('invalid-feedback');
    expect(server.to('PUT', '/admin/backuppackages/1')).toEqual([]);

    await events.clear(limit);
    await events.type(limit, '2048');
    const name = within(dialog).getByLabelText('Name');
    await events.clear(name);
    await events.type(name, 'Renamed');
    await events.click(within(dialog).getByRole('button', { name: TEXT.save }));
    expect(await screen.findByText(MESSAGES.backupPackage.edited)).toBeInTheDocument();
    expect(server.to('PUT', '/admin/backuppackages/1')[0]?.body).toEqual({
      name: 'Renamed',
      maxBackupSizePerMachine: 2048,
    });
  });

  it('shows a server message on its field', async () => {
    const server = fakeServer(({ method, url }) => {
      if (url.pathname === '/admin/backuppackages') return ok(paged([packageRow({ id: 1, name: 'Office' })], url, 5));
      if (url.pathname === '/backuppackages/1/storage') return ok(storageOf(1));
      if (method === 'PUT') return reply(400, { messages: [message('name', 'Name is not valid')] });
      return undefined;
    });
    const events = renderSignedIn(
      <MemoryRouter>
        <PackagesPage />
      </MemoryRouter>,
      { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' },
    );
    await events.click(await screen.findByRole('button', { name: 'Edit Office' }));
    const dialog = await screen.findByRole('dialog', { name: TEXT.editTitle });
    await events.click(within(dialog).getByRole('button', { name: TEXT.save }));
    expect(await within(dialog).findByText('Name is not valid')).toHaveClass('invalid-feedback');
    expect(server.to('PUT', '/admin/backuppackages/1')).toHaveLength(1);
  });

  it('initializes an APPROVED package with ?initialize=true', async () => {
    const { events, server } = open(
      [packageRow({ id: 1, name: 'Approved', status: 'APPROVED', initializable: true })],
      () => ok(storageOf(0)),
    );
    expect(screen.queryByRole('button', { name: 'Edit Approved' })).toBeNull();
    await events.click(await screen.findByRole('button', { name: 'Initialize Approved' }));
    const dialog = await screen.findByRole('dialog', { name: TEXT.initializeTitle });
    const name = within(dialog).getByLabelText('Name');
    await events.clear(name);
    await events.type(name, 'Office');
    await events.click(within(dialog).getByRole('button', { name: TEXT.initialize }));
    expect(await screen.findByText(TEXT.initialized)).toBeInTheDocument();
    const put = server.to('PUT', '/admin/backuppackages/1')[0];
    expect(put?.url.search).toBe('?initialize=true');
    expect(put?.body).toEqual({ name: 'Office' });
  });
});

describe("PackagesPage: 'Pay now' (000 §2, §7)", () => {
  it("offers a direct customer with invoices due the billing system's mass payment page", async () => {
    open(undefined, () => ok(storageOf(1)), { boltCustomer: true, unpaidInvoices: 2 });
    const payNow = await screen.findByRole('link', { name: MESSAGES.billing.payNow });
    expect(payNow).toHaveAttribute('href', billingRedirectHref('masspay'));
  });

  it.each([
    ['a direct customer with nothing due', { boltCustomer: true, unpaidInvoices: 0 }],
    ["a reseller's customer", { boltCustomer: false, unpaidInvoices: 2 }],
  ] as const)('offers %s none', async (_, user) => {
    open(undefined, () => ok(storageOf(1)), user);
    await rowOf('Office');
    expect(screen.queryByRole('link', { name: MESSAGES.billing.payNow })).toBeNull();
  });
});

describe('PackagesPage: headings (issue 29)', () => {
  it('puts each table under its own heading', async () => {
    open(undefined, () => ok(storageOf(1)));
    await rowOf('Office');
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      TEXT.myPackagesTitle,
      MESSAGES.packageRequest.myTableLabel,
      MESSAGES.purchase.templatesTitle,
    ]);
  });
});
