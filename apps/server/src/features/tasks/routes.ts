import { type Audience, DATA_CHECK_TEXTS, ok, ROUTES } from '@portal/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { MachinePath, TaskService } from './service.js';

type TaskRoutes = (typeof ROUTES.tasks)[Audience];

/** The path's machine (and on admin paths its customer and package), as the service resolves it. */
function machinePathOf(audience: Audience, params: { machineId: number; customerId?: number; packageId?: number }) {
  const path: MachinePath = { audience, machineId: params.machineId };
  if (params.customerId !== undefined) path.customerId = params.customerId;
  if (params.packageId !== undefined) path.packageId = params.packageId;
  return path;
}

/** The task lists, the task page's reads and the cancel of 002 §7.5 and §7.7, under each audience's machine path. */
export function registerTaskRoutes(app: FastifyInstance, deps: { tasks: TaskService }): void {
  const { tasks } = deps;
  const actorOf = (request: FastifyRequest) => requireSignedIn(request).actor;

  for (const audience of ['customer', 'reseller', 'provider'] as const) {
    const r: TaskRoutes = ROUTES.tasks[audience];

    route(app, r.list, async (request) => {
      const params = parseWith(r.list.params, request.params);
      const paging = parseWith(r.list.query, request.query);
      return ok(await tasks.list(actorOf(request), machinePathOf(audience, params), paging));
    });

    route(app, r.detail, async (request) => {
      const params = parseWith(r.detail.params, request.params);
      return ok(await tasks.detail(actorOf(request), machinePathOf(audience, params), params.taskId));
    });

    route(app, r.actions, async (request) => {
      const params = parseWith(r.actions.params, request.params);
      const { type, ...paging } = parseWith(r.actions.query, request.query);
      return ok(await tasks.actions(actorOf(request), machinePathOf(audience, params), params.taskId, type, paging));
    });

    route(app, r.snapshots, async (request) => {
      const params = parseWith(r.snapshots.params, request.params);
      const paging = parseWith(r.snapshots.query, request.query);
      return ok(await tasks.snapshots(actorOf(request), machinePathOf(audience, params), params.taskId, paging));
    });

    route(app, r.storage, async (request) => {
      const params = parseWith(r.storage.params, request.params);
      return ok(await tasks.storage(actorOf(request), machinePathOf(audience, params), params.taskId));
    });

    route(app, r.snapshotStorage, async (request) => {
      const params = parseWith(r.snapshotStorage.params, request.params);
      const path = machinePathOf(audience, params);
      return ok(await tasks.snapshotStorage(actorOf(request), path, params.taskId, params.snapshotId));
    });

    route(app, r.dataCheck, async (request) => {
      const params = parseWith(r.dataCheck.params, request.params);
      return ok(await tasks.dataCheck(actorOf(request), machinePathOf(audience, params), params.taskId));
    });

    route(app, r.cancel, async (request) => {
      const params = parseWith(r.cancel.params, request.params);
      const { type } = parseWith(r.cancel.query, request.query);
      const path = machinePathOf(audience, params);
      return ok(await tasks.cancel(actorOf(request), path, params.taskId, params.actionId, type));
    });
  }

  // 002 §7.5: the customer's run list is the BACKUP_RUN actions.
  const runs = ROUTES.tasks.customer.runs;
  route(app, runs, async (request) => {
    const params = parseWith(runs.params, request.params);
    const paging = parseWith(runs.query, request.query);
    const path = machinePathOf('customer', params);
    return ok(await tasks.actions(actorOf(request), path, params.taskId, 'BACKUP_RUN', paging));
  });

  // Issue 32: the provider's 'Check all data now' of a task's repository.
  const checkData = ROUTES.tasks.provider.checkData;
  route(app, checkData, async (request) => {
    const params = parseWith(checkData.params, request.params);
    const path = machinePathOf('provider', params);
    const message = {
      type: 'INFO',
      fieldName: '',
      message: DATA_CHECK_TEXTS.checkStarted,
      responseCode: 'OK',
    } as const;
    return ok(await tasks.checkData(actorOf(request), path, params.taskId), [message]);
  });
}
