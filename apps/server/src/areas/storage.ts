import { portalAddress } from '../config.js';
import { createAuditRepo } from '../features/audit/repo.js';
import { createDataCheckService } from '../features/data-checks/service.js';
import { createGuardrailsRepo } from '../features/guardrails/repo.js';
import { registerGuardrailsRoutes } from '../features/guardrails/routes.js';
import { createGuardrailsService } from '../features/guardrails/service.js';
import { createRepositoryRemoval } from '../features/local-storage/removal.js';
import { createLocalStorageRepo } from '../features/local-storage/repo.js';
import { createRepositorySettings } from '../features/local-storage/repository-settings.js';
import { registerLocalStorageRoutes } from '../features/local-storage/routes.js';
import { createMigrationsRepo } from '../features/migrations/repo.js';
import { registerMigrationRoutes } from '../features/migrations/routes.js';
import { createMigrationService } from '../features/migrations/service.js';
import type { PackagesRepo } from '../features/packages/repo.js';
import { createRealtimeCommandsRepo } from '../features/realtime-commands/repo.js';
import { createRestoreRepo } from '../features/restore/repo.js';
import { registerRestoreRoutes } from '../features/restore/routes.js';
import { createRestoreService } from '../features/restore/service.js';
import { createMachineRestoreService } from '../features/restore/to-machine.js';
import { createRetentionRepo } from '../features/retention/repo.js';
import { createRetentionService } from '../features/retention/service.js';
import { createSeedingRepo } from '../features/seeding/repo.js';
import { registerSeedingRoutes } from '../features/seeding/routes.js';
import { createSeedingService } from '../features/seeding/service.js';
import { createStorageAccountsRepo } from '../features/storage-accounts/repo.js';
import { registerStorageAccountRoutes } from '../features/storage-accounts/routes.js';
import { createStorageAccountService } from '../features/storage-accounts/service.js';
import { createMachineStorageKeys } from '../features/storage-locations/machine-keys.js';
import { registerStorageLocationRoutes } from '../features/storage-locations/routes.js';
import { createStorageLocationService } from '../features/storage-locations/service.js';
import { createS3ReplacementScan, createTamperingService } from '../features/storage-tampering/service.js';
import { migrationLeasesJob, migrationsJob } from '../jobs/migrations.js';
import { passJob } from '../jobs/passes.js';
import { s3ReplacementsJob } from '../jobs/s3-replacements.js';
import { createStorageAccess } from '../storage/access.js';
import { createStorageAccessRepo } from '../storage/access-repo.js';
import { createStorageProviders } from '../storage/registry.js';
import { grantsOfBucket } from '../storage/repo.js';
import type { AreaContext } from './context.js';
import type { MachinesArea } from './machines.js';
import type { MailArea } from './mail.js';

/**
 * Storage: the providers, storage locations with each location's and each S3 machine's own storage user and key,
 * the embedded storage, the portal's own access to backup data (retention, seeding, restores, removals), storage
 * accounts and package migrations; the retention, restore-deletion and migration jobs.
 */
