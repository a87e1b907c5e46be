import { API_TOKEN_LIMITS, type ApiTokenCreate, type ApiTokenScope } from '@portal/domain';
import type { AuditRepo } from '../audit/repo.js';
import type { AuthRepo, UserWithCustomer } from '../auth/repo.js';
import { accountOpen, type ClientInfo, type SignedIn } from '../auth/service.js';
import { newToken, sha256 } from '../auth/tokens.js';
import type { ApiTokenRecord, ApiTokenRepo } from './repo.js';

/** The token a request was authenticated with. */
export interface ApiTokenUse {
  id: number;
  scope: ApiTokenScope;
}

const DAY_MS = 86_400_000;
/** Longer than any token we make; a longer header is refused before it is hashed. */
const MAX_TOKEN_LENGTH = 100;

export function createApiTokenService(deps: {
  repo: ApiTokenRepo;
  auth: Pick<AuthRepo, 'findUserById'>;
  /** Who the owner is on a request (the auth service's tokenCaller). */
  callerOf: (user: UserWithCustomer) => SignedIn;
  audit: Pick<AuditRepo, 'record'>;
  now?: () => Date;
}) {
  const { repo, audit } = deps;
  const now = deps.now ?? (() => new Date());

  return {
    list: (userId: number) => repo.listOfUser(userId),

    /** A new token, its secret answered this once; 'tooMany' when the user has the most live tokens allowed. */
    async create(
      session: SignedIn,
      input: ApiTokenCreate,
      client: ClientInfo,
    ): Promise<{ record: ApiTokenRecord; token: string } | 'tooMany'> {
      const at = now();
      if ((await repo.countLive(session.user.id, at)) >= API_TOKEN_LIMITS.maxPerUser) return 'tooMany';
      const token = `${API_TOKEN_LIMITS.prefix}${newToken()}`;
      const record = await repo.insert({
        userId: session.user.id,
        name: input.name,
        scope: input.scope,
        tokenHash: sha256(token),
        hint: token.slice(0, API_TOKEN_LIMITS.prefix.length + 6),
        createdAt: at,
        expiresAt: new Date(at.getTime() + input.expiresInDays * DAY_MS),
      });
      await audit.record({
        type: 'API_TOKEN_CREATED',
        userId: session.user.id,
        customerId: session.user.customerId,
        email: session.user.email,
        ipAddress: client.ip,
        detail: {
          tokenId: record.id,
          name: record.name,
          scope: record.scope,
          expiresAt: record.expiresAt.toISOString(),
        },
      });
      return { record, token };
    },

    /** Revokes one of the caller's own tokens; false when they have none of that id. */
    async revoke(session: SignedIn, id: number, client: ClientInfo): Promise<boolean> {
      const removed = await repo.deleteOfUser(session.user.id, id);
      if (!removed) return false;
      await audit.record({
        type: 'API_TOKEN_REVOKED',
        userId: session.user.id,
        customerId: session.user.customerId,
        email: session.user.email,
        ipAddress: client.ip,
        detail: { tokenId: removed.id, name: removed.name },
      });
      return true;
    },

    /**
     * The owner of a bearer token as a signed-in caller, or null when the token is unknown, revoked, expired
     * or its owner may not sign in (inactive, or a suspended customer). The same actor as a session's, so the
     * token has exactly its owner's rights.
     */
    async resolve(token: string): Promise<{ signedIn: SignedIn; apiToken: ApiTokenUse } | null> {
      if (!token.startsWith(API_TOKEN_LIMITS.prefix) || token.length > MAX_TOKEN_LENGTH) return null;
      const record = await repo.findByHash(sha256(token));
      const at = now();
      if (!record || record.expiresAt.getTime() <= at.getTime()) return null;
      const user = await deps.auth.findUserById(record.userId);
      if (!user || !accountOpen(user)) return null;
      const slackStart = new Date(at.getTime() - API_TOKEN_LIMITS.lastUsedSlackMs);
      if (!record.lastUsedAt || record.lastUsedAt < slackStart) await repo.touch(record.id, at, slackStart);
      // No session: nothing to end on sign-out and no CSRF token, since a token request needs none.
      return {
        signedIn: deps.callerOf(user),
        apiToken: { id: record.id, scope: record.scope },
      };
    },
  };
}
export type ApiTokenService = ReturnType<typeof createApiTokenService>;
