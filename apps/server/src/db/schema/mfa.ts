import { bigint, index, integer, pgTable, serial, text, varchar } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { belongsTo, createdAt, ts } from './columns.js';

/**
 * A user's two-factor sign-in (issue 18). The key is sealed with MASTER_KEY; until the first code confirms
 * it, enabled_at is null and the key signs nobody in. last_step is the newest time step a code was
 * accepted for: a code of that step or an earlier one is refused, so each code works once.
 */
export const userMfa = pgTable('user_mfa', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretSealed: text('secret_sealed').notNull(),
  enabledAt: ts('enabled_at'),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** Single-use recovery codes; only their SHA-256 is kept. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: belongsTo('user_id', () => users.id),
    codeHash: varchar('code_hash', { length: 64 }).notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('mfa_recovery_codes_user_idx').on(t.userId, t.codeHash)],
);
