import { ok, ROUTES } from '@portal/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { MachineCommandService } from '../machine-commands/service.js';
import type { MachineService } from './service.js';

/**
 * The machine pages' calls (001 §7): the caller's machines, one machine, edit, the remote-management button, storage,
 * message log, and
 * the admin action path (?delete=true, ?status=, ?refresh=true; the refresh is a command to the agent).
 */
export function registerMachineRoutes(
  app: FastifyInstance,
  deps: { machines: MachineService; commands: Pick<MachineCommandService, 'refreshStorage'> },
): void {
  const { machines, commands } = deps;
  const r = ROUTES.machines;
  const actorOf = (request: FastifyRequest) => requireSignedIn(request).actor;

  route(app, r.own, async (request) => {
    const paging = parseWith(r.own.query, request.query);
    return ok(await machines.own(actorOf(request), paging));
  });

  route(app, r.detail, async (request) => {
    const { machineId } = parseWith(r.detail.params, request.params);
    return ok(await machines.detail(actorOf(request), machineId));
  });

  route(app, r.edit, async (request) => {
    const { machineId } = parseWith(r.edit.params, request.params);
    const payload = parseWith(r.edit.body, request.body);
    return ok(await machines.edit(actorOf(request), machineId, payload));
  });

  route(app, r.remoteManagement, async (request) => {
    const { machineId } = parseWith(r.remoteManagement.params, request.params);
    const payload = parseWith(r.remoteManagement.body, request.body);
    return ok(await machines.setRemoteManagement(actorOf(request), machineId, payload));
  });

  route(app, r.storage, async (request) => {
    const { machineId } = parseWith(r.storage.params, request.params);
    return ok(await machines.storage(actorOf(request), machineId));
  });

  route(app, r.messages, async (request) => {
    const { machineId } = parseWith(r.messages.params, request.params);
    const paging = parseWith(r.messages.query, request.query);
    const filter = parseWith(r.messages.body, request.body ?? {});
    return ok(await machines.messages(actorOf(request), machineId, filter, paging));
  });

  route(app, r.action, async (request) => {
    const path = parseWith(r.action.params, request.params);
    const action = parseWith(r.action.query, request.query);
    const actor = actorOf(request);
    if (action.kind === 'refresh') await commands.refreshStorage(actor, path);
    else if (action.kind === 'status') await machines.changeStatus(actor, path, action.status);
    else await machines.remove(actor, path);
    return ok(null);
  });
}
