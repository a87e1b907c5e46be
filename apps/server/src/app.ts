import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import { type AccessLevel, errorMessage, failure, MESSAGES } from '@portal/domain';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { createAccounts, wireAccounts } from './areas/accounts.js';
import { wireCommerce } from './areas/commerce.js';
import type { AreaContext } from './areas/context.js';
import { type LiveOverrides, wireMachines } from './areas/machines.js';
import { wireMail } from './areas/mail.js';
import { wireStorage } from './areas/storage.js';
import type { Config } from './config.js';
import { type Database, isDatabaseUnavailable } from './db/client.js';
import { registerAuditRecorder } from './features/audit/recorder.js';
import { createTenantLookup } from './features/audit/tenants.js';
import type { LiveChannel } from './features/live/channel.js';
import type { MigrationService } from './features/migrations/service.js';
import { createAfterAnswer } from './http/after-answer.js';
import { answerClientError } from './http/client-error.js';
import { registerCompression } from './http/compression.js';
import { AppError, isClientAbort } from './http/errors.js';
import { registerRequestContext } from './http/request-context.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerWellFormedText } from './http/well-formed-text.js';
import { housekeepingJob } from './jobs/housekeeping.js';
import { createJobRunner } from './jobs/runner.js';
import type { Mailer } from './mail/mailer.js';
import type { MailSink } from './mail/sink.js';
import { createOutboundGuard } from './net/outbound-guard.js';
import { createMetrics } from './operations/metrics.js';
import { registerOperationsRoutes } from './operations/routes.js';
import { createSecretBox, demoMasterKey } from './secrets.js';
import { registerSpa } from './web/spa.js';

export interface RouteEntry {
  method: string;
  url: string;
  access: AccessLevel | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeCatalogue: readonly RouteEntry[];
    /** The live channel: sendToMachine, publishToMachineQueue, disconnectMachine, ... */
    live: LiveChannel;
    /** The mail delivery job: a pass of it now (tests; the job runs on its own otherwise). */
    mailDelivery: { runOnce(): Promise<number> };
    /** Package migrations (issue 16), for tests that wait for a sequence or run the job's steps. */
    migrations: MigrationService;
    /** The audit retention job (issue 18): a pass of it now (tests). */
    auditPrune: { runOnce(): Promise<number> };
    /** Stalled-run detection (issue 29): a pass of it now (tests; the job runs every minute otherwise). */
    runStalls: { runOnce(): Promise<number> };
    /** Rotating data checks (issue 32): a pass of the job now (tests; it runs every five minutes otherwise). */
    dataChecks: { runOnce(): Promise<number> };
    /** The overdue sweep of 'Last verified' (issue 32 item 3): a pass now (tests; it runs every minute otherwise). */
    verification: { runOnce(): Promise<number> };
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
  /** Live channel settings (tests use short heart-beats), handlers and bus; defaults otherwise. */
  live?: LiveOverrides | undefined;
}

