import { ok, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { route } from '../../http/route.js';
import type { RealtimeCommandService } from './service.js';

/** Realtime restic commands (001 §7; ROUTES.realtimeCommands in the domain): provider admins only. */
export function registerRealtimeCommandRoutes(app: FastifyInstance, deps: { realtime: RealtimeCommandService }): void {
  const { realtime } = deps;
  const r = ROUTES.realtimeCommands;

  route(app, r.submit, async (request) => {
    const path = parseWith(r.submit.params, request.params);
    const command = parseWith(r.submit.body, request.body);
    return ok(await realtime.submit(path, command));
  });

  route(app, r.list, async (request) => {
    const path = parseWith(r.list.params, request.params);
    return ok({ elements: await realtime.list(path) });
  });

  route(app, r.stop, async (request) => {
    const path = parseWith(r.stop.params, request.params);
    const { commandId } = parseWith(r.stop.body, request.body);
    await realtime.stop(path, commandId);
    return ok(null);
  });

  route(app, r.remove, async (request) => {
    const path = parseWith(r.remove.params, request.params);
    const { commandId } = parseWith(r.remove.body, request.body);
    await realtime.remove(path, commandId);
    return ok(null);
  });
}
