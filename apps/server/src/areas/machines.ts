import { taskRunChanged } from '@portal/domain';
import type { Redis } from 'ioredis';
import { machineVisibilities } from '../db/machine-context.js';
import { registerAgentDownloadRoutes } from '../features/agent-downloads/routes.js';
import { createAgentEventsRepo } from '../features/agent-events/repo.js';
import { createAgentEventService } from '../features/agent-events/service.js';
import { createLiveCommandAudit } from '../features/audit/recorder.js';
import { createTenantLookup } from '../features/audit/tenants.js';
import { createBackupStateService } from '../features/backup-state/service.js';
import { createDashboardRepo } from '../features/dashboard/repo.js';
import { registerDashboardRoutes } from '../features/dashboard/routes.js';
import { createDashboardService } from '../features/dashboard/service.js';
import { createDataChecksRepo } from '../features/data-checks/repo.js';
import { createFileSearchRepo } from '../features/file-search/repo.js';
import { registerFileSearchRoutes } from '../features/file-search/routes.js';
import { createFileSearchService } from '../features/file-search/service.js';
import type { GuardrailsService } from '../features/guardrails/service.js';
import { createInProcessBus, createRedisBus, type LiveBus } from '../features/live/bus.js';
import {
  createLiveChannel,
  type LiveChannel,
  type LiveChannelOptions,
  type LiveHandlers,
} from '../features/live/channel.js';
import { createPresenceRepo } from '../features/live/repo.js';
import { registerLiveRoutes } from '../features/live/routes.js';
import type { RepositoryRemoval } from '../features/local-storage/removal.js';
import type { RepositorySettingsService } from '../features/local-storage/repository-settings.js';
import { createMachineCredentials } from '../features/machine-auth/credentials.js';
import { registerMachineAuthRoutes } from '../features/machine-auth/routes.js';
import { agentLinkOf, type ChannelPort, createMachineChannelHandlers } from '../features/machine-channel/handlers.js';
import { createMachineCommandsRepo } from '../features/machine-commands/repo.js';
import { registerMachineCommandRoutes } from '../features/machine-commands/routes.js';
import { createMachineCommandService } from '../features/machine-commands/service.js';
import { createMachineLinkRepo } from '../features/machine-link/repo.js';
import { registerMachineLinkRoutes } from '../features/machine-link/routes.js';
import { createMachineLinkService } from '../features/machine-link/service.js';
import { createMachineDeletion } from '../features/machines/deletion.js';
import { createMachinesRepo } from '../features/machines/repo.js';
import { registerMachineRoutes } from '../features/machines/routes.js';
import { createMachineService } from '../features/machines/service.js';
import type { PackageQuota } from '../features/packages/service.js';
import { createRealtimeCommandsRepo } from '../features/realtime-commands/repo.js';
import { registerRealtimeCommandRoutes } from '../features/realtime-commands/routes.js';
import { createRealtimeCommandService } from '../features/realtime-commands/service.js';
import { createRestoreTestsRepo } from '../features/restore-tests/repo.js';
import { registerRestoreTestRoutes } from '../features/restore-tests/routes.js';
import { createRestoreTestService } from '../features/restore-tests/service.js';
import type { RetentionService } from '../features/retention/service.js';
import { createRunStallService } from '../features/run-stalls/service.js';
import type { S3ReplacementScan } from '../features/storage-tampering/service.js';
import { createTaskCommandsRepo } from '../features/task-commands/repo.js';
import { createTaskCommandService } from '../features/task-commands/service.js';
import { createTaskDefinitionRepo } from '../features/task-definition/repo.js';
import { registerTaskDefinitionRoutes } from '../features/task-definition/routes.js';
import { createTaskDefinitionService } from '../features/task-definition/service.js';
import { createTaskOverviewRepo } from '../features/task-overview/repo.js';
import { registerTaskOverviewRoutes } from '../features/task-overview/routes.js';
import { createTaskOverviewService } from '../features/task-overview/service.js';
import { createTasksRepo } from '../features/tasks/repo.js';
import { registerTaskRoutes } from '../features/tasks/routes.js';
import { createTaskService } from '../features/tasks/service.js';
import { registerTreeItemsRoutes } from '../features/tree-items/routes.js';
import { createTreeItemsService } from '../features/tree-items/service.js';
import { registerVerificationRoutes } from '../features/verification/routes.js';
import { createVerificationService } from '../features/verification/service.js';
import { createVerificationReportRepo } from '../features/verification-report/repo.js';
import { registerVerificationReportRoutes } from '../features/verification-report/routes.js';
import { createVerificationReportService } from '../features/verification-report/service.js';
import { deletionJob } from '../jobs/deletion-job.js';
import { liveSessionsJob } from '../jobs/live-sessions.js';
import { missedRunsJob } from '../jobs/missed-runs.js';
import { passJob } from '../jobs/passes.js';
import { stalePresenceJob } from '../jobs/stale-presence.js';
import { resticHasRepair } from '../platform/restic.js';
import { type Accounts, shareSessionChanges } from './accounts.js';
import type { AreaContext } from './context.js';
import type { MailArea } from './mail.js';

