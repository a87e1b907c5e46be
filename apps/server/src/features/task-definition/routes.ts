import { ok, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { TaskDefinitionService } from './service.js';

/** GET /backupmachines/{m}/backuptasks/{t}/definition: what the edit task dialog starts from. */
export function registerTaskDefinitionRoutes(app: FastifyInstance, deps: { taskDefinition: TaskDefinitionService }) {
  const r = ROUTES.taskForm.definition;
  route(app, r, async (request) => {
    const { actor } = requireSignedIn(request);
    const { machineId, taskId } = parseWith(r.params, request.params);
    return ok(await deps.taskDefinition.definition(actor, machineId, taskId));
  });
}
