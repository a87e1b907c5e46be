import { ok, ROUTES } from '@portal/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseWith } from '../../http/errors.js';
import { requireSignedIn } from '../../http/request-context.js';
import { route } from '../../http/route.js';
import type { NotificationSettingsService } from './service.js';

/** The notification settings screen's calls (issue 17), the customer super admin's own customer only. */
export function registerNotificationSettingsRoutes(
  app: FastifyInstance,
  deps: { settings: NotificationSettingsService },
): void {
  const { settings } = deps;
  const r = ROUTES.notificationSettings;
  const actorOf = (request: FastifyRequest) => requireSignedIn(request).actor;

  route(app, r.thresholds, async (request) => ok(await settings.thresholds(actorOf(request))));

  route(app, r.saveThresholds, async (request) => {
    const payload = parseWith(r.saveThresholds.body, request.body);
    return ok(await settings.saveThresholds(actorOf(request), payload));
  });

  route(app, r.users, async (request) => {
    const query = parseWith(r.users.query, request.query);
    return ok(await settings.users(actorOf(request), query));
  });

  route(app, r.saveUser, async (request) => {
    const { userId } = parseWith(r.saveUser.params, request.params);
    const payload = parseWith(r.saveUser.body, request.body);
    return ok(await settings.saveUser(actorOf(request), userId, payload));
  });

  route(app, r.machines, async (request) => {
    const query = parseWith(r.machines.query, request.query);
    return ok(await settings.machines(actorOf(request), query));
  });
}