/** What a 503 for an unreachable (or exhausted) database asks clients to wait before they try again. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The composition root: the one clock, secret box, outbound guard, logger and job runner, the HTTP plumbing, then
 * each area (areas/<area>.ts) wiring its repositories, services, routes and jobs; the jobs start when the app is
 * ready and the close sequence runs when it closes.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    genReqId: () => randomUUID(),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // A request line or headers too long, or no HTTP at all: answered with the envelope too (issue 29).
    clientErrorHandler: answerClientError,
    // A path the router cannot decode (bytes that are no UTF-8) answers the envelope like any other refusal.
    frameworkErrors: (error, _request, reply) => {
      // Fastify types this reply with the route's generics, which a request matching no route has none of.
      (reply as unknown as FastifyReply)
        .code(400)
        .send(failure('BAD_REQUEST', [errorMessage(error.message, '', 'BAD_REQUEST')]));
    },
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

  const { db } = database;
  const metrics = createMetrics();
  const ctx: AreaContext = {
    app,
    config,
    db,
    log: app.log,
    now: deps.now ?? (() => new Date()),
    secrets: createSecretBox(config.masterKey ?? demoMasterKey(config.dataDir)),
    guard: createOutboundGuard({ allowPrivate: config.allowPrivateEndpoints }),
    runner: createJobRunner({ logger: app.log, observer: metrics }),
    metrics,
    afterAnswer: createAfterAnswer(app.log),
  };
  const accounts = createAccounts(ctx);

  // Before any route: the compression hooks attach to each route as it is added.
  await registerCompression(app);
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: 16 * 1024 });
  registerSecurityHeaders(app, { https: config.secureCookies });
  registerRequestContext(app, {
    auth: accounts.auth,
    apiTokens: accounts.apiTokens,
    cookies: { secure: config.secureCookies },
  });
  registerWellFormedText(app);
  // The audit trail (issue 18): every state-changing call recorded after its answer.
  registerAuditRecorder(app, { audit: accounts.audit, tenants: createTenantLookup(db) });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(error.httpStatus).send(failure(error.summaryCode, error.messages));
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, wrong content type).
      return reply.code(status).send(failure('BAD_REQUEST', [errorMessage((error as Error).message)]));
    }
    if (isClientAbort(error, request)) {
      // Nothing went wrong here and nobody reads the answer; 499 (a proxy's 'client closed request') keeps the
      // access log honest.
      request.log.info(
        { reqId: request.id, code: (error as { code?: unknown }).code },
        'request aborted by the client',
      );
      return reply.code(499).send();
    }
    if (isDatabaseUnavailable(error)) {
      // PostgreSQL stopped or unreachable: the request was fine, the client may retry (a transaction it was in
      // rolled back with the connection).
      request.log.warn({ reqId: request.id, err: error }, 'database unavailable');
      reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return reply.code(503).send(failure('SERVICE_UNAVAILABLE', [errorMessage(MESSAGES.serviceUnavailable)]));
    }
    request.log.error({ err: error, reqId: request.id }, 'unexpected error');
    return reply
      .code(500)
      .send(failure('INTERNAL_ERROR', [errorMessage(`${MESSAGES.internalError} (reference ${request.id})`)]));
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).send(failure('NOT_FOUND', [errorMessage('Not found', '', 'NOT_FOUND')])),
  );

  metrics.provide({
    jobLags: (now) => ctx.runner.lags(now),
    pool: () => database.poolStats?.() ?? null,
  });
  registerOperationsRoutes(app, {
    database,
    redis: deps.redis,
    metrics: ctx.metrics,
    metricsToken: config.metricsToken,
    connectTimeoutMs: config.databaseTimeouts.connectTimeoutMs,
    version: config.version,
    commitId: config.commitId,
  });

  const mail = wireMail(ctx, { mailer: deps.mailer, mailSink: deps.mailSink });
  const { userViews } = await wireAccounts(ctx, accounts, { mail });
  // Machines reach storage and commerce, wired after them, from callbacks only.
  let storage: ReturnType<typeof wireStorage> | undefined;
  let commerce: ReturnType<typeof wireCommerce> | undefined;
  const wired = <T>(area: T | undefined): T => {
    if (!area) throw new Error('area not wired yet');
    return area;
  };
  const machines = await wireMachines(ctx, {
    accounts,
    mail,
    redis: deps.redis,
    live: deps.live,
    later: {
      retention: () => wired(storage).retention,
      guardrails: () => wired(storage).guardrails,
      dataChecks: () => wired(storage).dataChecks,
      replacements: () => wired(storage).s3Replacements,
      repositories: () => wired(storage).repositories,
      removal: () => wired(storage).removal,
      packageQuota: () => wired(commerce).packageQuota,
    },
  });
  const storageArea = wireStorage(ctx, { machines, mail, packages: () => wired(commerce).packagesRepo });
  storage = storageArea;
  const commerceArea = wireCommerce(ctx, { accounts, userViews, mail, machines, storage: storageArea });
  commerce = commerceArea;
  // Expired sessions, reset links, linking codes and download ids: one sweep over three areas' rows.
  ctx.runner.add(
    housekeepingJob({
      auth: accounts.authRepo,
      linkingCodes: machines.machineLinkRepo,
      downloads: storageArea.restoreRepo,
      idleMinutes: config.sessionIdleMinutes,
    }),
  );

  app.addHook('onReady', async () => {
    await storageArea.start();
    ctx.runner.start();
  });
  // The close sequence: migration sequences (their leases are renewed by a job), the jobs (they use every area),
  // the areas' work in flight, answers' after-work, the bus.
  app.addHook('onClose', async () => {
    await storageArea.stopSequences();
    await ctx.runner.stop();
    await storageArea.close();
    await ctx.afterAnswer.settled();
    await machines.close();
  });

  await registerSpa(app, {
    distDir: config.webDistDir,
    version: config.version,
    commitId: config.commitId,
    demo: config.demo,
    shell: accounts.shell,
    providerSiteUrl: config.providerSiteUrl ?? null,
    unpaidInvoices: (customerId, stored) => commerceArea.billing.unpaidInvoices(customerId, stored),
  });

  return app;
}
