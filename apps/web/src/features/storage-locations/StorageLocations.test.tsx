import { MESSAGES, STORAGE_LOCATION_TEXTS, type StorageLocationRow } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../customers/testing';
import { fakeServer, message, ok, reply } from '../users/testing';
import { StorageLocationPage } from './StorageLocationPage';
import { StorageLocationsSection } from './StorageLocationsSection';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const T = STORAGE_LOCATION_TEXTS;
const M = MESSAGES.storageLocation;
const BASE = '/boltadmin/customers/7/storagelocations';

function location(overrides: Partial<StorageLocationRow> = {}): StorageLocationRow {
  const id = overrides.id ?? 5;
  return {
    id,
    customerId: 7,
    bucketId: 9,
    bucketName: 'c7-contoso',
    subfolder: null,
    defaultForCustomer: false,
    numberOfBackupPackages: 0,
    storageAccount: { id: 1, name: 'Embedded storage', type: 'LOCAL' },
    deleteable: true,
    defaultable: true,
    storageLocationUrl: `${BASE}/${id}`,
    ...overrides,
  };
}

/** The section on a provider's customer page, against a fake server; `answer` may answer a call first. */
function setup(
  rows: StorageLocationRow[],
  answer: (method: string, path: string, body: unknown) => Response | undefined = () => undefined,
) {
  const server = fakeServer(({ method, url, body }) => {
    const answered = answer(method, url.pathname, body);
    if (answered) return answered;
    if (method === 'GET' && url.pathname === BASE) return ok({ elements: rows });
    if (method === 'GET' && url.pathname === '/boltadmin/customers/7/storagelocationaccounts') {
      return ok({ elements: [{ id: 1, name: 'Embedded storage', type: 'LOCAL', defaultStorageAccount: true }] });
    }
    return undefined;
  });
  const events = renderAt(
    '/boltadmin/customers/:customerId',
    '/boltadmin/customers/7',
    <StorageLocationsSection customerId={7} />,
  );
  return { server, events };
}

