import { ok, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { clientInfo, requireSession } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { MfaService } from './service.js';

/** The signed-in user's own two-factor sign-in (issue 18); the second step of sign-in is the auth feature's. */
export function registerMfaRoutes(app: FastifyInstance, deps: { mfa: MfaService }): void {
  const { mfa } = deps;
  const r = ROUTES.mfa;

  route(app, r.status, async (request) => ok(await mfa.status(requireSession(request))));

  route(app, r.start, async (request) => ok(await mfa.start(requireSession(request))));

  route(app, r.confirm, async (request) => {
    const session = requireSession(request);
    const { code } = parseWith(r.confirm.body, request.body);
    return ok(await mfa.confirm(session, code, clientInfo(request)));
  });

  route(app, r.disable, async (request) => {
    const session = requireSession(request);
    const input = parseWith(r.disable.body, request.body);
    return ok(await mfa.disable(session, input, clientInfo(request)));
  });

  route(app, r.regenerateRecoveryCodes, async (request) => {
    const session = requireSession(request);
    const input = parseWith(r.regenerateRecoveryCodes.body, request.body);
    return ok(await mfa.regenerateRecoveryCodes(session, input, clientInfo(request)));
  });
}
