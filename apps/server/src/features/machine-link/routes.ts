import { AGENT_LINK_PATH, machineLinkRequestSchema, ok } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { clientInfo } from '../../http/request-context.js';
import type { MachineLinkService } from './service.js';

/** `agent link`: public, since the agent proves itself with the user's e-mail and password in the body. */
export function registerMachineLinkRoutes(app: FastifyInstance, deps: { machineLink: MachineLinkService }): void {
  app.post(AGENT_LINK_PATH, { config: { access: 'public', machineAuth: true } }, async (request) => {
    const input = parseWith(machineLinkRequestSchema, request.body);
    return ok(await deps.machineLink.link(input, clientInfo(request)));
  });
}
