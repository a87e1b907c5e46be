import { MESSAGES, ok, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { asDownload } from '../../http/download.js';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { RestoreService } from './service.js';
import type { MachineRestoreService } from './to-machine.js';

/**
 * A run's backed-up data (002 §7.5, §7.6; issue 14): the snapshot tree, the download's initiate call and its form
 * POST (the `_csrf` field is checked with every state-changing request, http/request-context.ts), the restore to
 * the machine, and the archive deletion of a snapshot.
 */
export function registerRestoreRoutes(
  app: FastifyInstance,
  deps: { restore: RestoreService; toMachine: MachineRestoreService },
): void {
  const { restore, toMachine } = deps;
  const { snapshotTree, initiateDownload, download, restoreToMachine, deleteArchive } = ROUTES.restore;

  route(app, snapshotTree, async (request) => {
    const { actor } = requireSignedIn(request);
    const path = parseWith(snapshotTree.params, request.params);
    const query = parseWith(snapshotTree.query, request.query);
    return ok({ elements: await restore.tree(actor, path, query.path) });
  });

  route(app, initiateDownload, async (request) => {
    const { actor } = requireSignedIn(request);
    const path = parseWith(initiateDownload.params, request.params);
    const body = parseWith(initiateDownload.body, request.body);
    const result = await restore.initiateDownload(actor, path, body);
    return ok(result, [{ type: 'INFO', fieldName: '', message: MESSAGES.task.downloadStarting, responseCode: 'OK' }]);
  });

  route(app, restoreToMachine, async (request) => {
    const { actor } = requireSignedIn(request);
    const path = parseWith(restoreToMachine.params, request.params);
    const body = parseWith(restoreToMachine.body, request.body);
    await toMachine.restore(actor, path, body);
    return ok(null, [{ type: 'INFO', fieldName: '', message: MESSAGES.restore.restoreStarted, responseCode: 'OK' }]);
  });

  route(app, download, async (request, reply) => {
    const { actor } = requireSignedIn(request);
    const { download: downloadId, ...path } = parseWith(download.params, request.params);
    // The client going away stops restic.
    const gone = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) gone.abort();
    });
    const stream = await restore.openDownload(actor, path, downloadId, gone.signal);
    return asDownload(reply, 'application/zip', stream.fileName).header('Cache-Control', 'no-store').send(stream.body);
  });

  route(app, deleteArchive, async (request) => {
    const { actor } = requireSignedIn(request);
    const at = parseWith(deleteArchive.params, request.params);
    parseWith(deleteArchive.query, request.query);
    await restore.deleteArchive(actor, at);
    return ok(null, [{ type: 'INFO', fieldName: '', message: MESSAGES.task.archiveBeingDeleted, responseCode: 'OK' }]);
  });
}
