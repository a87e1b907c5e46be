import {
  DEFAULT_BRAND_NAMES,
  MAIL_DELIVERY,
  MAIL_SEND_ERRORS,
  type MailFailureRow,
  mailRetryDelayMs,
  type Paged,
  ROUTES,
} from '@portal/domain';
import { eq, inArray, like } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox, resellerSettings } from '../db/schema/index.js';
import { createOutboundGuard } from '../net/outbound-guard.js';
import { createSecretBox } from '../secrets.js';
import { createTestApp, type TestApp } from '../testing/app.js';
import { TestClient } from '../testing/client.js';
import { createTenants, FIXTURE_PASSWORD, type Tenants } from '../testing/fixtures.js';
import { mailParts } from '../testing/mail.js';
import { startTestSmtpServer, type TestSmtpServer, testSmtpCertificate } from '../testing/smtp.js';
import { createMailBrands } from './brand.js';
import { createMailDelivery } from './delivery.js';
import { createMailer } from './mailer.js';
import { createMailOutboxRepo, enqueueMails, type MailToQueue } from './outbox.js';

const RESELLER_LOGIN = { user: 'mailer@reseller.test', password: 'reseller smtp secret' };
const RESELLER_FROM = 'backup@reseller.test';
const SMTP_ENV = {
  SMTP_CA_FILE: testSmtpCertificate().file,
  ALLOW_PRIVATE_ENDPOINTS: 'true',
  // The tests drive deliveries themselves (runOnce, claims on their own clock): the app's own timer must not
  // take a mail first (on a slower run it ticked between a test's enqueue and its claim).
  MAIL_DELIVERY_INTERVAL_MS: '3600000',
};

let t: TestApp;
let tenants: Tenants;
let resellerSmtp: TestSmtpServer;
const db = () => t.database.db;

/** The reseller's e-mail settings and brand as the reseller settings screen (task A) saves them. */
async function giveResellerMailSettings(password = RESELLER_LOGIN.password) {
  await db()
    .update(resellerSettings)
    .set({
      customUrl: 'backup.reseller.test',
      logo: 'logo-7.png',
      appHeaderColour: '#123456',
      appHeaderTextColour: '#fafafa',
      supportEmailAddress: 'help@reseller.test',
      supportPhoneNumber: '021 555 0100',
      emailHost: 'localhost',
      emailPort: resellerSmtp.port,
      emailUsername: RESELLER_LOGIN.user,
      emailPasswordEncrypted: createSecretBox(t.config.masterKey ?? '').encrypt(password),
      sendFromEmailAddress: RESELLER_FROM,
    })
    .where(eq(resellerSettings.customerId, tenants.reseller.customerId));
}

const mailTo = (customerId: number | null, eventKey: string, recipient: string): MailToQueue => ({
  eventKey,
  customerId,
  kind: 'RUN_FAILED',
  recipient,
  message: {
    subject: `Backup failed (${eventKey})`,
    lines: ['Hello,', '', 'The task Documents failed.'],
    link: { label: 'Open the task', path: '/backupmachines/3/backuptasks/9' },
  },
});

const rowsOf = (prefix: string) =>
  db()
    .select()
    .from(mailOutbox)
    .where(like(mailOutbox.eventKey, `${prefix}%`))
    .orderBy(mailOutbox.id);

/** A delivery like the app's (the tests' SMTP trust, the provider's sink) on a clock the test moves. */
const deliveryWithClock = (now: () => Date) =>
  createMailDelivery({
    db: db(),
    brands: createMailBrands({
      db: db(),
      secrets: createSecretBox(t.config.masterKey ?? ''),
      publicUrl: 'http://portal.test',
    }),
    providerMailer: createMailer({ smtpUrl: t.mails.url, from: t.config.mailFrom, logger: pino({ level: 'silent' }) }),
    trust: { guard: createOutboundGuard({ allowPrivate: true }), caFile: SMTP_ENV.SMTP_CA_FILE },
    logger: pino({ level: 'silent' }),
    now,
  });

beforeAll(async () => {
  resellerSmtp = await startTestSmtpServer({ users: { [RESELLER_LOGIN.user]: RESELLER_LOGIN.password } });
  t = await createTestApp(SMTP_ENV);
  await t.app.ready();
  tenants = await createTenants(db());
});
afterAll(async () => {
  await t.close();
  await resellerSmtp.close();
});
beforeEach(async () => {
  await giveResellerMailSettings();
  resellerSmtp.clear();
});

