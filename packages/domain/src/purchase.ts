import { WHMCS_PAGES } from './billing.js';
import type { StorageQuotaUnit } from './enums.js';
import { PACKAGE_LIMITS, packageQuotaInMb } from './forms/package.js';
import { idSegment } from './paths.js';
import { bytesToMegabytes, quotaToBytes, quotaToBytesExact } from './sizes.js';

/**
 * Buying backup (000 §6, §7; 001 §2, §3): the templates a customer may buy with their billing prices, the
 * package a purchase creates, and the answers of purchase and up/downgrade.
 */

/** One billing region's view of a template (001 §3 whmcsPackagePricingDtos). */
export interface WhmcsPackagePricing {
  /** The billing host server's region. */
  region: string;
  /** The billing system has a product of the template's name. */
  matchedInWhmcs: boolean;
  /** The product's price as the billing system states it; null when unmatched or unknown. */
  priceInWhmcs: string | null;
}

/** One billing region as the template table reads it: its products' prices by name, or null when it did not answer. */
export interface BillingRegionCatalogue {
  region: string;
  prices: ReadonlyMap<string, string | null> | null;
}

/**
 * Who buys, as the offer reads it (ours; the spec is silent). A provider's template may be meant for resellers
 * only: it is offered to a customer that is a reseller (its reseller settings enabled) and to nobody else, neither
 * a direct customer nor the public sign-up; a reseller's customer is offered its reseller's own templates, which
 * are never reseller-only.
 */
export interface TemplateBuyer {
  reseller: boolean;
}

/** The public sign-up buys as a newcomer, never as a reseller. */
export const SIGN_UP_BUYER: TemplateBuyer = { reseller: false };

/** A customer buys as a reseller when it is the provider's own customer with its reseller settings enabled. */
export const templateBuyerOf = (customer: {
  parentResellerCustomerId: number | null;
  resellerEnabled: boolean;
}): TemplateBuyer => ({ reseller: customer.parentResellerCustomerId === null && customer.resellerEnabled });

/** A template's audience: every customer, or (resellersOnly) resellers only. */
export const isTemplateForBuyer = (template: { resellersOnly: boolean }, buyer: TemplateBuyer): boolean =>
  !template.resellersOnly || buyer.reseller;

/**
 * Which templates a buyer is offered, with the billing regions that sell each (ours where the spec is silent;
 * 000 §6, 001 §2). The caller has chosen the seller's templates: a reseller's customer its reseller's own, a direct
 * customer and the public sign-up the provider's. A template meant for resellers only is offered only to a
 * reseller (`isTemplateForBuyer`). `catalogue` is null for a buyer the billing system does not serve
 * (a reseller's customer, who is offered every template of its reseller and finds the prices on its main site).
 * For the others a template is on offer only where the billing system sells it: a template that no answering region
 * has a product for ('Not available') is not offered, and each offered template lists the regions that sell it.
 * When no region answered (none configured, or all down) nothing is known to be unsold and every template stays.
 */
export function templatesOnOffer<T extends { name: string; resellersOnly: boolean }>(
  templates: readonly T[],
  catalogue: readonly BillingRegionCatalogue[] | null,
  buyer: TemplateBuyer,
): Array<T & { whmcsPackagePricingDtos: WhmcsPackagePricing[] }> {
  const forBuyer = templates.filter((template) => isTemplateForBuyer(template, buyer));
  if (catalogue === null) return forBuyer.map((t) => ({ ...t, whmcsPackagePricingDtos: [] }));
  const answered = catalogue.filter((region) => region.prices !== null);
  return forBuyer.flatMap((template) => {
    const name = template.name.trim();
    const selling = answered.filter((region) => region.prices?.has(name));
    if (answered.length > 0 && selling.length === 0) return [];
    const whmcsPackagePricingDtos = selling.map(({ region, prices }) => ({
      region,
      matchedInWhmcs: true,
      priceInWhmcs: prices?.get(name) ?? null,
    }));
    return [{ ...template, whmcsPackagePricingDtos }];
  });
}

/** A template on offer to the caller's customer (001 §3 'Backup package template'). */
export interface OfferedTemplate {
  id: number;
  name: string;
  /** The quota in MB (001 §3), for the human-readable Storage quota column. */
  storageQuota: number;
  /** The unit the template was defined in. */
  storageQuotaUnit: StorageQuotaUnit;
  /** 0 means unlimited. */
  noOfMachinesLimit: number;
  /** One per billing region for a direct customer; none for a reseller's customer (000 §6). */
  whmcsPackagePricingDtos: WhmcsPackagePricing[];
}

/** GET /admin/packagetemplates: the templates, and where a reseller's customer finds its prices (000 §6). */
export interface TemplatesOnOffer {
  elements: OfferedTemplate[];
  /** The caller's customer is a direct customer of the provider (pays through the billing system). */
  boltCustomer: boolean;
  /** A reseller's customer: the reseller's main site link, for pricing; null for a direct customer. */
  mainSiteLink: string | null;
}

/** The answer of purchase and up/downgrade (000 §7 result.whmcsInvoiceId). */
export interface PurchaseResult {
  /** The billing system's invoice to pay; null when no invoice was made (the request awaits approval). */
  whmcsInvoiceId: number | null;
}

interface TemplateQuota {
  storageQuota: number;
  storageQuotaUnit: StorageQuotaUnit;
}

/** A template's quota in MB, as the template table shows it (001 §3). */
export const templateQuotaInMb = (template: TemplateQuota): number =>
  bytesToMegabytes(quotaToBytes(template.storageQuota, template.storageQuotaUnit));

/**
 * A template's quota in bytes as a package stores it: exact, capped to the largest whole number a
 * JavaScript number holds exactly (about 8 PB) so a huge template quota is stored as that cap, not rounded.
 */
export function packageQuotaBytes(template: TemplateQuota): number {
  const exact = quotaToBytesExact(template.storageQuota, template.storageQuotaUnit);
  return exact > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(exact);
}

/**
 * The package a purchase of a template creates (000 §6): named after the template (cut to the package
 * name's 50 characters), its quota, a per-machine maximum of the whole quota in MB, and its machine limit.
 */
export function packageFromTemplate(template: TemplateQuota & { name: string; noOfMachinesLimit: number }) {
  const packageQuotaSizeInBytes = packageQuotaBytes(template);
  return {
    name: template.name.slice(0, PACKAGE_LIMITS.nameMax),
    packageQuotaSizeInBytes,
    maxBackupSizePerMachineInMbs: packageQuotaInMb(packageQuotaSizeInBytes),
    noOfMachinesLimit: template.noOfMachinesLimit,
  };
}

/**
 * The billing system's page of an invoice that purchase or up/downgrade answered (000 §7): the goToUrl of
 * GET /billing/info (002 §7.2), which answers the single sign-on link the browser then follows.
 */
export const invoiceGoToUrl = (invoiceId: number) => `${WHMCS_PAGES.invoice}?id=${idSegment(invoiceId, 'invoiceId')}`;
