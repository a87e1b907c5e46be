import {
  fieldRequired,
  IMAGE_TYPE_MESSAGES,
  IMAGE_UPLOAD_LIMITS,
  imageTooLargeMessage,
  imageUrl,
  MESSAGES,
  RESELLER_SETTINGS_LABELS,
  ROUTES,
  resellerSettingsPath,
} from '@portal/domain';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resellerSettings, users } from '../../db/schema/index.js';
import { createSecretBox } from '../../secrets.js';
import { createTestApp, type TestApp } from '../../testing/app.js';
import type { TestClient } from '../../testing/client.js';
import { resultOf } from '../../testing/envelope.js';
import { FIXTURE_PASSWORD } from '../../testing/fixtures.js';
import { startRecordingListener } from '../../testing/listener.js';
import { capturedDebugLog } from '../../testing/log.js';
import { startTestSmtpServer, type TestSmtpServer, testSmtpCertificate } from '../../testing/smtp.js';
import { hashPassword } from '../auth/passwords.js';
import { addCustomer, signedIn, type TestCustomer } from '../customers/testing.js';
import { DISGUISED, putSection, testIcon, testPicture } from './testing.js';

const T = MESSAGES.resellerSettings;
const own = (section: Parameters<typeof resellerSettingsPath>[0]) => resellerSettingsPath(section, null);
const provider = (section: Parameters<typeof resellerSettingsPath>[0], customerId: number) =>
  resellerSettingsPath(section, customerId);

let t: TestApp;
// Debug logging of the app, read for the mail server passwords the e-mail settings tests type.
const log = capturedDebugLog();
let reseller: TestCustomer;
let otherReseller: TestCustomer;
let disabledReseller: TestCustomer;
let child: TestCustomer;
let direct: TestCustomer;
let providerAdmin: TestClient;
let resellerOwner: TestClient;

const ACCOUNT = {
  brandName: 'Northwind Backup',
  mainSiteLink: 'https://northwind.example',
  termsAndConditionsLink: 'https://northwind.example/terms',
  supportEmailAddress: 'support@northwind.example',
  supportPhoneNumber: '+1 555 0100',
};

beforeAll(async () => {
  t = await createTestApp(
    { ALLOW_PRIVATE_ENDPOINTS: 'true', SMTP_CA_FILE: testSmtpCertificate().file },
    { logger: log.logger },
  );
  const db = t.database.db;
  reseller = await addCustomer(db, { reseller: { enabled: true, brandName: 'Northwind' } });
  otherReseller = await addCustomer(db, { reseller: { enabled: true, brandName: 'Other' } });
  disabledReseller = await addCustomer(db, { reseller: { enabled: false, brandName: 'Gone' } });
  child = await addCustomer(db, { parentResellerCustomerId: reseller.customerId });
  direct = await addCustomer(db);
  await db
    .update(resellerSettings)
    .set({ customUrl: 'backup.other.example' })
    .where(eq(resellerSettings.customerId, otherReseller.customerId));
  providerAdmin = await createProviderAdmin();
  resellerOwner = await signedIn(t.app, reseller.superAdmin.email);
});
afterAll(() => t.close());

async function createProviderAdmin(): Promise<TestClient> {
  await t.database.db.insert(users).values({
    email: 'ops@provider.test',
    role: 'ROLE_BOLT_ADMIN_USER',
    firstName: 'Ops',
    surname: 'Team',
    passwordHash: await hashPassword(FIXTURE_PASSWORD),
  });
  return signedIn(t.app, 'ops@provider.test');
}

const stored = async (customerId: number) =>
  (await t.database.db.select().from(resellerSettings).where(eq(resellerSettings.customerId, customerId)))[0];

const fieldErrors = (response: { json(): unknown }) =>
  Object.fromEntries(
    ((response.json() as { messages: Array<{ fieldName: string; message: string }> }).messages ?? []).map((m) => [
      m.fieldName,
      m.message,
    ]),
  );

