import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn, renderWithToasts, type TestUser } from '../../app/testing';
import { ok, reply } from '../users/testing';
import { browser } from './browser';
import { DIRECT_OFFER, SSO_LINK, serveOffer } from './testing';
import { type UpgradablePackage, UpgradePackageButton } from './UpgradePackageButton';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const PKG: UpgradablePackage = {
  id: 9,
  name: 'Office',
  status: 'ACTIVE',
  upOrDownGradeRequested: false,
  templateId: 11,
};

function open(pkg: UpgradablePackage = PKG, user: Partial<TestUser> = { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' }) {
  const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
  const events = renderWithToasts(<UpgradePackageButton pkg={pkg} refreshes={[]} animation={false} />, user);
  return { events, assign };
}

describe('UpgradePackageButton (000 §4-§7)', () => {
  it('is offered to the super admin for an ACTIVE or OVER_QUOTA package with no change pending only', () => {
    serveOffer(DIRECT_OFFER);
    const cases: Array<[UpgradablePackage, Partial<TestUser>, boolean]> = [
      [PKG, { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' }, true],
      [{ ...PKG, status: 'OVER_QUOTA' }, { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' }, true],
      [{ ...PKG, upOrDownGradeRequested: true }, { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' }, false],
      [{ ...PKG, status: 'SUSPENDED' }, { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' }, false],
      [{ ...PKG, status: 'REQUESTED' }, { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' }, false],
      [PKG, { role: 'ROLE_CUSTOMER_ADMIN_USER' }, false],
      [PKG, { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', readOnly: true }, false],
    ];
    for (const [pkg, user, shown] of cases) {
      renderSignedIn(<UpgradePackageButton pkg={pkg} refreshes={[]} />, user);
      expect(screen.queryByRole('button', { name: 'Upgrade Office' }) !== null, `${pkg.status} ${user.role}`).toBe(
        shown,
      );
      cleanup();
    }
  });

  it("leaves the package's own template out, sends the choice and toasts the request", async () => {
    const server = serveOffer(DIRECT_OFFER, ({ method }) =>
      method === 'PUT' ? ok({ whmcsInvoiceId: null }) : undefined,
    );
    const { events, assign } = open();
    await events.click(screen.getByRole('button', { name: 'Upgrade Office' }));
    expect(screen.getByRole('dialog', { name: 'Upgrade or downgrade package' })).toBeInTheDocument();
    await screen.findByRole('option', { name: 'Business' });
    expect(screen.queryByRole('option', { name: 'Basic' })).not.toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Request change' }));
    expect(await screen.findByText('Must choose a backup package')).toBeInTheDocument();
    await events.selectOptions(screen.getByLabelText('Backup package'), 'Business');
    await events.click(screen.getByRole('button', { name: 'Request change' }));
    expect(await screen.findByText('Backup package up/downgrade requested!')).toBeInTheDocument();
    expect(server.to('PUT', '/admin/backuppackages/9/upgrade')[0]?.body).toEqual({ newPackageTemplateId: 12 });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(assign).not.toHaveBeenCalled();
  });

  it('goes to the invoice of a billed change, and shows the unknown error of a failure', async () => {
    let answer = () => reply(500, {});
    const server = serveOffer(DIRECT_OFFER, ({ method }) => (method === 'PUT' ? answer() : undefined));
    const { events, assign } = open();
    await events.click(screen.getByRole('button', { name: 'Upgrade Office' }));
    await screen.findByRole('option', { name: 'Business' });
    await events.selectOptions(screen.getByLabelText('Backup package'), 'Business');
    await events.click(screen.getByRole('button', { name: 'Request change' }));
    expect(
      await screen.findByText('Unkown error encountered while up/downgrading backup package.'),
    ).toBeInTheDocument();

    answer = () => ok({ whmcsInvoiceId: 77 });
    await events.click(screen.getByRole('button', { name: 'Request change' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(SSO_LINK));
    expect(server.to('GET', '/billing/info')[0]?.url.searchParams.get('goToUrl')).toBe('viewinvoice.php?id=77');
  });
});
