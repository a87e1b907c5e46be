import { ok, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { forbidden, unauthenticated } from '../../http/errors.js';
import { route } from '../../http/route.js';
import type { MachineCredentials } from './credentials.js';

/**
 * `agent unlink`: the agent gives up its own credential. Revoked at once; its live connection, on any
 * instance, is closed; the storage stops trusting it within seconds (local-storage/machine-access.ts).
 * A retry after success finds no valid credential (401), which the agent takes as done.
 */
export function registerMachineAuthRoutes(
  app: FastifyInstance,
  deps: {
    credentials: Pick<MachineCredentials, 'verifyAuthorization' | 'revoke'>;
    disconnectMachine: (machineId: number) => Promise<void>;
    now?: () => Date;
  },
): void {
  route(app, ROUTES.machineLink.agentUnlink, async (request, reply) => {
    const machine = await deps.credentials.verifyAuthorization(request.headers.authorization);
    if (!machine) {
      reply.header('WWW-Authenticate', 'Basic realm="portal-agent", charset="UTF-8"');
      throw unauthenticated();
    }
    if (String(machine.id) !== (request.params as { machineId?: string }).machineId) throw forbidden();
    await deps.credentials.revoke(machine.id, deps.now?.() ?? new Date());
    await deps.disconnectMachine(machine.id);
    return ok(null);
  });
}
