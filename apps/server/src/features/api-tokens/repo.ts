import { and, asc, count, eq, gt, isNull, lt, or } from 'drizzle-orm';
import { type Executor, oneOrNull } from '../../db/client.js';
import { apiTokens } from '../../db/schema/index.js';

export type ApiTokenRecord = typeof apiTokens.$inferSelect;

export function createApiTokenRepo(db: Executor) {
  return {
    async listOfUser(userId: number): Promise<ApiTokenRecord[]> {
      return db
        .select()
        .from(apiTokens)
        .where(eq(apiTokens.userId, userId))
        .orderBy(asc(apiTokens.createdAt), asc(apiTokens.id));
    },
    /** Tokens of the user that still work at `at` (what the per-user limit counts). */
    async countLive(userId: number, at: Date): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(apiTokens)
        .where(and(eq(apiTokens.userId, userId), gt(apiTokens.expiresAt, at)));
      return row?.n ?? 0;
    },
    async insert(values: typeof apiTokens.$inferInsert): Promise<ApiTokenRecord> {
      const [row] = await db.insert(apiTokens).values(values).returning();
      if (!row) throw new Error('API token not inserted');
      return row;
    },
    async findByHash(tokenHash: string): Promise<ApiTokenRecord | null> {
      return oneOrNull(db.select().from(apiTokens).where(eq(apiTokens.tokenHash, tokenHash)));
    },
    /** Removes the user's own token; null when the user has no token of that id. */
    async deleteOfUser(userId: number, id: number): Promise<ApiTokenRecord | null> {
      return oneOrNull(
        db
          .delete(apiTokens)
          .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId)))
          .returning(),
      );
    },
    /** Records a use, unless one was recorded after `before` (so concurrent requests write once). */
    async touch(id: number, at: Date, before: Date): Promise<void> {
      await db
        .update(apiTokens)
        .set({ lastUsedAt: at })
        .where(and(eq(apiTokens.id, id), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, before))));
    },
  };
}
export type ApiTokenRepo = ReturnType<typeof createApiTokenRepo>;
