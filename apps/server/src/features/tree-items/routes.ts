import { ok, treeItemsRequestSchema } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import type { TreeItemsService } from './service.js';

const params = z.object({ machineId: z.coerce.number().int().positive().max(2_147_483_647) });

/** POST /backupmachines/{id}/treeitems (002 §7.8): any signed-in user who may see the machine. */
export function registerTreeItemsRoutes(app: FastifyInstance, deps: { treeItems: TreeItemsService }): void {
  app.post('/backupmachines/:machineId/treeitems', { config: { access: 'signedIn' } }, async (request) => {
    const { actor } = requireSignedIn(request);
    const { machineId } = parseWith(params, request.params);
    const body = parseWith(treeItemsRequestSchema, request.body);
    const result = await deps.treeItems.list(actor, machineId, body);
    return ok({ ...result, responseSummaryCode: 'OK' });
  });
}
