import { type CredentialDestination, destinationOfUrl } from './credentials.js';

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
