import {
  billingConnectionSucceeded,
  billingRefused,
  billingServerDeleteQuestion,
  billingServerInUse,
  MESSAGES,
  secretForNewAddress,
} from '@portal/domain';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithToasts } from '../../app/testing';
import { fakeServer, message, ok, reply } from '../users/testing';
import { BillingServerDialog } from './BillingServerDialog';
import { DeleteBillingServerDialog } from './DeleteBillingServerDialog';
import { billingServerRow } from './testing';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const PROVIDER = { role: 'ROLE_BOLT_ADMIN_USER', customerId: null } as const;

async function fillNewServer(events: ReturnType<typeof renderWithToasts>) {
  await events.type(screen.getByLabelText('Description'), 'Billing EU');
  await events.type(screen.getByLabelText('Host'), 'billing.eu.test');
  await events.type(screen.getByLabelText('API identifier'), 'portal');
  await events.type(screen.getByLabelText('API secret'), 's3cret');
}

describe('BillingServerDialog', () => {
  it('adds a server with the form as typed and tests the connection before saving', async () => {
    const server = fakeServer(({ method, url }) => {
      if (method === 'POST' && url.pathname === '/boltadmin/whmcsservers/testconnection')
        return ok({ version: '8.13.1' });
      if (method === 'POST' && url.pathname === '/boltadmin/whmcsservers') return ok(billingServerRow({ id: 9 }));
      return undefined;
    });
    const onHide = vi.fn();
    const events = renderWithToasts(<BillingServerDialog show onHide={onHide} animation={false} />, PROVIDER);
    await fillNewServer(events);
    await events.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText(billingConnectionSucceeded('8.13.1'))).toBeInTheDocument();
    expect(server.to('POST', '/boltadmin/whmcsservers/testconnection')[0]?.body).toMatchObject({
      whmcsHost: 'billing.eu.test',
      whmcsSecret: 's3cret',
      id: null,
    });
    await events.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Billing server has been added')).toBeInTheDocument();
    expect(server.to('POST', '/boltadmin/whmcsservers')[0]?.body).toMatchObject({
      description: 'Billing EU',
      region: 'default',
      whmcsPort: 443,
      whmcsPath: '/',
    });
    expect(onHide).toHaveBeenCalled();
  });

  it('requires the secret when adding, and shows the server’s field messages and a failed test', async () => {
    let answer = () => reply(400, { messages: [message('whmcsHost', 'Host is not valid')] });
    fakeServer(({ url }) => {
      if (url.pathname === '/boltadmin/whmcsservers/testconnection') {
        return reply(502, { messages: [message('', billingRefused('Authentication Failed'))] });
      }
      if (url.pathname === '/boltadmin/whmcsservers') return answer();
      return undefined;
    });
    const events = renderWithToasts(<BillingServerDialog show onHide={vi.fn()} animation={false} />, PROVIDER);
    await events.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('API secret is required')).toBeInTheDocument();
    await fillNewServer(events);
    await events.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText(billingRefused('Authentication Failed'))).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Host is not valid')).toHaveClass('invalid-feedback');
    answer = () => reply(500, {});
    await events.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Unkown error encountered while adding billing server.')).toBeInTheDocument();
  });

  it('edits a server without showing its secrets; empty ones are sent empty, which keeps them', async () => {
    const server = fakeServer(({ method, url }) =>
      method === 'PUT' && url.pathname === '/boltadmin/whmcsservers/4' ? ok(billingServerRow()) : undefined,
    );
    const events = renderWithToasts(
      <BillingServerDialog show server={billingServerRow()} onHide={vi.fn()} animation={false} />,
      PROVIDER,
    );
    expect(screen.getByLabelText('API secret')).toHaveValue('');
    expect(screen.getByLabelText('API secret')).toHaveAttribute('placeholder', MESSAGES.billing.secretKeptHint);
    await events.clear(screen.getByLabelText('Description'));
    await events.type(screen.getByLabelText('Description'), 'Billing renamed');
    await events.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Billing server has been updated')).toBeInTheDocument();
    expect(server.to('PUT', '/boltadmin/whmcsservers/4')[0]?.body).toMatchObject({
      description: 'Billing renamed',
      whmcsPath: '/whmcs/',
      whmcsSecret: '',
      whmcsApiAccessKey: '',
    });
  });

  it('shows under the secret field that a new address needs the secret again, from a test and from a save', async () => {
    const refused = () => reply(400, { messages: [message('whmcsSecret', secretForNewAddress('API secret'))] });
    const server = fakeServer(({ method, url }) =>
      (method === 'POST' && url.pathname === '/boltadmin/whmcsservers/testconnection') ||
      (method === 'PUT' && url.pathname === '/boltadmin/whmcsservers/4')
        ? refused()
        : undefined,
    );
    const events = renderWithToasts(
      <BillingServerDialog show server={billingServerRow()} onHide={vi.fn()} animation={false} />,
      PROVIDER,
    );
    await events.clear(screen.getByLabelText('Host'));
    await events.type(screen.getByLabelText('Host'), 'elsewhere.test');
    await events.click(screen.getByRole('button', { name: 'Test connection' }));
    const shown = await screen.findByText(secretForNewAddress('API secret'));
    expect(shown).toHaveClass('invalid-feedback');
    const secret = screen.getByLabelText('API secret');
    expect(secret).toHaveClass('is-invalid');
    expect(shown.parentElement).toContainElement(secret);
    expect(server.to('POST', '/boltadmin/whmcsservers/testconnection')[0]?.body).toMatchObject({
      id: 4,
      whmcsHost: 'elsewhere.test',
      whmcsSecret: '',
    });
    await events.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.to('PUT', '/boltadmin/whmcsservers/4')).toHaveLength(1));
    expect(await screen.findByText(secretForNewAddress('API secret'))).toHaveClass('invalid-feedback');
  });
});

describe('DeleteBillingServerDialog', () => {
  it('asks, deletes, and shows why a server in use stays', async () => {
    let answer = () => reply(409, { messages: [message('', billingServerInUse(3))] });
    const server = fakeServer(({ method, url }) =>
      method === 'DELETE' && url.pathname === '/boltadmin/whmcsservers/4' ? answer() : undefined,
    );
    const onHide = vi.fn();
    const events = renderWithToasts(
      <DeleteBillingServerDialog show server={billingServerRow()} onHide={onHide} animation={false} />,
      PROVIDER,
    );
    expect(screen.getByText(billingServerDeleteQuestion('Billing main'))).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByTestId('global-errors')).toHaveTextContent(billingServerInUse(3));
    expect(onHide).not.toHaveBeenCalled();
    answer = () => ok(null);
    await events.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Billing server has been deleted')).toBeInTheDocument();
    await waitFor(() => expect(onHide).toHaveBeenCalled());
    expect(server.to('DELETE', '/boltadmin/whmcsservers/4')).toHaveLength(2);
  });
});
