import { type PackageTemplateRow, TIMINGS } from '@portal/domain';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { refreshesDue, renderSignedIn, renderWithToasts, watchRefreshes } from '../../app/testing';
import { fakeServer, message, ok, paged, reply } from '../users/testing';
import { AddTemplateDialog } from './AddTemplateDialog';
import { DeleteTemplateDialog } from './DeleteTemplateDialog';
import { EditTemplateDialog } from './EditTemplateDialog';
import { PackageTemplatesPage } from './PackageTemplatesPage';
import { templateKeys } from './queries';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const template = (overrides: Partial<PackageTemplateRow> = {}): PackageTemplateRow => ({
  id: 4,
  name: 'Small',
  storageQuota: 10,
  storageQuotaUnit: 'GB',
  noOfMachinesLimit: 0,
  storageQuotaInBytes: 10 * 1024 ** 3,
  resellersOnly: false,
  ...overrides,
});

const provider = { role: 'ROLE_BOLT_ADMIN_USER' as const, customerId: null };

describe('PackageTemplatesPage', () => {
  it('pages 5 templates with the quota in human form and Unlimited for 0 machines', async () => {
    const rows = Array.from({ length: 6 }, (_, i) => template({ id: i + 1, name: `T${i + 1}`, noOfMachinesLimit: i }));
    const server = fakeServer(({ url }) =>
      url.pathname === '/boltadmin/backuppackagetemplatespaginated' ? ok(paged(rows, url, 5)) : undefined,
    );
    renderSignedIn(<PackageTemplatesPage audience="provider" />, provider);
    const table = await screen.findByRole('table', { name: 'Package templates' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(6));
    expect(within(table).getByText('T1').closest('tr')).toHaveTextContent('10 GBUnlimited');
    expect(within(table).getByText('T2').closest('tr')).toHaveTextContent('10 GB1');
    expect(server.requests[0]?.url.search).toBe('?page=0&size=5');
  });

  it("shows who each of the provider's templates is offered to; a reseller's table has no such column", async () => {
    const rows = [template({ id: 1, name: 'Basic' }), template({ id: 2, name: 'Reseller 20 TB', resellersOnly: true })];
    fakeServer(({ url }) => (url.pathname.endsWith('paginated') ? ok(paged(rows, url, 5)) : undefined));
    renderSignedIn(<PackageTemplatesPage audience="provider" />, provider);
    const table = await screen.findByRole('table', { name: 'Package templates' });
    expect(within(table).getByRole('columnheader', { name: 'Offered to' })).toBeInTheDocument();
    await waitFor(() => expect(within(table).getByText('Reseller 20 TB')).toBeInTheDocument());
    expect(
      within(within(table).getByText('Reseller 20 TB').closest('tr') as HTMLElement).getByTestId('status-badge'),
    ).toHaveTextContent('Resellers only');
    expect(within(table).getByText('Basic').closest('tr')).toHaveTextContent('Every customer');
    cleanup();

    renderSignedIn(<PackageTemplatesPage audience="reseller" />, { resellerEnabled: true });
    const own = await screen.findByRole('table', { name: 'Package templates' });
    expect(within(own).queryByRole('columnheader', { name: 'Offered to' })).not.toBeInTheDocument();
  });

  it("says 'There are no package templates' when there are none", async () => {
    fakeServer(({ url }) => (url.pathname.endsWith('paginated') ? ok(paged([], url, 5)) : undefined));
    renderSignedIn(<PackageTemplatesPage audience="reseller" />, { resellerEnabled: true });
    expect(await screen.findByText('There are no package templates')).toBeInTheDocument();
  });
});

describe('AddTemplateDialog', () => {
  function open() {
    const onHide = vi.fn();
    const refreshed = watchRefreshes();
    const events = renderWithToasts(
      <AddTemplateDialog show audience="provider" onHide={onHide} animation={false} />,
      provider,
    );
    return { events, onHide, refreshed };
  }

  it('starts from the defaults, unticking sends 0 machines, and toasts the creation', async () => {
    const server = fakeServer(({ method }) => (method === 'POST' ? ok(template()) : undefined));
    const { events, onHide, refreshed } = open();
    expect(screen.getByLabelText('package template name')).toHaveValue('');
    expect(screen.getByLabelText('Storage quota')).toHaveValue(10);
    expect(screen.getByLabelText('Storage quota')).toHaveAttribute('placeholder', 'Storage quota in MBs');
    expect(screen.getByLabelText('Storage quota unit')).toHaveValue('GB');
    expect(screen.getByLabelText('Limit number of machines?')).toBeChecked();
    expect(screen.getByLabelText('Number of machines')).toHaveValue(10);

    await events.type(screen.getByLabelText('package template name'), 'Office');
    await events.click(screen.getByLabelText('Limit number of machines?'));
    expect(screen.queryByLabelText('Number of machines')).not.toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Package template created')).toBeInTheDocument();
    expect(server.to('POST', '/boltadmin/backuppackagetemplates')[0]?.body).toEqual({
      name: 'Office',
      storageQuota: 10,
      storageQuotaUnit: 'GB',
      noOfMachinesLimit: 0,
      resellersOnly: false,
    });
    expect(onHide).toHaveBeenCalled();
    // The list refreshes 2 s after the change (000 §2), not at once.
    expect(refreshed()).not.toContainEqual(templateKeys.list('provider'));
    await refreshesDue(TIMINGS.templateListRefreshMs);
    expect(refreshed()).toContainEqual(templateKeys.list('provider'));

    // Ticking again sets 10.
    await events.click(screen.getByLabelText('Limit number of machines?'));
    expect(screen.getByLabelText('Number of machines')).toHaveValue(10);
  });

  it("sends 'For resellers only' ticked by the provider; a reseller's form has no such switch", async () => {
    const server = fakeServer(({ method }) => (method === 'POST' ? ok(template()) : undefined));
    const { events } = open();
    const audience = screen.getByRole('checkbox', { name: 'For resellers only' });
    expect(audience).not.toBeChecked();
    expect(screen.getByText(/direct customers and the public sign-up do not see it/)).toBeInTheDocument();
    await events.type(screen.getByLabelText('package template name'), 'Reseller 20 TB');
    await events.click(audience);
    await events.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(server.to('POST', '/boltadmin/backuppackagetemplates')).toHaveLength(1));
    expect(server.to('POST', '/boltadmin/backuppackagetemplates')[0]?.body).toMatchObject({
      name: 'Reseller 20 TB',
      resellersOnly: true,
    });
  });

  it("shows no 'For resellers only' to a reseller", () => {
    renderSignedIn(<AddTemplateDialog show audience="reseller" onHide={vi.fn()} animation={false} />, {
      resellerEnabled: true,
    });
    expect(screen.getByLabelText('package template name')).toBeInTheDocument();
    expect(screen.queryByLabelText('For resellers only')).not.toBeInTheDocument();
  });

  it('checks the fields before sending, and shows the server field and unknown error texts', async () => {
    let answer = () => reply(400, { messages: [message('name', 'Name is taken')] });
    const server = fakeServer(({ method }) => (method === 'POST' ? answer() : undefined));
    const { events, onHide } = open();
    await events.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('package template name is required', { exact: false })).toBeInTheDocument();
    expect(server.requests).toHaveLength(0);

    await events.type(screen.getByLabelText('package template name'), 'Office');
    await events.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Name is taken')).toHaveClass('invalid-feedback');

    answer = () => reply(500, {});
    await events.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Error while submitting form')).toBeInTheDocument();
    expect(onHide).not.toHaveBeenCalled();
  });
});

