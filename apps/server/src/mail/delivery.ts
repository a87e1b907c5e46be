import {
  MAIL_DELIVERY,
  MAIL_SEND_ERRORS,
  type MailBrand,
  type MailMessage,
  type MailSendErrorKind,
  mailGivenUp,
  mailRetryDelayMs,
} from '@portal/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../db/client.js';
import { AddressRefusedError } from '../platform/errors.js';
import { openSmtpTransport, type SmtpTrust } from '../platform/smtp.js';
import type { MailBrands, ResolvedMailBrand } from './brand.js';
import type { Mailer, OutgoingMail } from './mailer.js';
import { createMailOutboxRepo, enqueueMails } from './outbox.js';
import { renderMail } from './render.js';

/** How many mails one pass sends at most; the next tick goes on. */
const PASS_LIMIT = 500;

/**
 * What the super admin reads of a failed send (MAIL_SEND_ERRORS and the SMTP reply code): never the server's
 * own words, which may echo a login, and never a password.
 */
export function describeSendError(error: unknown): string {
  const e = (error ?? {}) as {
    code?: string;
    command?: string;
    responseCode?: number;
    kind?: string;
    message?: string;
  };
  let kind: MailSendErrorKind = 'other';
  if (error instanceof AddressRefusedError) kind = 'refusedAddress';
  else if (e.kind === 'passwordUnreadable') kind = 'passwordUnreadable';
  else if (e.code === 'EAUTH') kind = 'authentication';
  else if (e.code === 'ETLS' || /certificate|ssl|tls/i.test(e.message ?? '')) kind = 'tls';
  else if (e.code === 'EENVELOPE' && /^MAIL/i.test(e.command ?? '')) kind = 'senderRefused';
  else if (e.code === 'EENVELOPE') kind = 'recipientRefused';
  else if (
    ['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'].includes(e.code ?? '')
  )
    kind = 'connection';
  return e.responseCode ? `${MAIL_SEND_ERRORS[kind]} (${e.responseCode})` : MAIL_SEND_ERRORS[kind];
}

/**
 * Sends portal mails in their brand (issue 17): rendered with a plain-text and an HTML part, through the
 * reseller's mail server when the brand has one (openSmtpTransport: outbound guard, STARTTLS, CA trust), else
 * the provider's (SMTP_URL, MAIL_FROM). Queued mails are delivered by passes of the delivery job; account mails
 * are sent at once (sendNow) or queued (queue) and the job woken.
 */
export function createMailDelivery(deps: {
  db: Executor;
  brands: MailBrands;
  providerMailer: Mailer;
  trust: SmtpTrust;
  logger: FastifyBaseLogger;
  /**
   * Demo mode: every mail goes to the provider's transport (the demo's sink), still in its brand, so nothing
   * leaves the machine and the demo resellers' made-up mail servers are never dialled.
   */
  providerTransportOnly?: boolean;
  /** The delivery's clock; the outbox's own times (next_attempt_at at enqueue) are the database's. */
  now?: () => Date;
  /** Wakes the delivery job (the app wires it to the job's kick). */
  queued?: () => void;
  /** Told of each send's outcome (the metrics). */
  outcomes?: { sent(): void; failed(givenUp: boolean): void };
}) {
  const now = deps.now ?? (() => new Date());
  const outbox = createMailOutboxRepo(deps.db);

  async function sendIn(brand: ResolvedMailBrand, to: string, message: MailMessage, messageId?: string): Promise<void> {
    const rendered = renderMail(message, brand);
    const mail: OutgoingMail = {
      to,
      ...rendered,
      ...(brand.supportEmail ? { replyTo: brand.supportEmail } : {}),
      ...(messageId ? { messageId } : {}),
    };
    if (!brand.smtp || deps.providerTransportOnly) return deps.providerMailer.send(mail);
    const { password } = brand.smtp;
    if (password === null)
      throw Object.assign(new Error('mail server password unreadable'), { kind: 'passwordUnreadable' });
    const transport = await openSmtpTransport({ ...brand.smtp, password }, deps.trust);
    try {
      await transport.sendMail({ ...mail, from: { name: brand.name, address: brand.smtp.from } });
    } finally {
      transport.close();
    }
  }

  return {
    /** Sends one mail now in the brand of `customerId` (null: the provider's); throws when it is not accepted. */
    async sendNow(customerId: number | null, to: string, compose: (brand: MailBrand) => MailMessage): Promise<void> {
      const brand = await deps.brands.brandFor(customerId);
      await sendIn(brand, to, compose(brand));
    },

    /** Queues one mail (once per event key) in the brand of `customerId` and wakes the job. */
    async queue(
      mail: { eventKey: string; kind: string; customerId: number | null; recipient: string },
      compose: (brand: MailBrand) => MailMessage,
    ): Promise<void> {
      const brand = await deps.brands.brandFor(mail.customerId);
      if ((await enqueueMails(deps.db, [{ ...mail, message: compose(brand) }])) > 0) deps.queued?.();
    },

    /**
     * One pass of the job: claims due mails one at a time under a lease and sends each; a failure records its
     * reason and the next attempt with back-off, or FAILED after the last attempt. Answers how many were sent.
     */
    async deliverDue(): Promise<number> {
      let sent = 0;
      for (let i = 0; i < PASS_LIMIT; i++) {
        const started = now();
        const mail = await outbox.claimNext(started, new Date(started.getTime() + MAIL_DELIVERY.leaseMs));
        if (!mail) break;
        try {
          const brand = await deps.brands.brandFor(mail.customerId);
          const host = new URL(brand.origin).hostname;
          await sendIn(brand, mail.recipient, mail.message, `<outbox-${mail.id}@${host}>`);
          await outbox.markSent(mail, now());
          deps.outcomes?.sent();
          sent++;
        } catch (error) {
          const reason = describeSendError(error);
          const next = mailGivenUp(mail.attempts) ? null : new Date(now().getTime() + mailRetryDelayMs(mail.attempts));
          deps.logger.warn(
            {
              mailId: mail.id,
              kind: mail.kind,
              attempt: mail.attempts,
              reason,
              code: (error as { code?: string }).code,
            },
            next ? 'mail not sent; will retry' : 'mail not sent; given up',
          );
          await outbox.markFailed(mail, reason, next);
          deps.outcomes?.failed(next === null);
        }
      }
      return sent;
    },

    /** Mails waiting to be sent (the metrics' outbox depth). */
    queuedCount: () => outbox.queuedCount(),

    /** Housekeeping: forgets sent mails older than MAIL_DELIVERY.keepSentDays. */
    deleteOldSent: () => outbox.deleteSentBefore(new Date(now().getTime() - MAIL_DELIVERY.keepSentDays * 86_400_000)),
  };
}
export type MailDelivery = ReturnType<typeof createMailDelivery>;
