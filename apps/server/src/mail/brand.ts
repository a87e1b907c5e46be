import {
  brandLogoUrl,
  DEFAULT_BRAND_NAMES,
  DEFAULT_COLOURS,
  FALLBACK_IMAGES,
  type MailBrand,
  resellerPortalOrigin,
} from '@portal/domain';
import { and, eq, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { customers, resellerSettings } from '../db/schema/index.js';
import type { SmtpServerSettings } from '../platform/smtp.js';
import type { SecretBox } from '../secrets.js';

/** A brand as a mail is rendered and sent with: its texts, images, colours and mail server. */
export interface ResolvedMailBrand extends MailBrand {
  /** Absolute address of the logo on the brand's host (brandLogoUrl: the reseller's, else a fallback image). */
  logoUrl: string;
  colours: { header: string; headerText: string; button: string; background: string };
  /**
   * The reseller's mail server and sender when it has e-mail settings; null: the provider's (SMTP_URL, MAIL_FROM).
   * `password` is null when the stored one cannot be decrypted (another MASTER_KEY): sending then fails, clearly.
   */
  smtp: (Omit<SmtpServerSettings, 'password'> & { password: string | null; from: string }) | null;
}

const DEFAULT_MAIL_COLOURS = {
  header: DEFAULT_COLOURS.header,
  headerText: DEFAULT_COLOURS.headerText,
  button: DEFAULT_COLOURS.functionalButton,
  background: DEFAULT_COLOURS.background,
};

/**
 * Which brand a customer's mails carry (000 §1, §6; 002 §1): a reseller's own, a reseller customer's its
 * reseller's (while the reseller is enabled), anyone else's (and the provider admins', customerId null) the
 * provider's. Links point at the reseller's custom URL when it has one, else at PUBLIC_URL.
 */
export function createMailBrands(deps: { db: Executor; secrets: SecretBox; publicUrl: string }) {
  const { db } = deps;
  const providerOrigin = new URL(deps.publicUrl).origin;
  const providerBrand: ResolvedMailBrand = {
    name: DEFAULT_BRAND_NAMES.provider,
    origin: providerOrigin,
    supportEmail: null,
    supportPhone: null,
    logoUrl: new URL(FALLBACK_IMAGES.main, providerOrigin).toString(),
    colours: DEFAULT_MAIL_COLOURS,
    smtp: null,
  };

  return {
    providerBrand,
    async brandFor(customerId: number | null): Promise<ResolvedMailBrand> {
      if (customerId === null) return providerBrand;
      const parent = db
        .select({ id: customers.parentResellerCustomerId })
        .from(customers)
        .where(eq(customers.id, customerId));
      const [settings] = await db
        .select()
        .from(resellerSettings)
        .where(
          and(
            eq(resellerSettings.resellerEnabled, true),
            or(eq(resellerSettings.customerId, customerId), eq(resellerSettings.customerId, sql`(${parent})`)),
          ),
        )
        // Its own settings first: a reseller that is itself a reseller's customer mails under its own brand.
        .orderBy(sql`${resellerSettings.customerId} = ${customerId} desc`)
        .limit(1);
      if (!settings) return providerBrand;
      const origin = resellerPortalOrigin(settings.customUrl) ?? providerBrand.origin;
      const colour = (value: string | null, fallback: string) => safeColour(value) ?? fallback;
      return {
        name: settings.brandName?.trim() || DEFAULT_BRAND_NAMES.reseller,
        origin,
        supportEmail: settings.supportEmailAddress || null,
        supportPhone: settings.supportPhoneNumber || null,
        logoUrl: new URL(brandLogoUrl(settings), origin).toString(),
        colours: {
          header: colour(settings.appHeaderColour, DEFAULT_MAIL_COLOURS.header),
          headerText: colour(settings.appHeaderTextColour, DEFAULT_MAIL_COLOURS.headerText),
          button: colour(
            settings.appEnabledButtonColour ?? settings.functionalButtonColour,
            DEFAULT_MAIL_COLOURS.button,
          ),
          background: colour(settings.appBackgroundColour, DEFAULT_MAIL_COLOURS.background),
        },
        smtp:
          settings.emailHost && settings.emailPort && settings.emailUsername && settings.emailPasswordEncrypted
            ? {
                host: settings.emailHost,
                port: settings.emailPort,
                username: settings.emailUsername,
                password: decryptOrNull(deps.secrets, settings.emailPasswordEncrypted),
                from: settings.sendFromEmailAddress || settings.emailUsername,
              }
            : null,
      };
    },
  };
}
export type MailBrands = ReturnType<typeof createMailBrands>;

function decryptOrNull(secrets: SecretBox, sealed: string): string | null {
  try {
    return secrets.decrypt(sealed);
  } catch {
    return null;
  }
}

/** A colour as the settings screen stores it (#rgb, #rrggbb, rgb()/rgba(), a CSS name); anything else is dropped. */
export function safeColour(value: string | null | undefined): string | null {
  const v = value?.trim() ?? '';
  return /^#[0-9a-f]{3,8}$|^rgba?\([\d\s.,%]+\)$|^[a-z]{3,20}$/i.test(v) ? v : null;
}
