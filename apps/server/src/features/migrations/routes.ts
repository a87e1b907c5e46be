import { ok, pageOf, ROUTES, storageAccountMigrationSchema } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { route } from '../../http/route.js';
import type { MigrationService } from './service.js';

/** Package migrations and the storage account migration (001 §7; ROUTES.migrations): provider admins only. */
export function registerMigrationRoutes(app: FastifyInstance, deps: { migrations: MigrationService }): void {
  const { migrations } = deps;
  const r = ROUTES.migrations;

  route(app, r.create, async (request) => {
    const path = parseWith(r.create.params, request.params);
    return ok(await migrations.create(path, parseWith(r.create.body, request.body)));
  });

  route(app, r.list, async (request) => {
    const path = parseWith(r.list.params, request.params);
    const rows = await migrations.list(path);
    // 001 §9: fetched once and paged in the browser.
    return ok(pageOf(rows, rows.length, Math.max(rows.length, 1)));
  });

  route(app, r.destinations, async (request) => {
    const path = parseWith(r.destinations.params, request.params);
    return ok({ elements: await migrations.destinations(path) });
  });

  route(app, r.detail, async (request) => ok(await migrations.detail(parseWith(r.detail.params, request.params))));
  route(app, r.cancel, async (request) => ok(await migrations.cancel(parseWith(r.cancel.params, request.params))));
  route(app, r.rollback, async (request) =>
    ok(await migrations.rollback(parseWith(r.rollback.params, request.params))),
  );
  route(app, r.finalize, async (request) =>
    ok(await migrations.finalize(parseWith(r.finalize.params, request.params))),
  );

  route(app, r.submit, async (request) => {
    const path = parseWith(r.submit.params, request.params);
    return ok(await migrations.submit(path, parseWith(r.submit.body, request.body)));
  });

  route(app, r.stop, async (request) => {
    const path = parseWith(r.stop.params, request.params);
    await migrations.stop(path, parseWith(r.stop.body, request.body).commandId);
    return ok(null);
  });

  route(app, r.remove, async (request) => {
    const path = parseWith(r.remove.params, request.params);
    await migrations.remove(path, parseWith(r.remove.body, request.body).commandId);
    return ok(null);
  });

  route(app, r.storageAccount, async (request) => {
    const { storageAccountId } = parseWith(r.storageAccount.params, request.params);
    // The domain schema with the source account, so choosing it gets the form's message.
    const body = parseWith(storageAccountMigrationSchema(storageAccountId), request.body);
    const { migrations: started, messages } = await migrations.migrateAccount(
      storageAccountId,
      body.destinationStorageAccountId,
    );
    return ok({ elements: started }, messages);
  });
}
