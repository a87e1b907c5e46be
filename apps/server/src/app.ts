import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import {
  type AccessLevel,
  brandNameOf,
  errorMessage,
  failure,
  type HealthResult,
  MESSAGES,
  ok,
  ROUTES,
  taskRunChanged,
} from '@portal/domain';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { createBillingDirectory } from './billing/directory.js';
import { createBillingRepo } from './billing/repo.js';
import { type Config, portalAddress } from './config.js';
import { type Database, isDatabaseUnavailable } from './db/client.js';
import { machineVisibilities } from './db/machine-context.js';
import { createDatabaseProbe } from './db/probe.js';
import { DEMO_ACCOUNTS } from './demo/seed.js';
import { registerAgentDownloadRoutes } from './features/agent-downloads/routes.js';
import { createAgentEventsRepo } from './features/agent-events/repo.js';
import { createAgentEventService } from './features/agent-events/service.js';
import { createApiTokenRepo } from './features/api-tokens/repo.js';
import { registerApiTokenRoutes } from './features/api-tokens/routes.js';
import { createApiTokenService } from './features/api-tokens/service.js';
import { createLiveCommandAudit, registerAuditRecorder } from './features/audit/recorder.js';
import { createAuditRepo, pruneAuditEvents } from './features/audit/repo.js';
import { registerAuditRoutes } from './features/audit/routes.js';
import { createTenantLookup } from './features/audit/tenants.js';
import { generatedPasswordHash, hashPassword } from './features/auth/passwords.js';
import { createAuthRepo, type MfaPolicySubject } from './features/auth/repo.js';
import { registerAuthRoutes } from './features/auth/routes.js';
import { createAuthService } from './features/auth/service.js';
import { createBackupStateService } from './features/backup-state/service.js';
import { registerBillingRoutes } from './features/billing/routes.js';
import { createBillingService } from './features/billing/service.js';
import { registerBillingServerRoutes } from './features/billing-servers/routes.js';
import { createBillingServerService } from './features/billing-servers/service.js';
import { createCustomerDeletion } from './features/customers/deletion.js';
import { createCustomersRepo } from './features/customers/repo.js';
import { registerCustomerRoutes } from './features/customers/routes.js';
import { createCustomerService } from './features/customers/service.js';
import { createDashboardRepo } from './features/dashboard/repo.js';
import { registerDashboardRoutes } from './features/dashboard/routes.js';
import { createDashboardService } from './features/dashboard/service.js';
import { registerDemoMailRoutes } from './features/demo/routes.js';
import { createInProcessBus, createRedisBus, type LiveBus } from './features/live/bus.js';
import {
  createLiveChannel,
  type LiveChannel,
  type LiveChannelOptions,
  type LiveHandlers,
} from './features/live/channel.js';
import { createPresenceRepo } from './features/live/repo.js';
import { registerLiveRoutes } from './features/live/routes.js';
import { createRepositoryRemoval } from './features/local-storage/removal.js';
import { createLocalStorageRepo } from './features/local-storage/repo.js';
import { createRepositorySettings } from './features/local-storage/repository-settings.js';
import { registerLocalStorageRoutes } from './features/local-storage/routes.js';
import { createMachineCredentials } from './features/machine-auth/credentials.js';
import { registerMachineAuthRoutes } from './features/machine-auth/routes.js';
import { agentLinkOf, type ChannelPort, createMachineChannelHandlers } from './features/machine-channel/handlers.js';
import { createMachineCommandsRepo } from './features/machine-commands/repo.js';
import { registerMachineCommandRoutes } from './features/machine-commands/routes.js';
import { createMachineCommandService } from './features/machine-commands/service.js';
import { createMachineLinkRepo } from './features/machine-link/repo.js';
import { registerMachineLinkRoutes } from './features/machine-link/routes.js';
import { createMachineLinkService } from './features/machine-link/service.js';
import { createMachineDeletion } from './features/machines/deletion.js';
import { createMachinesRepo } from './features/machines/repo.js';
import { registerMachineRoutes } from './features/machines/routes.js';
import { createMachineService } from './features/machines/service.js';
import { createMailFailuresRepo } from './features/mail-failures/repo.js';
import { registerMailFailureRoutes } from './features/mail-failures/routes.js';
import { createSecondFactorCheck } from './features/mfa/codes.js';
import { createMfaRepo } from './features/mfa/repo.js';
import { registerMfaRoutes } from './features/mfa/routes.js';
import { createMfaService } from './features/mfa/service.js';
import { startMigrationJob } from './features/migrations/job.js';
import { createMigrationsRepo } from './features/migrations/repo.js';
import { registerMigrationRoutes } from './features/migrations/routes.js';
import { createMigrationService, type MigrationService } from './features/migrations/service.js';
import { createNotificationsRepo } from './features/notifications/repo.js';
import { registerNotificationSettingsRoutes } from './features/notifications/routes.js';
import { createNotificationEvents, createNotificationSettingsService } from './features/notifications/service.js';
import { registerOpenApiRoutes } from './features/openapi/routes.js';
import { createPackageRequestsRepo } from './features/package-requests/repo.js';
import { registerPackageRequestRoutes } from './features/package-requests/routes.js';
import { createPackageRequestService } from './features/package-requests/service.js';
import { createPackageTemplatesRepo } from './features/package-templates/repo.js';
import { registerPackageTemplateRoutes } from './features/package-templates/routes.js';
import { createPackageTemplateService } from './features/package-templates/service.js';
import { createPackageDeletion } from './features/packages/deletion.js';
import { createPackagesRepo } from './features/packages/repo.js';
import { registerPackageRoutes } from './features/packages/routes.js';
import { createPackageQuota, createPackageService } from './features/packages/service.js';
import { createProfileRepo } from './features/profile/repo.js';
import { registerProfileRoutes } from './features/profile/routes.js';
import { createTemplateOffer } from './features/purchase/offer.js';
import { createPaidInvoiceCheck } from './features/purchase/paid-invoices.js';
import { createPurchaseRepo } from './features/purchase/repo.js';
import { registerPurchaseRoutes } from './features/purchase/routes.js';
import { createPurchaseService } from './features/purchase/service.js';
import { createWhmcsPurchaseBilling } from './features/purchase/whmcs-billing.js';
import { createRealtimeCommandsRepo } from './features/realtime-commands/repo.js';
import { registerRealtimeCommandRoutes } from './features/realtime-commands/routes.js';
import { createRealtimeCommandService } from './features/realtime-commands/service.js';
import { createResellerSettingsRepo } from './features/reseller-settings/repo.js';
import { registerResellerSettingsRoutes } from './features/reseller-settings/routes.js';
import { createResellerSettingsService } from './features/reseller-settings/service.js';
import { createRestoreRepo } from './features/restore/repo.js';
import { registerRestoreRoutes } from './features/restore/routes.js';
import { createRestoreService } from './features/restore/service.js';
import { createMachineRestoreService } from './features/restore/to-machine.js';
import { createRetentionRepo } from './features/retention/repo.js';
import { createRetentionService } from './features/retention/service.js';
import { createRunStallService } from './features/run-stalls/service.js';
import { createSeedingRepo } from './features/seeding/repo.js';
import { registerSeedingRoutes } from './features/seeding/routes.js';
import { createSeedingService } from './features/seeding/service.js';
import { createShellRepo } from './features/shell/repo.js';
import { createShellService } from './features/shell/service.js';
import { createSignUpRepo } from './features/signup/repo.js';
import { registerSignUpRoutes } from './features/signup/routes.js';
import { createSignUpService } from './features/signup/service.js';
import { createStorageAccountsRepo } from './features/storage-accounts/repo.js';
import { registerStorageAccountRoutes } from './features/storage-accounts/routes.js';
import { createStorageAccountService } from './features/storage-accounts/service.js';
import { createMachineStorageKeys } from './features/storage-locations/machine-keys.js';
import { registerStorageLocationRoutes } from './features/storage-locations/routes.js';
import { createStorageLocationService } from './features/storage-locations/service.js';
import { createTaskCommandsRepo } from './features/task-commands/repo.js';
import { createTaskCommandService } from './features/task-commands/service.js';
import { createTaskDefinitionRepo } from './features/task-definition/repo.js';
import { registerTaskDefinitionRoutes } from './features/task-definition/routes.js';
import { createTaskDefinitionService } from './features/task-definition/service.js';
import { createTaskOverviewRepo } from './features/task-overview/repo.js';
import { registerTaskOverviewRoutes } from './features/task-overview/routes.js';
import { createTaskOverviewService } from './features/task-overview/service.js';
import { createTasksRepo } from './features/tasks/repo.js';
import { registerTaskRoutes } from './features/tasks/routes.js';
import { createTaskService } from './features/tasks/service.js';
import { registerTreeItemsRoutes } from './features/tree-items/routes.js';
import { createTreeItemsService } from './features/tree-items/service.js';
import { createUserImportService } from './features/users/import.js';
import { createUsersRepo } from './features/users/repo.js';
import { registerUserRoutes } from './features/users/routes.js';
import { createUserService, createUserViews } from './features/users/service.js';
import { createAfterAnswer } from './http/after-answer.js';
import { answerClientError } from './http/client-error.js';
import { registerCompression } from './http/compression.js';
import { AppError, isClientAbort } from './http/errors.js';
import { registerRequestContext } from './http/request-context.js';
import { route } from './http/route.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerWellFormedText } from './http/well-formed-text.js';
import { startAuditPrune } from './jobs/audit-prune.js';
import { startBillingSync } from './jobs/billing-sync.js';
import { startCustomerDeletion } from './jobs/customer-deletion.js';
import { startDeletionJob } from './jobs/deletion-job.js';
import { startHousekeeping } from './jobs/housekeeping.js';
import { startMailDelivery } from './jobs/mail-delivery.js';
import { startMissedRunDetection } from './jobs/missed-runs.js';
import { startNotificationJob } from './jobs/notifications.js';
import { startPaidInvoiceJob } from './jobs/paid-invoices.js';
import { startRetention } from './jobs/retention.js';
import { startRunStallDetection } from './jobs/run-stalls.js';
import { startStalePresenceSweep } from './jobs/stale-presence.js';
import { createMailBrands } from './mail/brand.js';
import { createMailDelivery } from './mail/delivery.js';
import type { Mailer } from './mail/mailer.js';
import type { MailSink } from './mail/sink.js';
import { createOutboundGuard } from './net/outbound-guard.js';
import { createSecretBox, demoMasterKey } from './secrets.js';
import { createStorageAccess } from './storage/access.js';
import { createStorageAccessRepo } from './storage/access-repo.js';
import { createStorageProviders } from './storage/registry.js';
import { grantsOfBucket } from './storage/repo.js';
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
  live?: { options?: Partial<LiveChannelOptions>; handlers?: LiveHandlers; bus?: LiveBus } | undefined;
}

