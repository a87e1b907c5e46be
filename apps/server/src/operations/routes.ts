import {
  bearerToken,
  errorMessage,
  failure,
  type HealthResult,
  MESSAGES,
  ok,
  type ReadyResult,
  ROUTES,
} from '@portal/domain';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Database } from '../db/client.js';
import { createDatabaseProbe, createMigrationsProbe } from '../db/probe.js';
import { sameToken } from '../features/auth/tokens.js';
import { notFound, unauthenticated } from '../http/errors.js';
import { route } from '../http/route.js';
import type { Metrics } from './metrics.js';

/**
 * What an operations team plugs in (issue 34): /health (is the process alive and its database reachable), /ready
 * (should this instance get traffic) and /metrics (Prometheus, for METRICS_TOKEN only), and every HTTP answer's
 * time in the metrics.
 */
export function registerOperationsRoutes(
  app: FastifyInstance,
  deps: {
    database: Database;
    redis: Redis | undefined;
    metrics: Metrics;
    /** METRICS_TOKEN: absent, /metrics answers 404. */
    metricsToken: string | undefined;
    connectTimeoutMs: number;
    version: string;
    commitId: string;
  },
): void {
  const { database, metrics } = deps;
  const databaseProbe = createDatabaseProbe(database.db, deps.connectTimeoutMs);
  const migrationsProbe = createMigrationsProbe(database.db);
  // Redis' own state, no round trip: while it is down every instance still serves its own connections.
  const redisState = () => (!deps.redis ? 'not configured' : deps.redis.status === 'ready' ? 'up' : 'down');

  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern, never the path asked for (ids, and whatever a scanner tries, stay out of the labels).
    const pattern = request.routeOptions.url ?? 'unmatched';
    metrics.httpAnswered(request.method, pattern, reply.statusCode, reply.elapsedTime / 1000);
  });

  route(app, ROUTES.health.check, async (_request, reply) => {
    const databaseUp = await databaseProbe();
    const redis = redisState();
    const health: HealthResult = {
      status: !databaseUp ? 'down' : redis === 'down' ? 'degraded' : 'ok',
      database: databaseUp ? 'up' : 'down',
      databaseKind: database.kind,
      redis,
      version: deps.version,
      commitId: deps.commitId,
    };
    if (databaseUp) return ok(health);
    reply.code(503);
    return { ...failure('SERVICE_UNAVAILABLE', [errorMessage(MESSAGES.databaseDown, 'database')]), result: health };
  });

  route(app, ROUTES.health.ready, async (_request, reply) => {
    const databaseUp = await databaseProbe();
    const migrations = databaseUp ? await migrationsProbe().catch(() => null) : null;
    const redis = redisState();
    const result: ReadyResult = {
      ready: databaseUp && redis !== 'down' && migrations === true,
      database: databaseUp ? 'up' : 'down',
      redis,
      migrations: migrations === null ? 'unknown' : migrations ? 'done' : 'pending',
    };
    if (result.ready) return ok(result);
    reply.code(503);
    return { ...failure('SERVICE_UNAVAILABLE', [errorMessage(MESSAGES.notReady)]), result };
  });

  route(app, ROUTES.health.metrics, async (request, reply) => {
    if (!deps.metricsToken) throw notFound();
    const presented = bearerToken(request.headers.authorization) ?? undefined;
    if (!sameToken(presented, deps.metricsToken)) {
      reply.header('WWW-Authenticate', 'Bearer realm="metrics"');
      throw unauthenticated();
    }
    const text = await metrics.registry.metrics();
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(text);
  });
}
