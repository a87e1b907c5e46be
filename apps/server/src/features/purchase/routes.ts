import { ok, ROUTES } from '@portal/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { PurchaseService } from './service.js';

/** Buying backup (000 §6, §7; 001 §2): templates on offer, purchase and up/downgrade of the caller's customer. */
export function registerPurchaseRoutes(app: FastifyInstance, deps: { purchases: PurchaseService }): void {
  const { purchases } = deps;
  const r = ROUTES.purchase;
  const actorOf = (request: FastifyRequest) => requireSignedIn(request).actor;

  route(app, r.templates, async (request) => ok(await purchases.templates(actorOf(request))));

  route(app, r.purchase, async (request) => {
    const payload = parseWith(r.purchase.body, request.body);
    return ok(await purchases.purchase(actorOf(request), payload));
  });

  route(app, r.upgrade, async (request) => {
    const { packageId } = parseWith(r.upgrade.params, request.params);
    const payload = parseWith(r.upgrade.body, request.body);
    return ok(await purchases.upgrade(actorOf(request), packageId, payload));
  });
}
