import {
  type AggregateTaskStatus,
  type AttentionList,
  attentionShowingText,
  type DashboardCustomerRow,
  type DashboardMachineRow,
  type DashboardTaskRow,
  type GettingStartedFlags,
  type InitialData,
  MESSAGES,
} from '@portal/domain';
import { NO_ATTENTION } from '@portal/domain/testing/attention';
import { screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWith, signedInData, type TestUser, testBranding } from '../../app/testing';
import { DashboardPage } from './DashboardPage';

// --- a fake dashboard API: filters, pages and counts the rows it is given ---------------------------

interface FakeApi {
  customers: DashboardCustomerRow[];
  /** Machine rows per list path ('/dashboard/customers/3/machines', '/dashboard/machines'). */
  machines: Record<string, DashboardMachineRow[]>;
  tasks: Record<number, DashboardTaskRow[]>;
  gettingStarted: GettingStartedFlags | null;
  attention: AttentionList;
}

let api: FakeApi;
const fetchMock = vi.fn<typeof fetch>();

function ok(result: unknown): Response {
  return new Response(JSON.stringify({ status: 'OK', messages: [], responseSummaryCode: 'OK', result }), {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
  });
}

function countBy<T>(rows: T[], value: (row: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows) counts[value(row)] = (counts[value(row)] ?? 0) + 1;
  return counts;
}

function page<T>(rows: T[], query: URLSearchParams, filters: Record<string, (row: T) => string>) {
  let filtered = rows;
  for (const [param, value] of Object.entries(filters)) {
    const wanted = query.get(param);
    if (wanted) filtered = filtered.filter((row) => value(row) === wanted);
  }
  const number = Number(query.get('page') ?? 0);
  const size = Number(query.get('size') ?? 12);
  return {
    elements: filtered.slice(number * size, (number + 1) * size),
    totalElements: filtered.length,
    totalPages: Math.ceil(filtered.length / size),
  };
}

function answer(url: URL): Response {
  const path = url.pathname;
  const q = url.searchParams;
  if (path === '/dashboard/gettingstarted') return ok(api.gettingStarted);
  if (path === '/dashboard/attention') return ok(api.attention);
  if (path === '/dashboard/customers') {
    return ok(page(api.customers, q, { taskStatus: (r) => r.taskStatus, statusGroup: (r) => r.statusGroup }));
  }
  if (path === '/dashboard/customers/counts') {
    return ok({
      total: api.customers.length,
      taskStatus: countBy(api.customers, (r) => r.taskStatus),
      statusGroup: countBy(api.customers, (r) => r.statusGroup),
    });
  }
  const countsOf = path.match(/^(.*)\/counts$/)?.[1];
  if (countsOf && countsOf in api.machines) {
    const rows = api.machines[countsOf] ?? [];
    return ok({
      total: rows.length,
      taskStatus: countBy(rows, (r) => r.taskStatus),
      status: countBy(rows, (r) => r.status),
    });
  }
  if (path in api.machines) {
    return ok(page(api.machines[path] ?? [], q, { taskStatus: (r) => r.taskStatus, status: (r) => r.status }));
  }
  const tasks = path.match(/^\/dashboard\/backupmachines\/(\d+)\/tasks(\/counts)?$/);
  if (tasks) {
    const rows = api.tasks[Number(tasks[1])] ?? [];
    if (tasks[2]) return ok({ total: rows.length, taskStatus: countBy(rows, (r) => r.displayStatus) });
    return ok(page(rows, q, { taskStatus: (r) => r.displayStatus }));
  }
  return new Response(
    JSON.stringify({ status: 'ERROR', messages: [], responseSummaryCode: 'NOT_FOUND', result: null }),
    { status: 404 },
  );
}

/** The URLs requested so far whose path is `path`, as URL objects. */
function requests(path: string): URL[] {
  return fetchMock.mock.calls
    .map(([input]) => new URL(String(input), 'http://portal.test'))
    .filter((u) => u.pathname === path);
}
const lastRequest = (path: string) => requests(path).at(-1);

