import { ok, pageOf, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import {
  presentAttention,
  presentCustomerCounts,
  presentCustomerRow,
  presentMachineCounts,
  presentMachineRow,
  presentTaskCounts,
  presentTaskRow,
} from './present.js';
import type { DashboardService } from './service.js';

/** The dashboard's calls (ROUTES.dashboard in the domain); each answer is scoped by the service. */
export function registerDashboardRoutes(app: FastifyInstance, deps: { dashboard: DashboardService }): void {
  const { dashboard } = deps;
  const r = ROUTES.dashboard;
  const actorOf = (request: Parameters<typeof requireSignedIn>[0]) => requireSignedIn(request).actor;

  route(app, r.customers, async (request) => {
    const query = parseWith(r.customers.query, request.query);
    const { rows, total, audience } = await dashboard.customers(actorOf(request), query);
    return ok(
      pageOf(
        rows.map((row) => presentCustomerRow(row, audience)),
        total,
        query.size,
      ),
    );
  });

  route(app, r.customerCounts, async (request) =>
    ok(presentCustomerCounts(await dashboard.customerCounts(actorOf(request)))),
  );

  route(app, r.customerMachines, async (request) => {
    const { customerId } = parseWith(r.customerMachines.params, request.params);
    const query = parseWith(r.customerMachines.query, request.query);
    const { rows, total, audience } = await dashboard.customerMachines(actorOf(request), customerId, query);
    return ok(
      pageOf(
        rows.map((row) => presentMachineRow(row, audience)),
        total,
        query.size,
      ),
    );
  });

  route(app, r.customerMachineCounts, async (request) => {
    const { customerId } = parseWith(r.customerMachineCounts.params, request.params);
    return ok(presentMachineCounts(await dashboard.customerMachineCounts(actorOf(request), customerId)));
  });

  route(app, r.ownMachines, async (request) => {
    const query = parseWith(r.ownMachines.query, request.query);
    const { rows, total, audience } = await dashboard.ownMachines(actorOf(request), query);
    return ok(
      pageOf(
        rows.map((row) => presentMachineRow(row, audience)),
        total,
        query.size,
      ),
    );
  });

  route(app, r.ownMachineCounts, async (request) =>
    ok(presentMachineCounts(await dashboard.ownMachineCounts(actorOf(request)))),
  );

  route(app, r.machineTasks, async (request) => {
    const { machineId } = parseWith(r.machineTasks.params, request.params);
    const query = parseWith(r.machineTasks.query, request.query);
    const { rows, total, machine, audience } = await dashboard.machineTasks(actorOf(request), machineId, query);
    return ok(
      pageOf(
        rows.map((row) => presentTaskRow(row, machine, audience)),
        total,
        query.size,
      ),
    );
  });

  route(app, r.machineTaskCounts, async (request) => {
    const { machineId } = parseWith(r.machineTaskCounts.params, request.params);
    return ok(presentTaskCounts(await dashboard.machineTaskCounts(actorOf(request), machineId)));
  });

  route(app, r.attention, async (request) => {
    const actor = actorOf(request);
    return ok(presentAttention(await dashboard.attention(actor), actor));
  });

  route(app, r.gettingStarted, async (request) => ok(await dashboard.gettingStarted(actorOf(request))));
}
