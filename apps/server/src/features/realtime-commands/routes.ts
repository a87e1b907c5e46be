import { ok, resticCommandSchema } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseWith } from '../../http/errors.js';
import type { RealtimeCommandService } from './service.js';

const id = z.coerce.number().int().positive().max(2_147_483_647);
const pathParams = z.object({ customerId: id, packageId: id, machineId: id });
const commandIdBody = z.object({
  commandId: z
    .union([z.string(), z.number()], { error: 'Command id is required' })
    .transform(String)
    .pipe(z.string().trim().min(1, 'Command id is required').max(100, 'Command id is not valid')),
});

const BASE = '/boltadmin/customers/:customerId/backuppackages/:packageId/backupmachines/:machineId/realtimecommands';

/** Realtime restic commands (001 §7; realtimeCommandsPath and friends in the domain): provider admins only. */
export function registerRealtimeCommandRoutes(app: FastifyInstance, deps: { realtime: RealtimeCommandService }): void {
  const providers = { config: { access: 'providerAdmin' as const } };
  const { realtime } = deps;

  app.put(BASE, providers, async (request) => {
    const path = parseWith(pathParams, request.params);
    const command = parseWith(resticCommandSchema, request.body);
    return ok(await realtime.submit(path, command));
  });

  app.get(BASE, providers, async (request) => {
    const path = parseWith(pathParams, request.params);
    return ok({ elements: await realtime.list(path) });
  });

  app.put(`${BASE}/stop`, providers, async (request) => {
    const path = parseWith(pathParams, request.params);
    const { commandId } = parseWith(commandIdBody, request.body);
    await realtime.stop(path, commandId);
    return ok(null);
  });

  app.put(`${BASE}/delete`, providers, async (request) => {
    const path = parseWith(pathParams, request.params);
    const { commandId } = parseWith(commandIdBody, request.body);
    await realtime.remove(path, commandId);
    return ok(null);
  });
}
