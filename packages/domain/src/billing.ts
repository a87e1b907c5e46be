import { type CredentialDestination, destinationOfUrl } from './credentials.js';
import { type Actor, isProviderAdmin } from './permissions.js';

/**
 * Addresses of a WHMCS installation (the billing system of 000 §1, 002 §7.2): its pages and its API sit
 * under one base, `{scheme}://{host}:{port}{path}`, as a billing host server (001 §3) names it. Port 443
 * is https and others http, unless the host is given with its scheme.
 */
export interface BillingServerAddress {
  whmcsHost: string;
  whmcsPort: number;
  whmcsPath: string;
}

/** The installation's base address, always ending in '/'. */
export function whmcsBaseUrl(server: BillingServerAddress): string {
  const explicit = /^(https?):\/\/(.+)$/i.exec(server.whmcsHost.trim());
  const scheme = explicit ? explicit[1]?.toLowerCase() : server.whmcsPort === 443 ? 'https' : 'http';
  const host = (explicit ? explicit[2] : server.whmcsHost.trim())?.replace(/\/+$/, '') ?? '';
  const defaultPort = scheme === 'https' ? 443 : 80;
  const port = server.whmcsPort === defaultPort ? '' : `:${server.whmcsPort}`;
  const path = `/${server.whmcsPath.replace(/^\/+|\/+$/g, '')}/`.replace(/^\/\/$/, '/');
  return `${scheme}://${host}${port}${path}`;
}

/** Where the installation's stored secret and access key go: its base address (DESIGN §8a). */
export function whmcsDestination(server: BillingServerAddress): CredentialDestination | null {
  return destinationOfUrl(whmcsBaseUrl(server));
}

/** A page of the installation, e.g. `whmcsPageUrl(s, 'viewinvoice.php', { id: 12 })`. */
export function whmcsPageUrl(
  server: BillingServerAddress,
  page: string,
  query: Readonly<Record<string, string | number>> = {},
): string {
  const url = new URL(page.replace(/^\/+/, ''), whmcsBaseUrl(server));
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
  return url.toString();
}

/** WHMCS pages the portal sends people to. */
export const WHMCS_PAGES = {
  api: 'includes/api.php',
  invoice: 'viewinvoice.php',
  /** Pay all outstanding invoices at once (000 §2 'Pay now', 002 §2.2 'Invoices due'). */
  massPay: 'clientarea.php?action=masspay&all=true',
  /** The product page of a package's billing service (002 §2.4). */
  productDetails: 'clientarea.php?action=productdetails',
} as const;

/**
 * Whether 'Pay now' (000 §2, §7: the billing system's page for paying all outstanding invoices) is offered: to a
 * direct customer's users (000 §6: only they pay through the billing system) while invoices are due.
 */
export function offersPayNow(actor: Actor, unpaidInvoices: number): boolean {
  return actor.boltCustomer && !isProviderAdmin(actor) && unpaidInvoices > 0;
}

/**
 * The billing product page of a package's service (002 §2.3: the package row's button; 000 §3 paymentUrl): known
 * when the customer has a billing server and the package a service there; null otherwise (the button disabled).
 */
export function billingProductUrl(
  server: { whmcsHost: string | null; whmcsPort: number | null; whmcsPath: string | null } | null,
  whmcsServiceId: number | null,
): string | null {
  if (server === null || server.whmcsHost === null || whmcsServiceId === null) return null;
  return whmcsPageUrl(
    { whmcsHost: server.whmcsHost, whmcsPort: server.whmcsPort ?? 443, whmcsPath: server.whmcsPath ?? '/' },
    WHMCS_PAGES.productDetails,
    { id: whmcsServiceId },
  );
}
