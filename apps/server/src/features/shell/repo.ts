import type { Branding } from '@portal/domain';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { customers, resellerSettings } from '../../db/schema/index.js';

export function createShellRepo(db: Executor) {
  async function settingsOf(customerId: number): Promise<Branding | null> {
    const rows = await db
      .select({
        brandName: resellerSettings.brandName,
        logo: resellerSettings.logo,
        favicon: resellerSettings.favicon,
        appHeaderColour: resellerSettings.appHeaderColour,
        appHeaderTextColour: resellerSettings.appHeaderTextColour,
        appBackgroundColour: resellerSettings.appBackgroundColour,
        functionalButtonColour: resellerSettings.functionalButtonColour,
      })
      .from(resellerSettings)
      .where(and(eq(resellerSettings.customerId, customerId), eq(resellerSettings.resellerEnabled, true)));
    return rows[0] ?? null;
  }

  return {
    /** A reseller sees its own branding; a reseller's customer sees its reseller's (000 §1). */
    async brandingFor(customerId: number | null): Promise<Branding | null> {
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
  };
}
export type ShellRepo = ReturnType<typeof createShellRepo>;
