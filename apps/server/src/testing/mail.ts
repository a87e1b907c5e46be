import { DEFAULT_BRAND_NAMES, type MailBrand } from '@portal/domain';
import { type ParsedMail, simpleParser } from 'mailparser';

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
