import { MESSAGES, ok, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { route } from '../../http/route.js';
import type { SeedingService } from './service.js';

/**
 * Seed loading (issue #5; ours, the spec has no call for it): POST {provider task path}/seed with `{ path }`,
 * the folder on the portal server where the shipped seed disk is mounted. Provider admins only; answers at
 * once with the recorded BACKUP_SEED_LOADING action, whose copy goes on in the background.
 */
export function registerSeedingRoutes(app: FastifyInstance, deps: { seeding: SeedingService }): void {
  const load = ROUTES.seeding.load;
  route(app, load, async (request) => {
    const path = parseWith(load.params, request.params);
    const body = parseWith(load.body, request.body);
    const result = await deps.seeding.loadSeed(path, body.path);
    return ok(result, [{ type: 'INFO', fieldName: '', message: MESSAGES.seeding.loadStarted, responseCode: 'OK' }]);
  });
}
