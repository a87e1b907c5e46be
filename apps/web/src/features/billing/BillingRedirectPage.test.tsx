import { MESSAGES, WHMCS_PAGES } from '@portal/domain';
import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn, type TestUser } from '../../app/testing';
import { fakeServer, message, ok, reply } from '../users/testing';
import { BillingRedirectPage } from './BillingRedirectPage';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function open(target: string, user: Partial<TestUser>, answer: () => Response) {
  const server = fakeServer(({ url }) => (url.pathname === '/billing/info' ? answer() : undefined));
  const navigate = vi.fn();
  renderSignedIn(
    <MemoryRouter initialEntries={[`/billing/redirect?target=${target}`]}>
      <BillingRedirectPage navigate={navigate} />
    </MemoryRouter>,
    user,
  );
  return { server, navigate };
}

const SSO = 'http://127.0.0.1:2590/oauth/singlesignon.php?access_token=t';

describe('BillingRedirectPage (002 §7.2)', () => {
  it.each([
    ['billing', 'ROLE_CUSTOMER_SUPER_ADMIN_USER', 'clientarea.php?action=invoices&a=1'],
    ['billing', 'ROLE_CUSTOMER_ADMIN_USER', 'clientarea.php?action=invoices&a=0'],
    ['support', 'ROLE_CUSTOMER_SUPER_ADMIN_USER', 'supporttickets.php?a=1'],
    ['support', 'ROLE_CUSTOMER_USER', 'supporttickets.php?a=0'],
    ['masspay', 'ROLE_CUSTOMER_USER', WHMCS_PAGES.massPay],
  ] as const)('%s for %s asks for %s and goes there', async (target, role, goToUrl) => {
    const { server, navigate } = open(target, { role }, () => ok({ whmcsRedirectUrl: SSO }));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith(SSO));
    expect(server.to('GET', '/billing/info')[0]?.url.searchParams.get('goToUrl')).toBe(goToUrl);
    expect(server.to('GET', '/billing/info')).toHaveLength(1);
  });

  it('says why when the customer has no billing', async () => {
    const { navigate } = open('billing', {}, () => reply(404, { messages: [message('', MESSAGES.billing.noBilling)] }));
    expect(await screen.findByTestId('billing-redirect-error')).toHaveTextContent(MESSAGES.billing.noBilling);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('shows the billing system’s failure', async () => {
    open('masspay', {}, () => reply(502, { messages: [message('', MESSAGES.billing.unreachable)] }));
    expect(await screen.findByTestId('billing-redirect-error')).toHaveTextContent(MESSAGES.billing.unreachable);
  });
});