/**
 * What machines use of the areas wired after them (storage, commerce): reached through these only once those
 * exist, from callbacks, never while wiring.
 */
export interface MachinesLater {
  retention: () => Pick<RetentionService, 'runFinished'> & { wake: () => void };
  /** Issue 32: a finished backup run compared with its task's history (features/guardrails). */
  guardrails: () => Pick<GuardrailsService, 'runFinished'>;
  /** Issue 32: a provider admin's check of all of a machine's data now (false while a check runs). */
  dataChecks: () => { requestFullRead: (machineId: number) => Promise<boolean> };
  /** Issue 32: what a machine replaced in its Object Lock bucket, put back before a failed restore test is believed. */
  replacements: () => Pick<S3ReplacementScan, 'repair'>;
  repositories: () => Pick<RepositorySettingsService, 'repositorySettingsFor'>;
  removal: () => Pick<RepositoryRemoval, 'removeWith'>;
  packageQuota: () => Pick<PackageQuota, 'evaluateForMachine' | 'removingMachine'>;
}

/** Live channel settings (tests use short heart-beats), handlers and bus; defaults otherwise. */
export interface LiveOverrides {
  options?: Partial<LiveChannelOptions>;
  handlers?: LiveHandlers;
  bus?: LiveBus;
}

/**
 * Machines and tasks: the live channel to the agents and the pages, machine sign-in, linking, commands and deletion,
 * tasks and their runs' state, the dashboards, the agent download; the missed-run, stalled-run and stale-presence
 * jobs.
 */
