import { ok, ROUTES } from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { route } from '../../http/route.js';
import type { StorageAccountService } from './service.js';

/**
 * The provider's storage accounts (001 §2, §7): list, set default, the account page's calls (detail, buckets
 * with policy info, users, keys), deleting a user or a policy principal; ours: add, edit, test connection.
 * Every route is for provider admins only (the route table's access level).
 */
export function registerStorageAccountRoutes(app: FastifyInstance, deps: { accounts: StorageAccountService }): void {
  const r = ROUTES.storageAccounts;
  const { accounts } = deps;

  route(app, r.list, async (request) => ok(await accounts.page(parseWith(r.list.query, request.query))));

  route(app, r.setDefault, async (request) => {
    const { storageAccountId } = parseWith(r.setDefault.query, request.query);
    return ok(await accounts.setDefault(storageAccountId));
  });

  route(app, r.add, async (request) => ok(await accounts.add(parseWith(r.add.body, request.body))));

  route(app, r.testConnection, async (request) => {
    const { id, ...form } = parseWith(r.testConnection.body, request.body);
    await accounts.testConnection(form, id ?? null);
    return ok(null);
  });

  route(app, r.detail, async (request) => {
    const { storageAccountId } = parseWith(r.detail.params, request.params);
    return ok(await accounts.detail(storageAccountId));
  });

  route(app, r.edit, async (request) => {
    const { storageAccountId } = parseWith(r.edit.params, request.params);
    return ok(await accounts.edit(storageAccountId, parseWith(r.edit.body, request.body)));
  });

  route(app, r.remove, async (request) => {
    const { storageAccountId } = parseWith(r.remove.params, request.params);
    await accounts.remove(storageAccountId);
    return ok(null);
  });

  route(app, r.buckets, async (request) => {
    const { storageAccountId } = parseWith(r.buckets.params, request.params);
    return ok(await accounts.bucketsWithPolicyInfo(storageAccountId));
  });

  route(app, r.users, async (request) => {
    const { storageAccountId } = parseWith(r.users.params, request.params);
    return ok(await accounts.users(storageAccountId));
  });

  route(app, r.accessKeys, async (request) => {
    const { storageAccountId } = parseWith(r.accessKeys.params, request.params);
    return ok(await accounts.accessKeys(storageAccountId));
  });

  route(app, r.deleteUser, async (request) => {
    const { storageAccountId } = parseWith(r.deleteUser.params, request.params);
    const { username } = parseWith(r.deleteUser.body, request.body);
    await accounts.deleteUser(storageAccountId, username);
    return ok(null);
  });

  route(app, r.deletePrincipal, async (request) => {
    const { storageAccountId } = parseWith(r.deletePrincipal.params, request.params);
    const { bucketName, principalName } = parseWith(r.deletePrincipal.body, request.body);
    await accounts.deletePrincipal(storageAccountId, bucketName, principalName);
    return ok(null);
  });
}
