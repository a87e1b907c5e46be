import {
  emailRecipientRefused,
  emailTestFailed,
  MESSAGES,
  type ResellerEmailSettingsPayload,
  testMailText,
} from '@portal/domain';
import { AddressRefusedError, OutsideServiceError, type OutsideServiceFailure } from '../../platform/errors.js';
import { openSmtpTransport, type SmtpTrust } from '../../platform/smtp.js';

/** What failed in the e-mail test, on the form field to fix ('' for a general message). */
export class EmailTestFailed extends OutsideServiceError {
  constructor(failure: OutsideServiceFailure, message: string, fieldName: keyof ResellerEmailSettingsPayload | '') {
    super(failure, message, 'VALIDATION_FAILED', fieldName);
    this.name = 'EmailTestFailed';
  }
}

const T = MESSAGES.resellerSettings;

/** Codes of a connection that could not be made or broke off before the server answered. */
const CONNECTION_CODES = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const DNS_CODES = new Set(['EDNS', 'ENOTFOUND', 'EAI_AGAIN', 'ENODATA']);

interface SmtpFailure {
  code?: string;
  command?: string;
  responseCode?: number;
  response?: string;
  reason?: string;
  message?: string;
  cause?: unknown;
}

/** Whether a failure (or what caused it) is TLS: a certificate not trusted or not naming the host, a handshake failed. */
function isTlsFailure(error: SmtpFailure): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as SmtpFailure).cause) {
    const { code = '', message = '' } = e as SmtpFailure;
    if (code === 'ETLS' || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code.includes('CERT'))
      return true;
    if (/certificate|self[- ]signed|altname|ssl|tls/i.test(message)) return true;
  }
  return false;
}

/**
 * Maps what went wrong to the field to fix. TLS failures go on emailHost: the certificate is checked against
 * the host name, so a certificate that is not trusted or names another host is fixed by the host (the right name,
 * or the mail server's certificate), not by the port; a port that speaks no TLS where TLS is expected shows as a
 * connection that broke off, which is the port's message. A connection refused or timed out after the host
 * resolved, or a server that cannot upgrade to TLS, is the port's to fix.
 */
export function explainSmtpFailure(error: unknown, supportEmailAddress: string): EmailTestFailed {
  if (error instanceof AddressRefusedError)
    return new EmailTestFailed('refusedAddress', T.emailHostRefused, 'emailHost');
  const failure = (error ?? {}) as SmtpFailure;
  const code = failure.code ?? '';
  if (DNS_CODES.has(code)) return new EmailTestFailed('unreachable', T.emailHostNotFound, 'emailHost');
  // The transport requires STARTTLS before the login: a server on this port that cannot upgrade.
  if (code === 'ETLS' && /STARTTLS/i.test(failure.message ?? ''))
    return new EmailTestFailed('badAnswer', T.emailStartTlsMissing, 'emailPort');
  if (isTlsFailure(failure)) return new EmailTestFailed('badAnswer', T.emailTlsFailed, 'emailHost');
  if (code === 'EAUTH' || code === 'ENOAUTH')
    return new EmailTestFailed('refusedCredentials', T.emailAuthFailed, 'emailPassword');
  if (code === 'EENVELOPE' && /^MAIL FROM/i.test(failure.command ?? ''))
    return new EmailTestFailed('badAnswer', T.emailSenderRefused, 'sendFromEmailAddress');
  if (code === 'EENVELOPE' && /^RCPT TO/i.test(failure.command ?? ''))
    return new EmailTestFailed('badAnswer', emailRecipientRefused(supportEmailAddress), '');
  // The host resolved (DNS failures are above): nothing answering, or not SMTP, on this port.
  if (CONNECTION_CODES.has(code) || code === 'ESOCKET' || code === 'EPROTOCOL' || code === 'EGREETING')
    return new EmailTestFailed('unreachable', T.emailConnectFailed, 'emailPort');
  return new EmailTestFailed('badAnswer', emailTestFailed(failure.response ?? failure.message ?? code), '');
}

/**
 * Tests a reseller's e-mail settings (000 §7, 002 §7.4, issue 17): opens the reseller's server through the one
 * transport (outbound guard, STARTTLS where offered, CA trust), verifies it (connect, TLS, authenticate), and
 * sends a test message from the sender address to the reseller's support address. Resolves when the server
 * accepted the message; throws EmailTestFailed naming the field otherwise. The password appears in no message.
 */
export async function testEmailSettings(
  settings: ResellerEmailSettingsPayload,
  recipient: { supportEmailAddress: string; brandName: string },
  trust: SmtpTrust,
): Promise<void> {
  let transport: Awaited<ReturnType<typeof openSmtpTransport>> | undefined;
  try {
    transport = await openSmtpTransport(
      {
        host: settings.emailHost,
        port: settings.emailPort,
        username: settings.emailUsername,
        password: settings.emailPassword,
      },
      trust,
    );
    await transport.verify();
    await transport.sendMail({
      from: settings.sendFromEmailAddress,
      to: recipient.supportEmailAddress,
      subject: T.testMailSubject,
      text: testMailText(recipient.brandName),
    });
  } catch (error) {
    throw explainSmtpFailure(error, recipient.supportEmailAddress);
  } finally {
    transport?.close();
  }
}
