import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  MESSAGES,
  type MessageType,
  noSeedRepositoryAt,
  resticTaskTag,
  runOutcomeOfResticExit,
  type SeedLoadResult,
  seedCopyFailed,
  seedNotOpened,
  seedRepositoryName,
} from '@portal/domain';
import { machineAtPath } from '../../db/machine-context.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { type ResticOutcome, resticFailure, runRestic } from '../../platform/restic.js';
import {
  isOnDisk,
  type RepositoryJobDeps,
  repositoryJobTools,
  repositoryPresent,
  resticEnvOf,
} from '../../storage/access.js';
import type { FolderAccess } from '../../storage/provider.js';
import type { AgentEventsRepo } from '../agent-events/repo.js';
import type { BackupStateService } from '../backup-state/service.js';
import { repositoryExists } from '../local-storage/store.js';
import type { TaskCommandsRepo } from '../task-commands/repo.js';
import { createSeedingRepo, type SeedingRepo } from './repo.js';

const TEXT = MESSAGES.seeding;

/** A task on the provider's paths: /boltadmin/customers/{c}/backuppackages/{p}/backupmachines/{m}/backuptasks/{t}. */
export interface TaskPath {
  customerId: number;
  packageId: number;
  machineId: number;
  taskId: number;
}

/** One load going on in this process. */
interface Load {
  actionId: number;
  machineId: number;
  taskId: number;
  seed: string;
  target: FolderAccess;
  password: string;
  chunkerDiffers: boolean;
}

/** At most this many lines of restic's output go to the machine's message log per load. */
const MAX_MESSAGES = 200;

/**
 * Seed loading (issue #5; the mapping is in apps/agent/README.md, "Seeding"). A provider admin mounts the
 * shipped seed disk on the portal server and loads it into the machine's repository in its storage location
 * (with the location's own key, storage/access.ts): `restic copy --tag task-{id}` from the seed repository (same password) into the machine's
 * repository, recorded as a BACKUP_SEED_LOADING action (IN_PROGRESS, then FINISHED_SUCCESS or FAILED,
 * through the backup-state service so the dashboard follows). On success the task becomes ACTIVE and its agent
 * gets its task list again; its next backup finds the copied data in the repository (restic deduplicates).
 *
 * The answer comes at once with the action's id; the copy goes on in the background. A second load while one
 * is busy is refused; after a failure the load may simply be asked again (restic copy skips the snapshots it
 * copied already). Nothing is ever deleted: the seed is only read (`--no-lock`, so a read-only mount works).
 * A load's restic runs in the server process that took the request: when that server stops, the load is
 * failed (stop(), or the start-up sweep failInterruptedLoads() after a crash) and may be asked again.
 */
