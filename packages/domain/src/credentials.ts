import { fieldRequired, secretForNewAddress } from './messages.js';

/**
 * Where a stored secret may go (DESIGN §8a: a stored secret is sent only to the host it was saved for). Forms
 * never show a stored secret (a WHMCS secret or API access key, an S3 secret access key), so an edit or a
 * connection test may leave it empty to mean "the stored one"; that holds only while the form still points
 * where the secret was saved for. A form that points elsewhere must carry the secret again, or a form that
 * names a saved server and a host of one's own would hand the stored secret to that host. (A reseller's SMTP
 * password is never taken from storage for a form at all: 000 §5 requires it on every save.)
 */
export interface CredentialDestination {
  scheme: string;
  host: string;
  /** Null: the scheme's default port. */
  port: number | null;
  path: string;
}

const DEFAULT_PORTS: Readonly<Record<string, number>> = { http: 80, https: 443 };

/**
 * A host as a connection uses it: lower case, no trailing dot, no IPv6 brackets, and an IPv4 address or an
 * internationalised name in the one form the URL parser gives it (`0x7f.1` is 127.0.0.1, `BÜCHER.de` is
 * xn--bcher-kva.de).
 */
function canonicalHost(host: string): string {
  const bare = host
    .trim()
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.+$/, '');
  try {
    const parsed = new URL(`http://${bare.includes(':') ? `[${bare}]` : bare}/`).hostname;
    return parsed.replace(/^\[|\]$/g, '').replace(/\.+$/, '');
  } catch {
    return bare;
  }
}

/** A path as compared: a leading '/', no trailing '/', the query kept (it is part of where the request goes). */
function canonicalPath(path: string): string {
  const [pathname = '', query] = path.split(/\?(.*)/s, 2);
  const trimmed = `/${pathname.replace(/^\/+|\/+$/g, '')}`;
  return query ? `${trimmed}?${query}` : trimmed;
}

/**
 * The destination in one form, so that what means the same place compares equal: scheme and host in lower case,
 * the default port written out (http 80, https 443), trailing slashes of the path dropped. The path keeps
 * its case (servers tell `/WHMCS` from `/whmcs`).
 */
export function canonicalDestination(destination: CredentialDestination): CredentialDestination {
  const scheme = destination.scheme.trim().toLowerCase().replace(/:$/, '');
  return {
    scheme,
    host: canonicalHost(destination.host),
    port: destination.port ?? DEFAULT_PORTS[scheme] ?? null,
    path: canonicalPath(destination.path),
  };
}

/** The destination of a URL (an S3 endpoint, a WHMCS base address); null when it is no URL. */
export function destinationOfUrl(url: string): CredentialDestination | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  return canonicalDestination({
    scheme: parsed.protocol,
    host: parsed.hostname,
    port: parsed.port === '' ? null : Number(parsed.port),
    path: `${parsed.pathname}${parsed.search}`,
  });
}

/** Whether two destinations are the same scheme, host, port and path (after canonicalDestination). */
export function sameDestination(a: CredentialDestination, b: CredentialDestination): boolean {
  const x = canonicalDestination(a);
  const y = canonicalDestination(b);
  return x.scheme === y.scheme && x.host === y.host && x.port === y.port && x.path === y.path;
}

/** Whether two optional destinations (an S3 account's IAM endpoint) are both absent or the same. */
export function sameOptionalDestination(a: CredentialDestination | null, b: CredentialDestination | null): boolean {
  return a === null || b === null ? a === b : sameDestination(a, b);
}

/**
 * Which secret a test or save uses for a field the form may leave empty: the form's ('given'); the stored one
 * ('stored') only when the form goes where it was saved for; 'retype' when one is stored but the form goes
 * elsewhere; 'none' when nothing is given or stored.
 */
export type SecretSource = 'given' | 'stored' | 'retype' | 'none';

export function secretSource(
  given: string | null | undefined,
  hasStored: boolean,
  sameAsStored: boolean,
): SecretSource {
  if (given) return 'given';
  if (!hasStored) return 'none';
  return sameAsStored ? 'stored' : 'retype';
}

/** The field message for a secret that must be entered again, or that is required and missing; null when fine. */
export function secretFieldMessage(source: SecretSource, label: string, required: boolean): string | null {
  if (source === 'retype') return secretForNewAddress(label);
  if (source === 'none' && required) return fieldRequired(label);
  return null;
}