/** The composition root: repositories, services and routes are wired here and nowhere else. */
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

  const cookies = { secure: config.secureCookies };
  const db = database.db;
  const audit = createAuditRepo(db);
  const authRepo = createAuthRepo(db);
  // Two-factor sign-in (issue 18): the keys are sealed with the master key like every other secret.
  const mfaRepo = createMfaRepo(db);
  const mfaSecrets = createSecretBox(config.masterKey ?? demoMasterKey(config.dataDir));
  const clockNow = deps.now ?? (() => new Date());
  // Provider admins must have it (when configured), and the users of a customer that requires it; the demo's listed
  // logins never, so a newcomer can look around.
  const demoLogins = new Set(config.demo ? DEMO_ACCOUNTS.map((a) => a.email) : []);
  const mfaRequired = (user: MfaPolicySubject) =>
    ((config.mfaRequiredForProviderAdmins && user.role === 'ROLE_BOLT_ADMIN_USER') ||
      user.customerRequiresMfa === true) &&
    !demoLogins.has(user.email.toLowerCase());
  const auth = createAuthService({
    auth: authRepo,
    audit,
    policy: {
      idleMinutes: config.sessionIdleMinutes,
      maxHours: config.sessionMaxHours,
      mfaRequired,
    },
    secondFactor: createSecondFactorCheck({ repo: mfaRepo, secrets: mfaSecrets, now: clockNow }),
    ...(deps.now ? { now: deps.now } : {}),
  });
  const profiles = createProfileRepo(db);
  const apiTokens = createApiTokenService({
    repo: createApiTokenRepo(db),
    auth: authRepo,
    callerOf: auth.tokenCaller,
    audit,
    ...(deps.now ? { now: deps.now } : {}),
  });
  const shell = createShellService(createShellRepo(db));

  // Before any route: the compression hooks attach to each route as it is added.
  await registerCompression(app);
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: 16 * 1024 });
  registerSecurityHeaders(app, { https: config.secureCookies });
  registerRequestContext(app, { auth, apiTokens, cookies });
  registerWellFormedText(app);
  // The audit trail (issue 18): every state-changing call recorded after its answer; the pages; the retention job.
  registerAuditRecorder(app, { audit, tenants: createTenantLookup(db) });
  registerAuditRoutes(app, { audit });
  const commandAudit = createLiveCommandAudit({ audit, tenants: createTenantLookup(db), log: app.log });
  app.addHook('onClose', async () => commandAudit.settled());
  let auditPrune: ReturnType<typeof startAuditPrune> | undefined;
  app.decorate('auditPrune', { runOnce: () => auditPrune?.runOnce() ?? Promise.resolve(0) });
  app.addHook('onReady', async () => {
    auditPrune = startAuditPrune({
      prune: (before) => pruneAuditEvents(db, before),
      retentionDays: config.auditRetentionDays,
      logger: app.log,
      ...(deps.now ? { now: deps.now } : {}),
    });
  });
  app.addHook('onClose', async () => auditPrune?.stop());

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

  const databaseProbe = createDatabaseProbe(db, config.databaseTimeouts.connectTimeoutMs);
  route(app, ROUTES.health.check, async (_request, reply) => {
    const databaseUp = await databaseProbe();
    // Redis' own state, no round trip: while it is down every instance still serves its own connections.
    const redis = !deps.redis ? 'not configured' : deps.redis.status === 'ready' ? 'up' : 'down';
    const health: HealthResult = {
      status: !databaseUp ? 'down' : redis === 'down' ? 'degraded' : 'ok',
      database: databaseUp ? 'up' : 'down',
      databaseKind: database.kind,
      redis,
      version: config.version,
      commitId: config.commitId,
    };
    if (databaseUp) return ok(health);
    reply.code(503);
    return { ...failure('SERVICE_UNAVAILABLE', [errorMessage(MESSAGES.databaseDown, 'database')]), result: health };
  });

  const machineLinkRepo = createMachineLinkRepo(db);
  const restoreRepo = createRestoreRepo(db);
  let stopHousekeeping: (() => void) | undefined;
  app.addHook('onReady', async () => {
    stopHousekeeping = startHousekeeping({
      auth: authRepo,
      linkingCodes: machineLinkRepo,
      downloads: restoreRepo,
      idleMinutes: config.sessionIdleMinutes,
      logger: app.log,
    });
  });
  app.addHook('onClose', async () => stopHousekeeping?.());

  const publicUrl = portalAddress(config);
  // --- Mail delivery (issue 17): every mail in its customer's brand, through its reseller's SMTP server or ours ---
  let mailJob: ReturnType<typeof startMailDelivery> | undefined;
  const mailDelivery = createMailDelivery({
    db,
    brands: createMailBrands({
      db,
      secrets: createSecretBox(config.masterKey ?? demoMasterKey(config.dataDir)),
      publicUrl,
    }),
    providerMailer: deps.mailer,
    trust: { guard: createOutboundGuard({ allowPrivate: config.allowPrivateEndpoints }), caFile: config.smtpCaFile },
    logger: app.log,
    providerTransportOnly: config.demo && deps.mailSink !== undefined,
    queued: () => mailJob?.kick(),
  });
  app.decorate('mailDelivery', {
    runOnce: () => mailJob?.runOnce() ?? Promise.resolve(0),
  });
  app.addHook('onReady', async () => {
    mailJob = startMailDelivery({ delivery: mailDelivery, logger: app.log, intervalMs: config.mailDeliveryIntervalMs });
  });
  app.addHook('onClose', async () => mailJob?.stop());
  registerMailFailureRoutes(app, { repo: createMailFailuresRepo(db) });
  // --- end of mail delivery ---
  // Work that must not lengthen an answer (what forgot-password and sign-up find out about an address).
  const afterAnswer = createAfterAnswer(app.log);
  app.addHook('onClose', async () => afterAnswer.settled());
  registerAuthRoutes(app, {
    auth,
    mail: mailDelivery,
    afterAnswer,
    cookies,
  });
  registerMfaRoutes(app, {
    mfa: createMfaService({
      repo: mfaRepo,
      secrets: mfaSecrets,
      auth,
      audit,
      issuerFor: async (customerId) => brandNameOf(await shell.brandingFor(customerId)),
      required: mfaRequired,
      now: clockNow,
    }),
  });
  registerProfileRoutes(app, {
    auth,
    authRepo,
    profiles,
    audit,
    mail: mailDelivery,
    afterAnswer,
    ...(deps.now ? { now: deps.now } : {}),
  });
  registerApiTokenRoutes(app, { tokens: apiTokens });
  registerOpenApiRoutes(app);
  // A customer's users: the customer's own admins manage them; the customer pages show them (userViews).
  const usersRepo = createUsersRepo(db);
  const userViews = createUserViews(usersRepo);
  await registerUserRoutes(app, {
    views: userViews,
    users: createUserService({
      db,
      repo: usersRepo,
      views: userViews,
      hashPassword,
      endSessions: (userId, exceptSessionId) => authRepo.deleteSessionsOfUser(userId, exceptSessionId),
      ...(deps.now ? { now: deps.now } : {}),
    }),
    imports: createUserImportService({ repo: usersRepo, newPasswordHash: generatedPasswordHash }),
  });
  const dashboardRepo = createDashboardRepo(db);
  registerDashboardRoutes(app, { dashboard: createDashboardService(dashboardRepo) });

  // The live channel's bus: Redis pub/sub when REDIS_URL is set (several instances), else in-process.
  const bus =
    deps.live?.bus ??
    (deps.redis
      ? await createRedisBus(deps.redis, (error) => app.log.error({ err: error }, 'live channel bus error'))
      : createInProcessBus());
  const credentials = createMachineCredentials(db);
  // The channel and the services refer to each other: changes reach the dashboards once it exists.
  let channel: LiveChannel | undefined;
  // Backup alerts (issue 17): run, missed-run and quota mails queued with the events that cause them.
  const notificationEvents = createNotificationEvents({ db, ...(deps.now ? { now: deps.now } : {}) });
  registerNotificationSettingsRoutes(app, {
    settings: createNotificationSettingsService({ db, repo: createNotificationsRepo(db) }),
  });
  const backupState = createBackupStateService({
    db,
    ...(deps.now ? { now: deps.now } : {}),
    onMachinesChanged: (machineIds) => channel?.machinesChanged(machineIds),
    taskMissed: notificationEvents.taskMissed,
  });
  const agentEventsRepo = createAgentEventsRepo(db);
  const agentEvents = createAgentEventService({
    repo: agentEventsRepo,
    backupState,
    // An open task page follows its runs: a run started, moved or finished (issue 14, task page).
    onUpdate: (machineId, update) => {
      if (update.kind === 'run')
        void channel?.publishToRunsQueue(machineId, taskRunChanged(update.taskId, update.runId));
    },
    // Backup packages (issue 15): a machine's reported usage moves its package over or back under its quota.
    usageChanged: (machineId) => packageQuota.evaluateForMachine(machineId),
    // Retention on the portal (issue 16): a finished run marks its task due and wakes the job.
    backupRunFinished: async (taskId, run) => {
      await retention.runFinished(taskId, run);
      retentionJob?.kick();
    },
    runEnded: notificationEvents.runEnded,
    ...(deps.now ? { now: deps.now } : {}),
  });
  // --- Storage (issue 16): the providers; each location's and each S3 machine's own storage user and key ---
  const storageSecrets = createSecretBox(config.masterKey ?? demoMasterKey(config.dataDir));
  // Every S3 endpoint, mail server and billing server a tenant sets is checked against loopback, private and
  // metadata addresses (the WHMCS clients below use it too).
  const outboundGuard = createOutboundGuard({ allowPrivate: config.allowPrivateEndpoints });
  const storageProviders = createStorageProviders({
    db,
    secrets: storageSecrets,
    dataDir: config.dataDir,
    guard: outboundGuard,
  });
  const storageWarn = (message: string, detail: Record<string, unknown>) => app.log.warn(detail, message);
  const storageLocations = createStorageLocationService({
    db,
    providers: storageProviders,
    secrets: storageSecrets,
    warn: storageWarn,
  });
  const machineStorageKeys = createMachineStorageKeys({
    db,
    providers: storageProviders,
    secrets: storageSecrets,
    // A rotated key reaches a connected agent at once; an offline one gets it with its next hello.
    repositoryChanged: async (machineId) => {
      const settings = await repositories.repositorySettingsFor(machineId);
      if (settings) await channel?.sendToMachine(machineId, { type: 'repository', settings });
    },
    warn: storageWarn,
  });
  // --- end of storage locations ---
  const localStorageRepo = createLocalStorageRepo(db);
  const taskCommandsRepo = createTaskCommandsRepo(db);
  const repositories = createRepositorySettings({
    db,
    secrets: createSecretBox(config.masterKey ?? demoMasterKey(config.dataDir)),
    publicBase: portalAddress(config),
    s3Access: (machineId) => machineStorageKeys.repositoryAccess(machineId),
  });
  // Backup packages (issue 15): the quota rule, evaluated on usage reports, machine removal and quota changes.
  const packagesRepo = createPackagesRepo(db);
  const packageQuota = createPackageQuota({
    repo: packagesRepo,
    backupState,
    syncTasks: (machineId) => agentLinkOf(channelPort, agentEvents).syncTasks(machineId),
    evaluated: notificationEvents.quotaChanged,
  });
  const presence = createPresenceRepo(db);
  const channelPort = (): ChannelPort => {
    if (!channel) throw new Error('live channel not ready');
    const live = channel;
    return {
      sendToMachine: (machineId, message) => live.sendToMachine(machineId, message),
      publishToUser: (userId, machineId, side, body) => live.publishToUser(userId, machineId, side, body),
      isOnline: async (machineId) => live.hasLocalAgent(machineId) || (await presence.isOnline(machineId)),
    };
  };
  const realtime = createRealtimeCommandService({
    repo: createRealtimeCommandsRepo(db),
    allowList: config.realtimeCommandAllowList,
    channel: () => {
      const port = channelPort();
      return {
        sendToMachine: port.sendToMachine,
        isOnline: port.isOnline,
        publishToMachineQueue: (machineId, side, body) => app.live.publishToMachineQueue(machineId, side, body),
      };
    },
    ...(deps.now ? { now: deps.now } : {}),
  });
  const handlers =
    deps.live?.handlers ??
    createMachineChannelHandlers({
      agentEvents,
      taskCommands: createTaskCommandService({
        repo: taskCommandsRepo,
        backupState,
        agents: agentLinkOf(channelPort, agentEvents),
        ...(deps.now ? { now: deps.now } : {}),
      }),
      async repositoryOf(machineId) {
        const settings = await repositories.repositorySettingsFor(machineId);
        return settings ? { type: 'repository', settings } : null;
      },
      machine: (machineId) => dashboardRepo.machine(machineId),
      channel: channelPort,
      realtime,
    });
  const live = createLiveChannel({
    auth,
    credentials,
    presence,
    machine: (machineId) => dashboardRepo.machine(machineId),
    machineVisibilities: (machineIds) => machineVisibilities(db, machineIds),
    bus,
    handlers,
    options: deps.live?.options,
    log: app.log,
    ...(deps.now ? { now: deps.now } : {}),
    commandAudited: (event) => commandAudit.record(event),
  });
  channel = live;
  app.decorate('live', live);
  app.addHook('onClose', async () => bus.close());
  await registerLiveRoutes(app, { channel: live, publicUrl: config.publicUrl });
  registerRealtimeCommandRoutes(app, { realtime });
  registerMachineAuthRoutes(app, {
    credentials,
    disconnectMachine: (machineId) => live.disconnectMachine(machineId),
    ...(deps.now ? { now: deps.now } : {}),
  });
  registerTreeItemsRoutes(app, {
    treeItems: createTreeItemsService({
      machine: (machineId) => dashboardRepo.machine(machineId),
      live: () => live,
    }),
  });
  // Task lists, the task page's reads and cancel (issue 14, task page).
  registerTaskRoutes(app, {
    tasks: createTaskService({
      repo: createTasksRepo(db),
      backupState,
      async cancelRun(machineId, taskId, runId) {
        const reply = await live.ask(machineId, (requestId) => ({ type: 'cancelRun', requestId, taskId, runId }));
        if (reply === 'offline' || reply === 'timeout') return reply;
        return reply.success ? 'cancelled' : 'notRunning';
      },
      onRunChanged: (machineId, taskId, runId) =>
        void live.publishToRunsQueue(machineId, taskRunChanged(taskId, runId)),
      ...(deps.now ? { now: deps.now } : {}),
    }),
  });
  // The add/edit task dialog (issue 14): the stored definition Edit starts from.
  registerTaskDefinitionRoutes(app, {
    taskDefinition: createTaskDefinitionService({
      repo: createTaskDefinitionRepo(db),
      machine: (machineId) => dashboardRepo.machine(machineId),
    }),
  });
  const machineCommands = createMachineCommandService({
    repo: createMachineCommandsRepo(db),
    channel: channelPort,
    credentials,
    ...(deps.now ? { now: deps.now } : {}),
  });
  registerMachineCommandRoutes(app, { commands: machineCommands });
  // The machine pages (issue #14): a deletion is marked by the request and finished by its job.
  const machinesRepo = createMachinesRepo(db);
  // The portal's own access to backup data, with the storage locations' keys (issue 16): restores, seeding,
  // removals and retention; machines' keys may not delete.
  const storage = createStorageAccess({
    repo: createStorageAccessRepo(db),
    providers: storageProviders,
    secrets: storageSecrets,
    dataDir: config.dataDir,
    guard: outboundGuard,
  });
  // --- Retention on the portal (issue 16): forget --prune with the location's key, one machine at a time ---
  const retention = createRetentionService({
    repo: createRetentionRepo(db),
    storage,
    repositoryPassword: (machineId) => repositories.repositoryPassword(machineId),
    messages: agentEventsRepo,
    ...(deps.now ? { now: deps.now } : {}),
  });
  let retentionJob: ReturnType<typeof startRetention> | undefined;
  app.addHook('onReady', async () => {
    retentionJob = startRetention({ retention, logger: app.log });
  });
  app.addHook('onClose', async () => retentionJob?.stop());
  // --- end of retention ---
  const repositoryRemoval = createRepositoryRemoval({
    storage,
    disconnectMachine: (machineId) => live.disconnectMachine(machineId),
    removeMachineStorageUser: (machineId) => machineStorageKeys.remove(machineId),
  });
  const machineDeletion = createMachineDeletion({
    repo: machinesRepo,
    removal: repositoryRemoval,
    deleteRows: (machineId) => packageQuota.removingMachine(machineId, () => backupState.deleteMachine(machineId)),
  });
  let machineDeletionJob: ReturnType<typeof startDeletionJob> | undefined;
  registerMachineRoutes(app, {
    machines: createMachineService({
      repo: machinesRepo,
      setMachineStatus: (machineId, status) => backupState.setMachineStatus(machineId, status),
      syncTasks: (machineId) => agentLinkOf(channelPort, agentEvents).syncTasks(machineId),
      deletionRequested: () => machineDeletionJob?.kick(),
    }),
    commands: machineCommands,
  });
  app.addHook('onReady', async () => {
    machineDeletionJob = startDeletionJob({
      what: 'machine',
      runPending: () => machineDeletion.runPending(),
      logger: app.log,
    });
  });
  app.addHook('onClose', async () => machineDeletionJob?.stop());
  registerLocalStorageRoutes(app, { places: localStorageRepo, dataDir: config.dataDir, credentials });
  // Seed loading (issue #5): restic copy of a shipped seed into a machine's repository on the embedded storage.
  const seeding = createSeedingService({
    repo: createSeedingRepo(db),
    machines: taskCommandsRepo,
    storage,
    messages: agentEventsRepo,
    backupState,
    repositoryPassword: (machineId) => repositories.repositoryPassword(machineId),
    syncTasks: (machineId) => agentLinkOf(channelPort, agentEvents).syncTasks(machineId),
    onError: (error, what) => app.log.error({ err: error }, `failed ${what}`),
    ...(deps.now ? { now: deps.now } : {}),
  });
  registerSeedingRoutes(app, { seeding });
  app.addHook('onReady', async () => {
    await seeding.failInterruptedLoads();
  });
  app.addHook('onClose', async () => seeding.stop());
  // A run's backed-up data (issue 14): snapshot tree, downloads streamed from restic, restore to the machine by its
  // agent, archive deletion.
  const restore = createRestoreService({
    repo: restoreRepo,
    storage,
    repositoryPassword: (machineId) => repositories.repositoryPassword(machineId),
    onError: (error, what) => app.log.error({ err: error }, `failed ${what}`),
    ...(deps.now ? { now: deps.now } : {}),
  });
  const toMachine = createMachineRestoreService({
    repo: restoreRepo,
    commands: taskCommandsRepo,
    askAgent: (machineId, command) => live.ask(machineId, command),
  });
  registerRestoreRoutes(app, { restore, toMachine });
  app.addHook('onReady', async () => restore.startDeletionJob());
  app.addHook('onClose', async () => restore.stop());
  registerMachineLinkRoutes(app, {
    machineLink: createMachineLinkService({
      db,
      auth,
      repo: machineLinkRepo,
      credentials,
      audit,
      ...(deps.now ? { now: deps.now } : {}),
    }),
  });
  // Customer administration and the customer account page; a deletion finishes in the background job.
  const customersRepo = createCustomersRepo(db);
  const customerDeletion = createCustomerDeletion({
    repo: customersRepo,
    storage,
    disconnectMachine: (machineId) => live.disconnectMachine(machineId),
    removeMachineStorageUser: (machineId) => machineStorageKeys.remove(machineId),
    locations: storageLocations,
    warn: (message, detail) => app.log.warn(detail, message),
    ...(deps.now ? { now: deps.now } : {}),
  });
  let customerDeletionJob: ReturnType<typeof startCustomerDeletion> | undefined;
  // --- Billing (issue 15): WHMCS host servers, the billing redirect, unpaid invoices, billing server change ---
  const billingSecrets = createSecretBox(config.masterKey ?? demoMasterKey(config.dataDir));
  // Which WHMCS serves a customer, and its client there: purchases and upgrades use it too.
  const billingDirectory = createBillingDirectory({ db, secrets: billingSecrets, client: { guard: outboundGuard } });
  const billing = createBillingService({
    directory: billingDirectory,
    repo: createBillingRepo(db),
    logger: app.log,
    ...(deps.now ? { now: deps.now } : {}),
  });
  registerBillingRoutes(app, { billing });
  registerBillingServerRoutes(app, {
    servers: createBillingServerService({ db, secrets: billingSecrets, client: { guard: outboundGuard } }),
  });
  let billingSync: ReturnType<typeof startBillingSync> | undefined;
  app.addHook('onReady', async () => {
    billingSync = startBillingSync({ syncAll: () => billing.syncAll(), logger: app.log });
  });
  app.addHook('onClose', async () => billingSync?.stop());
  // --- end of billing ---
  registerCustomerRoutes(app, {
    changeBillingServer: (customerId, change) => billing.changeServer(customerId, change),
    customers: createCustomerService({
      repo: customersRepo,
      backupState,
      brandingFor: (customerId) => shell.brandingFor(customerId),
      syncTasks: (machineId) => agentLinkOf(channelPort, agentEvents).syncTasks(machineId),
      deletionRequested: () => customerDeletionJob?.kick(),
      audit,
    }),
    userViews,
  });
  app.addHook('onReady', async () => {
    customerDeletionJob = startCustomerDeletion({ deletion: customerDeletion, logger: app.log });
  });
  app.addHook('onClose', async () => customerDeletionJob?.stop());
  // Backup packages (issue 15): the pages' calls; a deletion is marked by the request and finished by its job.
  const packageDeletion = createPackageDeletion({
    repo: packagesRepo,
    removal: repositoryRemoval,
    deleteRows: (packageId) => backupState.deletePackage(packageId),
    ...(deps.now ? { now: deps.now } : {}),
  });
  let packageDeletionJob: ReturnType<typeof startDeletionJob> | undefined;
  registerPackageRoutes(app, {
    packages: createPackageService({
      repo: packagesRepo,
      machines: machinesRepo,
      quota: packageQuota,
      backupState,
      deletionRequested: () => packageDeletionJob?.kick(),
      checkPaidInvoices: (customerId) => paidInvoices.checkCustomer(customerId),
    }),
  });
  app.addHook('onReady', async () => {
    packageDeletionJob = startDeletionJob({
      what: 'package',
      runPending: () => packageDeletion.runPending(),
      logger: app.log,
    });
  });
  app.addHook('onClose', async () => packageDeletionJob?.stop());
  // Stalled runs (issue 29): marked and alerted like failed runs; the task pages watching them read them again.
  const runStalls = createRunStallService({
    db,
    stallMinutes: config.runStallMinutes,
    runStalled: notificationEvents.runStalled,
    onStalled: (run) => void channel?.publishToRunsQueue(run.machineId, taskRunChanged(run.taskId, run.id)),
    ...(deps.now ? { now: deps.now } : {}),
  });
  app.decorate('runStalls', { runOnce: () => runStalls.pass() });
  let jobs: Array<{ stop: () => void }> = [];
  app.addHook('onReady', async () => {
    jobs = [
      startMissedRunDetection({ backupState, logger: app.log }),
      startRunStallDetection({ stalls: runStalls, logger: app.log }),
      startNotificationJob({ events: notificationEvents, logger: app.log }),
      startStalePresenceSweep({
        presence,
        touchEveryMs: live.options.touchEveryMs,
        machinesChanged: live.machinesChanged,
        logger: app.log,
        ...(deps.now ? { now: deps.now } : {}),
      }),
    ];
  });
  app.addHook('onClose', async () => {
    for (const job of jobs) job.stop();
  });
  // The provider's task dashboards and the volume snapshots setting of a task (002 §2.5, §2.6, §7.3).
  registerTaskOverviewRoutes(app, {
    taskOverview: createTaskOverviewService({
      repo: createTaskOverviewRepo(db),
      syncTasks: (machineId) => agentLinkOf(channelPort, agentEvents).syncTasks(machineId),
      ...(deps.now ? { now: deps.now } : {}),
    }),
  });
  // Package templates and package requests (issue 15, 000 §2-§7).
  registerPackageTemplateRoutes(app, {
    templates: createPackageTemplateService({ repo: createPackageTemplatesRepo(db) }),
  });
  const packageRequests = createPackageRequestService({
    db,
    repo: createPackageRequestsRepo(db),
    backupStateOn: (tx) => createBackupStateService({ db: tx, ...(deps.now ? { now: deps.now } : {}) }),
    // A change request's new quota may put the package over it or back under it.
    onPackageQuotaChanged: async (packageId) => {
      await packageQuota.evaluatePackageQuota(packageId);
    },
    mail: mailDelivery,
    onMailError: (error) => app.log.error({ err: error }, 'package request decline mail failed'),
    checkPaidInvoices: (customerId) => paidInvoices.checkCustomer(customerId),
    locations: storageLocations,
    ...(deps.now ? { now: deps.now } : {}),
  });
  registerPackageRequestRoutes(app, { requests: packageRequests });
  if (config.demo && deps.mailSink) registerDemoMailRoutes(app, deps.mailSink);
  registerStorageLocationRoutes(app, { locations: storageLocations, machineKeys: machineStorageKeys });

  // Getting the agent (issue 14): its build and the installers, for download.
  registerAgentDownloadRoutes(app, {
    distDir: config.agentDistDir ?? 'apps/agent/dist',
    publicUrl: config.publicUrl,
  });

  // Buying backup (issue 15): templates on offer, purchase, up/downgrade; paid invoices approve their requests.
  const purchaseRepo = createPurchaseRepo(db);
  const purchaseBilling = createWhmcsPurchaseBilling({
    repo: purchaseRepo,
    directory: billingDirectory,
  });
  registerSignUpRoutes(app, {
    signUp: createSignUpService({
      db,
      repo: createSignUpRepo(db),
      throttle: authRepo,
      limitPerAddress: config.signUpLimitPerAddress,
      // The public sign-up is offered what a direct customer may buy (issue 29).
      offer: createTemplateOffer({ repo: purchaseRepo, billing: purchaseBilling }),
      ...(deps.now ? { now: deps.now } : {}),
    }),
    mail: mailDelivery,
    afterAnswer,
  });
  registerPurchaseRoutes(app, {
    purchases: createPurchaseService({
      db,
      repo: purchaseRepo,
      billing: purchaseBilling,
      ...(deps.now ? { now: deps.now } : {}),
    }),
  });
  const paidInvoices = createPaidInvoiceCheck({
    db,
    repo: purchaseRepo,
    billing: purchaseBilling,
    approvePaidRequest: async (requestId) => {
      await packageRequests.approvePaid(requestId);
    },
    warn: (message, detail) => app.log.warn(detail, message),
    ...(deps.now ? { now: deps.now } : {}),
  });
  let paidInvoiceJob: ReturnType<typeof startPaidInvoiceJob> | undefined;
  app.addHook('onReady', async () => {
    paidInvoiceJob = startPaidInvoiceJob({ check: paidInvoices, logger: app.log });
  });
  app.addHook('onClose', async () => paidInvoiceJob?.stop());

  // --- Storage accounts (issue 16): accounts, buckets with policy info, storage users and keys ---
  // The same providers as the portal's own storage access: an edited account's provider is forgotten for both.
  registerStorageAccountRoutes(app, {
    accounts: createStorageAccountService({
      db,
      repo: createStorageAccountsRepo(db),
      providers: storageProviders,
      secrets: storageSecrets,
      grantsOfBucket: (bucketId) => grantsOfBucket(db, bucketId),
    }),
  });
  // --- end of storage accounts ---
  // --- Package migrations (issue 16): rclone sequences run by the server, their job, the account migration ---
  const migrations = createMigrationService({
    repo: createMigrationsRepo(db),
    output: createRealtimeCommandsRepo(db),
    storageAccess: storage,
    publish: (migrationId, body) => live.publishToMigrationQueue(migrationId, body),
    onlineMachineIds: (packageId) => packagesRepo.onlineMachineIds(packageId),
    syncTasks: (machineId) => agentLinkOf(channelPort, agentEvents).syncTasks(machineId),
    async sendRepository(machineId) {
      const settings = await repositories.repositorySettingsFor(machineId);
      if (settings) await live.sendToMachine(machineId, { type: 'repository', settings });
    },
    removeMachineStorageUsers: (machineId) => machineStorageKeys.remove(machineId),
    // The destination account's location is made like any other: bucket, user, key and policy at the service.
    createLocation: async (customerId, storageAccountId) =>
      (await storageLocations.create(customerId, storageAccountId)).id,
    rclonePath: config.rclonePath,
    leaseMs: config.migrationLeaseMs,
    ...(deps.now ? { now: deps.now } : {}),
    log: { warn: (message, detail) => app.log.warn(detail ?? {}, message) },
  });
  registerMigrationRoutes(app, { migrations });
  app.decorate('migrations', migrations);
  let migrationJob: ReturnType<typeof startMigrationJob> | undefined;
  app.addHook('onReady', async () => {
    migrationJob = startMigrationJob({ migrations, everyMs: config.migrationJobIntervalMs, logger: app.log });
  });
  app.addHook('onClose', async () => {
    migrationJob?.stop();
    await migrations.close();
  });
  // --- end of package migrations ---

  // --- Reseller settings (issue 17): the three sections, the images, e-mail settings tested before saving ---
  await registerResellerSettingsRoutes(app, {
    settings: createResellerSettingsService({
      db,
      repo: createResellerSettingsRepo(db),
      secrets: createSecretBox(config.masterKey ?? demoMasterKey(config.dataDir)),
      smtp: { guard: outboundGuard, caFile: config.smtpCaFile },
      brandChanged: () => shell.forgetHostBrands(),
    }),
  });
  // --- end of reseller settings ---

  await registerSpa(app, {
    distDir: config.webDistDir,
    version: config.version,
    commitId: config.commitId,
    demo: config.demo,
    shell,
    providerSiteUrl: config.providerSiteUrl ?? null,
    unpaidInvoices: (customerId, stored) => billing.unpaidInvoices(customerId, stored),
  });

  return app;
}
