import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSmtpServer, type TestSmtpServer } from './smtp.js';

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startTestSmtpServer({ users: { mailer: 'right secret' }, refusedSenders: ['spoof@example.com'] });
});
afterAll(() => smtp.close());

const transport = (user: string, pass: string) =>
  nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: false,
    requireTLS: true,
    auth: { user, pass },
    tls: { rejectUnauthorized: false },
  });

describe('the tests’ SMTP server (STARTTLS, AUTH, refused senders)', () => {
  it('accepts a mail after STARTTLS and authentication, and records the envelope', async () => {
    await transport('mailer', 'right secret').sendMail({
      from: 'portal@example.com',
      to: 'someone@example.com',
      subject: 'Hello',
      text: 'plain body',
    });
    const mail = await smtp.waitFor((m) => m.to.includes('someone@example.com'));
    expect(mail).toMatchObject({ from: 'portal@example.com', user: 'mailer', secure: true });
    expect(mail.raw).toContain('Subject: Hello');
  });

  it('refuses a wrong password with 535 and a refused sender with 553', async () => {
    await expect(transport('mailer', 'wrong').verify()).rejects.toMatchObject({ code: 'EAUTH', responseCode: 535 });
    await expect(
      transport('mailer', 'right secret').sendMail({ from: 'spoof@example.com', to: 'a@example.com', text: 'x' }),
    ).rejects.toMatchObject({ code: 'EENVELOPE', responseCode: 553 });
  });

  it('refuses AUTH before TLS', async () => {
    const plain = nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: false,
      ignoreTLS: true,
      auth: { user: 'mailer', pass: 'right secret' },
    });
    await expect(plain.verify()).rejects.toBeTruthy();
  });
});
