import { cursorPageOf, MESSAGES, ok, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import { presentTaskCounts } from '../dashboard/present.js';
import { presentTaskOverviewRow } from './present.js';
import type { TaskOverviewService } from './service.js';

/** The provider's task dashboards and the volume snapshots PUT (ROUTES.taskOverview; provider admins only). */
export function registerTaskOverviewRoutes(app: FastifyInstance, deps: { taskOverview: TaskOverviewService }): void {
  const { taskOverview } = deps;
  const r = ROUTES.taskOverview;

  route(app, r.running, async (request) => {
    const query = parseWith(r.running.query, request.query);
    const { rows, total, nextCursor } = await taskOverview.running(query);
    return ok(cursorPageOf(rows.map(presentTaskOverviewRow), total, query.size, nextCursor));
  });
  route(app, r.nextPeriod, async (request) => {
    const query = parseWith(r.nextPeriod.query, request.query);
    const { rows, total, nextCursor } = await taskOverview.nextPeriod(query);
    return ok(cursorPageOf(rows.map(presentTaskOverviewRow), total, query.size, nextCursor));
  });
  route(app, r.beingDeleted, async (request) => {
    const query = parseWith(r.beingDeleted.query, request.query);
    const { rows, total, nextCursor } = await taskOverview.beingDeleted(query);
    return ok(cursorPageOf(rows.map(presentTaskOverviewRow), total, query.size, nextCursor));
  });
  route(app, r.counts, async () => ok(presentTaskCounts(await taskOverview.counts())));

  route(app, r.volumeSnapshots, async (request) => {
    const path = parseWith(r.volumeSnapshots.params, request.params);
    const result = await taskOverview.setVolumeSnapshots(requireSignedIn(request).actor, path, request.body);
    return ok(result, [
      { type: 'INFO', fieldName: '', message: MESSAGES.customer.backupTaskUpdated, responseCode: 'OK' },
    ]);
  });
}