describe('who reaches reseller settings (000 §6, 002 §2.1)', () => {
  it("the reseller's super admin reads its own; the password never leaves", async () => {
    const response = await resellerOwner.json('GET', ROUTES.resellerSettings.own.build());
    expect(response.statusCode).toBe(200);
    const view = response.json().result;
    expect(view).toMatchObject({
      customerId: reseller.customerId,
      brandName: 'Northwind',
      customUrlEditable: false,
      editableSections: ['reselleraccountsettings', 'resellerlookandfeelsettings', 'reselleremailsettings'],
    });
    expect(JSON.stringify(view)).not.toMatch(/emailPassword"|Encrypted/);
  });

  it('a customer admin (not super admin), a child customer, a disabled reseller and a direct customer get nothing', async () => {
    for (const email of [
      reseller.admin.email,
      child.superAdmin.email,
      disabledReseller.superAdmin.email,
      direct.superAdmin.email,
    ]) {
      const client = await signedIn(t.app, email);
      expect((await client.json('GET', ROUTES.resellerSettings.own.build())).statusCode, email).toBe(403);
      const put = await putSection(client, own('reselleraccountsettings'), ACCOUNT);
      expect(put.statusCode, email).toBe(403);
      // Nor the provider's path to the reseller.
      const other = await client.json(
        'GET',
        ROUTES.resellerSettings.provider.build({ customerId: reseller.customerId }),
      );
      expect(other.statusCode, email).toBe(403);
    }
    expect((await stored(reseller.customerId))?.supportPhoneNumber).toBeNull();
    expect((await stored(disabledReseller.customerId))?.supportPhoneNumber).toBeNull();
  });

  it("another reseller's super admin reaches only its own settings, never this one's", async () => {
    const other = await signedIn(t.app, otherReseller.superAdmin.email);
    const response = await putSection(other, own('reselleraccountsettings'), { ...ACCOUNT, brandName: 'Mine' });
    expect(response.statusCode).toBe(200);
    expect(response.json().result.customerId).toBe(otherReseller.customerId);
    expect((await stored(reseller.customerId))?.brandName).toBe('Northwind');
    const viaProvider = await putSection(other, provider('reselleraccountsettings', reseller.customerId), ACCOUNT);
    expect(viaProvider.statusCode).toBe(403);
  });

  it('the provider admin reads any reseller; a customer without reseller settings is not found', async () => {
    const response = await providerAdmin.json(
      'GET',
      ROUTES.resellerSettings.provider.build({ customerId: reseller.customerId }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().result).toMatchObject({
      customUrlEditable: true,
      editableSections: ['reselleraccountsettings'],
    });
    const none = await providerAdmin.json(
      'GET',
      ROUTES.resellerSettings.provider.build({ customerId: direct.customerId }),
    );
    expect(none.statusCode).toBe(404);
    expect(none.json().messages[0].message).toBe(T.notAReseller);
  });
});

describe('account settings (000 §5, 002 §5.9)', () => {
  it('every field required with its message on the field; nothing saved', async () => {
    const response = await putSection(resellerOwner, own('reselleraccountsettings'), {});
    expect(response.statusCode).toBe(400);
    expect(fieldErrors(response)).toMatchObject({
      brandName: 'Brand name is required',
      supportEmailAddress: 'Support email address is required',
      supportPhoneNumber: 'Support phone number is required',
    });
    expect((await stored(reseller.customerId))?.brandName).toBe('Northwind');
  });

  it("the reseller saves its own; customUrl and resellerEnabled in its payload are ignored (provider's only)", async () => {
    const response = await putSection(resellerOwner, own('reselleraccountsettings'), {
      ...ACCOUNT,
      customUrl: 'stolen.example',
      resellerEnabled: 'false',
    });
    expect(response.statusCode).toBe(200);
    const row = await stored(reseller.customerId);
    expect(row).toMatchObject({ ...ACCOUNT, customUrl: null, resellerEnabled: true });
  });

  it('the provider sets the custom URL; one taken by another reseller (any case, host or URL) is refused on the field', async () => {
    for (const taken of ['BACKUP.other.example', 'https://Backup.Other.example/']) {
      const response = await putSection(providerAdmin, provider('reselleraccountsettings', reseller.customerId), {
        ...ACCOUNT,
        customUrl: taken,
      });
      expect(response.statusCode, taken).toBe(409);
      expect(fieldErrors(response)).toEqual({ customUrl: T.customUrlTaken });
    }
    const response = await putSection(providerAdmin, provider('reselleraccountsettings', reseller.customerId), {
      ...ACCOUNT,
      customUrl: 'backup.northwind.example',
    });
    expect(response.statusCode).toBe(200);
    expect((await stored(reseller.customerId))?.customUrl).toBe('backup.northwind.example');
    // Saving the same URL again is not a clash with itself.
    const again = await putSection(providerAdmin, provider('reselleraccountsettings', reseller.customerId), {
      ...ACCOUNT,
      customUrl: 'Backup.Northwind.example',
    });
    expect(again.statusCode).toBe(200);
  });

  it('the provider requires the custom URL, and enables or disables a reseller', async () => {
    const section = provider('reselleraccountsettings', disabledReseller.customerId);
    const missing = await putSection(providerAdmin, section, ACCOUNT);
    expect(fieldErrors(missing)).toEqual({ customUrl: 'Custom URL is required' });
    for (const [resellerEnabled, enabled] of [
      ['true', true],
      ['false', false],
    ] as const) {
      const saved = await putSection(providerAdmin, section, {
        ...ACCOUNT,
        customUrl: 'gone.example',
        resellerEnabled,
      });
      expect(saved.statusCode).toBe(200);
      expect((await stored(disabledReseller.customerId))?.resellerEnabled).toBe(enabled);
    }
  });

  it('the provider may not save look and feel or e-mail settings (the tabs are disabled, 000 §2)', async () => {
    for (const section of ['resellerlookandfeelsettings', 'reselleremailsettings'] as const) {
      const response = await putSection(providerAdmin, provider(section, reseller.customerId), {
        appHeaderColour: '#000000',
        emailHost: 'x',
      });
      expect(response.statusCode, section).toBe(403);
      expect(response.json().messages[0].message).toBe(T.providerAccountOnly);
    }
    expect((await stored(reseller.customerId))?.appHeaderColour).toBeNull();
  });

  it('an unknown section is refused', async () => {
    const response = await putSection(resellerOwner, '/admin/account/resellerfoo', ACCOUNT);
    expect(response.statusCode).toBe(400);
  });
});

const COLOURS = {
  functionalBackgroundColour: '#eeeeee',
  functionalButtonColour: '#123abc',
  appHeaderColour: '#003366',
  appHeaderTextColour: '#ffffff',
  appEnabledButtonColour: '#00aa00',
  appDisabledButtonColour: '#999',
  appBackgroundColour: '',
};

describe('look and feel: colours and images (000 §5, issue 17)', () => {
  const lookAndFeel = own('resellerlookandfeelsettings');

  it('saves hex colours, blank for the default; a bad colour is refused on its field', async () => {
    const bad = await putSection(resellerOwner, lookAndFeel, { ...COLOURS, appHeaderColour: 'red;}' });
    expect(fieldErrors(bad)).toEqual({ appHeaderColour: 'Header colour is not valid' });
    const response = await putSection(resellerOwner, lookAndFeel, COLOURS);
    expect(response.statusCode).toBe(200);
    expect(await stored(reseller.customerId)).toMatchObject({ ...COLOURS, appBackgroundColour: null });
  });

  it('refuses files that are not images by their content, whatever their name and type say', async () => {
    const cases = [
      { field: 'logo', file: { filename: 'logo.png', type: 'image/png', data: DISGUISED.html } },
      { field: 'logo', file: { filename: 'logo.svg', type: 'image/svg+xml', data: DISGUISED.svg } },
      { field: 'logo', file: { filename: 'logo.png', type: 'image/png', data: DISGUISED.fakePng } },
      { field: 'logo', file: { filename: 'logo.ico', type: 'image/x-icon', data: await testIcon() } },
      { field: 'favicon', file: { filename: 'favicon.ico', type: 'image/x-icon', data: DISGUISED.svg } },
    ] as const;
    for (const { field, file } of cases) {
      const response = await putSection(resellerOwner, lookAndFeel, COLOURS, { [field]: file });
      expect(response.statusCode, file.filename).toBe(400);
      expect(fieldErrors(response), file.filename).toEqual({ [field]: IMAGE_TYPE_MESSAGES[field] });
    }
    expect((await stored(reseller.customerId))?.logo).toBeNull();
  });

  it('refuses a file over the limit on its field', async () => {
    const big = Buffer.concat([await testPicture(100, 100, 'png'), Buffer.alloc(IMAGE_UPLOAD_LIMITS.maxBytes)]);
    const response = await putSection(resellerOwner, lookAndFeel, COLOURS, {
      favicon: { filename: 'big.png', type: 'image/png', data: big },
    });
    expect(response.statusCode).toBe(400);
    expect(fieldErrors(response)).toEqual({ favicon: imageTooLargeMessage('favicon') });
  });

  it('resizes a PNG logo and a JPEG favicon, stores them as PNG and serves them with fixed headers', async () => {
    const response = await putSection(resellerOwner, lookAndFeel, COLOURS, {
      // The name and type are not what decides: a PNG named .bin is still a PNG.
      logo: { filename: 'logo.bin', type: 'application/octet-stream', data: await testPicture(1120, 480, 'png') },
      favicon: { filename: 'favicon.jpg', type: 'image/jpeg', data: await testPicture(300, 200, 'jpeg') },
    });
    expect(response.statusCode).toBe(200);
    const { logo, favicon } = response.json().result as { logo: string; favicon: string };
    expect(logo).toMatch(/^logo-[0-9a-f]{32}\.png$/);
    const served = await resellerOwner.request({ method: 'GET', url: imageUrl(logo) });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toContain('max-age=31536000');
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'png', width: 280, height: 120 });
    const icon = await t.app.inject({ method: 'GET', url: imageUrl(favicon) });
    expect(await sharp(icon.rawPayload).metadata()).toMatchObject({ format: 'png', width: 32, height: 32 });
  });

  it('a JPEG logo wider than 560 fits 560 x 120 keeping its aspect ratio; metadata is stripped', async () => {
    const jpeg = await sharp(await testPicture(2000, 400, 'jpeg'))
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-maker' } } })
      .jpeg()
      .toBuffer();
    const response = await putSection(resellerOwner, lookAndFeel, COLOURS, {
      logo: { filename: 'logo.jpg', type: 'image/jpeg', data: jpeg },
    });
    expect(response.statusCode).toBe(200);
    const before = await stored(reseller.customerId);
    const served = await t.app.inject({ method: 'GET', url: imageUrl(response.json().result.logo) });
    const metadata = await sharp(served.rawPayload).metadata();
    expect(metadata).toMatchObject({ format: 'png', width: 560, height: 112 });
    expect(metadata.exif).toBeUndefined();
    expect(served.rawPayload.includes('secret-maker')).toBe(false);
    expect(before?.logo).toBe(response.json().result.logo);
  });

  it('an .ico favicon: its largest entry, 32 x 32; no file keeps the current images', async () => {
    const response = await putSection(resellerOwner, lookAndFeel, COLOURS, {
      favicon: { filename: 'favicon.ico', type: 'image/x-icon', data: await testIcon() },
    });
    expect(response.statusCode).toBe(200);
    const { favicon, logo } = response.json().result;
    const served = await t.app.inject({ method: 'GET', url: imageUrl(favicon) });
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'png', width: 32, height: 32 });
    const kept = await putSection(resellerOwner, lookAndFeel, COLOURS);
    expect(kept.json().result).toMatchObject({ favicon, logo });
  });

  it('a replaced image is no longer served; an unknown name is 404', async () => {
    const first = (await stored(reseller.customerId))?.logo as string;
    const response = await putSection(resellerOwner, lookAndFeel, COLOURS, {
      logo: { filename: 'logo.png', type: 'image/png', data: await testPicture(200, 100, 'png') },
    });
    expect(response.json().result.logo).not.toBe(first);
    expect((await t.app.inject({ method: 'GET', url: imageUrl(first) })).statusCode).toBe(404);
    for (const name of ['logo-0123456789abcdef0123456789abcdef.png', 'x.png', '..%2Fsecret'])
      expect((await t.app.inject({ method: 'GET', url: `/public/downloads/img/${name}` })).statusCode).toBe(404);
  });
});

