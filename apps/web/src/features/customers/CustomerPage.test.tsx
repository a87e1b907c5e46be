import {
  type CustomerDetail,
  type CustomerPackageRow,
  MESSAGES,
  madeReseller,
  madeResellerWithErrors,
  PACKAGES_PAGE_SIZE,
  ROUTES,
  STORAGE_LOCATION_TEXTS,
  type StorageLocationRow,
  unknownWhileMakingReseller,
} from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestUser } from '../../app/testing';
import { fakeServer, message, ok, paged, reply, userRow } from '../users/testing';
import { CustomerPage } from './CustomerPage';
import { customerDetail, PROVIDER, packageRow, RESELLER, renderAt } from './testing';

const TEXT = MESSAGES.customer;

afterEach(() => vi.unstubAllGlobals());

const BASE = { provider: '/boltadmin/customers', reseller: '/admin/mycustomers' } as const;

interface Setup {
  customer?: CustomerDetail;
  audience?: 'provider' | 'reseller';
  user?: Partial<TestUser>;
  /** The answer to the change calls (PUT, DELETE); by default OK with the changed customer. */
  change?: (request: { method: string; url: URL; body: unknown }) => Response | Promise<Response>;
  /** The customer's packages; by default one, 'Head office'. */
  packages?: CustomerPackageRow[];
}

/** The customer's one location, its default, in the provider's storage locations table. */
const LOCATION: StorageLocationRow = {
  id: 5,
  customerId: 7,
  bucketId: 9,
  bucketName: 'contoso',
  subfolder: 'backups',
  defaultForCustomer: true,
  numberOfBackupPackages: 1,
  storageAccount: { id: 4, name: 'Local storage', type: 'LOCAL' },
  deleteable: false,
  defaultable: false,
  storageLocationUrl: '/boltadmin/customers/7/storagelocations/5',
};

function setup({
  customer = customerDetail({ id: 7 }),
  audience = 'provider',
  user,
  change,
  packages = [packageRow({ id: 21, name: 'Head office' })],
}: Setup = {}) {
  const base = `${BASE[audience]}/7`;
  let current = customer;
  const server = fakeServer((request) => {
    const { method, url } = request;
    if (method !== 'GET') {
      if (change) return change(request);
      const status = url.searchParams.get('status');
      if (status)
        current = {
          ...current,
          status: status as CustomerDetail['status'],
          displayStatus: status as CustomerDetail['status'],
        };
      if (url.pathname.endsWith('/plugins')) current = { ...current, ...(request.body as object) };
      return ok(method === 'DELETE' ? null : current);
    }
    if (url.pathname === base) return ok(current);
    if (url.pathname === `${base}/users`)
      return ok(paged([userRow({ firstName: 'Megan', manageableByLoggedInUser: false })], url));
    if (url.pathname === `${base}/backuppackages`) return ok(paged(packages, url, PACKAGES_PAGE_SIZE));
    if (url.pathname === `${base}/storagelocations`) return ok({ elements: [LOCATION] });
    return undefined;
  });
  const events = renderAt(
    `${BASE[audience]}/:customerId`,
    `${base}`,
    <CustomerPage audience={audience} />,
    user ?? (audience === 'provider' ? PROVIDER : RESELLER),
  );
  return { server, user: events, base };
}

const details = () => screen.findByRole('table', { name: TEXT.detailsTitle });
const rowValue = (table: HTMLElement, label: string) =>
  within(table).getByRole('rowheader', { name: label }).nextElementSibling as HTMLElement;
const button = (name: string) => screen.queryByRole('button', { name });

async function openDialog(user: UserEvent, opener: string) {
  await user.click(await screen.findByRole('button', { name: opener }));
  return screen.findByRole('dialog');
}

