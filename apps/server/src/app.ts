import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import { type AccessLevel, errorMessage, failure, MESSAGES, ok } from '@portal/domain';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { createAuditRepo } from './features/audit/repo.js';
import { createAuthRepo } from './features/auth/repo.js';
import { registerAuthRoutes } from './features/auth/routes.js';
import { createAuthService } from './features/auth/service.js';
import { createDashboardRepo } from './features/dashboard/repo.js';
import { registerDashboardRoutes } from './features/dashboard/routes.js';
import { createDashboardService } from './features/dashboard/service.js';
import { registerDemoMailRoutes } from './features/demo/routes.js';
import { createProfileRepo } from './features/profile/repo.js';
import { registerProfileRoutes } from './features/profile/routes.js';
import { createShellRepo } from './features/shell/repo.js';
import { AppError } from './http/errors.js';
import { registerRequestContext } from './http/request-context.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { startHousekeeping } from './jobs/housekeeping.js';
import type { Mailer } from './mail/mailer.js';
import type { MailSink } from './mail/sink.js';
import { registerSpa } from './web/spa.js';

export interface RouteEntry {
  method: string;
  url: string;
  access: AccessLevel | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeCatalogue: readonly RouteEntry[];
  }
}

export interface AppDeps {
  config: Config;
  database: Database;
  mailer: Mailer;
  mailSink?: MailSink | undefined;
  redis?: Redis | undefined;
  /** The process's pino logger; tests leave it out and log nothing. */
  logger?: FastifyBaseLogger | undefined;
  now?: () => Date;
}

/** The composition root: repositories, services and routes are wired here and nowhere else. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    genReqId: () => randomUUID(),
    trustProxy: Boolean(config.publicUrl),
    bodyLimit: 1024 * 1024,
  });

  // Every route with its declared audience, for the route-matrix test and the startup check.
  const catalogue: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      catalogue.push({ method, url: route.url, access: route.config?.access });
    }
  });
  app.decorate('routeCatalogue', catalogue);

  const cookies = { secure: config.secureCookies };
  const db = database.db;
  const audit = createAuditRepo(db);
  const authRepo = createAuthRepo(db);
  const auth = createAuthService({
    auth: authRepo,
    audit,
    policy: { idleMinutes: config.sessionIdleMinutes, maxHours: config.sessionMaxHours },
    ...(deps.now ? { now: deps.now } : {}),
  });
  const profiles = createProfileRepo(db);
  const shell = createShellRepo(db);

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: 16 * 1024 });
  registerSecurityHeaders(app, { https: config.secureCookies });
  registerRequestContext(app, { auth, cookies });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(error.httpStatus).send(failure(error.summaryCode, error.messages));
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, wrong content type).
      return reply.code(status).send(failure('BAD_REQUEST', [errorMessage((error as Error).message)]));
    }
    request.log.error({ err: error, reqId: request.id }, 'unexpected error');
    return reply
      .code(500)
      .send(failure('INTERNAL_ERROR', [errorMessage(`${MESSAGES.internalError} (reference ${request.id})`)]));
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).send(failure('NOT_FOUND', [errorMessage('Not found', '', 'NOT_FOUND')])),
  );

  app.get('/health', { config: { access: 'public' } }, async () => {
    await db.execute(sql`select 1`);
    const redis = deps.redis ? await deps.redis.ping() : 'not configured';
    return ok({ database: database.kind, redis, version: config.version, commitId: config.commitId });
  });

  let stopHousekeeping: (() => void) | undefined;
  app.addHook('onReady', async () => {
    stopHousekeeping = startHousekeeping({ auth: authRepo, idleMinutes: config.sessionIdleMinutes, logger: app.log });
  });
  app.addHook('onClose', async () => stopHousekeeping?.());

  registerAuthRoutes(app, {
    auth,
    mailer: deps.mailer,
    cookies,
    publicUrl: config.publicUrl ?? `http://localhost:${config.port}`,
  });
  registerProfileRoutes(app, { auth, authRepo, profiles, audit });
  registerDashboardRoutes(app, { dashboard: createDashboardService(createDashboardRepo(db)) });
  if (config.demo && deps.mailSink) registerDemoMailRoutes(app, deps.mailSink);

  await registerSpa(app, {
    distDir: config.webDistDir,
    version: config.version,
    commitId: config.commitId,
    demo: config.demo,
    shell,
  });

  return app;
}
