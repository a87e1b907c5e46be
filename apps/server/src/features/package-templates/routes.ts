import { ok, ROUTES } from '@portal/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { PackageTemplateService } from './service.js';

/** The template calls of 000 §7 under the provider's and a reseller's base; the service scopes by caller. */
export function registerPackageTemplateRoutes(app: FastifyInstance, deps: { templates: PackageTemplateService }) {
  const { templates } = deps;
  const actorOf = (request: FastifyRequest) => requireSignedIn(request).actor;

  for (const r of [ROUTES.packageTemplates.provider, ROUTES.packageTemplates.reseller]) {
    route(app, r.list, async (request) =>
      ok(await templates.page(actorOf(request), parseWith(r.list.query, request.query))),
    );
    route(app, r.add, async (request) =>
      ok(await templates.add(actorOf(request), parseWith(r.add.body, request.body))),
    );
    route(app, r.edit, async (request) => {
      const { templateId } = parseWith(r.edit.params, request.params);
      return ok(await templates.rename(actorOf(request), templateId, parseWith(r.edit.body, request.body)));
    });
    route(app, r.remove, async (request) => {
      const { templateId } = parseWith(r.remove.params, request.params);
      await templates.remove(actorOf(request), templateId);
      return ok(null);
    });
  }
}
