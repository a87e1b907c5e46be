import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { users } from '../../db/schema/index.js';

export interface ProfileFields {
  firstName: string;
  surname: string;
  email: string;
  contactNumber: string;
}

export function createProfileRepo(db: Executor) {
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
