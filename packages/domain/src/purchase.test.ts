import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { billingInfoQuerySchema } from './forms/billing-server.js';
import { PACKAGE_TEMPLATE_LIMITS } from './forms/package-template.js';
import {
  type BillingRegionCatalogue,
  invoiceGoToUrl,
  packageFromTemplate,
  SIGN_UP_BUYER,
  type TemplateBuyer,
  templateBuyerOf,
  templateQuotaInMb,
  templatesOnOffer,
} from './purchase.js';

describe('the package a purchase makes (000 §6)', () => {
  it('takes the template name (cut to 50), its quota exactly, the whole quota per machine and the machine limit', () => {
    expect(
      packageFromTemplate({ name: 'Basic', storageQuota: 10, storageQuotaUnit: 'GB', noOfMachinesLimit: 5 }),
    ).toEqual({
      name: 'Basic',
      packageQuotaSizeInBytes: 10 * 1024 ** 3,
      maxBackupSizePerMachineInMbs: 10 * 1024,
      noOfMachinesLimit: 5,
    });
    expect(
      packageFromTemplate({ name: 'x'.repeat(100), storageQuota: 1, storageQuotaUnit: 'MB', noOfMachinesLimit: 0 })
        .name,
    ).toHaveLength(50);
  });

  it('caps a quota beyond an exact JavaScript number at the largest one', () => {
    const pkg = packageFromTemplate({
      name: 'Huge',
      storageQuota: PACKAGE_TEMPLATE_LIMITS.storageQuotaMax,
      storageQuotaUnit: 'PB',
      noOfMachinesLimit: 0,
    });
    expect(pkg.packageQuotaSizeInBytes).toBe(Number.MAX_SAFE_INTEGER);
    expect(pkg.maxBackupSizePerMachineInMbs).toBe(Math.floor(Number.MAX_SAFE_INTEGER / 1_048_576));
    // 8 PB is the last quota stored exactly.
    expect(
      packageFromTemplate({ name: 'P', storageQuota: 7, storageQuotaUnit: 'PB', noOfMachinesLimit: 0 }),
    ).toMatchObject({
      packageQuotaSizeInBytes: 7 * 1024 ** 5,
    });
  });

  it('shows a template quota in MB (001 §3)', () => {
    expect(templateQuotaInMb({ storageQuota: 2, storageQuotaUnit: 'TB' })).toBe(2 * 1024 * 1024);
  });
});

describe('paying an invoice (000 §7, 002 §7.2)', () => {
  it("is the billing system's invoice page, a goToUrl GET /billing/info accepts", () => {
    expect(invoiceGoToUrl(42)).toBe('viewinvoice.php?id=42');
    expect(billingInfoQuerySchema.safeParse({ goToUrl: invoiceGoToUrl(42) }).success).toBe(true);
    expect(() => invoiceGoToUrl(0)).toThrow(RangeError);
  });
});

