import { API_TOKEN_MESSAGES, bearerToken, changesState, errorMessage } from '@portal/domain';
import type { FastifyRequest } from 'fastify';
import type { ApiTokenService, ApiTokenUse } from '../features/api-tokens/service.js';
import { AppError, unauthenticated } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The personal API token the request was authenticated with; null for a session or a visitor. */
    apiToken: ApiTokenUse | null;
  }
}

/**
 * Authenticates a request that carries `Authorization: Bearer` (issue 18) and answers whether it did: the
 * token alone decides who calls, a session cookie sent along is not looked at (so a script run in a signed-in
 * browser gets exactly its token's rights), and an unknown, expired or revoked token is refused outright
 * rather than treated as a visitor. The live channel's WebSockets take sessions only.
 */
export async function authenticateBearer(
  request: FastifyRequest,
  tokens: Pick<ApiTokenService, 'resolve'>,
): Promise<boolean> {
  const token = bearerToken(request.headers.authorization);
  if (token === null) return false;
  if (request.url.startsWith('/ws/')) throw unauthenticated();
  const resolved = token ? await tokens.resolve(token) : null;
  if (!resolved) throw unauthenticated();
  request.signedIn = resolved.signedIn;
  request.apiToken = resolved.apiToken;
  return true;
}

/** A read-only token reads: every POST, PUT and DELETE with one is refused before its handler. */
export function refuseReadOnlyWrite(request: FastifyRequest): void {
  if (request.apiToken?.scope === 'READ_ONLY' && changesState(request.method, request.routeOptions.url ?? '')) {
    throw new AppError(403, 'FORBIDDEN', [errorMessage(API_TOKEN_MESSAGES.readOnlyToken, '', 'FORBIDDEN')]);
  }
}

/** A session-only route called with an API token (the route's `sessionOnly`, checked before its handler). */
export function refuseApiToken(request: FastifyRequest): void {
  if (request.apiToken) {
    throw new AppError(403, 'FORBIDDEN', [errorMessage(API_TOKEN_MESSAGES.sessionRequired, '', 'FORBIDDEN')]);
  }
}
