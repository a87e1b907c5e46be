import { brandNameOf } from '@portal/domain';
import { DEMO_ACCOUNTS } from '../demo/seed.js';
import { createApiTokenRepo } from '../features/api-tokens/repo.js';
import { registerApiTokenRoutes } from '../features/api-tokens/routes.js';
import { createApiTokenService } from '../features/api-tokens/service.js';
import { createAuditRepo, pruneAuditEvents } from '../features/audit/repo.js';
import { registerAuditRoutes } from '../features/audit/routes.js';
import { generatedPasswordHash, hashPassword } from '../features/auth/passwords.js';
import { createAuthRepo, type MfaPolicySubject } from '../features/auth/repo.js';
import { registerAuthRoutes } from '../features/auth/routes.js';
import { createAuthService } from '../features/auth/service.js';
import { createSessionChanges } from '../features/auth/session-cache.js';
import type { LiveBus } from '../features/live/bus.js';
import { createSecondFactorCheck } from '../features/mfa/codes.js';
import { createMfaRepo } from '../features/mfa/repo.js';
import { registerMfaRoutes } from '../features/mfa/routes.js';
import { createMfaService } from '../features/mfa/service.js';
import { registerOpenApiRoutes } from '../features/openapi/routes.js';
import { createProfileRepo } from '../features/profile/repo.js';
import { registerProfileRoutes } from '../features/profile/routes.js';
import { createResellerSettingsRepo } from '../features/reseller-settings/repo.js';
import { registerResellerSettingsRoutes } from '../features/reseller-settings/routes.js';
import { createResellerSettingsService } from '../features/reseller-settings/service.js';
import { createShellRepo } from '../features/shell/repo.js';
import { createShellService } from '../features/shell/service.js';
import { createUserImportService } from '../features/users/import.js';
import { createUsersRepo } from '../features/users/repo.js';
import { registerUserRoutes } from '../features/users/routes.js';
import { createUserService, createUserViews } from '../features/users/service.js';
import { auditPruneJob } from '../jobs/audit-prune.js';
import type { AreaContext } from './context.js';
import type { MailArea } from './mail.js';

/**
 * Accounts, first half: what the request context needs before any route (sessions, API tokens) and the audit
 * trail; the routes follow in wireAccounts once the HTTP plumbing is registered.
 */
export function createAccounts(ctx: AreaContext) {
  const { config, db } = ctx;
  const audit = createAuditRepo(db);
  const authRepo = createAuthRepo(db);
  // Two-factor sign-in (issue 18): the keys are sealed with the master key like every other secret.
  const mfaRepo = createMfaRepo(db);
  // Provider admins must have it (when configured), and the users of a customer that requires it; the demo's listed
  // logins never, so a newcomer can look around.
  const demoLogins = new Set(config.demo ? DEMO_ACCOUNTS.map((a) => a.email) : []);
  const mfaRequired = (user: MfaPolicySubject) =>
    ((config.mfaRequiredForProviderAdmins && user.role === 'ROLE_BOLT_ADMIN_USER') ||
      user.customerRequiresMfa === true) &&
    !demoLogins.has(user.email.toLowerCase());
  // Sessions resolved once per request from the process's cache (issue 33 item 5); changes drop them everywhere.
  const sessions = createSessionChanges({ ttlMs: config.sessionCacheMs });
  const userChanged = (userId: number) => sessions.changed({ userId });
  const customerChanged = (customerId: number) => sessions.changed({ customerId });
  const auth = createAuthService({
    auth: authRepo,
    audit,
    policy: {
      idleMinutes: config.sessionIdleMinutes,
      maxHours: config.sessionMaxHours,
      mfaRequired,
    },
    secondFactor: createSecondFactorCheck({ repo: mfaRepo, secrets: ctx.secrets, now: ctx.now }),
    sessions,
    now: ctx.now,
  });
  const apiTokens = createApiTokenService({
    repo: createApiTokenRepo(db),
    auth: authRepo,
    callerOf: auth.tokenCaller,
    audit,
    now: ctx.now,
  });
  const shell = createShellService(createShellRepo(db));
  return { audit, authRepo, mfaRepo, mfaRequired, auth, apiTokens, shell, sessions, userChanged, customerChanged };
}

export type Accounts = ReturnType<typeof createAccounts>;

/**
 * Session changes travel on the live channel's bus (wired once it exists): every instance drops what another's
 * change concerns. `arriving`: whether this instance hears the others now (its Redis connection is up).
 */
export function shareSessionChanges(accounts: Accounts, bus: LiveBus, arriving: () => boolean): void {
  bus.subscribe((message) => {
    if (message.kind === 'sessionsChanged') accounts.sessions.cache.drop(message.change);
  });
  if (bus.shared) {
    accounts.sessions.connect({ publish: (change) => bus.publish({ kind: 'sessionsChanged', change }), arriving });
  }
}

/**
 * Accounts, second half: sign-in, two-factor, profile, API tokens, a customer's users, the audit pages and their
 * retention job, the reseller settings (branding) and the API description.
 */
export async function wireAccounts(ctx: AreaContext, accounts: Accounts, deps: { mail: MailArea }) {
  const { app, config, db } = ctx;
  const { audit, auth, authRepo, shell } = accounts;
  const mail = deps.mail.delivery;
  const cookies = { secure: config.secureCookies };
  registerAuditRoutes(app, { audit });
  const auditPrune = ctx.runner.add(
    auditPruneJob({
      prune: (before) => pruneAuditEvents(db, before),
      retentionDays: config.auditRetentionDays,
      now: ctx.now,
    }),
  );
  app.decorate('auditPrune', { runOnce: () => auditPrune.runOnce() });

  registerAuthRoutes(app, { auth, mail, afterAnswer: ctx.afterAnswer, cookies });
  registerMfaRoutes(app, {
    mfa: createMfaService({
      repo: accounts.mfaRepo,
      secrets: ctx.secrets,
      auth,
      audit,
      issuerFor: async (customerId) => brandNameOf(await shell.brandingFor(customerId)),
      required: accounts.mfaRequired,
      userChanged: accounts.userChanged,
      now: ctx.now,
    }),
  });
  registerProfileRoutes(app, {
    auth,
    authRepo,
    profiles: createProfileRepo(db),
    audit,
    mail,
    afterAnswer: ctx.afterAnswer,
    userChanged: accounts.userChanged,
    now: ctx.now,
  });
  registerApiTokenRoutes(app, { tokens: accounts.apiTokens });
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
      userChanged: accounts.userChanged,
      now: ctx.now,
    }),
    imports: createUserImportService({ repo: usersRepo, newPasswordHash: generatedPasswordHash }),
  });
  // Reseller settings (issue 17): the three sections, the images, e-mail settings tested before saving.
  await registerResellerSettingsRoutes(app, {
    settings: createResellerSettingsService({
      db,
      repo: createResellerSettingsRepo(db),
      secrets: ctx.secrets,
      smtp: { guard: ctx.guard, caFile: config.smtpCaFile },
      brandChanged: () => shell.forgetHostBrands(),
      customerChanged: accounts.customerChanged,
    }),
  });
  return { userViews };
}
