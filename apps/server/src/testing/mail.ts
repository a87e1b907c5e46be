import { DEFAULT_BRAND_NAMES, type MailBrand } from '@portal/domain';
import { eq } from 'drizzle-orm';
import { type ParsedMail, simpleParser } from 'mailparser';
import { resellerSettings } from '../db/schema/index.js';
import { createSecretBox } from '../secrets.js';
import type { TestApp } from './app.js';
import type { TestSmtpServer } from './smtp.js';

/** The provider's brand as createTestApp's mails carry it (PUBLIC_URL http://portal.test). */
export const PROVIDER_BRAND: MailBrand = {
  name: DEFAULT_BRAND_NAMES.provider,
  origin: 'http://portal.test',
  supportEmail: null,
  supportPhone: null,
};

/** A received message's parts, read by a real MIME parser (mailparser), not by the portal's own. */
export async function mailParts(raw: string): Promise<{ parsed: ParsedMail; text: string; html: string }> {
  const parsed = await simpleParser(raw);
  return { parsed, text: (parsed.text ?? '').replace(/\r\n/g, '\n').trimEnd(), html: parsed.html || '' };
}

/** The fixtures' reseller's brand (createTenants: 'Resell Backup', no custom URL), which customer A's mails carry. */
export const FIXTURE_RESELLER_BRAND: MailBrand = { ...PROVIDER_BRAND, name: 'Resell Backup' };

/**
 * The reseller's mail goes out through the test SMTP server as `login`, from `from`, under `brandName` (its settings
 * screen saves these).
 */
export async function giveResellerSmtp(
  t: TestApp,
  resellerCustomerId: number,
  smtp: TestSmtpServer,
  mail: { login: { user: string; password: string }; brandName: string; from: string },
): Promise<void> {
  await t.database.db
    .update(resellerSettings)
    .set({
      brandName: mail.brandName,
      emailHost: 'localhost',
      emailPort: smtp.port,
      emailUsername: mail.login.user,
      emailPasswordEncrypted: createSecretBox(t.config.masterKey ?? '').encrypt(mail.login.password),
      sendFromEmailAddress: mail.from,
    })
    .where(eq(resellerSettings.customerId, resellerCustomerId));
}
