import { type CustomerRow, MESSAGES, madeReseller, TIMINGS } from '@portal/domain';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, message, ok, paged, reply } from '../users/testing';
import { ResellersPage } from './ResellersPage';
import { customerRow, renderAt } from './testing';

const TEXT = MESSAGES.customer;

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const reseller = (overrides: Partial<CustomerRow>) =>
  customerRow({ resellerSettingsDisplayDto: { resellerEnabled: true, brandName: 'Brand' }, ...overrides });

interface World {
  resellers: CustomerRow[];
  candidates: CustomerRow[];
}

function serve(world: World, makeReseller?: () => Response | Promise<Response>) {
  return fakeServer(({ method, url }) => {
    if (url.pathname === '/boltadmin/resellerspaginated') return ok(paged(world.resellers, url));
    if (url.pathname === '/boltadmin/customerstomakeresellerspaginated') {
      const search = url.searchParams.get('search')?.toLowerCase();
      const found = search
        ? world.candidates.filter((c) => c.companyName.toLowerCase().includes(search))
        : world.candidates;
      return ok(paged(found, url));
    }
    const made = url.pathname.match(/^\/boltadmin\/customers\/(\d+)\/makereseller$/);
    if (method === 'PUT' && made) {
      if (makeReseller) return makeReseller();
      const chosen = world.candidates.find((c) => c.id === Number(made[1])) as CustomerRow;
      world.candidates = world.candidates.filter((c) => c !== chosen);
      const promoted = {
        ...chosen,
        resellerSettingsDisplayDto: { resellerEnabled: true, brandName: chosen.companyName },
      };
      world.resellers = [...world.resellers, promoted];
      return ok({ ...promoted, storageLocationAndAccountDisplayDtos: [], makeResellerAllowed: false });
    }
    return undefined;
  });
}

const candidates = () =>
  Array.from({ length: 12 }, (_, i) =>
    customerRow({ id: 100 + i, companyName: `Candidate ${String(i + 1).padStart(2, '0')}` }),
  );

const render = () => renderAt('/boltadmin/resellers', '/boltadmin/resellers', <ResellersPage />);
const resellersTable = () => screen.findByRole('table', { name: TEXT.resellersTitle });

describe('resellers (002 §2.5, §4.5)', () => {
  it('lists the resellers with their badge and Manage', async () => {
    serve({ resellers: [reseller({ id: 3, companyName: 'Northwind Backup' })], candidates: [] });
    render();
    const table = await resellersTable();
    const row = (await within(table).findByText('Northwind Backup')).closest('tr') as HTMLElement;
    expect(within(row).getByTestId('customer-type-badges')).toHaveTextContent('DIRECTRESELLER');
    expect(within(row).getByRole('link', { name: 'Manage Northwind Backup' })).toHaveAttribute(
      'href',
      '/boltadmin/customers/3',
    );
    expect(screen.getByRole('searchbox', { name: `${TEXT.searchLabel} ${TEXT.resellersTitle}` })).toBeInTheDocument();
  });

  it("offers the customers that may become resellers in the selection's own searched, paged list", async () => {
    const world = { resellers: [], candidates: candidates() };
    const server = serve(world);
    const user = render();
    await user.click(await screen.findByRole('button', { name: TEXT.newResellerButton }));
    const dialog = await screen.findByRole('dialog', { name: TEXT.selectResellerTitle });
    const list = within(dialog).getByRole('table', { name: TEXT.selectResellerTitle });
    await within(list).findByText('Candidate 01');
    expect(within(list).getAllByRole('row')).toHaveLength(11);
    await user.click(within(dialog).getByRole('button', { name: 'Page 2' }));
    expect(await within(list).findByText('Candidate 12')).toBeInTheDocument();

    await user.type(within(dialog).getByRole('searchbox'), 'candidate 0');
    await within(list).findByText('Candidate 09');
    const searched = server.to('GET', '/boltadmin/customerstomakeresellerspaginated').at(-1)?.url.searchParams;
    expect(searched?.get('search')).toBe('candidate 0');
    expect(searched?.get('page')).toBe('0');
  });

  it('confirms the selected customer, going back to the selection on Cancel, and makes it a reseller', async () => {
    const server = serve({ resellers: [], candidates: candidates() });
    const user = render();
    await user.click(await screen.findByRole('button', { name: TEXT.newResellerButton }));
    let dialog = await screen.findByRole('dialog', { name: TEXT.selectResellerTitle });
    const list = within(dialog).getByRole('table', { name: TEXT.selectResellerTitle });
    await within(list).findByText('Candidate 03');

    // Cancelling the confirmation goes back to the selection.
    await user.click(within(list).getByRole('button', { name: `${TEXT.select} Candidate 03` }));
    let confirm = await screen.findByRole('dialog', { name: TEXT.makeResellerTitle });
    expect(confirm).toHaveTextContent('Make Candidate 03 a reseller?');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    dialog = await screen.findByRole('dialog', { name: TEXT.selectResellerTitle });

    await user.click(await within(dialog).findByRole('button', { name: `${TEXT.select} Candidate 02` }));
    confirm = await screen.findByRole('dialog', { name: TEXT.makeResellerTitle });
    await user.click(within(confirm).getByRole('button', { name: TEXT.makeResellerSubmit }));

    expect(await screen.findByText(madeReseller('Candidate 02'))).toBeInTheDocument();
    expect(server.to('PUT', '/boltadmin/customers/101/makereseller')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it(`shows the new reseller when the list refreshes ${TIMINGS.customerListRefreshMs} ms after (002 §9)`, async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const world = { resellers: [], candidates: candidates() };
    const server = serve(world);
    render();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByRole('button', { name: TEXT.newResellerButton }));
    const dialog = await screen.findByRole('dialog', { name: TEXT.selectResellerTitle });
    await user.click(await within(dialog).findByRole('button', { name: `${TEXT.select} Candidate 01` }));
    const confirm = await screen.findByRole('dialog', { name: TEXT.makeResellerTitle });
    await user.click(within(confirm).getByRole('button', { name: TEXT.makeResellerSubmit }));
    await screen.findByText(madeReseller('Candidate 01'));
    const asked = () => server.to('GET', '/boltadmin/resellerspaginated').length;
    const before = asked();
    await act(() => vi.advanceTimersByTimeAsync(TIMINGS.customerListRefreshMs - 100));
    expect(asked()).toBe(before);
    await act(() => vi.advanceTimersByTimeAsync(100));
    await waitFor(() => expect(asked()).toBe(before + 1));
    expect(await within(await resellersTable()).findByText('Candidate 01')).toBeInTheDocument();
  });

  it("shows the server's refusal in the confirmation, which stays open", async () => {
    serve({ resellers: [], candidates: candidates() }, () =>
      reply(400, { messages: [message('', 'This customer cannot become a reseller')] }),
    );
    const user = render();
    await user.click(await screen.findByRole('button', { name: TEXT.newResellerButton }));
    const dialog = await screen.findByRole('dialog', { name: TEXT.selectResellerTitle });
    await user.click(await within(dialog).findByRole('button', { name: `${TEXT.select} Candidate 01` }));
    const confirm = await screen.findByRole('dialog', { name: TEXT.makeResellerTitle });
    await user.click(within(confirm).getByRole('button', { name: TEXT.makeResellerSubmit }));
    expect(await within(confirm).findByTestId('global-errors')).toHaveTextContent(
      'This customer cannot become a reseller',
    );
    expect(screen.getByRole('dialog', { name: TEXT.makeResellerTitle })).toBeInTheDocument();
  });
});