describe('e-mail settings, tested before they are saved (000 §7, 002 §7.4)', () => {
  const email = own('reselleremailsettings');
  let smtp: TestSmtpServer;
  const form = () => ({
    emailHost: smtp.host,
    emailPort: String(smtp.port),
    emailUsername: 'mailer',
    emailPassword: 'right-password',
    sendFromEmailAddress: 'noreply@northwind.example',
  });

  beforeAll(async () => {
    smtp = await startTestSmtpServer({
      users: { mailer: 'right-password' },
      refusedSenders: ['spoof@elsewhere.example'],
    });
  });
  afterAll(() => smtp.close());

  it('good settings: a test message reaches the support address over TLS, then the settings are saved (password sealed)', async () => {
    smtp.clear();
    const response = await putSection(resellerOwner, email, form());
    expect(response.statusCode, response.body).toBe(200);
    const mail = await smtp.waitFor((m) => m.to.includes(ACCOUNT.supportEmailAddress));
    expect(mail).toMatchObject({ from: 'noreply@northwind.example', user: 'mailer', secure: true });
    const row = await stored(reseller.customerId);
    expect(row).toMatchObject({ emailHost: smtp.host, emailPort: smtp.port, emailUsername: 'mailer' });
    expect(row?.emailPasswordEncrypted).not.toContain('right-password');
    expect(createSecretBox('a'.repeat(64)).decrypt(row?.emailPasswordEncrypted as string)).toBe('right-password');
    expect(response.body).not.toContain('right-password');
    expect(response.json().result.emailPasswordSet).toBe(true);
  });

  it('a wrong password: emailPassword says so and nothing is saved', async () => {
    const before = await stored(reseller.customerId);
    const response = await putSection(resellerOwner, email, {
      ...form(),
      emailUsername: 'other',
      emailPassword: 'wrong-password-7c2e',
    });
    expect(response.statusCode).toBe(400);
    expect(fieldErrors(response)).toEqual({ emailPassword: T.emailAuthFailed });
    expect(await stored(reseller.customerId)).toEqual(before);
    expect(response.body).not.toContain('wrong-password-7c2e');
    // A refused login at debug level: neither password, nor the AUTH exchange that carries it, is logged.
    expect(
      log.leaked(['right-password', 'wrong-password-7c2e', Buffer.from('wrong-password-7c2e').toString('base64')]),
    ).toEqual([]);
  });

  it('the stored password is sent nowhere new: a save must carry it, so another host or port gets nothing (issue 29)', async () => {
    resultOf(await putSection(resellerOwner, email, form()));
    const before = await stored(reseller.customerId);
    const stranger = await startRecordingListener();
    const moved = await startTestSmtpServer({ users: { mailer: 'moved-password' } });
    try {
      const required = { emailPassword: fieldRequired(RESELLER_SETTINGS_LABELS.emailPassword) };
      // 000 §5: the password is required on every save, at the saved server as anywhere else.
      for (const elsewhere of [{ emailPort: String(stranger.port) }, { emailHost: 'localhost' }, {}]) {
        const response = await putSection(resellerOwner, email, { ...form(), ...elsewhere, emailPassword: '' });
        expect(response.statusCode).toBe(400);
        expect(fieldErrors(response)).toEqual(required);
      }
      expect(stranger.connections).toBe(0);
      expect(await stored(reseller.customerId)).toEqual(before);

      // Another reseller's super admin cannot point this reseller's mail anywhere.
      const other = await signedIn(t.app, otherReseller.superAdmin.email);
      const foreign = { ...form(), emailPort: String(stranger.port), emailPassword: 'x' };
      const viaProvider = await putSection(other, provider('reselleremailsettings', reseller.customerId), foreign);
      expect(viaProvider.statusCode).toBe(403);
      expect(stranger.connections).toBe(0);
      expect(await stored(reseller.customerId)).toEqual(before);

      // A new server with its password typed: tested there, then saved.
      const typed = { ...form(), emailPort: String(moved.port), emailPassword: 'moved-password' };
      resultOf(await putSection(resellerOwner, email, typed));
      await moved.waitFor((m) => m.to.includes(ACCOUNT.supportEmailAddress));
      expect((await stored(reseller.customerId))?.emailPort).toBe(moved.port);
    } finally {
      await Promise.all([stranger.close(), moved.close()]);
    }
  });

  it('a refused sender: sendFromEmailAddress says so', async () => {
    const response = await putSection(resellerOwner, email, {
      ...form(),
      sendFromEmailAddress: 'spoof@elsewhere.example',
    });
    expect(fieldErrors(response)).toEqual({ sendFromEmailAddress: T.emailSenderRefused });
  });

  it('no server listening on the port, or one without STARTTLS: emailPort; a host that does not resolve: emailHost', async () => {
    const closed = await startTestSmtpServer();
    const port = closed.port;
    await closed.close();
    const response = await putSection(resellerOwner, email, { ...form(), emailPort: String(port) });
    expect(fieldErrors(response)).toEqual({ emailPort: T.emailConnectFailed });
    const plain = await startTestSmtpServer({
      startTls: false,
      users: { mailer: 'right-password' },
      authOnlyAfterTls: false,
    });
    try {
      const cleartext = await putSection(resellerOwner, email, { ...form(), emailPort: String(plain.port) });
      expect(fieldErrors(cleartext)).toEqual({ emailPort: T.emailStartTlsMissing });
      expect(plain.mails()).toEqual([]);
    } finally {
      await plain.close();
    }
    const unknown = await putSection(resellerOwner, email, { ...form(), emailHost: 'no-such-host.invalid' });
    expect(fieldErrors(unknown)).toEqual({ emailHost: T.emailHostNotFound });
  });

  it('a certificate not trusted: emailHost says TLS failed', async () => {
    const untrusted = await createTestApp({ ALLOW_PRIVATE_ENDPOINTS: 'true' }, { database: t.database });
    try {
      const client = await signedIn(untrusted.app, reseller.superAdmin.email);
      const response = await putSection(client, email, form());
      expect(fieldErrors(response)).toEqual({ emailHost: T.emailTlsFailed });
    } finally {
      await untrusted.close();
    }
  });

  it('validation first: every field required, the port at least 1', async () => {
    const response = await putSection(resellerOwner, email, { emailPort: '0' });
    expect(fieldErrors(response)).toMatchObject({
      emailHost: 'Email host is required',
      emailPort: 'Email port must be at least 1',
      emailPassword: 'Email password is required',
    });
  });

  it('loopback is refused unless ALLOW_PRIVATE_ENDPOINTS', async () => {
    const strict = await createTestApp({ SMTP_CA_FILE: testSmtpCertificate().file }, { database: t.database });
    try {
      const client = await signedIn(strict.app, reseller.superAdmin.email);
      smtp.clear();
      const response = await putSection(client, email, form());
      expect(fieldErrors(response)).toEqual({ emailHost: T.emailHostRefused });
      expect(smtp.mails()).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });
});
