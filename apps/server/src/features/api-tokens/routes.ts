import { API_TOKEN_MESSAGES, ok, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { conflict, notFound, parseWith } from '../../http/errors.js';
import { clientInfo, requireSession } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import { presentApiToken } from './present.js';
import type { ApiTokenService } from './service.js';

export function registerApiTokenRoutes(app: FastifyInstance, deps: { tokens: ApiTokenService }): void {
  const r = ROUTES.apiTokens;

  route(app, r.list, async (request) => {
    const session = requireSession(request);
    const rows = await deps.tokens.list(session.user.id);
    return ok({ elements: rows.map(presentApiToken) });
  });

  route(app, r.create, async (request) => {
    const session = requireSession(request);
    const input = parseWith(r.create.body, request.body);
    const created = await deps.tokens.create(session, input, clientInfo(request));
    if (created === 'tooMany') throw conflict(API_TOKEN_MESSAGES.tooMany);
    return ok({ row: presentApiToken(created.record), token: created.token });
  });

  route(app, r.revoke, async (request) => {
    const session = requireSession(request);
    const { tokenId } = parseWith(r.revoke.params, request.params);
    if (!(await deps.tokens.revoke(session, tokenId, clientInfo(request)))) throw notFound(API_TOKEN_MESSAGES.notFound);
    return ok(null);
  });
}