describe('branded mails through the right mail server (issue 17)', () => {
  it("sends a reseller customer's mail in the reseller's brand through the reseller's SMTP server", async () => {
    await enqueueMails(db(), [mailTo(tenants.customerA.customerId, 'brand:a', tenants.customerA.superAdmin.email)]);
    await t.app.mailDelivery.runOnce();

    const received = await resellerSmtp.waitFor((m) => m.to.includes(tenants.customerA.superAdmin.email));
    expect(received).toMatchObject({ from: RESELLER_FROM, user: RESELLER_LOGIN.user, secure: true });
    const { parsed, text, html } = await mailParts(received.raw);
    expect(parsed.from?.value[0]).toMatchObject({ name: 'Resell Backup', address: RESELLER_FROM });
    expect(parsed.replyTo?.value[0]?.address).toBe('help@reseller.test');
    expect(parsed.messageId).toMatch(/^<outbox-\d+@backup\.reseller\.test>$/);
    // Both parts: the text part with the link on the reseller's host, the HTML part with its logo and colours.
    expect(text).toContain('The task Documents failed.');
    expect(text).toContain('Open the task: https://backup.reseller.test/backupmachines/3/backuptasks/9');
    expect(text).toContain('Support: help@reseller.test, 021 555 0100');
    expect(html).toContain('src="https://backup.reseller.test/public/downloads/img/logo-7.png"');
    expect(html).toContain('background:#123456;color:#fafafa');
    expect(html).toContain('href="https://backup.reseller.test/backupmachines/3/backuptasks/9"');
    expect((await rowsOf('brand:a'))[0]).toMatchObject({ status: 'SENT', attempts: 1, lockedUntil: null });
  });

  it("sends a direct customer's mail in the provider's brand through the provider's SMTP server", async () => {
    const before = t.lastMailId();
    await enqueueMails(db(), [mailTo(tenants.customerB.customerId, 'brand:b', tenants.customerB.superAdmin.email)]);
    await t.app.mailDelivery.runOnce();

    const mail = await t.waitForMail(tenants.customerB.superAdmin.email, before);
    expect(mail.from).toBe(t.config.mailFrom);
    expect(mail.text).toContain('Open the task: http://portal.test/backupmachines/3/backuptasks/9');
    expect(mail.text).toContain('--\nCloud Portal');
    expect(mail.text).not.toContain('Resell Backup');
    expect(resellerSmtp.mails()).toEqual([]);
  });

  it("resolves the brand: the reseller's for itself and its customers, the provider's (and its logo) for the rest", async () => {
    const brands = createMailBrands({
      db: db(),
      secrets: createSecretBox(t.config.masterKey ?? ''),
      publicUrl: 'http://portal.test',
    });
    const ofReseller = await brands.brandFor(tenants.reseller.customerId);
    expect(await brands.brandFor(tenants.customerA.customerId)).toEqual(ofReseller);
    expect(ofReseller).toMatchObject({
      name: 'Resell Backup',
      origin: 'https://backup.reseller.test',
      logoUrl: 'https://backup.reseller.test/public/downloads/img/logo-7.png',
      smtp: { host: 'localhost', port: resellerSmtp.port, username: RESELLER_LOGIN.user, from: RESELLER_FROM },
    });
    for (const customerId of [tenants.customerB.customerId, null]) {
      expect(await brands.brandFor(customerId)).toMatchObject({
        name: 'Cloud Portal',
        origin: 'http://portal.test',
        logoUrl: 'http://portal.test/img/logo.png',
        smtp: null,
      });
    }
    // Without a logo, its generic image; disabled, no reseller brand at all.
    await db()
      .update(resellerSettings)
      .set({ logo: null })
      .where(eq(resellerSettings.customerId, tenants.reseller.customerId));
    expect((await brands.brandFor(tenants.customerA.customerId)).logoUrl).toBe(
      'https://backup.reseller.test/img/logo-generic.png',
    );
    await db()
      .update(resellerSettings)
      .set({ resellerEnabled: false })
      .where(eq(resellerSettings.customerId, tenants.reseller.customerId));
    expect((await brands.brandFor(tenants.customerA.customerId)).name).toBe('Cloud Portal');
    // A reseller without a brand name mails under the second default name, as its pages show (002 §1).
    const [named] = await db()
      .update(resellerSettings)
      .set({ resellerEnabled: true })
      .where(eq(resellerSettings.customerId, tenants.reseller.customerId))
      .returning({ brandName: resellerSettings.brandName });
    await db()
      .update(resellerSettings)
      .set({ brandName: null })
      .where(eq(resellerSettings.customerId, tenants.reseller.customerId));
    expect((await brands.brandFor(tenants.customerA.customerId)).name).toBe(DEFAULT_BRAND_NAMES.reseller);
    await db()
      .update(resellerSettings)
      .set({ brandName: named?.brandName ?? null })
      .where(eq(resellerSettings.customerId, tenants.reseller.customerId));
  });

  it("sends a reseller customer's password reset in the reseller's brand, with a link on its custom host", async () => {
    const email = tenants.customerA.user.email;
    const visitor = new TestClient(t.app);
    await visitor.open('/forgot-password');
    expect((await visitor.json('POST', '/forgot-password', { email })).statusCode).toBe(200);

    const received = await resellerSmtp.waitFor((m) => m.to.includes(email));
    const { parsed, text, html } = await mailParts(received.raw);
    expect(parsed.subject).toBe('Reset your Resell Backup password');
    const link = /Choose a new password: (https:\/\/backup\.reseller\.test\/reset-password\?token=(\S+))/.exec(text);
    expect(link).not.toBeNull();
    expect(html).toContain(`href="${link?.[1]}"`);
    expect(html).toContain('logo-7.png');
    // The link works: the token in it resets the password.
    const reset = await visitor.json('POST', '/reset-password', {
      token: decodeURIComponent(link?.[2] ?? ''),
      password: 'a brand new secret',
      confirmPassword: 'a brand new secret',
    });
    expect(reset.statusCode).toBe(200);
  });
});