describe('customer page (002 §2.5)', () => {
  it('shows the provider every field of the customer, its storage, users and packages', async () => {
    const { server } = setup({
      customer: customerDetail({
        id: 7,
        companyName: 'Contoso Ltd',
        displayName: 'Contoso Ltd',
        parentResellerCustomerId: 3,
        parentResellerCompanyName: 'Northwind Backup',
        cpanelPluginEnabled: true,
        storageLocationAndAccountDisplayDtos: [
          {
            storageLocation: {
              id: 1,
              customerId: 7,
              bucketId: 2,
              bucketName: 'contoso',
              subfolder: 'backups',
              defaultForCustomer: true,
              numberOfBackupPackages: 1,
            },
            storageAccount: { id: 4, name: 'Local storage', defaultStorageAccount: true, type: 'LOCAL' },
          },
        ],
      }),
    });
    const table = await details();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Contoso Ltd');
    expect(rowValue(table, TEXT.rows.companyName)).toHaveTextContent('Contoso Ltd');
    expect(rowValue(table, TEXT.rows.status)).toHaveTextContent('Active');
    expect(rowValue(table, TEXT.rows.type)).toHaveTextContent('RESELLER CLIENT');
    expect(
      within(rowValue(table, TEXT.rows.superAdminName)).getByRole('link', { name: 'Adele Vance' }),
    ).toHaveAttribute('href', '/boltadmin/customers/7/users/70');
    expect(rowValue(table, TEXT.rows.superAdminEmail)).toHaveTextContent('admin7@example.test');
    expect(within(rowValue(table, TEXT.rows.parentReseller)).getByRole('link')).toHaveAttribute(
      'href',
      '/boltadmin/customers/3',
    );
    expect(rowValue(table, TEXT.rows.billingServer)).toHaveTextContent('Billing EU');
    expect(rowValue(table, TEXT.rows.cpanelPluginEnabled)).toHaveTextContent('Yes');
    expect(rowValue(table, TEXT.rows.allowProviderMachineControl)).toHaveTextContent('No');

    const storage = screen.getByRole('table', { name: STORAGE_LOCATION_TEXTS.sectionTitle });
    expect(await within(storage).findByText('contoso/backups')).toBeInTheDocument();
    expect(within(storage).getByRole('link', { name: 'Local storage' })).toHaveAttribute(
      'href',
      '/boltadmin/storageaccounts/4',
    );
    expect(within(storage).getByRole('link', { name: STORAGE_LOCATION_TEXTS.manage })).toHaveAttribute(
      'href',
      '/boltadmin/customers/7/storagelocations/5',
    );
    // The default is neither made default again nor deleted (the row's flags say so).
    expect(within(storage).queryByRole('button', { name: STORAGE_LOCATION_TEXTS.makeDefault })).toBeNull();
    expect(within(storage).queryByRole('button', { name: STORAGE_LOCATION_TEXTS.delete })).toBeNull();

    const users = await screen.findByRole('table', { name: 'Users' });
    expect(await within(users).findByText('Megan')).toBeInTheDocument();
    expect(within(users).getByRole('link', { name: /^View/ })).toBeInTheDocument();
    expect(server.to('GET', '/boltadmin/customers/7/users')[0]?.url.searchParams.get('size')).toBe('10');

    const packages = screen.getByRole('table', { name: TEXT.packagesTitle });
    const row = (await within(packages).findByText('Head office')).closest('tr') as HTMLElement;
    expect(
      within(packages)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(Object.values(TEXT.packageColumns));
    expect(within(row).getByText('Used: 5 GB of 10 GB, available: 5 GB')).toBeInTheDocument();
    expect(within(row).getByText('3')).toBeInTheDocument();
    expect(within(row).getByText('Local storage')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Manage Head office' })).toHaveAttribute(
      'href',
      '/boltadmin/customers/7/backuppackages/21',
    );
    expect(document.getElementById('packages')).toContainElement(packages);
  });

  it('shows a new signup with its badge and, beside the displayed status, the stored one', async () => {
    setup({
      customer: customerDetail({ id: 7, status: 'APPROVED', displayStatus: 'SIGNUP_REQUESTED', newSignup: true }),
    });
    const table = await details();
    expect(rowValue(table, TEXT.rows.status)).toHaveTextContent('Signup requested');
    expect(rowValue(table, TEXT.rows.storedStatus)).toHaveTextContent('Approved');
    expect(rowValue(table, TEXT.rows.type)).toHaveTextContent('DIRECTNEW SIGNUP');
  });

  it("offers each action by the customer's abilities", async () => {
    setup({ customer: customerDetail({ id: 7, deleteable: false, makeResellerAllowed: false }) });
    await details();
    expect(button(TEXT.changeStatusButton)).toBeInTheDocument();
    expect(button(TEXT.pluginSettingsButton)).toBeInTheDocument();
    expect(button(TEXT.makeResellerButton)).toBeNull();
    expect(button(TEXT.deleteButton)).toBeNull();
  });

  it('offers delete for a suspended customer and make reseller when the server allows it', async () => {
    setup({
      customer: customerDetail({
        id: 7,
        status: 'SUSPENDED',
        statusOptions: ['ACTIVE'],
        deleteable: true,
        makeResellerAllowed: true,
      }),
    });
    await details();
    expect(button(TEXT.deleteButton)).toBeInTheDocument();
    expect(button(TEXT.makeResellerButton)).toBeInTheDocument();
  });

  it('gives a reseller admin status change and delete only, and no provider fields', async () => {
    const { server } = setup({
      audience: 'reseller',
      customer: customerDetail({ id: 7, status: 'SUSPENDED', deleteable: true, makeResellerAllowed: true }),
    });
    const table = await details();
    expect(button(TEXT.changeStatusButton)).toBeInTheDocument();
    expect(button(TEXT.deleteButton)).toBeInTheDocument();
    expect(button(TEXT.pluginSettingsButton)).toBeNull();
    expect(button(TEXT.makeResellerButton)).toBeNull();
    expect(within(table).queryByRole('rowheader', { name: TEXT.rows.billingServer })).toBeNull();
    expect(within(table).queryByRole('rowheader', { name: TEXT.rows.cpanelPluginEnabled })).toBeNull();
    expect(screen.queryByRole('table', { name: STORAGE_LOCATION_TEXTS.sectionTitle })).toBeNull();
    expect(screen.getByRole('link', { name: TEXT.myCustomersTitle })).toHaveAttribute('href', '/admin/mycustomers');
    await waitFor(() => expect(server.to('GET', '/admin/mycustomers/7/users')).toHaveLength(1));
    expect(server.to('GET', '/admin/mycustomers/7/backuppackages')).toHaveLength(1);
    // Issue 32: the customer's verification report, downloaded through the managed customer's calls.
    expect(screen.getByTestId('customer-verification-csv').getAttribute('href')).toMatch(
      new RegExp(`^${ROUTES.verificationReport.customerCsv.build({ customerId: 7 })}\\?from=\\d{4}-\\d{2}-\\d{2}&to=`),
    );
    expect(screen.getByTestId('customer-verification-pdf').getAttribute('href')).toContain(
      ROUTES.verificationReport.customerPdf.build({ customerId: 7 }),
    );
  });

  it('gives a read-only admin no actions', async () => {
    setup({ user: { ...PROVIDER, readOnly: true }, customer: customerDetail({ id: 7, deleteable: true }) });
    await details();
    expect(button(TEXT.changeStatusButton)).toBeNull();
    expect(button(TEXT.deleteButton)).toBeNull();
  });

  it('shows the not-found page for a customer the caller cannot see', async () => {
    fakeServer(() => reply(404, { responseSummaryCode: 'NOT_FOUND' }));
    renderAt('/boltadmin/customers/:customerId', '/boltadmin/customers/9', <CustomerPage audience="provider" />);
    expect(await screen.findByText(MESSAGES.notFound)).toBeInTheDocument();
  });
});

describe('change status of customer (002 §4.1, §5.4)', () => {
  it("offers the stored status's changes, the first preselected, and needs the admin's exact full name", async () => {
    const { server, user } = setup({
      customer: customerDetail({
        id: 7,
        status: 'BLOCKED',
        displayStatus: 'BLOCKED',
        statusOptions: ['ACTIVE', 'SUSPENDED'],
      }),
    });
    const dialog = await openDialog(user, TEXT.changeStatusButton);
    const select = within(dialog).getByRole('combobox', { name: TEXT.newStatusLabel });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Active', 'Suspended']);
    expect(select).toHaveValue('ACTIVE');
    expect(
      within(dialog).getByText("Type the customer admin's full name, Adele Vance, to confirm."),
    ).toBeInTheDocument();

    const name = within(dialog).getByRole('textbox');
    await user.type(name, 'adele vance');
    await user.click(within(dialog).getByRole('button', { name: TEXT.changeStatusSubmit }));
    expect(await within(dialog).findByText(MESSAGES.confirmByName.customerStatusChange)).toBeInTheDocument();
    expect(server.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);

    await user.selectOptions(select, 'SUSPENDED');
    await user.clear(name);
    await user.type(name, 'Adele Vance');
    await user.click(within(dialog).getByRole('button', { name: TEXT.changeStatusSubmit }));

    expect(await screen.findByText(TEXT.statusUpdated)).toBeInTheDocument();
    const [put] = server.to('PUT', '/boltadmin/customers/7');
    expect(put?.url.search).toBe('?status=SUSPENDED');
    expect(put?.body).toBeUndefined();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(rowValue(await details(), TEXT.rows.status)).toHaveTextContent('Suspended');
  });

  it('starts again from the first option and an empty name when opened again', async () => {
    const { user } = setup({ customer: customerDetail({ id: 7, statusOptions: ['ACTIVE', 'SUSPENDED'] }) });
    let dialog = await openDialog(user, TEXT.changeStatusButton);
    await user.selectOptions(within(dialog).getByRole('combobox'), 'SUSPENDED');
    await user.type(within(dialog).getByRole('textbox'), 'Adele');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    dialog = await openDialog(user, TEXT.changeStatusButton);
    expect(within(dialog).getByRole('combobox')).toHaveValue('ACTIVE');
    expect(within(dialog).getByRole('textbox')).toHaveValue('');
  });

  it('cannot be closed while the change is under way (002 §4.1)', async () => {
    let answer: (response: Response) => void = () => {};
    const { user } = setup({ change: () => new Promise<Response>((resolve) => (answer = resolve)) });
    const dialog = await openDialog(user, TEXT.changeStatusButton);
    await user.type(within(dialog).getByRole('textbox'), 'Adele Vance');
    await user.click(within(dialog).getByRole('button', { name: TEXT.changeStatusSubmit }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled());
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    answer(ok(customerDetail({ id: 7, status: 'SUSPENDED' })));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('delete customer (002 §4.1, §5.4)', () => {
  const suspended = (overrides: Partial<CustomerDetail> = {}) =>
    customerDetail({
      id: 7,
      status: 'SUSPENDED',
      displayStatus: 'SUSPENDED',
      statusOptions: ['ACTIVE'],
      deleteable: true,
      ...overrides,
    });

  it("deletes after the admin's full name, says it is being deleted, and goes back to the list", async () => {
    const { server, user } = setup({ customer: suspended() });
    const dialog = await openDialog(user, TEXT.deleteButton);
    await user.type(within(dialog).getByRole('textbox'), 'Adele');
    await user.click(within(dialog).getByRole('button', { name: TEXT.deleteSubmit }));
    expect(await within(dialog).findByText(MESSAGES.confirmByName.customerDeletion)).toBeInTheDocument();
    expect(server.to('DELETE', '/boltadmin/customers/7')).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox'), ' Vance');
    await user.click(within(dialog).getByRole('button', { name: TEXT.deleteSubmit }));
    expect(await screen.findByText(TEXT.beingDeleted)).toBeInTheDocument();
    expect(server.to('DELETE', '/boltadmin/customers/7')).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/boltadmin\/customers$/));
  });

  it('takes an empty entry for a customer without an admin name; a reseller deletes on its own path', async () => {
    const { server, user } = setup({
      audience: 'reseller',
      customer: suspended({ superAdminFullName: null, superAdminId: null, superAdminUrl: null }),
    });
    const dialog = await openDialog(user, TEXT.deleteButton);
    expect(
      within(dialog).getByText('The customer has no admin name: leave the field empty to confirm.'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: TEXT.deleteSubmit }));
    expect(await screen.findByText(TEXT.beingDeleted)).toBeInTheDocument();
    expect(server.to('DELETE', '/admin/mycustomers/7')).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/admin\/mycustomers$/));
  });
});

describe('customer plugin settings (002 §7.3)', () => {
  it('starts from the current setting and saves cpanelPluginEnabled', async () => {
    const { server, user } = setup();
    const dialog = await openDialog(user, TEXT.pluginSettingsButton);
    const checkbox = within(dialog).getByRole('checkbox', { name: 'cPanel plugin enabled' });
    expect(checkbox).not.toBeChecked();
    await user.click(checkbox);
    await user.click(within(dialog).getByRole('button', { name: TEXT.pluginSettingsSubmit }));
    expect(await screen.findByText(TEXT.pluginSettingsSaved)).toBeInTheDocument();
    expect(server.to('PUT', '/boltadmin/customers/7/plugins')[0]?.body).toEqual({ cpanelPluginEnabled: true });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(rowValue(await details(), TEXT.rows.cpanelPluginEnabled)).toHaveTextContent('Yes');
  });

  it('shows a message naming the field on the checkbox', async () => {
    const { user } = setup({
      change: () => reply(400, { messages: [message('cpanelPluginEnabled', 'Plugin not available')] }),
    });
    const dialog = await openDialog(user, TEXT.pluginSettingsButton);
    await user.click(within(dialog).getByRole('button', { name: TEXT.pluginSettingsSubmit }));
    expect(await within(dialog).findByText('Plugin not available')).toHaveClass('invalid-feedback');
    expect(within(dialog).queryByTestId('global-errors')).toBeNull();
  });
});

describe('make reseller from the customer page (002 §4.5)', () => {
  it('confirms, makes the customer a reseller and names the company in the toast', async () => {
    const { server, user } = setup({
      customer: customerDetail({ id: 7, companyName: 'Contoso Ltd', makeResellerAllowed: true }),
    });
    const dialog = await openDialog(user, TEXT.makeResellerButton);
    expect(dialog).toHaveTextContent('Make Contoso Ltd a reseller?');
    await user.click(within(dialog).getByRole('button', { name: TEXT.makeResellerSubmit }));
    expect(await screen.findByText(madeReseller('Contoso Ltd'))).toBeInTheDocument();
    expect(server.to('PUT', '/boltadmin/customers/7/makereseller')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

// --- The message paths of 002 §8.1, for every dialog of the page ----------------------------------

interface DialogCase {
  name: string;
  customer: Partial<CustomerDetail>;
  opener: string;
  submit: string;
  /** What to do in the dialog before submitting. */
  fill: (dialog: HTMLElement, user: UserEvent) => Promise<void>;
  warning: string;
  unknown: string;
}

const typeName = async (dialog: HTMLElement, user: UserEvent) => {
  await user.type(within(dialog).getByRole('textbox'), 'Adele Vance');
};

const CASES: DialogCase[] = [
  {
    name: 'change status',
    customer: {},
    opener: TEXT.changeStatusButton,
    submit: TEXT.changeStatusSubmit,
    fill: typeName,
    warning: TEXT.statusUpdatedWithErrors,
    unknown: TEXT.unknownWhileChangingStatus,
  },
  {
    name: 'delete',
    customer: { status: 'SUSPENDED', deleteable: true },
    opener: TEXT.deleteButton,
    submit: TEXT.deleteSubmit,
    fill: typeName,
    warning: TEXT.beingDeletedWithErrors,
    unknown: TEXT.unknownWhileDeleting,
  },
  {
    name: 'plugin settings',
    customer: {},
    opener: TEXT.pluginSettingsButton,
    submit: TEXT.pluginSettingsSubmit,
    fill: async () => {},
    warning: TEXT.pluginSettingsSavedWithErrors,
    unknown: TEXT.unknownWhileSavingPluginSettings,
  },
  {
    name: 'make reseller',
    customer: { makeResellerAllowed: true, companyName: 'Contoso Ltd' },
    opener: TEXT.makeResellerButton,
    submit: TEXT.makeResellerSubmit,
    fill: async () => {},
    warning: madeResellerWithErrors('Contoso Ltd'),
    unknown: unknownWhileMakingReseller('Contoso Ltd'),
  },
];

describe.each(CASES)('$name dialog: message paths of 002 §8.1', (c) => {
  async function submitWith(change: Setup['change']) {
    const { user } = setup({ customer: customerDetail({ id: 7, ...c.customer }), change });
    const dialog = await openDialog(user, c.opener);
    await c.fill(dialog, user);
    await user.click(within(dialog).getByRole('button', { name: c.submit }));
    return dialog;
  }

  it('shows a message without a field in the dialog, which stays open', async () => {
    const dialog = await submitWith(() => reply(400, { messages: [message('', 'Not allowed for this customer')] }));
    expect(await within(dialog).findByTestId('global-errors')).toHaveTextContent('Not allowed for this customer');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('warns when the change was made with messages, and shows them', async () => {
    const dialog = await submitWith(() => ok(customerDetail({ id: 7, ...c.customer }), [message('', 'Mail not sent')]));
    expect(await screen.findByText(c.warning)).toBeInTheDocument();
    expect(within(dialog).getByTestId('global-errors')).toHaveTextContent('Mail not sent');
  });

  it("says 'Unkown error encountered while ...' when refused without messages", async () => {
    const dialog = await submitWith(() => reply(500, {}));
    expect(await within(dialog).findByTestId('global-errors')).toHaveTextContent(c.unknown);
  });

  it('says the server could not be reached on a network error', async () => {
    const dialog = await submitWith(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await screen.findByText(MESSAGES.communicationError)).toBeInTheDocument();
    expect(dialog).toBeInTheDocument();
  });
});

describe("the customer's packages table (002 §2.3, 000 §9)", () => {
  it.each([
    'provider',
    'reseller',
  ] as const)("gives the %s admin each package's billing product button and pages 5 rows", async (audience) => {
    const opened = vi.spyOn(window, 'open').mockReturnValue(null);
    const productUrl = 'http://billing.test/clientarea.php?action=productdetails&id=5001';
    const packages = [
      packageRow({ id: 21, name: 'Billed', paymentUrl: productUrl }),
      packageRow({ id: 22, name: 'Unbilled', paymentUrl: null }),
      ...Array.from({ length: 5 }, (_, i) => packageRow({ id: 30 + i, name: `More ${i}` })),
    ];
    const { server, user, base } = setup({ audience, packages });
    const table = await screen.findByRole('table', { name: TEXT.packagesTitle });
    const billed = (await within(table).findByText('Billed')).closest('tr') as HTMLElement;
    const unbilled = within(table).getByText('Unbilled').closest('tr') as HTMLElement;
    const label = MESSAGES.packagePages.billingProduct;
    expect(within(unbilled).getByRole('button', { name: `${label} Unbilled` })).toBeDisabled();
    await user.click(within(billed).getByRole('button', { name: `${label} Billed` }));
    expect(opened).toHaveBeenCalledWith(productUrl, '_blank', 'noopener');
    // Five rows a page: the sixth and seventh are on the next one.
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 5);
    const asked = server.to('GET', `${base}/backuppackages`)[0]?.url;
    expect(asked?.searchParams.get('size')).toBe('5');
    opened.mockRestore();
  });
});
