import { ok, RESTORE_TEST_TEXTS, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { RestoreTestService } from './service.js';

/** Restore tests (issue 32; ROUTES.restoreTests in the domain). */
export function registerRestoreTestRoutes(app: FastifyInstance, deps: { restoreTests: RestoreTestService }): void {
  const { restoreTests } = deps;
  const r = ROUTES.restoreTests;

  route(app, r.summary, async (request) => {
    const { actor } = requireSignedIn(request);
    return ok(await restoreTests.summary(actor, parseWith(r.summary.params, request.params)));
  });

  route(app, r.history, async (request) => {
    const { actor } = requireSignedIn(request);
    const path = parseWith(r.history.params, request.params);
    return ok(await restoreTests.history(actor, path, parseWith(r.history.query, request.query)));
  });

  route(app, r.start, async (request) => {
    const { actor } = requireSignedIn(request);
    const started = await restoreTests.start(actor, parseWith(r.start.params, request.params));
    return ok(started, [{ type: 'INFO', fieldName: '', message: RESTORE_TEST_TEXTS.started, responseCode: 'OK' }]);
  });

  route(app, r.settings, async (request) => {
    const { actor } = requireSignedIn(request);
    return ok(await restoreTests.settings(actor));
  });

  route(app, r.saveSettings, async (request) => {
    const { actor } = requireSignedIn(request);
    return ok(await restoreTests.saveSettings(actor, parseWith(r.saveSettings.body, request.body)));
  });
}
