import { ok, ROUTES } from '@portal/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { PackageRequestService } from './service.js';

/** The request calls of 000 §7 under the provider's and a reseller's base, and the customer's own list. */
export function registerPackageRequestRoutes(app: FastifyInstance, deps: { requests: PackageRequestService }) {
  const { requests } = deps;
  const actorOf = (request: FastifyRequest) => requireSignedIn(request).actor;

  for (const r of [ROUTES.packageRequests.provider, ROUTES.packageRequests.reseller]) {
    route(app, r.list, async (request) =>
      ok(await requests.page(actorOf(request), parseWith(r.list.query, request.query))),
    );
    route(app, r.approve, async (request) => {
      const { requestId } = parseWith(r.approve.params, request.params);
      await requests.approve(actorOf(request), requestId, request.body);
      return ok(null);
    });
    route(app, r.decline, async (request) => {
      const { requestId } = parseWith(r.decline.params, request.params);
      await requests.decline(actorOf(request), requestId);
      return ok(null);
    });
  }

  const mine = ROUTES.packageRequests.mine;
  route(app, mine, async (request) => ok(await requests.mine(actorOf(request), parseWith(mine.query, request.query))));
}