describe('the delivery job (issue 17, DESIGN §8)', () => {
  it('sends each mail once when two server instances on one database deliver at the same time', async () => {
    const other = await createTestApp(SMTP_ENV, { database: t.database });
    try {
      await other.app.ready();
      const mails = Array.from({ length: 8 }, (_, i) =>
        mailTo(tenants.customerA.customerId, `race:${i}`, `r${i}@x.test`),
      );
      await enqueueMails(db(), mails);
      await Promise.all([
        t.app.mailDelivery.runOnce(),
        other.app.mailDelivery.runOnce(),
        t.app.mailDelivery.runOnce(),
        other.app.mailDelivery.runOnce(),
      ]);
      const received = resellerSmtp.mails().filter((m) => m.to.some((to) => /^r\d@x\.test$/.test(to)));
      expect(received.map((m) => m.to[0]).sort()).toEqual(mails.map((m) => m.recipient).sort());
      expect((await rowsOf('race:')).map((r) => [r.status, r.attempts])).toEqual(mails.map(() => ['SENT', 1]));
    } finally {
      await other.close();
    }
  });

  it("sends again a mail whose sender crashed once its lease ran out; the crashed sender's late answer changes nothing", async () => {
    await enqueueMails(db(), [mailTo(tenants.customerA.customerId, 'crash:1', 'crash@x.test')]);
    const outbox = createMailOutboxRepo(db());
    const at = new Date();
    const crashed = await outbox.claimNext(at, new Date(at.getTime() + 300));
    expect(crashed?.recipient).toBe('crash@x.test');
    // Under the crashed sender's lease the mail is nobody else's.
    await t.app.mailDelivery.runOnce();
    expect(resellerSmtp.mails()).toEqual([]);

    await new Promise((resolve) => setTimeout(resolve, 400));
    await t.app.mailDelivery.runOnce();
    await resellerSmtp.waitFor((m) => m.to.includes('crash@x.test'));
    if (crashed) await outbox.markFailed(crashed, 'late', null);
    expect((await rowsOf('crash:1'))[0]).toMatchObject({ status: 'SENT', attempts: 2, lastError: null });
    expect(resellerSmtp.mails()).toHaveLength(1);
  });

  it('retries a refused login with back-off, gives up after the last attempt, and shows the failure to the super admin only', async () => {
    await giveResellerMailSettings('a wrong password');
    let now = new Date();
    const delivery = deliveryWithClock(() => now);
    await enqueueMails(db(), [mailTo(tenants.customerA.customerId, 'failing:1', 'fail@x.test')]);
    now = new Date();
    const refused = `${MAIL_SEND_ERRORS.authentication} (535)`;
    for (let attempt = 1; attempt <= MAIL_DELIVERY.attempts; attempt++) {
      expect(await delivery.deliverDue()).toBe(0);
      const [row] = await rowsOf('failing:1');
      const givenUp = attempt === MAIL_DELIVERY.attempts;
      expect(row).toMatchObject({ attempts: attempt, lastError: refused, status: givenUp ? 'FAILED' : 'QUEUED' });
      expect(row?.lastError).not.toContain('wrong password');
      if (givenUp) break;
      expect(row?.nextAttemptAt.getTime()).toBe(now.getTime() + mailRetryDelayMs(attempt));
      // Not due before its back-off has passed.
      now = new Date(now.getTime() + mailRetryDelayMs(attempt) - 1000);
      await delivery.deliverDue();
      expect((await rowsOf('failing:1'))[0]?.attempts).toBe(attempt);
      now = new Date(now.getTime() + 1000);
    }
    // A mail failed once and waiting for its retry is shown too, newest first.
    await enqueueMails(db(), [mailTo(tenants.customerA.customerId, 'failing:2', 'retry@x.test')]);
    await delivery.deliverDue();
    expect(resellerSmtp.mails()).toEqual([]);

    const superAdmin = new TestClient(t.app);
    await superAdmin.signIn(tenants.customerA.superAdmin.email, FIXTURE_PASSWORD);
    const answer = await superAdmin.json('GET', `${ROUTES.mail.failures.build()}?page=0&size=10`);
    expect(answer.statusCode).toBe(200);
    const page: Paged<MailFailureRow> = answer.json().result;
    expect(page.elements.map((r) => [r.recipient, r.status, r.attempts, r.lastError, r.kind])).toEqual([
      ['retry@x.test', 'QUEUED', 1, refused, 'RUN_FAILED'],
      ['fail@x.test', 'FAILED', MAIL_DELIVERY.attempts, refused, 'RUN_FAILED'],
    ]);
    expect(page.elements[0]?.nextAttemptAt).not.toBeNull();
    expect(page.elements[1]?.nextAttemptAt).toBeNull();
    expect(page.elements[1]?.subject).toBe('Backup failed (failing:1)');
    expect(page.totalElements).toBe(2);
    const second = await superAdmin.json('GET', `${ROUTES.mail.failures.build()}?page=1&size=1`);
    expect(second.json().result.elements.map((r: MailFailureRow) => r.recipient)).toEqual(['fail@x.test']);

    // Another customer's super admin sees none of them; a lower role and the provider admin are refused.
    const otherTenant = new TestClient(t.app);
    await otherTenant.signIn(tenants.customerB.superAdmin.email, FIXTURE_PASSWORD);
    expect((await otherTenant.json('GET', ROUTES.mail.failures.build())).json().result.elements).toEqual([]);
    for (const email of [tenants.customerA.admin.email, tenants.providerAdmin.email]) {
      const client = new TestClient(t.app);
      await client.signIn(email, FIXTURE_PASSWORD);
      expect((await client.json('GET', ROUTES.mail.failures.build())).statusCode).toBe(403);
    }
    await db()
      .delete(mailOutbox)
      .where(inArray(mailOutbox.eventKey, ['failing:1', 'failing:2']));
  });

  it('records a saved password it cannot decrypt as such, and sends nothing', async () => {
    await db()
      .update(resellerSettings)
      .set({ emailPasswordEncrypted: Buffer.alloc(40, 7).toString('base64') })
      .where(eq(resellerSettings.customerId, tenants.reseller.customerId));
    await enqueueMails(db(), [mailTo(tenants.customerA.customerId, 'unreadable:1', 'unreadable@x.test')]);
    await t.app.mailDelivery.runOnce();
    expect((await rowsOf('unreadable:1'))[0]).toMatchObject({
      status: 'QUEUED',
      attempts: 1,
      lastError: MAIL_SEND_ERRORS.passwordUnreadable,
    });
    expect(resellerSmtp.mails()).toEqual([]);
    await db().delete(mailOutbox).where(eq(mailOutbox.eventKey, 'unreadable:1'));
  });

  it('forgets sent mails after the days they are kept', async () => {
    await enqueueMails(db(), [
      mailTo(tenants.customerB.customerId, 'old:1', 'old@x.test'),
      mailTo(tenants.customerB.customerId, 'old:2', 'new@x.test'),
    ]);
    await t.app.mailDelivery.runOnce();
    const day = 86_400_000;
    await db()
      .update(mailOutbox)
      .set({ sentAt: new Date(Date.now() - (MAIL_DELIVERY.keepSentDays + 1) * day) })
      .where(eq(mailOutbox.eventKey, 'old:1'));
    const delivery = deliveryWithClock(() => new Date());
    expect(await delivery.deleteOldSent()).toBeGreaterThanOrEqual(1);
    expect((await rowsOf('old:')).map((r) => r.eventKey)).toEqual(['old:2']);
  });
});
