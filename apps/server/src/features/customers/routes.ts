import {
  type AccessLevel,
  type AdminAudience,
  customerAccountEditSchema,
  customerPluginSettingsSchema,
  customerSearchQuerySchema,
  customerStatusChangeQuerySchema,
  ok,
  pagingQuerySchema,
} from '@portal/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import type { UserViews } from '../users/service.js';
import { adminView, type CustomerService, type ListName } from './service.js';

const id = z.coerce.number().int().positive().max(2_147_483_647);
const customerParams = z.object({ customerId: id });
const userParams = z.object({ customerId: id, userId: id });

/** Where each audience manages customers (002 §2.3, §7.3): its base path and the level that admits it. */
const AUDIENCES: Record<AdminAudience, { base: string; access: AccessLevel }> = {
  provider: { base: '/boltadmin/customers', access: 'providerAdmin' },
  reseller: { base: '/admin/mycustomers', access: 'resellerAdmin' },
};

const PROVIDER_LISTS: Record<string, ListName> = {
  '/boltadmin/customerspaginated': 'customers',
  '/boltadmin/customerstomakeresellerspaginated': 'customersToMakeResellers',
  '/boltadmin/resellerspaginated': 'resellers',
};

/**
 * Customer administration for provider admins (/boltadmin) and reseller admins (/admin/mycustomers), the
 * same calls under both bases (002 §7.3), and the customer's own account page (001 §7 /admin/account).
 */
export function registerCustomerRoutes(
  app: FastifyInstance,
  deps: { customers: CustomerService; userViews: UserViews },
): void {
  const { customers, userViews } = deps;
  const actorOf = (request: FastifyRequest) => requireSignedIn(request).actor;

  for (const [path, list] of Object.entries(PROVIDER_LISTS)) {
    app.get(path, { config: { access: 'providerAdmin' } }, async (request) => {
      const query = parseWith(customerSearchQuerySchema, request.query);
      return ok(await customers.list(adminView(actorOf(request), 'provider'), list, query));
    });
  }

  app.get('/admin/mycustomerspaginated', { config: { access: 'resellerAdmin' } }, async (request) => {
    const query = parseWith(customerSearchQuerySchema, request.query);
    return ok(await customers.myCustomers(adminView(actorOf(request), 'reseller'), query));
  });

  for (const [audience, { base, access }] of Object.entries(AUDIENCES) as [
    AdminAudience,
    (typeof AUDIENCES)[AdminAudience],
  ][]) {
    const options = { config: { access } };
    const viewOf = (request: FastifyRequest) => adminView(actorOf(request), audience);

    app.get(`${base}/:customerId`, options, async (request) => {
      const { customerId } = parseWith(customerParams, request.params);
      return ok(await customers.detail(viewOf(request), customerId));
    });

    // ?status={newStatus} (002 §7.3); the billing server change on this path belongs to the billing issue.
    app.put(`${base}/:customerId`, options, async (request) => {
      const { customerId } = parseWith(customerParams, request.params);
      const view = viewOf(request);
      const { status } = parseWith(customerStatusChangeQuerySchema, request.query);
      return ok(await customers.changeStatus(view, customerId, status));
    });

    app.delete(`${base}/:customerId`, options, async (request) => {
      const { customerId } = parseWith(customerParams, request.params);
      await customers.remove(viewOf(request), customerId);
      return ok(null);
    });

    app.get(`${base}/:customerId/backuppackages`, options, async (request) => {
      const { customerId } = parseWith(customerParams, request.params);
      const paging = parseWith(pagingQuerySchema, request.query);
      return ok(await customers.packages(viewOf(request), customerId, paging));
    });

    // A customer's users, looked at (never changed) by those who manage the customer (002 §2.4, §7.1).
    app.get(`${base}/:customerId/users`, options, async (request) => {
      const { customerId } = parseWith(customerParams, request.params);
      const paging = parseWith(pagingQuerySchema, request.query);
      const viewer = await customers.userViewer(viewOf(request), customerId);
      return ok(await userViews.page(viewer, customerId, paging));
    });

    app.get(`${base}/:customerId/users/:userId`, options, async (request) => {
      const { customerId, userId } = parseWith(userParams, request.params);
      const viewer = await customers.userViewer(viewOf(request), customerId);
      return ok(await userViews.detail(viewer, customerId, userId));
    });

    app.get(`${base}/:customerId/users/:userId/backuppackages`, options, async (request) => {
      const { customerId, userId } = parseWith(userParams, request.params);
      const paging = parseWith(pagingQuerySchema, request.query);
      const viewer = await customers.userViewer(viewOf(request), customerId);
      return ok(await userViews.packages(viewer, customerId, userId, paging));
    });

    app.get(`${base}/:customerId/users/:userId/backupmachines`, options, async (request) => {
      const { customerId, userId } = parseWith(userParams, request.params);
      const paging = parseWith(pagingQuerySchema, request.query);
      const viewer = await customers.userViewer(viewOf(request), customerId);
      return ok(await userViews.machines(viewer, customerId, userId, paging));
    });
  }

  const providers = { config: { access: 'providerAdmin' as const } };

  app.put('/boltadmin/customers/:customerId/plugins', providers, async (request) => {
    const { customerId } = parseWith(customerParams, request.params);
    const view = adminView(actorOf(request), 'provider');
    const { cpanelPluginEnabled } = parseWith(customerPluginSettingsSchema, request.body);
    return ok(await customers.setPlugins(view, customerId, cpanelPluginEnabled));
  });

  app.put('/boltadmin/customers/:customerId/makereseller', providers, async (request) => {
    const { customerId } = parseWith(customerParams, request.params);
    return ok(await customers.makeReseller(adminView(actorOf(request), 'provider'), customerId));
  });

  const accountAdmins = { config: { access: 'customerAdmin' as const } };

  app.get('/admin/account', accountAdmins, async (request) => ok(await customers.account(actorOf(request))));

  app.put('/admin/account', accountAdmins, async (request) => {
    const payload = parseWith(customerAccountEditSchema, request.body);
    return ok(await customers.editAccount(actorOf(request), payload));
  });
}