describe('EditTemplateDialog and DeleteTemplateDialog', () => {
  it('renames with the name only', async () => {
    const server = fakeServer(({ method }) => (method === 'PUT' ? ok(template({ name: 'Bigger' })) : undefined));
    const onHide = vi.fn();
    const events = renderWithToasts(
      <EditTemplateDialog show audience="reseller" template={template()} onHide={onHide} animation={false} />,
      { resellerEnabled: true },
    );
    const name = screen.getByLabelText('package template name');
    expect(name).toHaveValue('Small');
    await events.clear(name);
    await events.type(name, 'Bigger');
    await events.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Package template updated!')).toBeInTheDocument();
    expect(server.to('PUT', '/admin/mypackagetemplates/4')[0]?.body).toEqual({ name: 'Bigger' });
    expect(onHide).toHaveBeenCalled();
  });

  it("lets the provider change 'For resellers only' with the name", async () => {
    const server = fakeServer(({ method }) => (method === 'PUT' ? ok(template()) : undefined));
    const events = renderSignedIn(
      <EditTemplateDialog
        show
        audience="provider"
        template={template({ resellersOnly: true })}
        onHide={vi.fn()}
        animation={false}
      />,
      provider,
    );
    const audience = screen.getByRole('checkbox', { name: 'For resellers only' });
    expect(audience).toBeChecked();
    await events.click(audience);
    await events.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.to('PUT', '/boltadmin/backuppackagetemplates/4')).toHaveLength(1));
    expect(server.to('PUT', '/boltadmin/backuppackagetemplates/4')[0]?.body).toEqual({
      name: 'Small',
      resellersOnly: false,
    });
  });

  it('asks before deleting and shows why a used template stays', async () => {
    let answer = () => reply(400, { messages: [message('', 'This template is in use')] });
    fakeServer(({ method }) => (method === 'DELETE' ? answer() : undefined));
    const onHide = vi.fn();
    const events = renderWithToasts(
      <DeleteTemplateDialog show audience="provider" template={template()} onHide={onHide} animation={false} />,
      provider,
    );
    expect(screen.getByText('Are you sure you want to delete package template called Small?')).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByTestId('global-errors')).toHaveTextContent('This template is in use');
    expect(onHide).not.toHaveBeenCalled();

    answer = () => ok(null);
    await events.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Package template deleted!')).toBeInTheDocument();
    expect(onHide).toHaveBeenCalled();
  });
});
