import { ok, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { RealtimeCommandService } from './service.js';

/**
 * Realtime restic commands (001 §7; ROUTES.realtimeCommands in the domain): provider admins only, and only on
 * machines whose customer allows provider machine control.
 */
export function registerRealtimeCommandRoutes(app: FastifyInstance, deps: { realtime: RealtimeCommandService }): void {
  const { realtime } = deps;
  const r = ROUTES.realtimeCommands;

  route(app, r.submit, async (request) => {
    const { actor } = requireSignedIn(request);
    const path = parseWith(r.submit.params, request.params);
    const command = parseWith(r.submit.body, request.body);
    return ok(await realtime.submit(actor, path, command));
  });

  route(app, r.list, async (request) => {
    const { actor } = requireSignedIn(request);
    const path = parseWith(r.list.params, request.params);
    return ok({ elements: await realtime.list(actor, path) });
  });

  route(app, r.stop, async (request) => {
    const { actor } = requireSignedIn(request);
    const path = parseWith(r.stop.params, request.params);
    const { commandId } = parseWith(r.stop.body, request.body);
    await realtime.stop(actor, path, commandId);
    return ok(null);
  });

  route(app, r.remove, async (request) => {
    const { actor } = requireSignedIn(request);
    const path = parseWith(r.remove.params, request.params);
    const { commandId } = parseWith(r.remove.body, request.body);
    await realtime.remove(actor, path, commandId);
    return ok(null);
  });
}
