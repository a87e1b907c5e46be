import { ok, ROUTES } from '@portal/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { PackageService } from './service.js';

/**
 * The backup package calls (000 §2, §4, §7): the customer admins' table, each audience's package page
 * (JSON callers of the page paths), storage details and machines, edit or initialize, and the provider's
 * and resellers' status change and deletion.
 */
export function registerPackageRoutes(app: FastifyInstance, deps: { packages: PackageService }): void {
  const { packages } = deps;
  const r = ROUTES.packages;
  const actorOf = (request: FastifyRequest) => requireSignedIn(request).actor;

  route(app, r.list, async (request) => {
    const paging = parseWith(r.list.query, request.query);
    return ok(await packages.list(actorOf(request), paging));
  });

  route(app, r.storage, async (request) => {
    const { packageId } = parseWith(r.storage.params, request.params);
    return ok(await packages.storage(actorOf(request), packageId));
  });

  route(app, r.machines, async (request) => {
    const { packageId } = parseWith(r.machines.params, request.params);
    const paging = parseWith(r.machines.query, request.query);
    return ok(await packages.machines(actorOf(request), packageId, paging));
  });

  route(app, r.customerDetail, async (request) => {
    const path = parseWith(r.customerDetail.params, request.params);
    return ok(await packages.detail(actorOf(request), 'customer', path));
  });

  route(app, r.resellerDetail, async (request) => {
    const path = parseWith(r.resellerDetail.params, request.params);
    return ok(await packages.detail(actorOf(request), 'reseller', path));
  });

  route(app, r.providerDetail, async (request) => {
    const path = parseWith(r.providerDetail.params, request.params);
    return ok(await packages.detail(actorOf(request), 'provider', path));
  });

  // Edit and, with ?initialize=true, the naming of an APPROVED package: one path, two payloads.
  route(app, r.edit, async (request) => {
    const { packageId } = parseWith(r.edit.params, request.params);
    const { initialize } = parseWith(r.edit.query, request.query);
    const actor = actorOf(request);
    if (initialize === 'true') return ok(await packages.initialize(actor, packageId, request.body));
    return ok(await packages.edit(actor, packageId, request.body));
  });

  // Status change (?status=) and deletion (?delete=true) of a reseller's child customer's or any package.
  for (const [entry, audience] of [
    [r.resellerAction, 'reseller'],
    [r.providerAction, 'provider'],
  ] as const) {
    route(app, entry, async (request) => {
      const path = parseWith(entry.params, request.params);
      const action = parseWith(entry.query, request.query);
      const actor = actorOf(request);
      if (action.kind === 'status') await packages.changeStatus(actor, audience, path, action.status);
      else await packages.remove(actor, audience, path);
      return ok(null);
    });
  }
}
