import { z } from 'zod';
import { fieldNotValid, fieldRequired } from '../messages.js';
import { displayText, integerField, isHostname, optionalText, requiredText } from './fields.js';

/** Limits of the billing host server form (the columns of billing_servers). */
export const BILLING_SERVER_LIMITS = {
  descriptionMax: 100,
  regionMax: 50,
  hostMax: 255,
  pathMax: 255,
  identifierMax: 255,
  secretMax: 255,
} as const;

/** Field labels of the billing host server form (001 §3 names the fields; the labels are ours). */
export const BILLING_SERVER_LABELS = {
  description: 'Description',
  region: 'Region',
  whmcsHost: 'Host',
  whmcsPort: 'Port',
  whmcsPath: 'Path',
  whmcsIdentifier: 'API identifier',
  whmcsSecret: 'API secret',
  whmcsApiAccessKey: 'API access key',
} as const;

const L = BILLING_SERVER_LABELS;
const M = BILLING_SERVER_LIMITS;

const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

/** A WHMCS host: a host name, an IPv4 address or localhost, optionally with its scheme (http:// or https://). */
export function isBillingHost(value: string): boolean {
  const host = value.replace(/^https?:\/\//i, '');
  return host === 'localhost' || IPV4.test(host) || isHostname(host);
}

const PATH = /^\/?([A-Za-z0-9._~-]+\/?)*$/;

/**
 * Add or edit a billing host server (001 §2, §3: whmcsHost, whmcsPort, whmcsPath, whmcsIdentifier,
 * whmcsSecret, whmcsApiAccessKey; with a description and the region the template table groups prices by).
 * On edit (`editing`) an empty secret or access key keeps the stored one, as the form never shows them;
 * on add the secret is required and the access key optional.
 */
export function billingServerSchema(editing: boolean) {
  return z.object({
    description: displayText(L.description, M.descriptionMax),
    region: displayText(L.region, M.regionMax),
    whmcsHost: requiredText(L.whmcsHost, M.hostMax).refine(isBillingHost, fieldNotValid(L.whmcsHost)),
    whmcsPort: integerField(L.whmcsPort, { min: 1, max: 65_535 }),
    whmcsPath: optionalText(L.whmcsPath, M.pathMax)
      .refine((v) => PATH.test(v), fieldNotValid(L.whmcsPath))
      .transform((v) => `/${v.replace(/^\/+|\/+$/g, '')}/`.replace(/^\/\/$/, '/')),
    whmcsIdentifier: requiredText(L.whmcsIdentifier, M.identifierMax),
    whmcsSecret: editing ? optionalText(L.whmcsSecret, M.secretMax) : requiredText(L.whmcsSecret, M.secretMax),
    whmcsApiAccessKey: optionalText(L.whmcsApiAccessKey, M.secretMax),
  });
}
export const billingServerAddSchema = billingServerSchema(false);
export const billingServerEditSchema = billingServerSchema(true);
export type BillingServerForm = z.input<typeof billingServerAddSchema>;
export type BillingServerPayload = z.output<typeof billingServerEditSchema>;

/** A new server's form as it opens. */
export const BILLING_SERVER_DEFAULTS: BillingServerForm = {
  description: '',
  region: 'default',
  whmcsHost: '',
  whmcsPort: 443,
  whmcsPath: '/',
  whmcsIdentifier: '',
  whmcsSecret: '',
  whmcsApiAccessKey: '',
};

/**
 * Test connection of the form before saving: the form's fields, plus the server being edited, whose
 * stored secret and access key stand in for empty ones.
 */
export const billingServerTestSchema = billingServerEditSchema.extend({
  id: z.number().int().positive().nullish(),
});

/** A row of the billing host servers table; secrets only say whether they are set (DESIGN §3). */
export interface BillingServerRow {
  id: number;
  description: string;
  region: string;
  whmcsHost: string;
  whmcsPort: number;
  whmcsPath: string;
  whmcsIdentifier: string;
  whmcsSecretConfigured: boolean;
  whmcsApiAccessKeyConfigured: boolean;
  /** Customers billed through it; such a server cannot be deleted. */
  numberOfCustomers: number;
}

/** Test connection's answer: the WHMCS version that answered. */
export interface BillingConnectionResult {
  version: string;
}

/** GET /billing/info (002 §7.2). */
export interface BillingInfo {
  whmcsRedirectUrl: string;
}

/**
 * goToUrl of GET /billing/info: a page of the customer's own billing system the portal links to (the
 * billing and support targets of 002 §7.2, mass payment, an invoice, a product); never another site.
 */
const GO_TO_PAGES = [
  /^clientarea\.php\?action=invoices&a=[01]$/,
  /^supporttickets\.php\?a=[01]$/,
  /^clientarea\.php\?action=masspay&all=true$/,
  /^viewinvoice\.php\?id=\d{1,10}$/,
  /^clientarea\.php\?action=productdetails&id=\d{1,10}$/,
];
export const billingInfoQuerySchema = z.object({
  goToUrl: z
    .string({ error: fieldRequired('goToUrl') })
    .refine((v) => GO_TO_PAGES.some((page) => page.test(v)), fieldNotValid('goToUrl')),
});

/** A target with the super-admin flag a=1 (002 §7.2) is for the customer's super admin only. */
export const isSuperAdminBillingPage = (goToUrl: string) => /[?&]a=1$/.test(goToUrl);
