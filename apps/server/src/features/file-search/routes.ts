import { ok, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { FileSearchService } from './service.js';

/** Finding files in a machine's snapshots (issue 31; ROUTES.fileSearch in the domain). */
export function registerFileSearchRoutes(app: FastifyInstance, deps: { fileSearch: FileSearchService }): void {
  const { fileSearch } = deps;
  const r = ROUTES.fileSearch;

  route(app, r.start, async (request) => {
    const { actor } = requireSignedIn(request);
    const { machineId } = parseWith(r.start.params, request.params);
    return ok(await fileSearch.start(actor, machineId, parseWith(r.start.body, request.body)));
  });

  route(app, r.history, async (request) => {
    const { actor } = requireSignedIn(request);
    const { machineId, taskId } = parseWith(r.history.params, request.params);
    return ok(await fileSearch.history(actor, machineId, taskId, parseWith(r.history.body, request.body)));
  });

  route(app, r.stop, async (request) => {
    const { actor } = requireSignedIn(request);
    const { machineId } = parseWith(r.stop.params, request.params);
    const { searchId } = parseWith(r.stop.body, request.body);
    await fileSearch.stop(actor, machineId, searchId);
    return ok(null);
  });
}
