import { type MachineDetail, MESSAGES, STORAGE_LOCATION_TEXTS } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestUser } from '../../app/testing';
import { PROVIDER, renderAt } from '../customers/testing';
import { fakeServer, message, ok, reply } from '../users/testing';
import { MachinePage } from './MachinePage';
import { machineDetail, storageOf } from './testing';

const TEXT = MESSAGES.backupMachine;
const ADMIN: Partial<TestUser> = { role: 'ROLE_CUSTOMER_ADMIN_USER', customerId: 7 };

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

interface Setup {
  machine?: MachineDetail;
  user?: Partial<TestUser>;
  provider?: boolean;
  /** The answer to the change calls; by default OK with the changed machine. */
  change?: (request: { method: string; url: URL; body: unknown }) => Response | undefined;
  storage?: () => Response;
}

function setup({
  machine = machineDetail({ id: 5, name: 'Alpha' }),
  user = ADMIN,
  provider,
  change,
  storage,
}: Setup = {}) {
  let current = machine;
  const server = fakeServer((request) => {
    const { method, url } = request;
    if (method !== 'GET') {
      const answer = change?.(request);
      if (answer) return answer;
      if (method === 'PUT' && url.pathname === '/backupmachines/5') {
        current = { ...current, ...(request.body as object) };
        return ok(current);
      }
      const status = url.searchParams.get('status');
      if (status) current = { ...current, status: status as MachineDetail['status'] };
      return ok(null);
    }
    if (url.pathname === '/backupmachines/5') return ok(current);
    if (url.pathname === '/backupmachines/5/storage') return storage ? storage() : ok(storageOf(5));
    if (url.pathname.endsWith('/backupmachines/5/logfiles'))
      return ok([{ fileName: 'agent.log', lastModified: '2026-11-20T08:00:00.000Z' }]);
    return undefined;
  });
  const path = provider ? '/boltadmin/customers/7/backuppackages/21/backupmachines/5' : '/backupmachines/5';
  const pattern = provider
    ? '/boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId'
    : '/backupmachines/:machineId';
  const events = renderAt(pattern, path, <MachinePage audience={provider ? 'provider' : 'customer'} />, user);
  return { server, events };
}

// The first render loads the page's code and data on a shared CPU: wait for it, not for a fixed time.
const heading = () => screen.findByRole('heading', { name: 'Alpha' }, { timeout: 10_000 });

