import { ok, pageOf, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { forbidden, parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import { presentMailFailure } from './present.js';
import type { MailFailuresRepo } from './repo.js';

/** GET /admin/mailfailures (issue 17): the caller's own customer's failed mails, for its super admin. */
export function registerMailFailureRoutes(app: FastifyInstance, deps: { repo: MailFailuresRepo }): void {
  const r = ROUTES.mail.failures;
  route(app, r, async (request) => {
    const paging = parseWith(r.query, request.query);
    const { customerId } = requireSignedIn(request).actor;
    if (customerId === null) throw forbidden();
    const { rows, total } = await deps.repo.page(customerId, paging);
    return ok(pageOf(rows.map(presentMailFailure), total, paging.size));
  });
}
