import { AGENT_LINK_PATH, LINKING_CODES_PATH, machineLinkRequestSchema, ok } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { clientInfo, requireSignedIn } from '../../http/request-context.js';
import type { MachineLinkService } from './service.js';

export function registerMachineLinkRoutes(app: FastifyInstance, deps: { machineLink: MachineLinkService }): void {
  /** `agent link`: public, since the agent proves itself in the body (e-mail and password, or a linking code). */
  app.post(AGENT_LINK_PATH, { config: { access: 'public', machineAuth: true } }, async (request) => {
    const input = parseWith(machineLinkRequestSchema, request.body);
    return ok(await deps.machineLink.link(input, clientInfo(request)));
  });

  /** A one-time linking code for the signed-in user (issue #5); the service refuses read-only users. */
  app.post(LINKING_CODES_PATH, { config: { access: 'customerMember' } }, async (request) => {
    const session = requireSignedIn(request);
    return ok(await deps.machineLink.createCode(session, clientInfo(request)));
  });
}
