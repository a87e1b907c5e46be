import { and, count, eq, isNull, lt, or } from 'drizzle-orm';
import { type Executor, oneOrNull } from '../../db/client.js';
import { mfaRecoveryCodes, userMfa } from '../../db/schema/index.js';

export function createMfaRepo(db: Executor) {
  return {
    async find(userId: number) {
      return oneOrNull(db.select().from(userMfa).where(eq(userMfa.userId, userId)));
    },
    /** A new key awaiting confirmation; an enabled one is never replaced here (the WHERE keeps it). */
    async savePending(userId: number, secretSealed: string): Promise<boolean> {
      const rows = await db
        .insert(userMfa)
        .values({ userId, secretSealed })
        .onConflictDoUpdate({
          target: userMfa.userId,
          set: { secretSealed, enabledAt: null, lastStep: null },
          setWhere: isNull(userMfa.enabledAt),
        })
        .returning({ userId: userMfa.userId });
      return rows.length > 0;
    },
    /**
     * Takes a time step as used if it is newer than the last one accepted: one UPDATE, so two requests
     * with the same code cannot both pass. `confirming` takes an unconfirmed key and enables it.
     */
    async takeStep(userId: number, step: number, at: Date, confirming = false): Promise<boolean> {
      const rows = await db
        .update(userMfa)
        .set(confirming ? { lastStep: step, enabledAt: at } : { lastStep: step })
        .where(
          and(
            eq(userMfa.userId, userId),
            confirming ? isNull(userMfa.enabledAt) : undefined,
            or(isNull(userMfa.lastStep), lt(userMfa.lastStep, step)),
          ),
        )
        .returning({ userId: userMfa.userId });
      return rows.length > 0;
    },
    async remove(userId: number): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(userMfa).where(eq(userMfa.userId, userId));
        await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
      });
    },
    /** The user's recovery codes become these (one transaction: never none, never old and new mixed). */
    async replaceRecoveryCodes(userId: number, codeHashes: string[]): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
        await tx.insert(mfaRecoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
      });
    },
    /** Marks an unused recovery code used; false when there is none (unknown or used before). */
    async useRecoveryCode(userId: number, codeHash: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(mfaRecoveryCodes)
        .set({ usedAt: at })
        .where(
          and(
            eq(mfaRecoveryCodes.userId, userId),
            eq(mfaRecoveryCodes.codeHash, codeHash),
            isNull(mfaRecoveryCodes.usedAt),
          ),
        )
        .returning({ id: mfaRecoveryCodes.id });
      return rows.length > 0;
    },
    async unusedRecoveryCodes(userId: number): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(mfaRecoveryCodes)
        .where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt)));
      return row?.n ?? 0;
    },
  };
}
export type MfaRepo = ReturnType<typeof createMfaRepo>;
