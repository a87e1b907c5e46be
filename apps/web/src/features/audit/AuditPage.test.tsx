import { AUDIT_TEXTS, type AuditRow, ROUTES } from '@portal/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn, type TestUser } from '../../app/testing';
import { fakeServer, ok, paged } from '../users/testing';
import { AuditPage } from './AuditPage';

afterEach(() => vi.unstubAllGlobals());

const row = (id: number, customerId: number): AuditRow => ({
  id,
  at: '2026-11-27T10:00:00.000Z',
  kind: 'users.add',
  kindName: 'User added',
  outcome: 'succeeded',
  httpStatus: 200,
  userId: 5,
  email: 'owner@reseller.test',
  name: 'Owner Person',
  actorCustomerId: 3,
  customerId,
  customerName: customerId === 12 ? 'Alpha Ltd' : 'Reseller Co',
  subjectType: 'user',
  subjectId: 40 + id,
  subjectName: `Person ${id}`,
  ipAddress: '10.0.0.1',
  detail: null,
});

function Address() {
  return <p data-testid="address">{useLocation().search}</p>;
}

function renderAccountPage(user: Partial<TestUser>, address = '/admin/account/audit') {
  const server = fakeServer(({ url }) =>
    url.pathname === ROUTES.audit.account.path ? ok(paged([row(1, 3), row(2, 12)], url, 25)) : undefined,
  );
  renderSignedIn(
    <MemoryRouter initialEntries={[address]}>
      <AuditPage audience="account" />
      <Address />
    </MemoryRouter>,
    { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', customerId: 3, ...user },
  );
  return server;
}

describe("the account's audit page", () => {
  it('shows a reseller which of its customers each record is of, and lets it narrow to one', async () => {
    renderAccountPage({ resellerEnabled: true });
    expect(await screen.findByText(AUDIT_TEXTS.resellerSubtitle)).toBeTruthy();
    const table = await screen.findByTestId('audit-table');
    expect(within(table).getByRole('columnheader', { name: AUDIT_TEXTS.columns.tenant })).toBeTruthy();
    // Tenants and subjects by name (and id), kinds by their label: never a bare id or a route key.
    expect(await within(table).findByRole('cell', { name: 'Alpha Ltd (id 12)' })).toBeTruthy();
    expect(within(table).getByRole('cell', { name: 'User: Person 2 (id 42)' })).toBeTruthy();
    expect(within(table).getAllByRole('cell', { name: 'User added' })).toHaveLength(2);
    expect(within(table).queryByText('users.add')).toBeNull();
    expect(screen.getByLabelText(AUDIT_TEXTS.labels.customerId)).toBeTruthy();
  });

  it('shows a customer without customers of its own neither the tenant column nor its filter', async () => {
    renderAccountPage({ resellerEnabled: false });
    expect(await screen.findByText(AUDIT_TEXTS.accountSubtitle)).toBeTruthy();
    const table = await screen.findByTestId('audit-table');
    await within(table).findAllByText('owner@reseller.test', { exact: false });
    expect(within(table).queryByRole('columnheader', { name: AUDIT_TEXTS.columns.tenant })).toBeNull();
    expect(screen.queryByLabelText(AUDIT_TEXTS.labels.customerId)).toBeNull();
  });

  it('keeps its filter in the address: opened from one, it asks for it and shows it; a new filter is a new address', async () => {
    const from = new Date('2026-03-04T05:06').toISOString();
    const server = renderAccountPage(
      { resellerEnabled: true },
      `/admin/account/audit?from=${encodeURIComponent(from)}&email=owner%40reseller.test&outcome=refused&customerId=12`,
    );
    await waitFor(() => expect(server.to('GET', ROUTES.audit.account.path)).toHaveLength(1));
    const asked = server.to('GET', ROUTES.audit.account.path)[0]?.url.searchParams;
    expect(asked?.get('from')).toBe(from);
    expect(asked?.get('email')).toBe('owner@reseller.test');
    expect(asked?.get('outcome')).toBe('refused');
    expect(asked?.get('customerId')).toBe('12');
    expect(screen.getByLabelText(AUDIT_TEXTS.labels.from)).toHaveValue('2026-03-04T05:06');
    expect(screen.getByLabelText(AUDIT_TEXTS.labels.email)).toHaveValue('owner@reseller.test');
    expect(screen.getByTestId('audit-export').getAttribute('href')).toContain('email=owner%40reseller.test');

    const user = userEvent.setup();
    await user.click(screen.getByTestId('audit-clear'));
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent(/^$/));
    expect(screen.getByLabelText(AUDIT_TEXTS.labels.email)).toHaveValue('');
    await user.type(screen.getByLabelText(AUDIT_TEXTS.labels.subjectId), '7');
    await user.click(screen.getByTestId('audit-apply'));
    await waitFor(() => expect(screen.getByTestId('address')).toHaveTextContent('?subjectId=7'));
    await waitFor(() =>
      expect(server.to('GET', ROUTES.audit.account.path).at(-1)?.url.searchParams.get('subjectId')).toBe('7'),
    );
  });

  it('asks for nothing while its address holds a filter the schema refuses, and shows what to correct', async () => {
    const server = renderAccountPage(
      { resellerEnabled: false },
      '/admin/account/audit?subjectId=twelve&from=yesterday',
    );
    expect(await screen.findByText(AUDIT_TEXTS.addressFilterInvalid)).toBeInTheDocument();
    expect(screen.getByLabelText(AUDIT_TEXTS.labels.subjectId)).toHaveValue('twelve');
    await waitFor(() => expect(screen.getByLabelText(AUDIT_TEXTS.labels.subjectId)).toHaveClass('is-invalid'));
    expect(screen.getByText('From is not a valid date and time')).toBeInTheDocument();
    expect(screen.getByTestId('audit-export')).toBeDisabled();
    expect(server.to('GET', ROUTES.audit.account.path)).toHaveLength(0);
  });

  it('ignores a tenant in the address of a page that has no tenant filter', async () => {
    const server = renderAccountPage({ resellerEnabled: false }, '/admin/account/audit?customerId=12&outcome=refused');
    await waitFor(() => expect(server.to('GET', ROUTES.audit.account.path)).toHaveLength(1));
    const asked = server.to('GET', ROUTES.audit.account.path)[0]?.url.searchParams;
    expect(asked?.get('outcome')).toBe('refused');
    expect(asked?.has('customerId')).toBe(false);
  });
});
