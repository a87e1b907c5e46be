import { ok, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { route } from '../../http/route.js';
import type { MachineStorageKeys } from './machine-keys.js';
import type { StorageLocationService } from './service.js';

/** A customer's storage locations (001 §7) and a machine's storage key rotation: provider admins only. */
export function registerStorageLocationRoutes(
  app: FastifyInstance,
  deps: { locations: StorageLocationService; machineKeys: MachineStorageKeys },
): void {
  const r = ROUTES.storageLocations;
  const { locations, machineKeys } = deps;

  route(app, r.list, async (request) => {
    const { customerId } = parseWith(r.list.params, request.params);
    return ok(await locations.list(customerId));
  });

  route(app, r.accountChoices, async (request) => {
    const { customerId } = parseWith(r.accountChoices.params, request.params);
    return ok(await locations.accountChoices(customerId));
  });

  route(app, r.detail, async (request) => {
    const { customerId, storageLocationId } = parseWith(r.detail.params, request.params);
    return ok(await locations.detail(customerId, storageLocationId));
  });

  route(app, r.create, async (request) => {
    const { customerId } = parseWith(r.create.params, request.params);
    const { storageAccountId } = parseWith(r.create.body, request.body);
    return ok(await locations.create(customerId, storageAccountId));
  });

  route(app, r.remove, async (request) => {
    const { customerId, storageLocationId } = parseWith(r.remove.params, request.params);
    return ok(null, await locations.remove(customerId, storageLocationId));
  });

  route(app, r.makeDefault, async (request) => {
    const { customerId, storageLocationId } = parseWith(r.makeDefault.params, request.params);
    return ok(await locations.makeDefault(customerId, storageLocationId));
  });

  route(app, r.rotateMachineKey, async (request) => {
    const { customerId, packageId, machineId } = parseWith(r.rotateMachineKey.params, request.params);
    await machineKeys.rotateFor({ customerId, packageId, machineId });
    return ok(null);
  });
}
