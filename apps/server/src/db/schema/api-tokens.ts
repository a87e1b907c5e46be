import { API_TOKEN_SCOPES } from '@portal/domain';
import { index, pgEnum, pgTable, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { belongsTo, createdAt, ts } from './columns.js';

export const apiTokenScopeEnum = pgEnum('api_token_scope', API_TOKEN_SCOPES);

/**
 * Personal API tokens (issue 18). Only the SHA-256 of a token is kept: a token is 32 random bytes, so a plain
 * hash is as good as a slow one and lets every request find its row by an index. A revoked token's row goes.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    userId: belongsTo('user_id', () => users.id),
    name: varchar('name', { length: 50 }).notNull(),
    scope: apiTokenScopeEnum('scope').notNull(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    hint: varchar('hint', { length: 16 }).notNull(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [uniqueIndex('api_tokens_hash_uq').on(t.tokenHash), index('api_tokens_user_idx').on(t.userId, t.createdAt)],
);