export async function wireMachines(
  ctx: AreaContext,
  deps: {
    accounts: Accounts;
    mail: MailArea;
    later: MachinesLater;
    redis?: Redis | undefined;
    live?: LiveOverrides | undefined;
  },
) {
  const { app, config, db, now, runner } = ctx;
  const { auth, audit } = deps.accounts;
  const { notificationEvents } = deps.mail;
  const { later } = deps;
  const dashboardRepo = createDashboardRepo(db);
  registerDashboardRoutes(app, { dashboard: createDashboardService(dashboardRepo, db) });

  // The live channel's bus: Redis pub/sub when REDIS_URL is set (several instances), else in-process.
  const bus =
    deps.live?.bus ??
    (deps.redis
      ? await createRedisBus(deps.redis, ctx.config.redisChannel, (error) =>
          ctx.log.error({ err: error }, 'live channel bus error'),
        )
      : createInProcessBus());
  const redis = deps.redis;
  shareSessionChanges(deps.accounts, bus, () => !redis || redis.status === 'ready');
  const credentials = createMachineCredentials(db);
  // The channel and the services refer to each other: changes reach the dashboards once it exists.
  let channel: LiveChannel | undefined;
  const backupState = createBackupStateService({
    db,
    now,
    onMachinesChanged: (machineIds) => channel?.machinesChanged(machineIds),
    tasksMissed: notificationEvents.tasksMissed,
    customerStatusChanged: deps.accounts.customerChanged,
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
    usageChanged: (machineId) => later.packageQuota().evaluateForMachine(machineId),
    // Retention on the portal (issue 16): a finished run marks its task due and wakes the job; first the run is
    // compared with the task's history (issue 32), so an unusual one holds the retention before the job looks.
    backupRunFinished: async (taskId, run) => {
      await later.guardrails().runFinished(run.actionId);
      const retention = later.retention();
      await retention.runFinished(taskId, run);
      retention.wake();
    },
    runEnded: notificationEvents.runEnded,
    now,
  });
  const taskCommandsRepo = createTaskCommandsRepo(db);
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
  /** Sends a machine's agent its task list (task-commands' AgentLink). */
  const syncTasks = (machineId: number) => agentLinkOf(channelPort, agentEvents).syncTasks(machineId);
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
    now,
  });
  const fileSearch = createFileSearchService({
    repo: createFileSearchRepo(db),
    channel: () => {
      if (!channel) throw new Error('live channel not ready');
      return channel;
    },
  });
  // 'Last verified' (issue 32 item 3): kept on the task when a restore test or a data check ends; overdue by a job.
  const verification = createVerificationService({
    db,
    alert: notificationEvents.verificationAlert,
    defaults: {
      restoreTestIntervalDays: config.restoreTests.intervalDays,
      dataCheckPeriodDays: config.dataChecks.periodDays,
    },
    now,
  });
  // Restore tests (issue 32): sent to the agents through the channel, their results recorded from its events.
  const restoreTests = createRestoreTestService({
    repo: createRestoreTestsRepo(db),
    askAgent: (machineId, command) => {
      if (!channel) throw new Error('live channel not ready');
      return channel.ask(machineId, command);
    },
    defaults: config.restoreTests,
    now,
    ended: verification.restoreTestsEnded,
    intervalChanged: verification.intervalChanged,
    replacements: {
      scan: { repair: (machineId) => later.replacements().repair(machineId) },
      onError: (error) => ctx.log.error({ err: error }, 'restore test recheck failed'),
    },
  });
  const handlers =
    deps.live?.handlers ??
    createMachineChannelHandlers({
      agentEvents,
      taskCommands: createTaskCommandService({
        repo: taskCommandsRepo,
        backupState,
        agents: agentLinkOf(channelPort, agentEvents),
        now,
      }),
      async repositoryOf(machineId, known) {
        if (!known) return null;
        const settings = await later.repositories().repositorySettingsFor(machineId, known);
        return settings ? { type: 'repository', settings } : null;
      },
      machine: (machineId) => dashboardRepo.machine(machineId),
      channel: channelPort,
      realtime,
      fileSearch,
      restoreTests,
    });
  const commandAudit = createLiveCommandAudit({ audit, tenants: createTenantLookup(db), log: ctx.log });
  const live = createLiveChannel({
    auth,
    presence,
    machine: (machineId) => dashboardRepo.machine(machineId),
    machineVisibilities: (machineIds) => machineVisibilities(db, machineIds),
    bus,
    handlers,
    options: { maxAgentHandshakes: config.agentHandshakesMax, ...deps.live?.options },
    log: ctx.log,
    now,
    commandAudited: (event) => commandAudit.record(event),
  });
  channel = live;
  app.decorate('live', live);
  runner.add(liveSessionsJob({ live }));
  await registerLiveRoutes(app, { channel: live, publicUrl: config.publicUrl });
  registerRealtimeCommandRoutes(app, { realtime });
  registerFileSearchRoutes(app, { fileSearch });
  registerRestoreTestRoutes(app, { restoreTests });
  runner.add(passJob('restore-tests', () => restoreTests.runScheduled()));
  registerVerificationRoutes(app, { verification });
  const verificationRuns = runner.add(passJob('verification', () => verification.sweepOverdue()));
  app.decorate('verification', { runOnce: () => verificationRuns.runOnce() });
  // The verification report (issue 32 item 4): its downloads and the monthly mail of the customers that opted in.
  const verificationReport = createVerificationReportService({ db, repo: createVerificationReportRepo(db), now });
  registerVerificationReportRoutes(app, { verificationReport });
  runner.add(passJob('verification-report', () => verificationReport.monthlyPass()));
  registerMachineAuthRoutes(app, {
    credentials,
    disconnectMachine: (machineId) => live.disconnectMachine(machineId),
    now,
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
      dataChecks: createDataChecksRepo(db),
      requestFullDataCheck: (machineId) => later.dataChecks().requestFullRead(machineId),
      resticHasRepair: () => resticHasRepair('restic'),
      async cancelRun(machineId, taskId, runId) {
        const reply = await live.ask(machineId, (requestId) => ({ type: 'cancelRun', requestId, taskId, runId }));
        if (reply === 'offline' || reply === 'timeout') return reply;
        return reply.success ? 'cancelled' : 'notRunning';
      },
      onRunChanged: (machineId, taskId, runId) =>
        void live.publishToRunsQueue(machineId, taskRunChanged(taskId, runId)),
      now,
    }),
  });
  // The add/edit task dialog (issue 14): the stored definition Edit starts from.
  registerTaskDefinitionRoutes(app, {
    taskDefinition: createTaskDefinitionService({
      repo: createTaskDefinitionRepo(db),
      machine: (machineId) => dashboardRepo.machine(machineId),
    }),
  });
  // The provider's task dashboards and the volume snapshots setting of a task (002 §2.5, §2.6, §7.3).
  registerTaskOverviewRoutes(app, {
    taskOverview: createTaskOverviewService({ repo: createTaskOverviewRepo(db), syncTasks, now }),
  });
  const machineCommands = createMachineCommandService({
    repo: createMachineCommandsRepo(db),
    channel: channelPort,
    credentials,
    now,
  });
  registerMachineCommandRoutes(app, { commands: machineCommands });
  // The machine pages (issue #14): a deletion is marked by the request and finished by its job.
  const machinesRepo = createMachinesRepo(db);
  const machineDeletion = createMachineDeletion({
    repo: machinesRepo,
    removal: { removeWith: (places, deleteRows) => later.removal().removeWith(places, deleteRows) },
    deleteRows: (machineId) =>
      later.packageQuota().removingMachine(machineId, () => backupState.deleteMachine(machineId)),
  });
  const machineDeletionJob = runner.add(
    deletionJob({ what: 'machine', runPending: () => machineDeletion.runPending() }),
  );
  registerMachineRoutes(app, {
    machines: createMachineService({
      repo: machinesRepo,
      setMachineStatus: (machineId, status) => backupState.setMachineStatus(machineId, status),
      syncTasks,
      deletionRequested: () => machineDeletionJob.kick(),
    }),
    commands: machineCommands,
  });
  const machineLinkRepo = createMachineLinkRepo(db);
  registerMachineLinkRoutes(app, {
    machineLink: createMachineLinkService({ db, auth, repo: machineLinkRepo, credentials, audit, now }),
  });
  // Getting the agent (issue 14): its build and the installers, for download.
  registerAgentDownloadRoutes(app, {
    distDir: config.agentDistDir ?? 'apps/agent/dist',
    publicUrl: config.publicUrl,
  });

  // Stalled runs (issue 29): marked and alerted like failed runs; the task pages watching them read them again.
  const runStalls = createRunStallService({
    db,
    stallMinutes: config.runStallMinutes,
    runStalled: notificationEvents.runStalled,
    onStalled: (run) => void live.publishToRunsQueue(run.machineId, taskRunChanged(run.taskId, run.id)),
    now,
  });
  const runStallJob = runner.add(passJob('run-stalls', () => runStalls.pass()));
  app.decorate('runStalls', { runOnce: () => runStallJob.runOnce() });
  runner.add(missedRunsJob({ backupState }));
  runner.add(
    stalePresenceJob({
      presence,
      touchEveryMs: live.options.touchEveryMs,
      machinesChanged: live.machinesChanged,
      now,
    }),
  );

  return {
    backupState,
    agentEventsRepo,
    taskCommandsRepo,
    machinesRepo,
    machineLinkRepo,
    credentials,
    live,
    syncTasks,
    verification,
    /** Restore tests being looked at again, live command audits in flight, then the bus: the end of the close sequence. */
    async close() {
      await restoreTests.settled();
      await commandAudit.settled();
      await bus.close();
    },
  };
}

export type MachinesArea = Awaited<ReturnType<typeof wireMachines>>;