describe('MachinePage: remote management and the add-task button (002 §4.2, §6; issue 29)', () => {
  const R = MESSAGES.remoteManagement;

  it('switches remote management off; the add-task button is then disabled with its reason and opens no form', async () => {
    const { server, events } = setup({
      machine: machineDetail({ id: 5, name: 'Alpha' }),
      change: ({ method, url, body }) => {
        if (method !== 'PUT' || url.pathname !== '/backupmachines/5/remotemanagement') return undefined;
        const on = (body as { remoteManagementEnabled: boolean }).remoteManagementEnabled;
        return ok(
          machineDetail({
            id: 5,
            name: 'Alpha',
            remoteManagementEnabled: on,
            remoteManagementTooltip: on ? R.turnOff : R.turnOn,
            addTaskBlockedReason: on ? null : MESSAGES.liveChannel.remoteManagementDisabled,
          }),
        );
      },
    });
    await heading();
    expect(screen.getByRole('button', { name: 'Add backup task' })).toBeEnabled();
    await events.click(screen.getByRole('button', { name: R.turnOff }));
    expect(await screen.findByText(R.turnedOff)).toBeInTheDocument();
    expect(server.to('PUT', '/backupmachines/5/remotemanagement')[0]?.body).toEqual({ remoteManagementEnabled: false });
  });

  it('says why before anyone fills a form, and keeps the dialog shut', async () => {
    setup({
      machine: machineDetail({
        id: 5,
        name: 'Alpha',
        remoteManagementEnabled: false,
        remoteManagementSwitchable: false,
        remoteManagementTooltip: MESSAGES.liveChannel.readOnlyUser,
        addTaskBlockedReason: MESSAGES.liveChannel.remoteManagementDisabled,
      }),
    });
    await heading();
    expect(screen.getByTestId('add-task-reason')).toHaveTextContent(MESSAGES.liveChannel.remoteManagementDisabled);
    expect(screen.getByRole('button', { name: 'Add backup task' })).toBeDisabled();
    expect(screen.getByTestId('remote-management-reason')).toHaveTextContent(MESSAGES.liveChannel.readOnlyUser);
    expect(screen.getByRole('button', { name: R.turnOn })).toBeDisabled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("disables the provider's restic diagnostics with the reason when the customer does not allow machine control", async () => {
    const base = '/boltadmin/customers/7/backuppackages/21/backupmachines/5';
    const { events } = setup({
      provider: true,
      user: PROVIDER,
      machine: machineDetail({
        id: 5,
        name: 'Alpha',
        backupMachineUrl: base,
        diagnosticsBlockedReason: R.providerControlOff,
      }),
    });
    await heading();
    const button = screen.getByRole('button', { name: MESSAGES.resticDiagnostics.openButton });
    expect(button).toBeDisabled();
    await events.hover(button.parentElement as HTMLElement);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(R.providerControlOff);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('MachinePage', () => {
  it('shows the detail header with the storage widget, the assigned user link and presence', async () => {
    setup();
    await heading();
    const details = screen.getByTestId('machine-details');
    expect(within(details).getByText('Office PC')).toBeInTheDocument();
    expect(within(details).getByText('Debian 12')).toBeInTheDocument();
    expect(within(details).getByRole('link', { name: 'Jane Doe' })).toHaveAttribute('href', '/admin/account/users/9');
    expect(await within(details).findByText('Used: 512 MB of 1 GB, available: 512 MB')).toBeInTheDocument();
    expect(within(details).getByTestId('machine-presence')).toHaveTextContent(
      `${TEXT.offline} ${TEXT.lastSeen}: ${TEXT.neverSeen}`,
    );
  });

  it('shows the assigned user as text without a user URL, and a failed storage read as such', async () => {
    setup({
      machine: machineDetail({ id: 5, name: 'Alpha', assignedUserUrl: null, online: true }),
      storage: () => reply(404, {}),
    });
    await heading();
    const details = screen.getByTestId('machine-details');
    expect(within(details).queryByRole('link', { name: 'Jane Doe' })).not.toBeInTheDocument();
    expect(within(details).getByText('Jane Doe')).toBeInTheDocument();
    expect(await within(details).findByText('Could not obtain storage size')).toBeInTheDocument();
    expect(within(details).getByTestId('machine-presence')).toHaveTextContent(TEXT.online);
  });

  it('is a not-found page for a machine the server does not show', async () => {
    fakeServer(() => reply(404, { messages: [message('', TEXT.notFound)] }));
    renderAt('/backupmachines/:machineId', '/backupmachines/5', <MachinePage audience="customer" />, ADMIN);
    expect(await screen.findByText(MESSAGES.notFound)).toBeInTheDocument();
  });

  it('offers only what the server allows: a plain user edits and views the log', async () => {
    setup({
      machine: machineDetail({ id: 5, name: 'Alpha', administrable: false, statusOptions: [], deleteable: false }),
      user: { role: 'ROLE_CUSTOMER_USER', customerId: 7 },
    });
    await heading();
    expect(screen.getByRole('button', { name: TEXT.editButton })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: TEXT.messageLogButton })).toBeInTheDocument();
    for (const name of [TEXT.changeStatusButton, TEXT.deleteButton, TEXT.refreshStorageButton, TEXT.logUploadButton])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
  });

  it('edits name and description, with field messages from the form and the server', async () => {
    let fail = true;
    const { server, events } = setup({
      change: ({ method }) =>
        method === 'PUT' && fail ? reply(400, { messages: [message('name', 'Name is taken')] }) : undefined,
    });
    await heading();
    await events.click(screen.getByRole('button', { name: TEXT.editButton }));
    const dialog = await screen.findByRole('dialog', { name: TEXT.editDialogTitle });
    const name = within(dialog).getByLabelText('Name');
    expect(name).toHaveAttribute('placeholder', TEXT.namePlaceholder);
    expect(within(dialog).getByLabelText('Assigned user')).toBeDisabled();
    await events.clear(name);
    await events.click(within(dialog).getByRole('button', { name: TEXT.editSubmit }));
    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument();
    await events.type(name, 'Alpha 2');
    await events.click(within(dialog).getByRole('button', { name: TEXT.editSubmit }));
    expect(await within(dialog).findByText('Name is taken')).toBeInTheDocument();
    fail = false;
    await events.click(within(dialog).getByRole('button', { name: TEXT.editSubmit }));
    expect(await screen.findByText(TEXT.edited)).toBeInTheDocument();
    expect(server.to('PUT', '/backupmachines/5').at(-1)?.body).toEqual({
      name: 'Alpha 2',
      description: 'Office PC',
      userId: 9,
    });
    expect(await screen.findByRole('heading', { name: 'Alpha 2' })).toBeInTheDocument();
  });

  it('changes status to an allowed one, the first preselected, after the exact name is typed', async () => {
    const { server, events } = setup({
      machine: machineDetail({ id: 5, name: 'Alpha', status: 'BLOCKED', statusOptions: ['ACTIVE', 'SUSPENDED'] }),
    });
    await heading();
    await events.click(screen.getByRole('button', { name: TEXT.changeStatusButton }));
    const dialog = await screen.findByRole('dialog', { name: TEXT.changeStatusTitle });
    const select = within(dialog).getByLabelText(TEXT.newStatusLabel);
    expect(select).toHaveValue('ACTIVE');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.getAttribute('value')),
    ).toEqual(['ACTIVE', 'SUSPENDED']);
    await events.selectOptions(select, 'SUSPENDED');
    await events.type(within(dialog).getByTestId('confirm-name-input'), 'alpha');
    await events.click(within(dialog).getByRole('button', { name: TEXT.changeStatusSubmit }));
    expect(await within(dialog).findByText(MESSAGES.confirmByName.machineStatusChange)).toBeInTheDocument();
    expect(server.to('PUT', '/admin/backuppackages/21/backupmachines/5')).toEqual([]);
    await events.clear(within(dialog).getByTestId('confirm-name-input'));
    await events.type(within(dialog).getByTestId('confirm-name-input'), 'Alpha');
    await events.click(within(dialog).getByRole('button', { name: TEXT.changeStatusSubmit }));
    expect(await screen.findByText(TEXT.statusUpdated)).toBeInTheDocument();
    expect(server.to('PUT', '/admin/backuppackages/21/backupmachines/5')[0]?.url.search).toBe('?status=SUSPENDED');
  });

  it('shows the server’s refusal of a status change in the dialog', async () => {
    const { events } = setup({
      change: () => reply(400, { messages: [message('', TEXT.statusChangeNotAllowed)] }),
    });
    await heading();
    await events.click(screen.getByRole('button', { name: TEXT.changeStatusButton }));
    const dialog = await screen.findByRole('dialog', { name: TEXT.changeStatusTitle });
    await events.type(within(dialog).getByTestId('confirm-name-input'), 'Alpha');
    await events.click(within(dialog).getByRole('button', { name: TEXT.changeStatusSubmit }));
    expect(await within(dialog).findByText(TEXT.statusChangeNotAllowed)).toBeInTheDocument();
  });

  it('deletes a suspended machine after the exact name is typed, then leaves the page', async () => {
    const { server, events } = setup({
      machine: machineDetail({
        id: 5,
        name: 'Alpha',
        status: 'SUSPENDED',
        statusOptions: ['ACTIVE'],
        deleteable: true,
      }),
    });
    await heading();
    await events.click(screen.getByRole('button', { name: TEXT.deleteButton }));
    const dialog = await screen.findByRole('dialog', { name: TEXT.deleteTitle });
    await events.click(within(dialog).getByRole('button', { name: TEXT.deleteSubmit }));
    expect(await within(dialog).findByText(MESSAGES.confirmByName.machineDeletion)).toBeInTheDocument();
    await events.type(within(dialog).getByTestId('confirm-name-input'), 'Alpha');
    await events.click(within(dialog).getByRole('button', { name: TEXT.deleteSubmit }));
    expect(await screen.findByText(TEXT.beingDeleted)).toBeInTheDocument();
    expect(server.to('PUT', '/admin/backuppackages/21/backupmachines/5')[0]?.url.search).toBe('?delete=true');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/backupmachines'));
  });

  it('refreshes the storage space and reads it again', async () => {
    const { server, events } = setup();
    await heading();
    await events.click(screen.getByRole('button', { name: TEXT.refreshStorageButton }));
    const dialog = await screen.findByRole('dialog', { name: TEXT.refreshStorageTitle });
    await events.click(within(dialog).getByRole('button', { name: TEXT.refreshStorageSubmit }));
    expect(await screen.findByText(TEXT.storageRefreshing)).toBeInTheDocument();
    expect(server.to('PUT', '/admin/backuppackages/21/backupmachines/5')[0]?.url.search).toBe('?refresh=true');
    await waitFor(() => expect(server.to('GET', '/backupmachines/5/storage').length).toBeGreaterThan(1));
  });

  it('lets the provider admin replace the storage key of a machine on S3, after confirming', async () => {
    const { server, events } = setup({
      provider: true,
      user: PROVIDER,
      machine: machineDetail({ id: 5, name: 'Alpha', customerId: 7, backupPackageId: 21, storageKeyRotatable: true }),
    });
    await events.click(await screen.findByRole('button', { name: TEXT.rotateStorageKeyButton }));
    const dialog = await screen.findByRole('dialog', { name: TEXT.rotateStorageKeyTitle });
    expect(within(dialog).getByText(TEXT.rotateStorageKeyConfirm)).toBeInTheDocument();
    await events.click(within(dialog).getByRole('button', { name: TEXT.rotateStorageKeySubmit }));
    expect(await screen.findByText(STORAGE_LOCATION_TEXTS.machineKeyRotated)).toBeInTheDocument();
    expect(
      server.to('PUT', '/boltadmin/customers/7/backuppackages/21/backupmachines/5/storagekey/rotate'),
    ).toHaveLength(1);
  });

  it('offers no key replacement where the server does not allow it', async () => {
    setup({ provider: true, user: PROVIDER });
    await screen.findByRole('button', { name: TEXT.refreshStorageButton });
    expect(screen.queryByRole('button', { name: TEXT.rotateStorageKeyButton })).toBeNull();
  });

  it('lets provider admins request log files with the updater option and download them', async () => {
    const base = '/boltadmin/customers/7/backuppackages/21/backupmachines/5';
    const { server, events } = setup({
      provider: true,
      user: PROVIDER,
      machine: machineDetail({ id: 5, name: 'Alpha', backupMachineUrl: base }),
    });
    await heading();
    await events.click(screen.getByRole('button', { name: TEXT.logUploadButton }));
    const dialog = await screen.findByRole('dialog', { name: TEXT.logUploadTitle });
    await events.click(within(dialog).getByLabelText('Also upload updater logs'));
    await events.click(within(dialog).getByRole('button', { name: TEXT.logUploadSubmit }));
    expect(await screen.findByText(TEXT.logUploadSubmitted)).toBeInTheDocument();
    const post = server.to('POST', `${base}/commands/uploadlogfiles`)[0];
    expect(post?.url.search).toBe('?uploadupdaterfiles=true');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await events.click(screen.getByRole('button', { name: TEXT.logFilesButton }));
    const files = await screen.findByRole('dialog', { name: TEXT.logFilesTitle });
    expect(await within(files).findByRole('link', { name: 'agent.log' })).toHaveAttribute(
      'href',
      `${base}/logfiles?filename=agent.log`,
    );
  });
});
