import { and, eq, isNotNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { customers, resellerSettings } from '../../db/schema/index.js';

/** The columns of the reseller settings a page's brand is made from: never the e-mail settings. */
const brandColumns = {
  brandName: resellerSettings.brandName,
  customUrl: resellerSettings.customUrl,
  mainSiteLink: resellerSettings.mainSiteLink,
  logo: resellerSettings.logo,
  favicon: resellerSettings.favicon,
  appHeaderColour: resellerSettings.appHeaderColour,
  appHeaderTextColour: resellerSettings.appHeaderTextColour,
  appBackgroundColour: resellerSettings.appBackgroundColour,
  functionalBackgroundColour: resellerSettings.functionalBackgroundColour,
  functionalButtonColour: resellerSettings.functionalButtonColour,
  appEnabledButtonColour: resellerSettings.appEnabledButtonColour,
  appDisabledButtonColour: resellerSettings.appDisabledButtonColour,
};
export type BrandRecord = { [K in keyof typeof brandColumns]: string | null };

export function createShellRepo(db: Executor) {
  async function settingsOf(customerId: number): Promise<BrandRecord | null> {
    const rows = await db
      .select(brandColumns)
      .from(resellerSettings)
      .where(and(eq(resellerSettings.customerId, customerId), eq(resellerSettings.resellerEnabled, true)));
    return rows[0] ?? null;
  }

  return {
    /** A reseller sees its own brand; a reseller's customer sees its reseller's (000 §1). */
    async brandFor(customerId: number | null): Promise<BrandRecord | null> {
      if (customerId === null) return null;
      const own = await settingsOf(customerId);
      if (own) return own;
      const parent = await db
        .select({ parentId: customers.parentResellerCustomerId })
        .from(customers)
        .where(eq(customers.id, customerId));
      const parentId = parent[0]?.parentId;
      return parentId ? settingsOf(parentId) : null;
    },

    /**
     * The enabled resellers whose custom URL may name this host: stored as the host name itself or as a URL
     * on it (the caller keeps the ones whose resellerPortalHost is the host). `host` is a checked host name
     * (requestHostName), so it holds no LIKE wildcard.
     */
    async brandCandidatesForHost(host: string): Promise<BrandRecord[]> {
      return db
        .select(brandColumns)
        .from(resellerSettings)
        .where(
          and(
            eq(resellerSettings.resellerEnabled, true),
            isNotNull(resellerSettings.customUrl),
            or(
              sql`lower(trim(${resellerSettings.customUrl})) = ${host}`,
              sql`lower(${resellerSettings.customUrl}) like ${`%://${host}%`}`,
            ),
          ),
        )
        .limit(20);
    },
  };
}
export type ShellRepo = ReturnType<typeof createShellRepo>;
