import { ok, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { TreeItemsService } from './service.js';

/** POST /backupmachines/{id}/treeitems (002 §7.8): any signed-in user who may see the machine. */
export function registerTreeItemsRoutes(app: FastifyInstance, deps: { treeItems: TreeItemsService }): void {
  const list = ROUTES.treeItems.list;
  route(app, list, async (request) => {
    const { actor } = requireSignedIn(request);
    const { machineId } = parseWith(list.params, request.params);
    const body = parseWith(list.body, request.body);
    const result = await deps.treeItems.list(actor, machineId, body);
    return ok({ ...result, responseSummaryCode: 'OK' });
  });
}
