import { ok, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { route } from '../../http/route.js';
import type { BillingServerService } from './service.js';

/** The provider's billing host servers (001 §2): list, add, edit, delete, test connection. */
export function registerBillingServerRoutes(app: FastifyInstance, deps: { servers: BillingServerService }): void {
  const r = ROUTES.billing;
  const { servers } = deps;

  route(app, r.servers, async () => ok(await servers.list()));

  route(app, r.addServer, async (request) => ok(await servers.add(parseWith(r.addServer.body, request.body))));

  route(app, r.editServer, async (request) => {
    const { whmcsServerId } = parseWith(r.editServer.params, request.params);
    return ok(await servers.edit(whmcsServerId, parseWith(r.editServer.body, request.body)));
  });

  route(app, r.deleteServer, async (request) => {
    const { whmcsServerId } = parseWith(r.deleteServer.params, request.params);
    await servers.remove(whmcsServerId);
    return ok(null);
  });

  route(app, r.testServer, async (request) => {
    const { whmcsServerId } = parseWith(r.testServer.params, request.params);
    return ok(await servers.testSaved(whmcsServerId));
  });

  route(app, r.testForm, async (request) => {
    const { id, ...form } = parseWith(r.testForm.body, request.body);
    return ok(await servers.testForm(form, id ?? null));
  });
}