beforeEach(() => {
  api = { customers: [], machines: {}, tasks: {}, gettingStarted: null, attention: attention([], {}) };
  fetchMock.mockImplementation(async (input) => answer(new URL(String(input), 'http://portal.test')));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

function attention(
  items: AttentionList['items'],
  counts: Partial<AttentionList['counts']>,
  hasMachines = true,
): AttentionList {
  return { items, counts: { ...NO_ATTENTION, ...counts }, hasMachines };
}

// --- rows ---------------------------------------------------------------------------------------------

const customer = (id: number, overrides: Partial<DashboardCustomerRow> = {}): DashboardCustomerRow => ({
  id,
  name: `Customer ${String(id).padStart(2, '0')}`,
  superAdminEmail: `admin${id}@example.test`,
  status: 'ACTIVE',
  statusGroup: 'ACTIVE',
  types: ['PROVIDER_OWN'],
  taskStatus: 'SUCCESSFUL_TASKS',
  tasksInProgress: false,
  customerUrl: `/boltadmin/customers/${id}`,
  ...overrides,
});

const machine = (
  id: number,
  customerId: number,
  overrides: Partial<DashboardMachineRow> = {},
): DashboardMachineRow => ({
  id,
  name: `PC-${id}`,
  customerId,
  backupPackageId: 1,
  user: 'Ana Silva',
  osFamily: 'WINDOWS',
  operatingSystem: 'Windows 11 Pro',
  softwareVersion: '2.6.0',
  status: 'ACTIVE',
  taskStatus: 'SUCCESSFUL_TASKS',
  tasksInProgress: false,
  online: true,
  backupMachineUrl: `/boltadmin/customers/${customerId}/backuppackages/1/backupmachines/${id}`,
  ...overrides,
});

const task = (id: number, machineId: number, overrides: Partial<DashboardTaskRow> = {}): DashboardTaskRow => ({
  id,
  verification: { status: 'NEVER', lastRestoreTestAt: null, lastRestoreTestFiles: null, lastFullReadAt: null },
  name: `Task ${id}`,
  scheduleDescription: 'Every day at 01:00',
  status: 'ACTIVE',
  displayStatus: 'LAST_SUCCEEDED',
  statusOfLastRun: 'FINISHED_SUCCESS',
  badges: [],
  backupTaskUrl: `/backupmachines/${machineId}/backuptasks/${id}`,
  ...overrides,
});

/** 30 customers: 3 with failed tasks, 2 suspended; customer 1 has two machines, the first with tasks. */
function providerData() {
  const statuses: AggregateTaskStatus[] = ['FAILED_TASKS', 'FAILED_TASKS', 'FAILED_TASKS'];
  api.customers = Array.from({ length: 30 }, (_, i) =>
    customer(i + 1, {
      taskStatus: statuses[i] ?? 'SUCCESSFUL_TASKS',
      ...(i === 10 || i === 11 ? { status: 'SUSPENDED', statusGroup: 'SUSPENDED_OR_BLOCKED' } : {}),
    }),
  );
  api.machines['/dashboard/customers/1/machines'] = [
    machine(11, 1, { tasksInProgress: true }),
    machine(12, 1, { status: 'SUSPENDED', taskStatus: 'NO_RUNNABLE_TASKS', online: false }),
  ];
  api.machines['/dashboard/customers/2/machines'] = [];
  api.machines['/dashboard/customers/-1/machines'] = [machine(11, 1), machine(12, 1), machine(21, 3)];
  api.tasks[11] = [
    task(1, 11, { name: 'Documents' }),
    task(2, 11, { name: 'Photos', status: 'PAUSED', displayStatus: 'NOT_RUNNABLE', badges: ['PAUSED'] }),
  ];
  api.tasks[12] = [];
}

// --- rendering ------------------------------------------------------------------------------------

type User = TestUser;
const PROVIDER: Partial<User> = {
  role: 'ROLE_BOLT_ADMIN_USER',
  customerId: null,
  companyName: null,
  resellerEnabled: true,
};
const RESELLER: Partial<User> = {
  role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER',
  customerId: 5,
  companyName: 'Northwind Backup',
  resellerEnabled: true,
};
const CUSTOMER_USER: Partial<User> = { role: 'ROLE_CUSTOMER_USER', customerId: 7, companyName: 'Contoso Ltd' };
const SUPER_ADMIN: Partial<User> = {
  role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER',
  customerId: 7,
  companyName: 'Contoso Ltd',
};

function renderDashboard(overrides: Partial<User>, page: Partial<InitialData> = {}) {
  return renderWith(
    <MemoryRouter>
      <DashboardPage />
    </MemoryRouter>,
    { ...signedInData(overrides), ...page },
  );
}

const tabNames = () => screen.getAllByRole('tab').map((t) => t.textContent);
const selectedTab = () => screen.getByRole('tab', { selected: true });
const shownPanel = () => screen.getByRole('tabpanel');

/** The provider selects Customer 01, then its machine PC-11: three tabs, the tasks one shown. */
async function openPc11Tasks() {
  providerData();
  const user = renderDashboard(PROVIDER);
  await user.click(await screen.findByRole('button', { name: 'Select Customer 01' }));
  await user.click(await screen.findByRole('button', { name: 'Select PC-11' }));
  return user;
}

describe('dashboard tabs (000 §2)', () => {
  it('provider: selecting a customer, then a machine, opens and switches tabs; closing a tab closes those right of it', async () => {
    providerData();
    const user = renderDashboard(PROVIDER);
    await screen.findByRole('tab');
    expect(tabNames()).toEqual(['Customers']);
    expect(screen.queryByRole('button', { name: /^Close tab/ })).toBeNull();

    await user.click(await screen.findByRole('button', { name: 'Select Customer 01' }));
    expect(tabNames()).toEqual(['Customers', 'Customer 01 machines']);
    expect(selectedTab()).toHaveTextContent('Customer 01 machines');
    const machines = within(shownPanel()).getByRole('table', { name: 'Customer 01 machines' });
    await within(machines).findByRole('button', { name: 'Select PC-11' });
    expect(within(machines).getByRole('link', { name: 'Manage PC-11' })).toHaveAttribute(
      'href',
      '/boltadmin/customers/1/backuppackages/1/backupmachines/11',
    );
    expect(within(machines).getAllByRole('img', { name: 'Tasks in progress' })).toHaveLength(1);
    expect(within(machines).getByRole('img', { name: 'Offline' })).toBeInTheDocument();

    await user.click(within(machines).getByRole('button', { name: 'Select PC-11' }));
    expect(tabNames()).toEqual(['Customers', 'Customer 01 machines', 'PC-11 tasks']);
    expect(selectedTab()).toHaveTextContent('PC-11 tasks');
    const tasks = within(shownPanel()).getByRole('table', { name: 'PC-11 tasks' });
    expect(await within(tasks).findByRole('link', { name: 'Manage Documents' })).toHaveAttribute(
      'href',
      '/backupmachines/11/backuptasks/1',
    );
    const photos = within(tasks).getByRole('row', { name: /Photos/ });
    expect(
      within(photos)
        .getAllByTestId('status-badge')
        .map((b) => b.textContent),
    ).toEqual(['Not runnable', 'PAUSED', 'Never verified']);

    // Back on the machines tab the selected machine offers Unselect.
    await user.click(screen.getByRole('tab', { name: 'Customer 01 machines' }));
    expect(within(shownPanel()).getByRole('button', { name: 'Unselect PC-11' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Close tab Customer 01 machines' }));
    expect(tabNames()).toEqual(['Customers']);
    expect(selectedTab()).toHaveTextContent('Customers');
    expect(within(shownPanel()).getByRole('button', { name: 'Select Customer 01' })).toBeInTheDocument();
  });

  it('closing the tasks tab goes back to the machines tab and clears the machine selection', async () => {
    const user = await openPc11Tasks();
    await user.click(screen.getByRole('button', { name: 'Close tab PC-11 tasks' }));
    expect(tabNames()).toEqual(['Customers', 'Customer 01 machines']);
    expect(selectedTab()).toHaveTextContent('Customer 01 machines');
    expect(within(shownPanel()).getByRole('button', { name: 'Select PC-11' })).toBeInTheDocument();
  });

  it('Unselect closes the dependent tabs', async () => {
    const user = await openPc11Tasks();
    await user.click(screen.getByRole('tab', { name: 'Customer 01 machines' }));
    await user.click(screen.getByRole('button', { name: 'Unselect PC-11' }));
    expect(tabNames()).toEqual(['Customers', 'Customer 01 machines']);

    await user.click(screen.getByRole('tab', { name: 'Customers' }));
    const row = within(shownPanel()).getByRole('row', { name: /Customer 01/ });
    expect(row).toHaveClass('table-active');
    await user.click(within(row).getByRole('button', { name: 'Unselect Customer 01' }));
    expect(tabNames()).toEqual(['Customers']);
  });

  it('tabs can be switched with the arrow keys', async () => {
    providerData();
    const user = renderDashboard(PROVIDER);
    await user.click(await screen.findByRole('button', { name: 'Select Customer 01' }));
    screen.getByRole('tab', { name: 'Customer 01 machines' }).focus();
    await user.keyboard('{ArrowLeft}');
    expect(selectedTab()).toHaveTextContent('Customers');
    expect(document.activeElement).toBe(selectedTab());
    await user.keyboard('{End}');
    expect(selectedTab()).toHaveTextContent('Customer 01 machines');
  });

  it('provider: Select All selects customer -1 and shows All machines; Unselect closes it', async () => {
    providerData();
    const user = renderDashboard(PROVIDER);
    await screen.findByRole('button', { name: 'Select Customer 01' });
    await user.click(screen.getByRole('button', { name: 'Select All' }));
    expect(selectedTab()).toHaveTextContent('All machines');
    expect(await within(shownPanel()).findByRole('button', { name: 'Select PC-21' })).toBeInTheDocument();
    expect(lastRequest('/dashboard/customers/-1/machines')).toBeDefined();
    expect(lastRequest('/dashboard/customers/-1/machines/counts')).toBeDefined();

    await user.click(screen.getByRole('tab', { name: 'Customers' }));
    await user.click(screen.getByRole('button', { name: 'Unselect' }));
    expect(tabNames()).toEqual(['Customers']);
    expect(screen.getByRole('button', { name: 'Select All' })).toBeInTheDocument();
  });

  it('reseller admin: My Customers with a link to their customers pages, and no Select All', async () => {
    providerData();
    renderDashboard(RESELLER);
    await screen.findByRole('tab');
    expect(tabNames()).toEqual(['My Customers']);
    await screen.findByRole('button', { name: 'Select Customer 01' });
    expect(screen.getByRole('table', { name: 'My Customers' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Select All' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Manage my customers' })).toHaveAttribute('href', '/admin/mycustomers');
  });

  it('customer user: no customers tab; starts on the own machines tab, which cannot be closed', async () => {
    api.machines['/dashboard/machines'] = [machine(31, 7), machine(32, 7)];
    api.tasks[31] = [task(5, 31)];
    const user = renderDashboard(CUSTOMER_USER);
    await screen.findByRole('tab', { name: 'Contoso Ltd machines' });
    expect(tabNames()).toEqual(['Contoso Ltd machines']);
    expect(screen.queryByRole('tab', { name: /Customers/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Close tab/ })).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Select PC-31' }));
    expect(requests('/dashboard/customers')).toHaveLength(0);
    expect(lastRequest('/dashboard/machines/counts')).toBeDefined();
    expect(tabNames()).toEqual(['Contoso Ltd machines', 'PC-31 tasks']);
    expect(await within(shownPanel()).findByRole('link', { name: 'Manage Task 5' })).toBeInTheDocument();
  });
});

describe('pies, filters, paging and sorting (000 §2)', () => {
  it('a slice filters the table and resets it to the first page; Show all and the filter icon clear it', async () => {
    providerData();
    const user = renderDashboard(PROVIDER);
    const panel = () => within(shownPanel());
    await screen.findByRole('tabpanel');
    await panel().findByRole('button', { name: 'Select Customer 01' });
    expect(panel().getByTestId('paging-text')).toHaveTextContent('1 to 12 of 30');
    expect(lastRequest('/dashboard/customers')?.searchParams.get('size')).toBe('12');
    expect(lastRequest('/dashboard/customers')?.searchParams.get('sort')).toBe('name,asc');

    await user.click(panel().getByRole('button', { name: 'Next page' }));
    await panel().findByRole('button', { name: 'Select Customer 13' });
    expect(lastRequest('/dashboard/customers')?.searchParams.get('page')).toBe('1');
    expect(panel().getByRole('button', { name: 'Show all' })).toBeDisabled();

    // The pies count the whole scope.
    const taskPie = panel().getByRole('figure', { name: 'Customer task status' });
    expect(within(taskPie).getByRole('button', { name: 'Successful tasks: 27' })).toBeInTheDocument();
    await user.click(within(taskPie).getByRole('button', { name: 'Failed tasks: 3' }));
    await waitFor(() =>
      expect(lastRequest('/dashboard/customers')?.searchParams.get('taskStatus')).toBe('FAILED_TASKS'),
    );
    expect(lastRequest('/dashboard/customers')?.searchParams.get('page')).toBe('0');
    await waitFor(() => expect(panel().getAllByRole('button', { name: /^Select Customer/ })).toHaveLength(3));
    // One page: no pager and no paging text.
    expect(panel().queryByTestId('paging-text')).toBeNull();
    expect(panel().queryByRole('navigation', { name: 'Pagination' })).toBeNull();
    expect(within(taskPie).getByRole('button', { name: 'Failed tasks: 3' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(panel().getByRole('button', { name: 'Show all' }));
    await waitFor(() => expect(panel().getByTestId('paging-text')).toHaveTextContent('1 to 12 of 30'));
    expect(lastRequest('/dashboard/customers')?.searchParams.has('taskStatus')).toBe(false);

    // The other pie filters on the status group; the filter icon sits in the Status header.
    const statusPie = panel().getByRole('figure', { name: 'Customer status' });
    await user.click(within(statusPie).getByRole('button', { name: 'Suspended or blocked: 2' }));
    await waitFor(() => expect(panel().getAllByRole('button', { name: /^Select Customer/ })).toHaveLength(2));
    expect(lastRequest('/dashboard/customers')?.searchParams.get('statusGroup')).toBe('SUSPENDED_OR_BLOCKED');
    expect(lastRequest('/dashboard/customers')?.searchParams.has('taskStatus')).toBe(false);
    const statusHeader = panel().getByRole('columnheader', { name: /^Status/ });
    await user.click(within(statusHeader).getByRole('button', { name: 'Clear filter' }));
    await waitFor(() => expect(panel().getByTestId('paging-text')).toHaveTextContent('1 to 12 of 30'));
    expect(panel().queryByRole('button', { name: 'Clear filter' })).toBeNull();
  });

  it('every column sorts by clicking its header', async () => {
    providerData();
    const user = renderDashboard(PROVIDER);
    await screen.findByRole('button', { name: 'Select Customer 01' });
    for (const [header, column] of [
      ['Super admin email', 'superAdminEmail'],
      ['Status', 'status'],
      ['Tasks status', 'taskStatus'],
    ] as const) {
      await user.click(screen.getByRole('button', { name: header }));
      await waitFor(() => expect(lastRequest('/dashboard/customers')?.searchParams.get('sort')).toBe(`${column},asc`));
    }
    await user.click(screen.getByRole('button', { name: /Tasks status/ }));
    await waitFor(() => expect(lastRequest('/dashboard/customers')?.searchParams.get('sort')).toBe('taskStatus,desc'));
  });

  it('closing a tab forgets its filter', async () => {
    providerData();
    const user = renderDashboard(PROVIDER);
    await user.click(await screen.findByRole('button', { name: 'Select Customer 01' }));
    const statusPie = await within(shownPanel()).findByRole('figure', { name: 'Machine status' });
    await user.click(await within(statusPie).findByRole('button', { name: 'Suspended: 1' }));
    await waitFor(() =>
      expect(lastRequest('/dashboard/customers/1/machines')?.searchParams.get('status')).toBe('SUSPENDED'),
    );
    await user.click(screen.getByRole('button', { name: 'Close tab Customer 01 machines' }));
    const before = requests('/dashboard/customers/1/machines').length;
    await user.click(screen.getByRole('button', { name: 'Select Customer 01' }));
    await within(shownPanel()).findByRole('button', { name: 'Select PC-11' });
    expect(within(shownPanel()).getByRole('button', { name: 'Show all' })).toBeDisabled();
    const after = requests('/dashboard/customers/1/machines');
    expect(after.length).toBeGreaterThanOrEqual(before);
    expect(after.at(-1)?.searchParams.has('status')).toBe(false);
  });
});

describe('empty texts (000 §2)', () => {
  it("'No customers found', with empty rings for pies without data", async () => {
    renderDashboard(PROVIDER);
    expect(await screen.findByRole('cell', { name: 'No customers found' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Customer task status: No data' })).toBeInTheDocument();
  });

  it("'No machines found' and 'No tasks found'", async () => {
    providerData();
    const user = renderDashboard(PROVIDER);
    await user.click(await screen.findByRole('button', { name: 'Select Customer 02' }));
    expect(await within(shownPanel()).findByRole('cell', { name: 'No machines found' })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Customers' }));
    await user.click(screen.getByRole('button', { name: 'Select Customer 01' }));
    await user.click(await within(shownPanel()).findByRole('button', { name: 'Select PC-12' }));
    expect(await within(shownPanel()).findByRole('cell', { name: 'No tasks found' })).toBeInTheDocument();
  });

  it('a filter with no rows shows the empty text', async () => {
    providerData();
    const user = renderDashboard(PROVIDER);
    await screen.findByRole('button', { name: 'Select Customer 01' });
    const taskPie = within(shownPanel()).getByRole('figure', { name: 'Customer task status' });
    await user.click(within(taskPie).getByRole('button', { name: 'Missed tasks 0' }));
    expect(await screen.findByRole('cell', { name: 'No customers found' })).toBeInTheDocument();
  });
});

/** A direct customer's getting-started flags: no payment due and no step done, unless `flags` say otherwise. */
function gettingStarted(flags: Partial<GettingStartedFlags> = {}): GettingStartedFlags {
  return {
    boltCustomer: true,
    firstPaymentRequired: false,
    firstMachineLinkedToUser: false,
    firstBackupTaskCreated: false,
    ...flags,
  };
}

describe('getting-started strip (000 §2)', () => {
  it('lists the steps of a direct customer with the first incomplete one current', async () => {
    api.gettingStarted = gettingStarted();
    renderDashboard(SUPER_ADMIN);
    // The first screen of a cold run may take more than the default second on a busy machine.
    const strip = await screen.findByRole('region', { name: 'Getting started' }, { timeout: 5000 });
    const steps = within(strip).getAllByRole('listitem');
    expect(steps.map((s) => s.textContent)).toEqual([
      '✓Account registered(done)',
      '✓Pay for your backup package(done)',
      '3Install the client and link a machineDesktop app user manual(current step)',
      '4Add your first backup task',
    ]);
    expect(steps[2]).toHaveAttribute('aria-current', 'step');
    expect(steps.filter((s) => s.hasAttribute('aria-current'))).toHaveLength(1);
    // The install step leads to the manual, which says how to install the agent (issue 14).
    expect(within(steps[2] as HTMLElement).getByRole('link', { name: 'Desktop app user manual' })).toHaveAttribute(
      'href',
      '/manual',
    );
  });

  it("links the pay step to the provider's pricing when its public site is set", async () => {
    api.gettingStarted = gettingStarted({ firstPaymentRequired: true });
    renderDashboard(SUPER_ADMIN, { providerSiteUrl: 'https://www.provider.test/pricing' });
    const strip = await screen.findByRole('region', { name: 'Getting started' }, { timeout: 5000 });
    const pay = within(strip).getAllByRole('listitem')[1] as HTMLElement;
    expect(within(pay).getByRole('link', { name: 'Pricing' })).toHaveAttribute(
      'href',
      'https://www.provider.test/pricing',
    );
  });

  it("leads a reseller's customer to the downloads on the reseller's own portal address", async () => {
    api.gettingStarted = gettingStarted({ boltCustomer: false });
    renderDashboard({ ...CUSTOMER_USER, boltCustomer: false }, { branding: testBranding() });
    const strip = await screen.findByRole('region', { name: 'Getting started' }, { timeout: 5000 });
    expect(within(strip).getByRole('link', { name: 'Desktop app user manual' })).toHaveAttribute(
      'href',
      'https://backup.northwind.test/manual',
    );
    expect(within(strip).queryByRole('link', { name: 'Pricing' })).toBeNull();
  });

  it('has no payment step for customers of a reseller', async () => {
    api.gettingStarted = gettingStarted({
      boltCustomer: false,
      firstPaymentRequired: true,
      firstMachineLinkedToUser: true,
    });
    renderDashboard(CUSTOMER_USER);
    const strip = await screen.findByRole('region', { name: 'Getting started' });
    const steps = within(strip).getAllByRole('listitem');
    expect(steps).toHaveLength(3);
    expect(steps[2]).toHaveTextContent('Add your first backup task');
    expect(steps[2]).toHaveAttribute('aria-current', 'step');
  });

  it('is hidden once every step is done, and never asked for by provider admins', async () => {
    api.gettingStarted = gettingStarted({ firstMachineLinkedToUser: true, firstBackupTaskCreated: true });
    renderDashboard(SUPER_ADMIN);
    await waitFor(() => expect(lastRequest('/dashboard/gettingstarted')).toBeDefined());
    await screen.findByRole('cell', { name: 'No machines found' });
    expect(screen.queryByRole('region', { name: 'Getting started' })).toBeNull();
  });

  it('is not shown to provider admins', async () => {
    renderDashboard(PROVIDER);
    await screen.findByRole('cell', { name: 'No customers found' });
    expect(requests('/dashboard/gettingstarted')).toHaveLength(0);
    expect(screen.queryByRole('region', { name: 'Getting started' })).toBeNull();
  });
});

describe('needs attention (issue 31)', () => {
  const TEXT = MESSAGES.dashboard.attention;

  it('lists the newest items above the tabs, each linking to its page, with the counts and how many are shown', async () => {
    api.attention = attention(
      [
        {
          kind: 'TASK_FAILED',
          at: '2026-01-10T03:00:00.000Z',
          customerName: 'Contoso Ltd',
          machineName: 'PC-31',
          taskName: 'Documents',
          url: '/backupmachines/31/backuptasks/5',
        },
        {
          kind: 'MACHINE_OFFLINE',
          at: '2026-01-10T02:00:00.000Z',
          customerName: 'Contoso Ltd',
          machineName: 'PC-32',
          taskName: null,
          url: '/backupmachines/32',
        },
      ],
      { TASK_FAILED: 1, MACHINE_OFFLINE: 14 },
    );
    api.machines['/dashboard/machines'] = [machine(31, 7), machine(32, 7)];
    renderDashboard(SUPER_ADMIN);
    const list = await screen.findByRole('region', { name: TEXT.title });
    const items = within(list).getAllByTestId('attention-item');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Backup failedDocumentsPC-31 · Contoso LtdSince /),
      expect.stringMatching(/^Machine offlinePC-32Contoso LtdSince /),
    ]);
    expect(within(list).getByRole('link', { name: 'Documents' })).toHaveAttribute(
      'href',
      '/backupmachines/31/backuptasks/5',
    );
    expect(within(list).getByRole('link', { name: 'PC-32' })).toHaveAttribute('href', '/backupmachines/32');
    expect(
      within(list)
        .getAllByTestId('attention-count')
        .map((c) => c.textContent),
    ).toEqual(['Backup failed: 1', 'Machine offline: 14']);
    expect(within(list).getByTestId('attention-showing')).toHaveTextContent(attentionShowingText(2, 15));
    // The tabs and pies stay below.
    expect(await screen.findByRole('tab', { name: 'Contoso Ltd machines' })).toBeInTheDocument();
  });

  it('shows once its first answers are in, so nothing moves as they come (a spinner until then)', async () => {
    providerData();
    let answerAttention = () => {};
    const attentionAnswered = new Promise<void>((resolve) => {
      answerAttention = resolve;
    });
    fetchMock.mockImplementation(async (input) => {
      const url = new URL(String(input), 'http://portal.test');
      if (url.pathname === '/dashboard/attention') await attentionAnswered;
      return answer(url);
    });
    renderDashboard(PROVIDER);
    // The tab's rows and pie counts have answered; what needs attention (above them) has not.
    await waitFor(() => expect(requests('/dashboard/customers/counts')).toHaveLength(1));
    await waitFor(() => expect(requests('/dashboard/customers')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const spinner = screen.getByRole('status');
    expect(screen.queryByRole('tab')).toBeNull();
    expect(screen.queryByRole('region', { name: TEXT.title })).toBeNull();
    answerAttention();
    expect(await screen.findByRole('region', { name: TEXT.title })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Customers' })).toBeInTheDocument();
    expect(within(shownPanel()).getByRole('button', { name: 'Select Customer 01' })).toBeInTheDocument();
    expect(spinner).not.toBeInTheDocument();
  });

  it('says when nothing needs attention', async () => {
    renderDashboard(PROVIDER);
    const list = await screen.findByRole('region', { name: TEXT.title });
    expect(list).toHaveTextContent(TEXT.none);
    expect(within(list).queryByRole('list')).toBeNull();
  });

  it('shows a customer account without machines its next steps instead of empty pies', async () => {
    api.attention = attention([], {}, false);
    renderDashboard(SUPER_ADMIN);
    const steps = await screen.findByRole('region', { name: MESSAGES.dashboard.nextSteps.title });
    expect(within(steps).getByRole('button', { name: MESSAGES.machineLink.linkButton })).toBeInTheDocument();
    expect(steps).toHaveTextContent(MESSAGES.dashboard.nextSteps.addTask);
    expect(screen.queryByRole('tablist')).toBeNull();
    expect(screen.queryByRole('figure')).toBeNull();
  });

  it('keeps the customers tab of an admin whose customers have no machine yet', async () => {
    api.attention = attention([], {}, false);
    renderDashboard(PROVIDER);
    expect(await screen.findByRole('cell', { name: 'No customers found' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: MESSAGES.dashboard.nextSteps.title })).toBeNull();
  });
});
