import { customerListQuerySchema, machineListQuerySchema, ok, pageOf, taskListQuerySchema } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import {
  presentCustomerCounts,
  presentCustomerRow,
  presentMachineCounts,
  presentMachineRow,
  presentTaskCounts,
  presentTaskRow,
} from './present.js';
import type { DashboardService } from './service.js';

/** A customer id in the path: a positive id, or -1 for every customer (Select All, provider only). */
const customerIdParams = z.object({
  customerId: z.coerce
    .number()
    .int()
    .refine((id) => id === -1 || id > 0, 'Customer id must be a positive whole number or -1'),
});
const machineIdParams = z.object({ machineId: z.coerce.number().int().positive().max(2_147_483_647) });

/** The dashboard's calls (DASHBOARD_PATHS in the domain); each answer is scoped by the service. */
export function registerDashboardRoutes(app: FastifyInstance, deps: { dashboard: DashboardService }): void {
  const signedIn = { config: { access: 'signedIn' as const } };
  const managers = { config: { access: 'customerManager' as const } };
  const members = { config: { access: 'customerMember' as const } };
  const { dashboard } = deps;
  const actorOf = (request: Parameters<typeof requireSignedIn>[0]) => requireSignedIn(request).actor;

  app.get('/dashboard/customers', managers, async (request) => {
    const query = parseWith(customerListQuerySchema, request.query);
    const { rows, total, audience } = await dashboard.customers(actorOf(request), query);
    return ok(
      pageOf(
        rows.map((row) => presentCustomerRow(row, audience)),
        total,
        query.size,
      ),
    );
  });

  app.get('/dashboard/customers/counts', managers, async (request) =>
    ok(presentCustomerCounts(await dashboard.customerCounts(actorOf(request)))),
  );

  app.get('/dashboard/customers/:customerId/machines', signedIn, async (request) => {
    const { customerId } = parseWith(customerIdParams, request.params);
    const query = parseWith(machineListQuerySchema, request.query);
    const { rows, total, audience } = await dashboard.customerMachines(actorOf(request), customerId, query);
    return ok(
      pageOf(
        rows.map((row) => presentMachineRow(row, audience)),
        total,
        query.size,
      ),
    );
  });

  app.get('/dashboard/customers/:customerId/machines/counts', signedIn, async (request) => {
    const { customerId } = parseWith(customerIdParams, request.params);
    return ok(presentMachineCounts(await dashboard.customerMachineCounts(actorOf(request), customerId)));
  });

  app.get('/dashboard/machines', members, async (request) => {
    const query = parseWith(machineListQuerySchema, request.query);
    const { rows, total, audience } = await dashboard.ownMachines(actorOf(request), query);
    return ok(
      pageOf(
        rows.map((row) => presentMachineRow(row, audience)),
        total,
        query.size,
      ),
    );
  });

  app.get('/dashboard/machines/counts', members, async (request) =>
    ok(presentMachineCounts(await dashboard.ownMachineCounts(actorOf(request)))),
  );

  app.get('/dashboard/backupmachines/:machineId/tasks', signedIn, async (request) => {
    const { machineId } = parseWith(machineIdParams, request.params);
    const query = parseWith(taskListQuerySchema, request.query);
    const { rows, total, machine, audience } = await dashboard.machineTasks(actorOf(request), machineId, query);
    return ok(
      pageOf(
        rows.map((row) => presentTaskRow(row, machine, audience)),
        total,
        query.size,
      ),
    );
  });

  app.get('/dashboard/backupmachines/:machineId/tasks/counts', signedIn, async (request) => {
    const { machineId } = parseWith(machineIdParams, request.params);
    return ok(presentTaskCounts(await dashboard.machineTaskCounts(actorOf(request), machineId)));
  });

  app.get('/dashboard/gettingstarted', members, async (request) =>
    ok(await dashboard.gettingStarted(actorOf(request))),
  );
}
