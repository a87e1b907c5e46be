import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import nodemailer, { type Transporter } from 'nodemailer';
import type { OutboundGuard } from '../net/outbound-guard.js';

/** A mail server a tenant configured (a reseller's e-mail settings, 000 §3). */
export interface SmtpServerSettings {
  host: string;
  port: number;
  username: string;
  password: string;
}

export interface SmtpTrust {
  guard: OutboundGuard;
  /** SMTP_CA_FILE: extra certificate authorities, trusted beside the public ones. */
  caFile: string | undefined;
}

const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

let extraCa: { file: string; pem: string } | null = null;
function trustedCas(caFile: string | undefined): string[] | undefined {
  if (!caFile) return undefined;
  if (extraCa?.file !== caFile) extraCa = { file: caFile, pem: readFileSync(caFile, 'utf8') };
  return [...rootCertificates, extraCa.pem];
}

/**
 * A nodemailer transport to a tenant's mail server, through the one outbound guard: the host is resolved and
 * checked first (loopback, private, link-local and metadata addresses refused unless ALLOW_PRIVATE_ENDPOINTS),
 * and the connection goes to the checked address, so a DNS answer that changes afterwards gains nothing; TLS
 * still verifies the certificate against the host name. Port 465 is TLS from the start; any other port must
 * upgrade with STARTTLS (a server that does not offer it, or an attacker who strips the offer, fails: the
 * password never travels in clear), and the login is always made (a server that offers no AUTH fails, so a
 * wrong password is never "tested" successfully). Throws the guard's refusal (an AddressRefusedError) or the resolver's error before anything is sent.
 */
export async function openSmtpTransport(settings: SmtpServerSettings, trust: SmtpTrust): Promise<Transporter> {
  const addresses = await trust.guard.check(settings.host);
  const address = addresses.find((a) => isIP(a) === 4) ?? addresses[0];
  if (address === undefined) throw new Error(`no address for ${settings.host}`);
  const servername = isIP(settings.host) ? undefined : settings.host;
  return nodemailer.createTransport({
    host: address,
    port: settings.port,
    secure: settings.port === 465,
    requireTLS: settings.port !== 465,
    forceAuth: true,
    auth: { user: settings.username, pass: settings.password },
    name: 'cloud-portal',
    ...TIMEOUTS,
    tls: { servername, ca: trustedCas(trust.caFile), minVersion: 'TLSv1.2' },
  });
}