export function wireStorage(
  ctx: AreaContext,
  deps: {
    machines: MachinesArea;
    mail: Pick<MailArea, 'queued' | 'notificationEvents'>;
    /** The packages' repository, wired after storage by commerce (migrations ask it for online machines). */
    packages: () => Pick<PackagesRepo, 'onlineMachineIds'>;
  },
) {
  const { app, config, db, now, runner, secrets, guard } = ctx;
  const { live, syncTasks, backupState, agentEventsRepo, taskCommandsRepo } = deps.machines;
  const providers = createStorageProviders({
    db,
    secrets,
    dataDir: config.dataDir,
    guard,
    objectLockDays: config.objectLockRetentionDays,
  });
  const warn = (message: string, detail: Record<string, unknown>) => ctx.log.warn(detail, message);
  const locations = createStorageLocationService({ db, providers, secrets, warn });
  /** Sends a machine's agent its repository settings (a rotated key, a migrated repository). */
  const sendRepository = async (machineId: number) => {
    const settings = await repositories.repositorySettingsFor(machineId);
    if (settings) await live.sendToMachine(machineId, { type: 'repository', settings });
  };
  const machineStorageKeys = createMachineStorageKeys({
    db,
    providers,
    secrets,
    // A rotated key reaches a connected agent at once; an offline one gets it with its next hello.
    repositoryChanged: sendRepository,
    warn,
  });
  const repositories = createRepositorySettings({
    db,
    secrets,
    publicBase: portalAddress(config),
    s3Access: (machineId) => machineStorageKeys.repositoryAccess(machineId),
  });
  registerStorageLocationRoutes(app, { locations, machineKeys: machineStorageKeys });
  // A machine's attempts on its backups (issue 32): audited, the provider alerted once per burst.
  const tampering = createTamperingService({ db, now, queued: deps.mail.queued });
  registerLocalStorageRoutes(app, {
    places: createLocalStorageRepo(db),
    dataDir: config.dataDir,
    credentials: deps.machines.credentials,
    tampering,
  });
  // The portal's own access to backup data, with the storage locations' keys (issue 16): restores, seeding,
  // removals and retention; machines' keys may not delete.
  const access = createStorageAccess({
    repo: createStorageAccessRepo(db),
    providers,
    secrets,
    dataDir: config.dataDir,
    guard,
  });
  // What the portal can see of S3 (issue 32): objects a machine replaced in an Object Lock bucket, put back.
  const s3Replacements = createS3ReplacementScan({
    db,
    storage: access,
    tampering,
    onError: (error, machineId) => ctx.log.warn({ err: error, machineId }, 'S3 replacement scan failed'),
  });
  runner.add(s3ReplacementsJob({ scan: s3Replacements, everyMs: config.s3ReplacementScanMinutes * 60_000 }));
  const repositoryPassword = (machineId: number) => repositories.repositoryPassword(machineId);
  const removal = createRepositoryRemoval({
    storage: access,
    disconnectMachine: (machineId) => live.disconnectMachine(machineId),
    removeMachineStorageUser: (machineId) => machineStorageKeys.remove(machineId),
  });

  // Retention on the portal (issue 16): forget --prune with the location's key, one machine at a time.
  const retentionRepo = createRetentionRepo(db);
  const retention = createRetentionService({
    repo: retentionRepo,
    storage: access,
    repositoryPassword,
    messages: agentEventsRepo,
    now,
  });
  const retentionRuns = runner.add(passJob('retention', () => retention.runPending()));

  // Guard rails (issue 32): unusual runs hold retention until acknowledged; the retention preview and pinning.
  const guardrails = createGuardrailsService({
    db,
    repo: createGuardrailsRepo(db),
    storage: access,
    repositoryPassword,
    newestGoodSnapshot: retentionRepo.newestGoodSnapshot,
    retentionDue: async (taskId) => {
      await retentionRepo.markDue(taskId, now());
      retentionRuns.kick();
    },
    now,
  });
  registerGuardrailsRoutes(app, { guardrails });
  // Rotating data checks on the portal (issue 32): restic check --read-data-subset with the location's key.
  const dataChecks = createDataCheckService({
    db,
    storage: access,
    repositoryPassword,
    settings: { ...config.dataChecks, runTimeoutMinutes: config.runStallMinutes },
    alert: deps.mail.notificationEvents.dataCheckFailed,
    audit: createAuditRepo(db),
    messages: agentEventsRepo,
    rclonePath: config.rclonePath,
    checked: deps.machines.verification.dataCheckEnded,
    replacements: s3Replacements,
    now,
  });
  const dataCheckRuns = runner.add(passJob('data-checks', () => dataChecks.runPending()));
  app.decorate('dataChecks', { runOnce: () => dataCheckRuns.runOnce() });

  // Seed loading (issue #5): restic copy of a shipped seed into a machine's repository on the embedded storage.
  const seeding = createSeedingService({
    repo: createSeedingRepo(db),
    machines: taskCommandsRepo,
    storage: access,
    messages: agentEventsRepo,
    backupState,
    repositoryPassword,
    syncTasks,
    onError: (error, what) => ctx.log.error({ err: error }, `failed ${what}`),
    now,
  });
  registerSeedingRoutes(app, { seeding });

  // A run's backed-up data (issue 14): snapshot tree, downloads streamed from restic, restore to the machine by its
  // agent, archive deletion.
  const restoreRepo = createRestoreRepo(db);
  const restore = createRestoreService({
    repo: restoreRepo,
    storage: access,
    repositoryPassword,
    onError: (error, what) => ctx.log.error({ err: error }, `failed ${what}`),
    now,
  });
  const toMachine = createMachineRestoreService({
    repo: restoreRepo,
    commands: taskCommandsRepo,
    askAgent: (machineId, command) => live.ask(machineId, command),
  });
  registerRestoreRoutes(app, { restore, toMachine });
  runner.add(passJob('restore-deletions', () => restore.resumeDeletions()));

  // Storage accounts (issue 16): accounts, buckets with policy info, storage users and keys. The same providers as
  // the portal's own storage access: an edited account's provider is forgotten for both.
  registerStorageAccountRoutes(app, {
    accounts: createStorageAccountService({
      db,
      repo: createStorageAccountsRepo(db),
      providers,
      secrets,
      grantsOfBucket: (bucketId) => grantsOfBucket(db, bucketId),
    }),
  });

  // Package migrations (issue 16): rclone sequences run by the server, their job, the account migration.
  const migrations = createMigrationService({
    repo: createMigrationsRepo(db),
    output: createRealtimeCommandsRepo(db),
    storageAccess: access,
    publish: (migrationId, body) => live.publishToMigrationQueue(migrationId, body),
    onlineMachineIds: (packageId) => deps.packages().onlineMachineIds(packageId),
    syncTasks,
    sendRepository,
    removeMachineStorageUsers: (machineId) => machineStorageKeys.remove(machineId),
    // The destination account's location is made like any other: bucket, user, key and policy at the service.
    createLocation: async (customerId, storageAccountId) => (await locations.create(customerId, storageAccountId)).id,
    rclonePath: config.rclonePath,
    leaseMs: config.migrationLeaseMs,
    now,
    log: { warn: (message, detail) => ctx.log.warn(detail ?? {}, message) },
  });
  registerMigrationRoutes(app, { migrations });
  app.decorate('migrations', migrations);
  runner.add(migrationsJob({ migrations, everyMs: config.migrationJobIntervalMs }));
  runner.add(migrationLeasesJob({ migrations, leaseMs: config.migrationLeaseMs }));

  return {
    access,
    locations,
    machineStorageKeys,
    repositories,
    removal,
    restoreRepo,
    s3Replacements,
    retention: { runFinished: retention.runFinished, wake: () => retentionRuns.kick() },
    guardrails: { runFinished: guardrails.runFinished },
    /** A provider admin's check of all of a machine's data, taken by the data checks' job at once. */
    dataChecks: {
      async requestFullRead(machineId: number) {
        const requested = await dataChecks.requestFullRead(machineId);
        if (requested) dataCheckRuns.kick();
        return requested;
      },
    },
    /** Loads a restart interrupted are failed before the jobs start. */
    start: () => seeding.failInterruptedLoads(),
    /**
     * This instance's migration sequences are stopped first on close, while the runner still renews their leases:
     * stopped after it, a shutdown longer than a lease would let another instance fail and move on a migration
     * whose rclone is still copying here.
     */
    stopSequences: () => migrations.close(),
    /** Work in flight that is no job's run: seed loads, archive deletions, migration sequences (any a job run
     * started after stopSequences). */
    async close() {
      await seeding.stop();
      await restore.idle();
      await migrations.close();
    },
  };
}

export type StorageArea = ReturnType<typeof wireStorage>;
