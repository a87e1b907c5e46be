import { ok, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { BillingService } from './service.js';

/** GET /billing/info?goToUrl= (002 §7.2): where the browser goes for billing, support and payments. */
export function registerBillingRoutes(app: FastifyInstance, deps: { billing: BillingService }): void {
  const r = ROUTES.billing;
  route(app, r.info, async (request) => {
    const { goToUrl } = parseWith(r.info.query, request.query);
    return ok(await deps.billing.info(requireSignedIn(request).actor, goToUrl));
  });
}
