import {
  type Actor,
  assignableRoles,
  checkUserImportRows,
  importRowProblem,
  MESSAGES,
  mayChange,
  type UserImportCells,
  type UserImportUser,
} from '@portal/domain';
import { forbidden } from '../../http/errors.js';
import type { NewUser, UsersRepo } from './repo.js';

export type ImportOutcome =
  /** Rows break the user form's rules: nothing is saved (002 §8.2). */
  | { kind: 'invalid'; problems: string[] }
  /** Every valid row saved but those in `problems` (e-mail addresses in use), each user whole or not at all. */
  | { kind: 'saved'; imported: number; skipped: number; problems: string[] };

/**
 * Users hashed and inserted together: argon2 hashes on its own thread pool, so a batch keeps every core
 * busy, and one multi-row insert per batch saves the round trips. Small enough that the pool is not held
 * for long by one import.
 */
const BATCH = 50;

/**
 * Bulk user import (002 §5.3): checks every row first and saves nothing when any breaks the rules;
 * otherwise adds the users to the caller's customer. An e-mail address already in use (also by a user
 * added while the import runs) is skipped with skipAlreadyExisting, else reported for its row while the
 * other rows are saved.
 */
export function createUserImportService(deps: {
  repo: UsersRepo;
  /**
   * The hash of a new random password (auth/passwords.ts generatedPasswordHash): never mailed or returned
   * (002 §5.3); imported users set their own through Forgot password.
   */
  newPasswordHash: () => Promise<string>;
}) {
  const { repo } = deps;

  return {
    /** The customer an import of this caller goes to; 403 for read-only callers, before any file is read. */
    customerOf(actor: Actor): number {
      if (!mayChange(actor) || actor.customerId === null) throw forbidden();
      return actor.customerId;
    },

    async importUsers(
      actor: Actor,
      customerId: number,
      rows: ReadonlyArray<{ rowNumber: number; cells: UserImportCells }>,
      skipAlreadyExisting: boolean,
    ): Promise<ImportOutcome> {
      const { users, problems } = checkUserImportRows(rows, assignableRoles(actor));
      if (problems.length > 0) return { kind: 'invalid', problems };

      const taken: UserImportUser[] = [];
      const existing = await repo.existingEmails(users.map((u) => u.email));
      const fresh = users.filter((user) => {
        if (!existing.has(user.email.toLowerCase())) return true;
        taken.push(user);
        return false;
      });

      let imported = 0;
      for (let start = 0; start < fresh.length; start += BATCH) {
        const batch = fresh.slice(start, start + BATCH);
        const values: NewUser[] = await Promise.all(
          batch.map(async (user) => ({
            customerId,
            firstName: user.firstName,
            surname: user.surname,
            email: user.email,
            contactNumber: user.contactNumber,
            role: user.role,
            readOnly: user.readOnly,
            passwordHash: await deps.newPasswordHash(),
          })),
        );
        const inserted = await repo.insertMany(values);
        imported += inserted.size;
        taken.push(...batch.filter((user) => !inserted.has(user.email.toLowerCase())));
      }

      if (skipAlreadyExisting) return { kind: 'saved', imported, skipped: taken.length, problems: [] };
      const inRowOrder = taken.sort((a, b) => a.rowNumber - b.rowNumber);
      return {
        kind: 'saved',
        imported,
        skipped: 0,
        problems: inRowOrder.map((user) => importRowProblem(user.rowNumber, MESSAGES.emailTaken)),
      };
    },
  };
}
export type UserImportService = ReturnType<typeof createUserImportService>;
