import { MESSAGES, ok, seedLoadRequestSchema } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseWith } from '../../http/errors.js';
import type { SeedingService } from './service.js';

const id = z.coerce.number().int().positive().max(2_147_483_647);
const taskPath = z.object({ customerId: id, packageId: id, machineId: id, taskId: id });

/**
 * Seed loading (issue #5; ours, the spec has no call for it): POST {provider task path}/seed with `{ path }`,
 * the folder on the portal server where the shipped seed disk is mounted. Provider admins only; answers at
 * once with the recorded BACKUP_SEED_LOADING action, whose copy goes on in the background.
 */
export function registerSeedingRoutes(app: FastifyInstance, deps: { seeding: SeedingService }): void {
  app.post(
    '/boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId/backuptasks/:taskId/seed',
    { config: { access: 'providerAdmin' } },
    async (request) => {
      const path = parseWith(taskPath, request.params);
      const body = parseWith(seedLoadRequestSchema, request.body);
      const result = await deps.seeding.loadSeed(path, body.path);
      return ok(result, [{ type: 'INFO', fieldName: '', message: MESSAGES.seeding.loadStarted, responseCode: 'OK' }]);
    },
  );
}
