import type { ApiTokenRow } from '@portal/domain';
import type { ApiTokenRecord } from './repo.js';

/** A token's listed fields, one by one, so its hash never leaves. */
export function presentApiToken(token: ApiTokenRecord): ApiTokenRow {
  return {
    id: token.id,
    name: token.name,
    scope: token.scope,
    hint: token.hint,
    createdAt: token.createdAt.toISOString(),
    expiresAt: token.expiresAt.toISOString(),
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
  };
}
