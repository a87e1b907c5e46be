import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithToasts, type TestUser, watchRefreshes } from '../../app/testing';
import { fakeServer, message, ok, reply } from '../users/testing';
import { browser } from './browser';
import { PurchasePackageButton } from './PurchasePackageButton';
import { DIRECT_OFFER, SSO_LINK, serveOffer } from './testing';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const PACKAGES_LIST = ['packages', 'list'];

function open(user: Partial<TestUser> = { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' }) {
  const refreshed = watchRefreshes();
  const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
  const events = renderWithToasts(
    <PurchasePackageButton refreshes={[{ queryKey: PACKAGES_LIST, afterMs: 0 }]} animation={false} />,
    user,
  );
  return { events, refreshed, assign };
}

async function choose(events: ReturnType<typeof open>['events'], name: string) {
  await events.click(screen.getByRole('button', { name: 'Purchase package' }));
  const select = await screen.findByLabelText('Backup package');
  await screen.findByRole('option', { name });
  await events.selectOptions(select, name);
  await events.click(screen.getByRole('button', { name: 'Purchase' }));
}

describe('PurchasePackageButton (000 §5-§7)', () => {
  it('is shown to the customer super admin only, and not to a read-only one', () => {
    serveOffer(DIRECT_OFFER);
    open({ role: 'ROLE_CUSTOMER_ADMIN_USER' });
    expect(screen.queryByRole('button', { name: 'Purchase package' })).not.toBeInTheDocument();
  });

  it('is not shown to a read-only super admin', () => {
    serveOffer(DIRECT_OFFER);
    open({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', readOnly: true });
    expect(screen.queryByRole('button', { name: 'Purchase package' })).not.toBeInTheDocument();
  });

  it("starts at 'Choose a backup package' and refuses it with 'Must choose a backup package'", async () => {
    const server = serveOffer(DIRECT_OFFER);
    const { events } = open();
    await events.click(screen.getByRole('button', { name: 'Purchase package' }));
    expect(screen.getByRole('dialog', { name: 'Purchase package' })).toBeInTheDocument();
    const select = screen.getByLabelText('Backup package');
    expect(select).toHaveValue('-1');
    expect(screen.getByRole('option', { name: 'Choose a backup package' })).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Purchase' }));
    expect(await screen.findByText('Must choose a backup package')).toHaveClass('invalid-feedback');
    expect(server.to('POST', '/admin/backuppackages')).toEqual([]);
  });

  it('sends the chosen template; no invoice: the success toast, the packages refreshed, the dialog closed', async () => {
    const server = serveOffer(DIRECT_OFFER, ({ method }) =>
      method === 'POST' ? ok({ whmcsInvoiceId: null }) : undefined,
    );
    const { events, refreshed, assign } = open();
    await choose(events, 'Business');
    expect(await screen.findByText('Backup package requested successfully!')).toBeInTheDocument();
    expect(server.to('POST', '/admin/backuppackages')[0]?.body).toEqual({ packageTemplateId: 12 });
    expect(refreshed()).toContainEqual(PACKAGES_LIST);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(assign).not.toHaveBeenCalled();
  });

  it("goes to the invoice's page in the billing system when the answer carries an invoice", async () => {
    const server = serveOffer(DIRECT_OFFER, ({ method }) =>
      method === 'POST' ? ok({ whmcsInvoiceId: 42 }) : undefined,
    );
    const { events, assign } = open();
    await choose(events, 'Basic');
    await waitFor(() => expect(assign).toHaveBeenCalledWith(SSO_LINK));
    expect(server.to('GET', '/billing/info')[0]?.url.searchParams.get('goToUrl')).toBe('viewinvoice.php?id=42');
    expect(screen.queryByText('Backup package requested successfully!')).not.toBeInTheDocument();
  });

  it('says why when the invoice cannot be opened, the purchase being made', async () => {
    fakeServer(({ method, url }) => {
      if (url.pathname === '/admin/packagetemplates') return ok(DIRECT_OFFER);
      if (url.pathname === '/billing/info')
        return reply(502, { messages: [message('', 'The billing system could not be reached')] });
      return method === 'POST' ? ok({ whmcsInvoiceId: 42 }) : undefined;
    });
    const { events, assign } = open();
    await choose(events, 'Basic');
    expect(await screen.findByText('The billing system could not be reached')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(assign).not.toHaveBeenCalled();
  });

  it('shows the field message, a billing failure and the unknown error', async () => {
    let answer = () =>
      reply(400, { messages: [message('packageTemplateId', 'This backup package is not on offer to you')] });
    serveOffer(DIRECT_OFFER, ({ method }) => (method === 'POST' ? answer() : undefined));
    const { events } = open();
    await choose(events, 'Basic');
    expect(await screen.findByText('This backup package is not on offer to you')).toHaveClass('invalid-feedback');

    answer = () => reply(502, { messages: [message('', 'The billing system did not answer in time')] });
    await events.click(screen.getByRole('button', { name: 'Purchase' }));
    expect(await screen.findByTestId('global-errors')).toHaveTextContent('The billing system did not answer in time');

    answer = () => reply(500, {});
    await events.click(screen.getByRole('button', { name: 'Purchase' }));
    expect(await screen.findByText('Unkown error encountered while purchasing backup package.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Purchase package' })).toBeInTheDocument();
  });
});
