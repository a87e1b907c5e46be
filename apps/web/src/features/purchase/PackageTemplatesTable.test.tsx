import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../app/testing';
import { PackageTemplatesTable } from './PackageTemplatesTable';
import { DIRECT_OFFER, offered, serveOffer } from './testing';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

describe('PackageTemplatesTable (001 §2)', () => {
  it('shows each template by its plain name with its quota, machine limit and price, naming regions only when several', async () => {
    serveOffer(DIRECT_OFFER);
    renderSignedIn(<PackageTemplatesTable />, { role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER' });
    const table = await screen.findByRole('table', { name: 'Backup packages on offer' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Storage quota', 'Max number of machines', 'Pricing']);
    await screen.findByText('Basic');
    const [, basic, business] = within(table).getAllByRole('row');
    expect(cellsOf(basic as HTMLElement)).toEqual(['Basic', '100 GB', '5', '9.50 EUR']);
    expect(cellsOf(business as HTMLElement)).toEqual(['Business', '1 TB', 'Unlimited', 'EU: 49.00 EURUS: No price']);
  });

  it("gives a reseller's customer the reseller's main site link for pricing instead", async () => {
    serveOffer({ boltCustomer: false, mainSiteLink: 'https://resell.example.test/prices', elements: [offered()] });
    renderSignedIn(<PackageTemplatesTable />, { role: 'ROLE_CUSTOMER_ADMIN_USER', boltCustomer: false });
    const link = await screen.findByRole('link', { name: 'See prices on our main site' });
    expect(link).toHaveAttribute('href', 'https://resell.example.test/prices');
    expect(screen.queryByTestId('region-pricing')).not.toBeInTheDocument();
  });

  it('says there are no package templates when none is on offer', async () => {
    serveOffer({ boltCustomer: true, mainSiteLink: null, elements: [] });
    renderSignedIn(<PackageTemplatesTable />, { role: 'ROLE_CUSTOMER_ADMIN_USER' });
    expect(await screen.findByText('There are no package templates')).toBeInTheDocument();
  });
});
