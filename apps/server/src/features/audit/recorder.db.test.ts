import { ROUTES } from '@portal/domain';
import { eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { auditEvents, backupMachines } from '../../db/schema/index.js';
import { backupFixtures } from '../../testing/backup-fixtures.js';
import { openTestDatabase } from '../../testing/database.js';
import { createTenants, type Tenants } from '../../testing/fixtures.js';
import type { SignedIn } from '../auth/service.js';
import { registerAuditRecorder } from './recorder.js';
import { createAuditRepo } from './repo.js';
import { createTenantLookup } from './tenants.js';

let database: Database;
let tenants: Tenants;
let app: FastifyInstance;

/**
 * The recorder on its own, before a handler that removes the call's subject at once (as a deletion job woken by
 * the call may do before the record is written): the record still names the subject's tenant and its reseller.
 */
beforeAll(async () => {
  database = await openTestDatabase();
  tenants = await createTenants(database.db);
  app = Fastify();
  app.decorateRequest('signedIn', null);
  // The request context's part: a signed-in provider admin, who belongs to no customer.
  app.addHook('onRequest', async (request) => {
    request.signedIn = {
      user: {
        id: tenants.providerAdmin.id,
        email: tenants.providerAdmin.email,
        firstName: 'Provider',
        surname: 'Tester',
        customerId: null,
        parentResellerCustomerId: null,
      },
    } as SignedIn;
  });
  registerAuditRecorder(app, { audit: createAuditRepo(database.db), tenants: createTenantLookup(database.db) });
  const action = ROUTES.machines.action;
  app.route({
    method: action.method,
    url: action.path,
    handler: async (request) => {
      const { machineId } = request.params as { machineId: string };
      await database.db.delete(backupMachines).where(eq(backupMachines.id, Number(machineId)));
      return { done: true };
    },
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
});

it("records the tenant of a subject its handler removed: the machine's customer and that customer's reseller", async () => {
  const fixtures = backupFixtures(database.db);
  const packageOfA = await fixtures.package(tenants.customerA.customerId);
  const machine = await fixtures.machine(packageOfA);
  const response = await app.inject({
    method: 'PUT',
    url: ROUTES.machines.action.build({ packageId: packageOfA, machineId: machine }),
  });
  expect(response.statusCode).toBe(200);
  await app.auditSettled();
  const gone = await database.db.select().from(backupMachines).where(eq(backupMachines.id, machine));
  expect(gone).toEqual([]);
  const [row] = await database.db.select().from(auditEvents).where(eq(auditEvents.type, 'machines.action'));
  expect(row).toMatchObject({
    customerId: tenants.customerA.customerId,
    accountCustomerId: tenants.reseller.customerId,
    actorCustomerId: null,
    subjectType: 'machine',
    subjectId: machine,
    outcome: 'succeeded',
  });
});
