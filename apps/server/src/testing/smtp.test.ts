import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundGuard } from '../net/outbound-guard.js';
import { openSmtpTransport } from '../platform/smtp.js';
import { startTestSmtpServer, type TestSmtpServer, testSmtpCertificate } from './smtp.js';

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await startTestSmtpServer({ users: { mailer: 'right secret' }, refusedSenders: ['spoof@example.com'] });
});
afterAll(() => smtp.close());

const trust = { guard: createOutboundGuard({ allowPrivate: true }), caFile: testSmtpCertificate().file };
const transport = (username: string, password: string, host = 'localhost') =>
  openSmtpTransport({ host, port: smtp.port, username, password }, trust);

describe('outgoing SMTP to a tenant’s server, against the tests’ SMTP server (STARTTLS, AUTH, refused senders)', () => {
  it('upgrades with STARTTLS, verifies the certificate against the host name, authenticates and sends', async () => {
    await (await transport('mailer', 'right secret')).sendMail({
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
    await expect((await transport('mailer', 'wrong')).verify()).rejects.toMatchObject({
      code: 'EAUTH',
      responseCode: 535,
    });
    await expect(
      (await transport('mailer', 'right secret')).sendMail({
        from: 'spoof@example.com',
        to: 'a@example.com',
        text: 'x',
      }),
    ).rejects.toMatchObject({ code: 'EENVELOPE', responseCode: 553 });
  });

  it('fails TLS when the certificate is not trusted', async () => {
    const untrusted = await openSmtpTransport(
      { host: 'localhost', port: smtp.port, username: 'mailer', password: 'right secret' },
      { ...trust, caFile: undefined },
    );
    await expect(untrusted.verify()).rejects.toThrow(/self-signed certificate/);
  });

  it('refuses a loopback mail server unless private endpoints are allowed', async () => {
    await expect(
      openSmtpTransport(
        { host: 'localhost', port: smtp.port, username: 'mailer', password: 'right secret' },
        { guard: createOutboundGuard({ allowPrivate: false }), caFile: undefined },
      ),
    ).rejects.toMatchObject({ kind: 'refusedAddress' });
  });

  it('refuses a server that offers no STARTTLS, or no login, before the password is sent', async () => {
    for (const options of [
      { startTls: false, users: { mailer: 'right secret' }, authOnlyAfterTls: false },
      { offerAuth: false },
    ]) {
      const weak = await startTestSmtpServer(options);
      try {
        const transport = await openSmtpTransport(
          { host: 'localhost', port: weak.port, username: 'mailer', password: 'right secret' },
          trust,
        );
        await expect(transport.verify()).rejects.toBeTruthy();
      } finally {
        await weak.close();
      }
    }
  });

  it('the server refuses AUTH before TLS', async () => {
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