describe('templates on offer (issue 29: only what may be bought)', () => {
  const t = (name: string, resellersOnly = false) => ({ name, resellersOnly });
  const direct = SIGN_UP_BUYER;
  const region = (name: string, sold: Record<string, string | null> | null): BillingRegionCatalogue => ({
    region: name,
    prices: sold === null ? null : new Map(Object.entries(sold)),
  });

  it('offers a buyer the billing system does not serve every template, unpriced', () => {
    expect(templatesOnOffer([t('Mini'), t('Pro')], null, direct)).toEqual([
      { name: 'Mini', resellersOnly: false, whmcsPackagePricingDtos: [] },
      { name: 'Pro', resellersOnly: false, whmcsPackagePricingDtos: [] },
    ]);
  });

  it('leaves out what no answering region sells, and lists only the regions that sell the rest', () => {
    const catalogue = [region('EU', { Basic: '9.50 USD', 'Reseller 20 TB': null }), region('US', null)];
    expect(templatesOnOffer([t('Basic'), t('Unsold'), t(' Reseller 20 TB ')], catalogue, direct)).toEqual([
      {
        name: 'Basic',
        resellersOnly: false,
        whmcsPackagePricingDtos: [{ region: 'EU', matchedInWhmcs: true, priceInWhmcs: '9.50 USD' }],
      },
      {
        name: ' Reseller 20 TB ',
        resellersOnly: false,
        whmcsPackagePricingDtos: [{ region: 'EU', matchedInWhmcs: true, priceInWhmcs: null }],
      },
    ]);
  });

  it('keeps every template when no region answered (none configured, or all down)', () => {
    expect(templatesOnOffer([t('Basic')], [], direct)).toEqual([
      { name: 'Basic', resellersOnly: false, whmcsPackagePricingDtos: [] },
    ]);
    expect(templatesOnOffer([t('Basic')], [region('EU', null)], direct)).toEqual([
      { name: 'Basic', resellersOnly: false, whmcsPackagePricingDtos: [] },
    ]);
  });

  it('never offers an unsold template nor shows a region as not available (property)', () => {
    const names = fc.constantFrom<string>('Basic', 'Pro', 'Unsold', 'Mini');
    const catalogue = fc.array(
      fc.record({
        region: fc.constantFrom('EU', 'US', 'default'),
        prices: fc.option(
          fc.uniqueArray(names).map((sold) => new Map<string, string | null>(sold.map((n) => [n, '1.00 USD']))),
        ),
      }),
      { maxLength: 3 },
    );
    fc.assert(
      fc.property(fc.uniqueArray(names), catalogue, (templateNames, regions) => {
        const offered = templatesOnOffer(
          templateNames.map((n) => t(n)),
          regions,
          direct,
        );
        const answered = regions.filter((r) => r.prices !== null);
        for (const template of offered) {
          expect(template.whmcsPackagePricingDtos.every((p) => p.matchedInWhmcs)).toBe(true);
          if (answered.length > 0) expect(answered.some((r) => r.prices?.has(template.name))).toBe(true);
        }
        const sold = templateNames.filter((n) => answered.length === 0 || answered.some((r) => r.prices?.has(n)));
        expect(offered.map((o) => o.name)).toEqual(sold);
      }),
    );
  });

  it('offers a template for resellers only to a reseller, never to a direct customer or the sign-up', () => {
    const templates = [t('Basic'), t('Reseller 20 TB', true)];
    const reseller = templateBuyerOf({ parentResellerCustomerId: null, resellerEnabled: true });
    const customer = templateBuyerOf({ parentResellerCustomerId: null, resellerEnabled: false });
    const names = (buyer: TemplateBuyer) => templatesOnOffer(templates, null, buyer).map((o) => o.name);
    expect(names(reseller)).toEqual(['Basic', 'Reseller 20 TB']);
    expect(names(customer)).toEqual(['Basic']);
    expect(names(SIGN_UP_BUYER)).toEqual(['Basic']);
    const sold = [region('EU', { Basic: '9.50 USD', 'Reseller 20 TB': '99.00 USD' })];
    expect(templatesOnOffer(templates, sold, customer).map((o) => o.name)).toEqual(['Basic']);
    expect(templatesOnOffer(templates, sold, reseller).map((o) => o.name)).toEqual(['Basic', 'Reseller 20 TB']);
  });

  it("treats a reseller's customer as no reseller, whatever its own settings say", () => {
    expect(templateBuyerOf({ parentResellerCustomerId: 7, resellerEnabled: true })).toEqual({ reseller: false });
  });

  it('never offers a reseller-only template to a buyer that is not a reseller (property)', () => {
    const template = fc.record({
      name: fc.constantFrom('Basic', 'Pro', 'Reseller 20 TB'),
      resellersOnly: fc.boolean(),
    });
    const buyer = fc.record({ parentResellerCustomerId: fc.option(fc.nat()), resellerEnabled: fc.boolean() });
    const catalogue = fc.option(
      fc.array(
        fc.record({
          region: fc.constantFrom('EU', 'US'),
          prices: fc.option(
            fc
              .uniqueArray(fc.constantFrom('Basic', 'Pro', 'Reseller 20 TB'))
              .map((sold) => new Map<string, string | null>(sold.map((n) => [n, '1.00 USD']))),
          ),
        }),
        { maxLength: 2 },
      ),
    );
    fc.assert(
      fc.property(fc.array(template), buyer, catalogue, (templates, customer, regions) => {
        const offered = templatesOnOffer(templates, regions, templateBuyerOf(customer));
        const isReseller = customer.parentResellerCustomerId === null && customer.resellerEnabled;
        if (!isReseller) expect(offered.every((o) => !o.resellersOnly)).toBe(true);
        expect(templatesOnOffer(templates, regions, SIGN_UP_BUYER).every((o) => !o.resellersOnly)).toBe(true);
        // The audience only takes away: a reseller is offered what a direct customer is, and more.
        const forDirect = templatesOnOffer(templates, regions, { reseller: false });
        const forReseller = templatesOnOffer(templates, regions, { reseller: true });
        expect(forReseller.filter((o) => !o.resellersOnly)).toEqual(forDirect);
      }),
    );
  });
});
