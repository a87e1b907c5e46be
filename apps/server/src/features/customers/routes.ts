import {
  type AdminAudience,
  type BillingServerChangePayload,
  billingServerChangeSchema,
  customerStatusChangeQuerySchema,
  isBillingServerChange,
  ok,
  ROUTES,
} from '@portal/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { clientInfo, requireSession, requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { UserViews } from '../users/service.js';
import { adminView, type CustomerService, type ListName } from './service.js';

const PROVIDER_LISTS: readonly ListName[] = ['customers', 'customersToMakeResellers', 'resellers'];
const ADMIN_AUDIENCES: readonly AdminAudience[] = ['provider', 'reseller'];

/**
 * Customer administration for provider admins (/boltadmin) and reseller admins (/admin/mycustomers), the
 * same calls under both bases (002 §7.3), and the customer's own account page (001 §7 /admin/account).
 */
export function registerCustomerRoutes(
  app: FastifyInstance,
  deps: {
    customers: CustomerService;
    userViews: UserViews;
    /** The provider's billing server change on the status change's path (002 §7.3), billing's to carry out. */
    changeBillingServer?: (customerId: number, change: BillingServerChangePayload) => Promise<void>;
  },
): void {
  const { customers, userViews } = deps;
  const actorOf = (request: FastifyRequest) => requireSignedIn(request).actor;

  for (const list of PROVIDER_LISTS) {
    const entry = ROUTES.customers.lists[list];
    route(app, entry, async (request) => {
      const query = parseWith(entry.query, request.query);
      return ok(await customers.list(adminView(actorOf(request), 'provider'), list, query));
    });
  }

  const myCustomers = ROUTES.customers.lists.myCustomers;
  route(app, myCustomers, async (request) => {
    const query = parseWith(myCustomers.query, request.query);
    return ok(await customers.myCustomers(adminView(actorOf(request), 'reseller'), query));
  });

  for (const audience of ADMIN_AUDIENCES) {
    const r = ROUTES.customers[audience];
    const viewOf = (request: FastifyRequest) => adminView(actorOf(request), audience);

    route(app, r.detail, async (request) => {
      const { customerId } = parseWith(r.detail.params, request.params);
      return ok(await customers.detail(viewOf(request), customerId));
    });

    // ?status={newStatus} (002 §7.3); the provider's ?whmcsServerId=&paymentMethod= on the same path goes to billing.
    route(app, r.changeStatus, async (request) => {
      const { customerId } = parseWith(r.changeStatus.params, request.params);
      const view = viewOf(request);
      const query = request.query as object;
      if (audience === 'provider' && deps.changeBillingServer && isBillingServerChange(query)) {
        const change = parseWith(billingServerChangeSchema(null), query);
        await customers.detail(view, customerId);
        await deps.changeBillingServer(customerId, change);
        return ok(await customers.detail(view, customerId));
      }
      const { status } = parseWith(customerStatusChangeQuerySchema, query);
      return ok(await customers.changeStatus(view, customerId, status));
    });

    route(app, r.remove, async (request) => {
      const { customerId } = parseWith(r.remove.params, request.params);
      await customers.remove(viewOf(request), customerId);
      return ok(null);
    });

    route(app, r.packages, async (request) => {
      const { customerId } = parseWith(r.packages.params, request.params);
      const paging = parseWith(r.packages.query, request.query);
      return ok(await customers.packages(viewOf(request), customerId, paging));
    });

    // A customer's users, looked at (never changed) by those who manage the customer (002 §2.4, §7.1).
    route(app, r.users, async (request) => {
      const { customerId } = parseWith(r.users.params, request.params);
      const paging = parseWith(r.users.query, request.query);
      const viewer = await customers.userViewer(viewOf(request), customerId);
      return ok(await userViews.page(viewer, customerId, paging));
    });

    route(app, r.user, async (request) => {
      const { customerId, userId } = parseWith(r.user.params, request.params);
      const viewer = await customers.userViewer(viewOf(request), customerId);
      return ok(await userViews.detail(viewer, customerId, userId));
    });

    route(app, r.userPackages, async (request) => {
      const { customerId, userId } = parseWith(r.userPackages.params, request.params);
      const paging = parseWith(r.userPackages.query, request.query);
      const viewer = await customers.userViewer(viewOf(request), customerId);
      return ok(await userViews.packages(viewer, customerId, userId, paging));
    });

    route(app, r.userMachines, async (request) => {
      const { customerId, userId } = parseWith(r.userMachines.params, request.params);
      const paging = parseWith(r.userMachines.query, request.query);
      const viewer = await customers.userViewer(viewOf(request), customerId);
      return ok(await userViews.machines(viewer, customerId, userId, paging));
    });
  }

  const { plugins, makeReseller } = ROUTES.customers;

  route(app, plugins, async (request) => {
    const { customerId } = parseWith(plugins.params, request.params);
    const view = adminView(actorOf(request), 'provider');
    const { cpanelPluginEnabled } = parseWith(plugins.body, request.body);
    return ok(await customers.setPlugins(view, customerId, cpanelPluginEnabled));
  });

  route(app, makeReseller, async (request) => {
    const { customerId } = parseWith(makeReseller.params, request.params);
    return ok(await customers.makeReseller(adminView(actorOf(request), 'provider'), customerId));
  });

  const account = ROUTES.account;

  route(app, account.get, async (request) => ok(await customers.account(actorOf(request))));

  route(app, account.edit, async (request) => {
    const payload = parseWith(account.edit.body, request.body);
    return ok(await customers.editAccount(actorOf(request), payload));
  });

  route(app, account.mfaPolicy, async (request) => {
    const { requireMfa } = parseWith(account.mfaPolicy.body, request.body);
    return ok(await customers.setMfaPolicy(requireSession(request), clientInfo(request), requireMfa));
  });
}
