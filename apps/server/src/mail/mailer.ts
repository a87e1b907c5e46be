import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** The HTML alternative of the text (branded mails have both). */
  html?: string;
  /** Where replies go (a reseller's support address). */
  replyTo?: string;
  /** A stable Message-ID, so a mail sent again after a crash is recognisably the same mail. */
  messageId?: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

/** Sends over SMTP (SMTP_URL, or the demo sink). Without a transport it logs that mail is off, never the body. */
export function createMailer(options: { smtpUrl: string | undefined; from: string; logger: Logger }): Mailer {
  if (!options.smtpUrl) {
    return {
      async send(mail) {
        options.logger.warn({ to: mail.to, subject: mail.subject }, 'SMTP_URL is not set: mail not sent');
      },
    };
  }
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from: options.from, ...mail });
    },
  };
}
