import { MESSAGES } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithToasts } from '../../app/testing';
import { customerDetail } from '../customers/testing';
import { fakeServer, message, ok, reply } from '../users/testing';
import { ChangeBillingServerDialog } from './ChangeBillingServerDialog';
import { billingServerRow } from './testing';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const SERVERS = [
  billingServerRow({ id: 4, description: 'Billing main' }),
  billingServerRow({ id: 5, description: 'Billing EU', whmcsHost: 'eu.example.test' }),
  billingServerRow({ id: 6, description: 'Billing US', whmcsHost: 'us.example.test' }),
];

function open(change: () => Response) {
  const server = fakeServer(({ method, url }) => {
    if (url.pathname === '/boltadmin/whmcsservers') return ok(SERVERS);
    if (method === 'PUT' && url.pathname === '/boltadmin/customers/12') return change();
    return undefined;
  });
  const onHide = vi.fn();
  const customer = customerDetail({ id: 12, whmcsServerId: 4, superAdminFullName: 'Ada Lovelace' });
  const events = renderWithToasts(
    <ChangeBillingServerDialog show customer={customer} onHide={onHide} animation={false} />,
    { role: 'ROLE_BOLT_ADMIN_USER', customerId: null },
  );
  return { server, events, onHide };
}

describe('ChangeBillingServerDialog (002 §5.4)', () => {
  it('offers the other servers, the first preselected, and banktransfer; moves on the typed full name', async () => {
    const { server, events, onHide } = open(() => ok(customerDetail({ id: 12, whmcsServerId: 6 })));
    const dialog = screen.getByRole('dialog', { name: MESSAGES.billing.changeServerTitle });
    const serverChoice = within(dialog).getByLabelText('Billing server');
    await waitFor(() => expect(serverChoice).toHaveValue('5'));
    expect(
      within(serverChoice)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Billing EU (eu.example.test)', 'Billing US (us.example.test)']);
    expect(within(dialog).getByLabelText('Payment method')).toHaveValue('banktransfer');
    await events.selectOptions(serverChoice, '6');
    await events.selectOptions(within(dialog).getByLabelText('Payment method'), 'stripe');

    await events.type(screen.getByTestId('confirm-name-input'), 'Ada');
    await events.click(within(dialog).getByRole('button', { name: MESSAGES.billing.changeServerSubmit }));
    expect(await screen.findByText(MESSAGES.confirmByName.customerWhmcsServerChange)).toBeInTheDocument();
    expect(server.to('PUT', '/boltadmin/customers/12')).toHaveLength(0);

    await events.type(screen.getByTestId('confirm-name-input'), ' Lovelace');
    await events.click(within(dialog).getByRole('button', { name: MESSAGES.billing.changeServerSubmit }));
    expect(await screen.findByText('Customer WHMCS server has been updated')).toBeInTheDocument();
    expect(server.to('PUT', '/boltadmin/customers/12')[0]?.url.search).toBe('?whmcsServerId=6&paymentMethod=stripe');
    expect(onHide).toHaveBeenCalled();
  });

  it("shows the server's refusal on the field and the unknown error", async () => {
    let answer = () => reply(400, { messages: [message('whmcsServerId', MESSAGES.customer.sameWhmcsServer)] });
    const { events } = open(() => answer());
    await waitFor(() => expect(screen.getByLabelText('Billing server')).toHaveValue('5'));
    await events.type(screen.getByTestId('confirm-name-input'), 'Ada Lovelace');
    await events.click(screen.getByRole('button', { name: MESSAGES.billing.changeServerSubmit }));
    expect(await screen.findByText(MESSAGES.customer.sameWhmcsServer)).toHaveClass('invalid-feedback');
    answer = () => reply(500, {});
    await events.click(screen.getByRole('button', { name: MESSAGES.billing.changeServerSubmit }));
    expect(await screen.findByText(MESSAGES.customer.unknownWhileChangingWhmcsServer)).toBeInTheDocument();
  });
});
