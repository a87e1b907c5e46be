import { ok, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { VerificationService } from './service.js';

/** The dashboard's verification badge and its list of tasks (issue 32 item 3), scoped to the caller by the service. */
export function registerVerificationRoutes(app: FastifyInstance, deps: { verification: VerificationService }): void {
  const { verification } = deps;
  const r = ROUTES.dashboard;

  route(app, r.verificationCounts, async (request) => ok(await verification.counts(requireSignedIn(request).actor)));

  route(app, r.verificationTasks, async (request) => {
    const { actor } = requireSignedIn(request);
    return ok(await verification.tasks(actor, parseWith(r.verificationTasks.query, request.query)));
  });
}
