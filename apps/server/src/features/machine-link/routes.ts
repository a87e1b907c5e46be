import { ok, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { clientInfo, requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { MachineLinkService } from './service.js';

export function registerMachineLinkRoutes(app: FastifyInstance, deps: { machineLink: MachineLinkService }): void {
  const r = ROUTES.machineLink;
  /** `agent link`: public, since the agent proves itself in the body (e-mail and password, or a linking code). */
  route(app, r.agentLink, async (request) => {
    const input = parseWith(r.agentLink.body, request.body);
    return ok(await deps.machineLink.link(input, clientInfo(request)));
  });

  /** A one-time linking code for the signed-in user (issue #5); the service refuses read-only users. */
  route(app, r.linkingCodes, async (request) => {
    const session = requireSignedIn(request);
    return ok(await deps.machineLink.createCode(session, clientInfo(request)));
  });
}
