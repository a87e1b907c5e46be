/**
 * What a mail says before the brand is applied (issue 17): the server renders it as a plain-text and an HTML
 * part in the brand of the mail's customer, and turns the link's portal path into an absolute address on that
 * brand's host. Account mails and notification mails alike.
 */
export interface MailMessage {
  subject: string;
  /** Paragraph lines, in order; a blank string is an empty line. */
  lines: string[];
  /** A link back into the portal (the task, the machine, the reset page): a path, made absolute per brand. */
  link?: { label: string; path: string };
}

/**
 * The brand a mail carries (000 §1, §3; 002 §1): the reseller's for the reseller and its customers, else the
 * provider's default. `origin` is where the mail's links point (the reseller's custom URL, else PUBLIC_URL).
 */
export interface MailBrand {
  name: string;
  origin: string;
  supportEmail: string | null;
  supportPhone: string | null;
}

/**
 * The delivery job's rules (ours; issue 17 asks for retries with back-off): a mail is tried `attempts` times,
 * the n-th retry waits baseDelayMs · 2^(n-1) capped at maxDelayMs; a claimed mail is leased for leaseMs (longer
 * than the SMTP timeouts of one send, so a live sender never loses its lease); SENT rows are kept keepSentDays.
 */
export const MAIL_DELIVERY = {
  attempts: 6,
  baseDelayMs: 60_000,
  maxDelayMs: 6 * 3_600_000,
  leaseMs: 5 * 60_000,
  keepSentDays: 7,
} as const;

/** How long to wait after the given failed attempt (1-based) before the next one. */
export function mailRetryDelayMs(failedAttempt: number): number {
  const exponent = Math.max(0, Math.floor(failedAttempt) - 1);
  return Math.min(MAIL_DELIVERY.maxDelayMs, MAIL_DELIVERY.baseDelayMs * 2 ** Math.min(exponent, 30));
}

/** Whether a mail that failed its given attempt is given up (FAILED) rather than tried again. */
export const mailGivenUp = (failedAttempt: number) => failedAttempt >= MAIL_DELIVERY.attempts;

/** The absolute address of a portal path on a brand's host. */
export const brandLink = (brand: Pick<MailBrand, 'origin'>, path: string) => new URL(path, brand.origin).toString();

/** The plain-text part of a mail: its lines, the link on its own line, and who to ask (the brand's support). */
export function mailTextPart(message: MailMessage, brand: MailBrand): string {
  const lines = [...message.lines];
  if (message.link) lines.push('', `${message.link.label}: ${brandLink(brand, message.link.path)}`);
  lines.push('', '--', brand.name);
  const support = mailSupportLine(brand);
  if (support) lines.push(support);
  return lines.join('\n');
}

/** "Support: help@reseller.test, 021 555 0100" (ours), or null when the brand names no support contact. */
export function mailSupportLine(brand: Pick<MailBrand, 'supportEmail' | 'supportPhone'>): string | null {
  const contacts = [brand.supportEmail, brand.supportPhone].filter((c): c is string => !!c);
  return contacts.length === 0 ? null : `Support: ${contacts.join(', ')}`;
}

/** The kinds of the account mails that go through the outbox (ours); notification kinds are the notifications'. */
export const ACCOUNT_MAIL_KINDS = {
  signUpAddressInUse: 'SIGN_UP_ADDRESS_IN_USE',
  signInEmailChanged: 'SIGN_IN_EMAIL_CHANGED',
  packageRequestDeclined: 'PACKAGE_REQUEST_DECLINED',
} as const;

/** How the failed-mail list names the account mails (ours). */
export const ACCOUNT_MAIL_KIND_NAMES: Record<string, string> = {
  [ACCOUNT_MAIL_KINDS.signUpAddressInUse]: 'Sign-up with an address in use',
  [ACCOUNT_MAIL_KINDS.signInEmailChanged]: 'Sign-in e-mail changed',
  [ACCOUNT_MAIL_KINDS.packageRequestDeclined]: 'Backup package request declined',
};

/** Why a mail could not be sent, as the super admin reads it (ours; never the server's words with a secret). */
export const MAIL_SEND_ERRORS = {
  connection: 'Could not connect to the mail server',
  tls: 'The secure connection (TLS) to the mail server failed',
  authentication: 'The mail server refused the login',
  senderRefused: 'The mail server refused the sender address',
  recipientRefused: 'The mail server refused the recipient address',
  refusedAddress: 'The mail server address is not allowed',
  passwordUnreadable: 'The saved mail server password cannot be read; save the e-mail settings again',
  other: 'The mail server did not accept the mail',
} as const;
export type MailSendErrorKind = keyof typeof MAIL_SEND_ERRORS;

export const MAIL_OUTBOX_STATUSES = ['QUEUED', 'SENT', 'FAILED'] as const;
export type MailOutboxStatus = (typeof MAIL_OUTBOX_STATUSES)[number];

/**
 * A mail of the caller's customer that failed or is being retried (GET /admin/mailfailures, issue 17): shown to
 * the customer's super admin on the notification settings screen. `nextAttemptAt` is null once it is given up.
 */
export interface MailFailureRow {
  id: number;
  kind: string;
  /** The kind as the super admin reads it ('Run failed'). */
  kindName: string;
  recipient: string;
  subject: string;
  status: 'QUEUED' | 'FAILED';
  attempts: number;
  lastError: string | null;
  createdAt: string;
  nextAttemptAt: string | null;
}