describe('storage locations of a customer (001 §2, §5, §6, §8)', () => {
  it("says 'No configured storage locations' when the customer has none", async () => {
    setup([]);
    const table = await screen.findByRole('table', { name: T.sectionTitle });
    await waitFor(() => expect(within(table).getByTestId('table-empty')).toHaveTextContent(M.empty));
  });

  it('shows the columns, and Make default and Delete only when the rules allow them', async () => {
    setup([
      location({ id: 5, defaultForCustomer: true, deleteable: false, defaultable: false, numberOfBackupPackages: 2 }),
      location({ id: 6, bucketName: 'c7-contoso-2', subfolder: 'office' }),
    ]);
    const table = await screen.findByRole('table', { name: T.sectionTitle });
    await within(table).findByText('c7-contoso-2/office');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Storage account', 'Location', 'Default for customer', 'Number of packages', 'Actions']);
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first as HTMLElement).queryByRole('button', { name: T.makeDefault })).toBeNull();
    expect(within(first as HTMLElement).queryByRole('button', { name: T.delete })).toBeNull();
    expect(within(second as HTMLElement).getByRole('button', { name: T.makeDefault })).toBeInTheDocument();
    expect(within(second as HTMLElement).getByRole('button', { name: T.delete })).toBeInTheDocument();
  });

  it("requires a storage account, then says 'Storage location created.'", async () => {
    const { server, events } = setup([], (method, path) =>
      method === 'POST' && path === BASE ? ok(location()) : undefined,
    );
    await events.click(await screen.findByRole('button', { name: T.createButton }));
    const dialog = await screen.findByRole('dialog', { name: T.createTitle });
    await events.click(within(dialog).getByRole('button', { name: T.createSubmit }));
    expect(await within(dialog).findByText(M.chooseStorageAccount)).toBeInTheDocument();
    expect(server.to('POST', BASE)).toEqual([]);

    await within(dialog).findByRole('option', { name: /Embedded storage/ });
    await events.selectOptions(within(dialog).getByLabelText(T.storageAccountLabel), '1');
    await events.click(within(dialog).getByRole('button', { name: T.createSubmit }));
    expect(await screen.findByText(M.created)).toBeInTheDocument();
    expect(server.to('POST', BASE)[0]?.body).toEqual({ storageAccountId: 1 });
  });

  it('warns when created with messages, and says the unknown error when refused without any', async () => {
    let answers = [ok(location(), [message('', 'The policy was put late')]), reply(500, {})];
    const { events } = setup([], (method, path) => {
      if (method !== 'POST' || path !== BASE) return undefined;
      const [next, ...rest] = answers;
      answers = rest;
      return next;
    });
    await events.click(await screen.findByRole('button', { name: T.createButton }));
    const dialog = await screen.findByRole('dialog', { name: T.createTitle });
    await within(dialog).findByRole('option', { name: /Embedded storage/ });
    await events.selectOptions(within(dialog).getByLabelText(T.storageAccountLabel), '1');
    await events.click(within(dialog).getByRole('button', { name: T.createSubmit }));
    expect(await screen.findByText(M.createdWithErrors)).toBeInTheDocument();
    expect(within(dialog).getByText('The policy was put late')).toBeInTheDocument();

    await events.click(within(dialog).getByRole('button', { name: T.createSubmit }));
    expect(await within(dialog).findByText(M.unknownWhileCreating)).toBeInTheDocument();
    expect(M.unknownWhileCreating).toBe('Unkown error encountered while creating storage location.');
  });

  it("deletes after the location's exact name (bucket/subfolder) is typed", async () => {
    const { server, events } = setup(
      [location({ id: 6, bucketName: 'c7-contoso-2', subfolder: 'office' })],
      (method) => (method === 'DELETE' ? ok(null) : undefined),
    );
    await events.click(await screen.findByRole('button', { name: T.delete }));
    const dialog = await screen.findByRole('dialog', { name: T.deleteTitle });
    await events.type(within(dialog).getByRole('textbox'), 'c7-contoso-2');
    await events.click(within(dialog).getByRole('button', { name: T.deleteSubmit }));
    expect(await within(dialog).findByText(MESSAGES.confirmByName.storageLocationDeletion)).toBeInTheDocument();
    expect(server.to('DELETE', `${BASE}/6`)).toEqual([]);

    await events.type(within(dialog).getByRole('textbox'), '/office');
    await events.click(within(dialog).getByRole('button', { name: T.deleteSubmit }));
    expect(await screen.findByText(M.deleted)).toBeInTheDocument();
    expect(server.to('DELETE', `${BASE}/6`)).toHaveLength(1);
  });

  it("makes a location the default after its name is typed, and shows a refusal's message in the dialog", async () => {
    let refuse = true;
    const { server, events } = setup([location({ id: 6 })], (method, path) => {
      if (method !== 'PUT' || path !== `${BASE}/6/makedefault`) return undefined;
      if (!refuse) return ok(location({ id: 6, defaultForCustomer: true, defaultable: false, deleteable: false }));
      refuse = false;
      return reply(409, { messages: [message('storageLocationId', 'Busy')] });
    });
    await events.click(await screen.findByRole('button', { name: T.makeDefault }));
    const dialog = await screen.findByRole('dialog', { name: T.makeDefaultTitle });
    await events.click(within(dialog).getByRole('button', { name: T.makeDefaultSubmit }));
    expect(await within(dialog).findByText(MESSAGES.confirmByName.storageLocationMakeDefault)).toBeInTheDocument();

    await events.type(within(dialog).getByRole('textbox'), 'c7-contoso');
    await events.click(within(dialog).getByRole('button', { name: T.makeDefaultSubmit }));
    expect(await within(dialog).findByText('Busy')).toBeInTheDocument();
    await events.click(within(dialog).getByRole('button', { name: T.makeDefaultSubmit }));
    expect(await screen.findByText(M.madeDefault)).toBeInTheDocument();
    expect(server.to('PUT', `${BASE}/6/makedefault`)[1]?.body).toBeUndefined();
  });
});

describe('the storage location page (001 §2 Manage, §8)', () => {
  it('keeps what a deletion left behind in view, then goes back to the customer once closed', async () => {
    const detail = { ...location({ id: 6 }), customerName: 'Contoso', packages: [] };
    const left = 'Storage location deleted, but the storage user portal-location-6 could not be removed';
    const server = fakeServer(({ method, url }) => {
      if (method === 'GET' && url.pathname === `${BASE}/6`) return ok(detail);
      if (method === 'DELETE' && url.pathname === `${BASE}/6`) return ok(null, [message('', left)]);
      return undefined;
    });
    const events = renderAt(
      '/boltadmin/customers/:customerId/storagelocations/:storageLocationId',
      `${BASE}/6`,
      <StorageLocationPage />,
    );
    await events.click(await screen.findByRole('button', { name: T.delete }));
    const dialog = await screen.findByRole('dialog', { name: T.deleteTitle });
    await events.type(within(dialog).getByRole('textbox'), 'c7-contoso');
    await events.click(within(dialog).getByRole('button', { name: T.deleteSubmit }));
    expect(await screen.findByText(M.deletedWithErrors)).toBeInTheDocument();
    expect(within(dialog).getByText(left)).toBeInTheDocument();
    // The tables refresh 500 ms after the change; the deleted location's own page is not read again.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(screen.getByRole('dialog', { name: T.deleteTitle })).toHaveTextContent(left);
    expect(server.to('GET', `${BASE}/6`)).toHaveLength(1);

    await events.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/boltadmin\/customers\/7$/));
  });
});