export function createSeedingService(
  deps: RepositoryJobDeps & {
    repo: SeedingRepo;
    /** The machine with its context, and its task (task commands' queries). */
    machines: Pick<TaskCommandsRepo, 'machine' | 'task'>;
    /** The machine's message log, where a load's lines go (the agent events' queries). */
    messages: Pick<AgentEventsRepo, 'insertMessages'>;
    backupState: BackupStateService;
    /** Sends the machine's agent its task list (task-commands' AgentLink.syncTasks). */
    syncTasks: (machineId: number) => Promise<void>;
    onError?: (error: unknown, what: string) => void;
  },
) {
  const { repo } = deps;
  const { binary, now } = repositoryJobTools(deps);
  const running = new Map<number, { stop: AbortController; done: Promise<void> }>();

  const restic = (args: readonly string[], env: Record<string, string>, signal?: AbortSignal) =>
    runRestic({ binary, args: ['--no-cache', ...args], env, ...(signal ? { signal } : {}) });
  const repositoryEnv = (repository: string, password: string) => ({
    RESTIC_REPOSITORY: repository,
    RESTIC_PASSWORD: password,
  });
  const chunkerOf = (outcome: ResticOutcome): string | null => {
    try {
      const config = JSON.parse(outcome.stdout.join('\n')) as { chunker_polynomial?: unknown };
      return typeof config.chunker_polynomial === 'string' ? config.chunker_polynomial : null;
    } catch {
      return null;
    }
  };

  /** The machine's repository in its storage location; 409 when it was never made. */
  async function machineRepository(machineId: number, password: string): Promise<FolderAccess> {
    const at = await deps.storage.machineRepositoryAccess(machineId);
    if (!at) throw notFound(MESSAGES.backupMachine.notFound);
    if (!(await repositoryPresent(at.access, password, binary))) throw conflict(TEXT.machineRepositoryMissing);
    return at.access;
  }

  /** The seed repository at `path`: that folder itself, or its `portal-seed-{machineId}`; 400 on `path` else. */
  async function seedRepositoryAt(path: string, machineId: number): Promise<string> {
    const dir = resolve(path);
    const isFolder = await stat(dir).then(
      (info) => info.isDirectory(),
      () => false,
    );
    if (!isFolder) throw badRequest(TEXT.pathNotFound, 'path');
    if (await repositoryExists(dir)) return dir;
    const inner = join(dir, seedRepositoryName(machineId));
    if (await repositoryExists(inner)) return inner;
    throw badRequest(noSeedRepositoryAt(machineId), 'path');
  }

  /**
   * Opens the seed with the machine's password and finds the task's snapshots in it (400 on `path` when it
   * cannot), and compares its chunker parameters with the machine repository's.
   */
  async function checkSeed(seed: string, target: FolderAccess, password: string, taskId: number) {
    const [seedConfig, snapshots, targetConfig] = await Promise.all([
      restic(['--no-lock', 'cat', 'config'], repositoryEnv(seed, password)),
      restic(['--no-lock', 'snapshots', '--json', '--tag', resticTaskTag(taskId)], repositoryEnv(seed, password)),
      restic(['--no-lock', 'cat', 'config'], resticEnvOf(target, password)),
    ]);
    if (seedConfig.code !== 0) throw badRequest(seedNotOpened(resticFailure(seedConfig)), 'path');
    let count = 0;
    try {
      const list: unknown = JSON.parse(snapshots.stdout.join('\n'));
      count = Array.isArray(list) ? list.length : 0;
    } catch {
      count = 0;
    }
    if (snapshots.code !== 0 || count === 0) throw badRequest(TEXT.noTaskSnapshot, 'path');
    const targetChunker = chunkerOf(targetConfig);
    return { chunkerDiffers: targetChunker !== null && targetChunker !== chunkerOf(seedConfig) };
  }

  /** Copies the seed, records the outcome and, on success, makes the task ACTIVE and tells its agent. */
  async function copy(load: Load, signal: AbortSignal): Promise<void> {
    const lines: Array<{ type: MessageType; text: string; time: Date }> = [];
    const note = (type: MessageType, text: string) => {
      if (lines.length < MAX_MESSAGES) lines.push({ type, text: text.slice(0, 4000), time: now() });
    };
    if (load.chunkerDiffers) note('WARNING', TEXT.chunkerDiffers);
    const outcome = await restic(
      ['--no-lock', 'copy', '--tag', resticTaskTag(load.taskId)],
      {
        ...resticEnvOf(load.target, load.password),
        RESTIC_FROM_REPOSITORY: load.seed,
        RESTIC_FROM_PASSWORD: load.password,
      },
      signal,
    );
    for (const line of outcome.stdout) note('INFO', line);
    for (const line of outcome.stderr) note(/^(Fatal|panic|error)\b/i.test(line) ? 'ERROR' : 'WARNING', line);
    const result = outcome.spawnError ? runOutcomeOfResticExit(1, false) : runOutcomeOfResticExit(outcome.code, false);
    const failureMessage = outcome.cancelled
      ? TEXT.loadInterrupted
      : result.status === 'FAILED'
        ? seedCopyFailed(resticFailure(outcome))
        : null;
    const status = failureMessage ? 'FAILED' : result.status;
    if (failureMessage) note('ERROR', failureMessage);
    await deps.messages.insertMessages(load.machineId, load.taskId, load.actionId, lines);
    await deps.backupState.runStatusChanged(load.taskId, status, (tx) =>
      createSeedingRepo(tx).finishLoad(load.actionId, {
        status,
        finishedAt: now(),
        exitCodeResult: outcome.cancelled ? 'CANCELLATION_REQUESTED' : result.exitCodeResult,
        failureMessage,
      }),
    );
    if (status === 'FAILED') return;
    if ((await deps.machines.task(load.machineId, load.taskId))?.status !== 'AWAITING_SEED') return;
    await deps.backupState.updateTask(load.taskId, { status: 'ACTIVE' });
    await deps.syncTasks(load.machineId);
  }

  return {
    /**
     * Loads the seed at `seedPath` (on the portal server) for the task; answers once the load is recorded.
     * 404 unless the machine is the path's customer's and package's and the task is the machine's.
     */
    async loadSeed(path: TaskPath, seedPath: string): Promise<SeedLoadResult> {
      const machine = await deps.machines.machine(path.machineId);
      if (!machineAtPath(machine, path)) throw notFound(MESSAGES.backupMachine.notFound);
      const task = await deps.machines.task(machine.id, path.taskId);
      if (!task) throw notFound(TEXT.taskNotFound);
      if (task.status !== 'AWAITING_SEED') throw conflict(TEXT.taskNotAwaitingSeed);
      if (await repo.isLoading(task.id)) throw conflict(TEXT.alreadyLoading);
      const password = await deps.repositoryPassword(machine.id);
      if (password === null) throw notFound(MESSAGES.backupMachine.notFound);
      const target = await machineRepository(machine.id, password);
      const seed = await seedRepositoryAt(seedPath, machine.id);
      if (isOnDisk(target) && seed === resolve(target.resticRepository)) {
        throw badRequest(TEXT.seedIsMachineRepository, 'path');
      }
      const { chunkerDiffers } = await checkSeed(seed, target, password, task.id);

      // Under the customer's lock: one load of a task at a time, and only while it awaits its seed.
      const claimed: { claim?: Awaited<ReturnType<SeedingRepo['claimLoad']>> } = {};
      await deps.backupState.runStarted(task.id, 'IN_PROGRESS', async (tx) => {
        claimed.claim = await createSeedingRepo(tx).claimLoad(machine.id, task.id, now());
        return 'actionId' in claimed.claim;
      });
      const claim = claimed.claim ?? { refused: 'notAwaitingSeed' as const };
      if ('refused' in claim) {
        throw conflict(claim.refused === 'alreadyLoading' ? TEXT.alreadyLoading : TEXT.taskNotAwaitingSeed);
      }
      const load: Load = {
        actionId: claim.actionId,
        machineId: machine.id,
        taskId: task.id,
        seed,
        target,
        password,
        chunkerDiffers,
      };
      const stop = new AbortController();
      const done = copy(load, stop.signal)
        .catch((error: unknown) => deps.onError?.(error, `loading the seed of task ${task.id}`))
        .finally(() => running.delete(load.actionId));
      running.set(load.actionId, { stop, done });
      return { actionId: load.actionId };
    },

    /** Resolves when the loads this process runs now have finished (tests). */
    async idle(): Promise<void> {
      while (running.size > 0) await Promise.all([...running.values()].map((r) => r.done));
    },

    /** Stops this process's loads (the server is stopping): each is recorded FAILED as interrupted. */
    async stop(): Promise<void> {
      for (const load of running.values()) load.stop.abort();
      await this.idle();
    },

    /**
     * At start: loads left busy by a server that stopped without recording their end (a crash) are failed,
     * so that they may be asked again. Returns how many.
     */
    async failInterruptedLoads(): Promise<number> {
      let failed = 0;
      for (const load of await repo.busyLoads()) {
        if (running.has(load.id)) continue;
        await deps.backupState.runStatusChanged(load.taskId, 'FAILED', async (tx) => {
          const finished = await createSeedingRepo(tx).finishLoad(load.id, {
            status: 'FAILED',
            finishedAt: now(),
            exitCodeResult: 'IO_OR_INTERRUPT_EXCEPTION',
            failureMessage: TEXT.loadInterrupted,
          });
          if (finished) failed += 1;
          return finished;
        });
      }
      return failed;
    },
  };
}

export type SeedingService = ReturnType<typeof createSeedingService>;
