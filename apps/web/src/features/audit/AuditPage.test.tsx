import { AUDIT_TEXTS, type AuditRow, ROUTES } from '@portal/domain';
import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn, type TestUser } from '../../app/testing';
import { fakeServer, ok, paged } from '../users/testing';
import { AuditPage } from './AuditPage';

afterEach(() => vi.unstubAllGlobals());

const row = (id: number, customerId: number): AuditRow => ({
  id,
  at: '2026-11-27T10:00:00.000Z',
  kind: 'users.add',
  kindName: 'Users: add',
  outcome: 'succeeded',
  httpStatus: 200,
  userId: 5,
  email: 'owner@reseller.test',
  name: 'Owner Person',
  actorCustomerId: 3,
  customerId,
  subjectType: 'user',
  subjectId: 40 + id,
  ipAddress: '10.0.0.1',
  detail: null,
});

function renderAccountPage(user: Partial<TestUser>) {
  const server = fakeServer(({ url }) =>
    url.pathname === ROUTES.audit.account.path ? ok(paged([row(1, 3), row(2, 12)], url, 25)) : undefined,
  );
  renderSignedIn(
    <MemoryRouter>
      <AuditPage audience="account" />
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
    expect(await within(table).findByRole('cell', { name: '12' })).toBeTruthy();
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
});
