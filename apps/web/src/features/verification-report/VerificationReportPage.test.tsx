import { ROUTES, VERIFICATION_REPORT_TEXTS as TEXT } from '@portal/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn, type TestUser } from '../../app/testing';
import { fakeServer, ok } from '../users/testing';
import { MonthlyMailForm } from './MonthlyMailForm';
import { VerificationReportPage } from './VerificationReportPage';

afterEach(() => vi.unstubAllGlobals());

function renderPage(user: Partial<TestUser>, address = '/admin/account/verificationreport') {
  renderSignedIn(
    <MemoryRouter initialEntries={[address]}>
      <VerificationReportPage audience="account" />
    </MemoryRouter>,
    { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', customerId: 3, ...user },
  );
}

const hrefOf = (testId: string) => screen.getByTestId(testId).getAttribute('href');

describe('the verification report page (issue 32 item 4)', () => {
  it("offers a customer's super admin its report over the period the address names, as CSV and PDF", () => {
    renderPage({ resellerEnabled: false }, '/admin/account/verificationreport?from=2026-11-01&to=2026-11-30');
    expect(screen.getByRole('heading', { name: TEXT.title })).toBeTruthy();
    expect(screen.getByRole('heading', { name: TEXT.ownSection })).toBeTruthy();
    expect((screen.getByTestId('verification-own-from') as HTMLInputElement).value).toBe('2026-11-01');
    expect(hrefOf('verification-own-csv')).toBe(
      `${ROUTES.verificationReport.ownCsv.path}?from=2026-11-01&to=2026-11-30`,
    );
    expect(hrefOf('verification-own-pdf')).toBe(
      `${ROUTES.verificationReport.ownPdf.path}?from=2026-11-01&to=2026-11-30`,
    );
    // A customer with no customers of its own has no roll-up.
    expect(screen.queryByTestId('verification-rollup')).toBeNull();
  });

  it('defaults to the last 30 days, and holds the downloads back while the period ends before it starts', () => {
    renderPage({ resellerEnabled: false });
    const to = new Date().toISOString().slice(0, 10);
    expect((screen.getByTestId('verification-own-to') as HTMLInputElement).value).toBe(to);
    expect(hrefOf('verification-own-csv')).toContain(`to=${to}`);
    fireEvent.change(screen.getByTestId('verification-own-from'), { target: { value: '2099-01-01' } });
    expect(screen.getByText(TEXT.toBeforeFrom)).toBeTruthy();
    expect((screen.getByTestId('verification-own-csv') as HTMLButtonElement).disabled).toBe(true);
    expect(hrefOf('verification-own-pdf')).toBeNull();
  });

  it("gives a reseller's super admin the roll-up over its customers too", () => {
    renderPage({ resellerEnabled: true });
    expect(screen.getByRole('heading', { name: TEXT.rollupTitle })).toBeTruthy();
    expect(hrefOf('verification-rollup-csv')).toContain(ROUTES.verificationReport.rollupCsv.path);
  });

  it('saves the monthly mail opt-in through the settings call', async () => {
    const server = fakeServer(({ method, url, body }) =>
      method === 'PUT' && url.pathname === ROUTES.verificationReport.saveSettings.path ? ok(body) : undefined,
    );
    renderSignedIn(<MonthlyMailForm settings={{ monthlyMail: false }} readOnly={false} />, {
      role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER',
      customerId: 3,
    });
    const user = userEvent.setup();
    await user.click(screen.getByLabelText(TEXT.monthlyMailLabel));
    await user.click(screen.getByTestId('verification-mail-save'));
    await waitFor(() => expect(server.to('PUT', ROUTES.verificationReport.saveSettings.path)).toHaveLength(1));
    expect(server.to('PUT', ROUTES.verificationReport.saveSettings.path)[0]?.body).toEqual({ monthlyMail: true });
  });
});
