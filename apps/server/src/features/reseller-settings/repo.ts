import { and, eq, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { customers, resellerImages, resellerSettings } from '../../db/schema/index.js';

/** A reseller settings row with its customer's name, as the service reads it. */
export type ResellerSettingsRow = typeof resellerSettings.$inferSelect & { companyName: string };

export type AccountSettingsChange = Pick<
  typeof resellerSettings.$inferInsert,
  'brandName' | 'mainSiteLink' | 'termsAndConditionsLink' | 'supportEmailAddress' | 'supportPhoneNumber'
> &
  Partial<Pick<typeof resellerSettings.$inferInsert, 'customUrl' | 'resellerEnabled'>>;

export type LookAndFeelChange = Pick<
  typeof resellerSettings.$inferInsert,
  | 'functionalBackgroundColour'
  | 'functionalButtonColour'
  | 'appHeaderColour'
  | 'appHeaderTextColour'
  | 'appEnabledButtonColour'
  | 'appDisabledButtonColour'
  | 'appBackgroundColour'
> &
  Partial<Pick<typeof resellerSettings.$inferInsert, 'logo' | 'favicon'>>;

export type EmailChange = Pick<
  typeof resellerSettings.$inferInsert,
  'emailHost' | 'emailPort' | 'emailUsername' | 'emailPasswordEncrypted' | 'sendFromEmailAddress'
>;

/**
 * Reseller settings and their images. Every read and write is by the customer id the service resolved for the
 * caller (its own customer, or the customer a provider admin opened); a customer being deleted has none.
 */
export function createResellerSettingsRepo(db: Executor) {
  const scope = (customerId: number) =>
    and(eq(resellerSettings.customerId, customerId), eq(customers.beingDeleted, false));

  return {
    /** The settings of a customer that has reseller settings (enabled or not), or null. */
    async find(customerId: number): Promise<ResellerSettingsRow | null> {
      const rows = await db
        .select({ settings: resellerSettings, companyName: customers.companyName })
        .from(resellerSettings)
        .innerJoin(customers, eq(customers.id, resellerSettings.customerId))
        .where(scope(customerId));
      const row = rows[0];
      return row ? { ...row.settings, companyName: row.companyName } : null;
    },

    /**
     * Another reseller's custom URLs that mention this host (case-insensitively); the service compares their hosts,
     * since 'backup.example.com' and 'https://Backup.example.com/' are the same portal address.
     */
    async customUrlsLike(customerId: number, host: string): Promise<string[]> {
      const rows = await db
        .select({ customUrl: resellerSettings.customUrl })
        .from(resellerSettings)
        .where(
          and(
            sql`strpos(lower(${resellerSettings.customUrl}), lower(${host})) > 0`,
            ne(resellerSettings.customerId, customerId),
          ),
        );
      return rows.flatMap((r) => (r.customUrl ? [r.customUrl] : []));
    },

    async update(customerId: number, change: AccountSettingsChange | LookAndFeelChange | EmailChange): Promise<void> {
      await db.update(resellerSettings).set(change).where(eq(resellerSettings.customerId, customerId));
    },

    /** Stores an image; the same content again is the same name and row. */
    async putImage(fileName: string, png: Buffer): Promise<void> {
      await db
        .insert(resellerImages)
        .values({ fileName, contentBase64: png.toString('base64') })
        .onConflictDoNothing({ target: resellerImages.fileName });
    },

    /** Removes images no reseller uses any more (those a save just replaced). */
    async removeUnusedImages(fileNames: readonly string[]): Promise<void> {
      for (const fileName of fileNames) {
        const inUse = await db
          .select({ id: resellerSettings.customerId })
          .from(resellerSettings)
          .where(or(eq(resellerSettings.logo, fileName), eq(resellerSettings.favicon, fileName)))
          .limit(1);
        if (inUse.length === 0) await db.delete(resellerImages).where(eq(resellerImages.fileName, fileName));
      }
    },

    /** A stored image's bytes, or null (public: the names are content hashes, the images are shown to anyone). */
    async image(fileName: string): Promise<Buffer | null> {
      const rows = await db
        .select({ content: resellerImages.contentBase64 })
        .from(resellerImages)
        .where(eq(resellerImages.fileName, fileName));
      const row = rows[0];
      return row ? Buffer.from(row.content, 'base64') : null;
    },
  };
}
export type ResellerSettingsRepo = ReturnType<typeof createResellerSettingsRepo>;
