import { eq } from 'drizzle-orm';
import { type Executor, oneOrNull } from './client.js';
import { restoreTestSettings } from './schema/index.js';

/**
 * The customer's restore test interval override, or null for the provider's default: read by restore tests (their
 * schedule and settings) and by 'Last verified' (its deadlines).
 */
export async function restoreTestIntervalOverride(db: Executor, customerId: number): Promise<number | null> {
  const row = await oneOrNull(
    db
      .select({ days: restoreTestSettings.intervalDays })
      .from(restoreTestSettings)
      .where(eq(restoreTestSettings.customerId, customerId)),
  );
  return row?.days ?? null;
}
