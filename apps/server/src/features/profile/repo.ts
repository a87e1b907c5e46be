import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema/index.js';

export interface ProfileFields {
  firstName: string;
  surname: string;
  email: string;
  contactNumber: string;
}

/** PostgreSQL's unique-violation code, as PGlite and node-postgres both report it. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

export function createProfileRepo(db: Db) {
  return {
    /** Returns false when the e-mail belongs to someone else. */
    async update(userId: number, fields: ProfileFields): Promise<boolean> {
      try {
        await db.update(users).set(fields).where(eq(users.id, userId));
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },
  };
}
export type ProfileRepo = ReturnType<typeof createProfileRepo>;
