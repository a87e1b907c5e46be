import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import {
  commandFinishedMessage,
  commandOutputLineMessage,
  errorMessage,
  MESSAGES,
  MIGRATION_STATUS_TEXTS,
  MIGRATION_TEXTS,
  type MigrationCreatePayload,
  type MigrationLocation,
  type MigrationStatus,
  migrationActions,
  type PackageMigrationDetail,
  type PackageMigrationRow,
  rcloneExitCodeResult,
  runStatusOfTransferResult,
  type ServerMessage,
  SYNC_STATUSES,
  SYNC_TYPE_ACTIONS,
  type SyncCommandPayload,
  type SyncType,
  type TransferResultCode,
} from '@portal/domain';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.js';
import { machineFilters, RCLONE_FLAGS, rcloneRemotes, runRclone } from '../../platform/rclone.js';
import { machinePrefix, type StorageAccess } from '../../storage/provider.js';
import { writeOutput } from '../realtime-commands/output.js';
import { createOutputRecorder } from './output.js';
import { presentMigrationDetail, presentMigrationRow } from './present.js';
import type { MigrationCommandRow, MigrationRecord, MigrationsRepo } from './repo.js';

const TEXT = MIGRATION_TEXTS;

export interface MigrationPath {
  customerId: number;
  packageId: number;
}
export interface OneMigrationPath extends MigrationPath {
  migrationId: number;
}

/** What the output of a sequence is stored through (the realtime commands' table, shared with restic's). */
export interface CommandOutputStore {
  appendOutput(id: number, lines: readonly string[]): Promise<number>;
  finish(id: number, resultCode: string, timeFinished: Date): Promise<boolean>;
  remove(id: number): Promise<void>;
}

/** A sequence this instance runs: its rclone child, and whether a provider admin asked it to stop. */
interface LocalRun {
  /** Whose lease this instance renews (renewLeases). */
  migrationId: number;
  kill(): void;
  stopRequested: boolean;
  finished: Promise<void>;
}

/** One rclone step of a sequence. */
interface Step {
  verb: 'sync' | 'check';
  args: string[];
}

/**
 * Package migrations (001 §2-§4, §7; DESIGN §7; issue 16): a package's machine repositories are copied
 * from its storage location to another with rclone run by the server, watched live over the migration's
 * queue, then finalised (the package moves) or rolled back. Nothing is deleted from the source before the
 * finalisation, which needs a final sync, with the package's tasks held, proven equal by `rclone check`.
 *
 * A sequence runs in the instance that started it, under a lease it renews; a lease left to expire (the
 * instance stopped) is found by the job and its sequence marked FAILED: rclone sync is idempotent, so
 * starting it again resumes the copy.
 */
export function createMigrationService(deps: {
  repo: MigrationsRepo;
  output: CommandOutputStore;
  storageAccess: StorageAccess;
  /** Sends a body to every browser subscribed to the migration's queue. */
  publish: (migrationId: number, body: unknown) => Promise<void>;
  /** The package's machines whose agents are connected (those told of a hold or a move now). */
  onlineMachineIds: (packageId: number) => Promise<number[]>;
  /** Sends a machine's agent its task list again (runnable flags follow the hold). */
  syncTasks: (machineId: number) => Promise<void>;
  /** Sends a machine's agent its repository settings (after a finalisation moved it). */
  sendRepository: (machineId: number) => Promise<void>;
  /**
   * Removes a moved machine's own storage users of where it was (issue 16): the source bucket's policy no
   * longer grants them, and its agent gets a key of the destination with its next settings.
   */
  removeMachineStorageUsers: (machineId: number) => Promise<void>;
  /** A storage location for the customer on the account (a storage account migration's destination). */
  createLocation: (customerId: number, storageAccountId: number) => Promise<number>;
  rclonePath: string;
  leaseMs?: number;
  instanceId?: string;
  now?: () => Date;
  log: { warn(message: string, detail?: Record<string, unknown>): void };
}) {
  const { repo } = deps;
  const now = deps.now ?? (() => new Date());
  const leaseMs = deps.leaseMs ?? 60_000;
  const instanceId = deps.instanceId ?? `portal-${randomUUID()}`;
  const runs = new Map<number, LocalRun>(); // by command row id
  const background = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    const tracked = work.catch((error: unknown) => deps.log.warn('migration work failed', { err: error }));
    background.add(tracked);
    void tracked.finally(() => background.delete(tracked));
  };

  // --- Reading ---------------------------------------------------------------------------------------

  async function packageOf(path: MigrationPath) {
    const pkg = await repo.packageIn(path.customerId, path.packageId);
    if (!pkg) throw notFound(TEXT.packageNotFound);
    return pkg;
  }

  async function migrationOf(path: OneMigrationPath) {
    const pkg = await packageOf(path);
    const migration = await repo.migrationIn(pkg.id, path.migrationId);
    if (!migration) throw notFound(TEXT.notFound);
    return { pkg, migration };
  }

  async function stateOf(migration: MigrationRecord) {
    const running = migration.leaseHolder !== null || (await repo.runningCommands(migration.id)).length > 0;
    return migrationActions({
      status: migration.status,
      finalized: migration.finalized,
      running,
      verified: migration.verifiedAt !== null,
    });
  }

  async function detailOf(migrationId: number): Promise<PackageMigrationDetail> {
    const migration = await repo.byId(migrationId);
    if (!migration) throw notFound(TEXT.notFound);
    const pkg = await repo.package(migration.backupPackageId);
    if (!pkg) throw notFound(TEXT.packageNotFound);
    const [locations, commands, actions] = await Promise.all([
      repo.locations([migration.sourceStorageLocationId, migration.destinationStorageLocationId]),
      repo.commands(migration.id),
      stateOf(migration),
    ]);
    return presentMigrationDetail({ migration, locations, backupPackage: pkg, actions, commands });
  }

  async function rowsOf(migrations: MigrationRecord[]): Promise<PackageMigrationRow[]> {
    const ids = migrations.flatMap((m) => [m.sourceStorageLocationId, m.destinationStorageLocationId]);
    const locations = await repo.locations([...new Set(ids)]);
    return migrations.map((m) => presentMigrationRow(m, locations));
  }

  const notAllowed = (what: string, migration: MigrationRecord) =>
    conflict(TEXT.actionNotAllowed(what, MIGRATION_STATUS_TEXTS[migration.status]));

  // --- Tasks held during a final sync ------------------------------------------------------------------

  async function syncPackageTasks(packageId: number) {
    const machineIds = await deps.onlineMachineIds(packageId);
    await Promise.all(machineIds.map((id) => deps.syncTasks(id).catch(() => undefined)));
  }

  async function setTasksHeld(migration: MigrationRecord, held: boolean) {
    await repo.update(migration.id, { tasksHeld: held, ...(held ? {} : { verifiedAt: null }) });
    await syncPackageTasks(migration.backupPackageId);
  }

  // --- Running sequences -----------------------------------------------------------------------------

  async function folders(migration: MigrationRecord) {
    const [source, destination] = await Promise.all([
      deps.storageAccess.locationAccess(migration.sourceStorageLocationId),
      deps.storageAccess.locationAccess(migration.destinationStorageLocationId),
    ]);
    // An empty location is an empty prefix on S3 but may be no folder at all on the embedded storage, and
    // rclone refuses a source folder that does not exist.
    if (source.provider.type === 'LOCAL') await mkdir(source.access.resticRepository, { recursive: true });
    return { source, destination };
  }

  function stepsOf(type: SyncType, from: string, to: string, machineIds: number[]): Step[] {
    const filters = machineFilters(machineIds);
    const sync: Step = {
      verb: 'sync',
      // Empty folders too: the embedded storage expects a repository's (empty) locks/ and keys/ folders.
      args: ['sync', from, to, '--create-empty-src-dirs', ...filters],
    };
    const check: Step = { verb: 'check', args: ['check', from, to, ...filters] };
    if (type === 'SYNC') return [sync];
    if (type === 'FINAL_SYNC') return [sync, check];
    return [check];
  }

  async function publishLine(migrationId: number, commandId: string, line: string, lineNumber: number) {
    await deps.publish(migrationId, commandOutputLineMessage(commandId, line, lineNumber));
  }

  /**
   * Ends a sequence this instance no longer runs (its instance stopped, a stop from another instance, this
   * instance closing): the command finished with `resultCode` and `reason` as its last line, the migration
   * in the sync's FAILED status, the lease gone and a final sync's hold released.
   */
  async function failSequence(
    migration: MigrationRecord,
    command: MigrationCommandRow,
    resultCode: TransferResultCode,
    reason: string,
    leaseHolder: string | null,
  ) {
    const time = now();
    if (await deps.output.finish(command.id, resultCode, time)) {
      await writeOutput(
        (lines) => deps.output.appendOutput(command.id, lines),
        [reason],
        (line, lineNumber) => publishLine(migration.id, command.commandId, line, lineNumber),
      );
      await deps.publish(migration.id, commandFinishedMessage(command.commandId, time, resultCode));
    }
    const failed = command.syncType === 'MISCELLANEOUS' ? migration.status : SYNC_STATUSES[command.syncType].failed;
    const releasing = command.syncType === 'FINAL_SYNC';
    const changed = await repo.update(
      migration.id,
      {
        status: failed,
        leaseHolder: null,
        leaseUntil: null,
        ...(releasing ? { tasksHeld: false, verifiedAt: null } : {}),
      },
      leaseHolder ? { leaseHolder } : {},
    );
    if (changed && releasing) await syncPackageTasks(migration.backupPackageId);
  }

  /** Runs the steps of a sequence as this instance, renewing the lease, and records how it ended. */
  function runSequence(
    migration: MigrationRecord,
    command: MigrationCommandRow,
    steps: Step[],
    env: NodeJS.ProcessEnv,
  ) {
    let child: ReturnType<typeof runRclone> | null = null;
    const local: LocalRun = {
      migrationId: migration.id,
      stopRequested: false,
      kill: () => child?.kill(),
      finished: Promise.resolve(),
    };
    const recorder = createOutputRecorder({
      append: (lines) => deps.output.appendOutput(command.id, lines),
      publish: (line, lineNumber) => publishLine(migration.id, command.commandId, line, lineNumber),
      onError: (error) => deps.log.warn('migration output not stored', { err: error, migrationId: migration.id }),
    });
    local.finished = (async () => {
      let result: TransferResultCode = 'SUCCESS';
      let verified = false;
      try {
        if (steps.length === 0) recorder.line('The backup package has no machines: nothing to copy.');
        for (const step of steps) {
          recorder.line(`$ rclone ${step.args.join(' ')}`);
          child = runRclone(deps.rclonePath, [...step.args, ...RCLONE_FLAGS], env, recorder.line);
          const code = await child.done;
          result = local.stopRequested ? 'CANCELLATION_REQUESTED' : rcloneExitCodeResult(code);
          if (runStatusOfTransferResult(result) !== 'FINISHED_SUCCESS') break;
          if (step.verb === 'check') verified = true;
        }
      } catch (error) {
        recorder.line(`The command could not be run: ${(error as Error).message}`);
        result = 'FATAL_ERROR';
      }
      await recorder.end();
      await finishSequence(migration, command, result, verified);
    })()
      .catch((error: unknown) => deps.log.warn('migration sequence failed', { err: error, migrationId: migration.id }))
      .finally(() => runs.delete(command.id));
    runs.set(command.id, local);
    track(local.finished);
  }

  async function finishSequence(
    migration: MigrationRecord,
    command: MigrationCommandRow,
    result: TransferResultCode,
    verified: boolean,
  ) {
    const time = now();
    if (await deps.output.finish(command.id, result, time)) {
      await deps.publish(migration.id, commandFinishedMessage(command.commandId, time, result));
    }
    const success = runStatusOfTransferResult(result) === 'FINISHED_SUCCESS';
    const lease = { leaseHolder: null, leaseUntil: null };
    if (command.syncType === 'MISCELLANEOUS') {
      const current = await repo.byId(migration.id);
      // A check proves the copy only while the tasks are held after a final sync; a failed one disproves it.
      const proves = success && current?.tasksHeld === true && current.status === 'FINAL_SYNC_FINISHED_SUCCESS';
      await repo.update(
        migration.id,
        { ...lease, ...(proves ? { verifiedAt: time } : success ? {} : { verifiedAt: null }) },
        { leaseHolder: instanceId },
      );
      return;
    }
    const statuses = SYNC_STATUSES[command.syncType];
    if (command.syncType === 'FINAL_SYNC' && !success) {
      const changed = await repo.update(
        migration.id,
        { ...lease, status: statuses.failed, tasksHeld: false, verifiedAt: null },
        { leaseHolder: instanceId },
      );
      if (changed) await syncPackageTasks(migration.backupPackageId);
      return;
    }
    await repo.update(
      migration.id,
      {
        ...lease,
        status: success ? statuses.success : statuses.failed,
        ...(command.syncType === 'FINAL_SYNC' ? { verifiedAt: verified ? time : null } : {}),
      },
      { leaseHolder: instanceId },
    );
  }

  /**
   * Starts a sequence of the migration: claims it (status, lease; a final sync holds the tasks first and
   * refuses while a run of the package is under way), stores the command and runs it in the background.
   * A requestId already used for this migration answers its state again (a resent submission).
   */
  async function startSequence(migration: MigrationRecord, type: SyncType, requestId: string): Promise<void> {
    const taken = await repo.commandIdTaken(requestId);
    if (taken) {
      if (taken.packageMigrationId === migration.id) return;
      throw new AppError(409, 'CANCELLABLE_COMMAND_ID_ALREADY_EXISTS', [
        errorMessage(TEXT.commandIdTaken, 'requestId', 'CANCELLABLE_COMMAND_ID_ALREADY_EXISTS'),
      ]);
    }
    const actions = await stateOf(migration);
    if (!actions[SYNC_TYPE_ACTIONS[type]])
      throw notAllowed(`start a ${type.toLowerCase().replace('_', ' ')}`, migration);

    const { source, destination } = await folders(migration);
    const machineIds = await repo.machineIds(migration.backupPackageId);
    const remotes = rcloneRemotes(source.access, destination.access);
    const steps = stepsOf(type, remotes.sourcePath, remotes.destinationPath, machineIds);
    const env = remotes.env;

    const previous = migration.status;
    const running: MigrationStatus = type === 'MISCELLANEOUS' ? previous : SYNC_STATUSES[type].running;
    const claimed = await repo.claim(
      migration.id,
      [previous],
      {
        status: running,
        leaseHolder: instanceId,
        leaseUntil: new Date(now().getTime() + leaseMs),
        ...(type === 'FINAL_SYNC' ? { tasksHeld: true } : {}),
      },
      now(),
    );
    if (!claimed) throw notAllowed(`start a ${type.toLowerCase().replace('_', ' ')}`, migration);
    const release = async () => {
      await repo.update(
        migration.id,
        { status: previous, leaseHolder: null, leaseUntil: null },
        { leaseHolder: instanceId },
      );
      if (type === 'FINAL_SYNC') await setTasksHeld(migration, false);
    };
    if (type === 'FINAL_SYNC') {
      // Held first, then checked: a run that starts after the agents heard of the hold is refused by them.
      await syncPackageTasks(migration.backupPackageId);
      if ((await repo.busyRuns(migration.backupPackageId)) > 0) {
        await release();
        throw conflict(TEXT.runsInProgress);
      }
    }
    const [first] = steps;
    const command = await repo.insertCommand({
      commandId: requestId,
      packageMigrationId: migration.id,
      syncType: type,
      baseCommand: first?.verb ?? 'sync',
      commandArguments: first ? first.args.slice(1, 3) : [],
      commandFlags: first ? first.args.slice(3) : [],
      timeStarted: now(),
    });
    if (!command) {
      // The same requestId submitted twice at once: the other submission runs it.
      await release();
      return;
    }
    runSequence(migration, command, steps, env);
  }

  /** Stops a running sequence: this instance's child is killed; another instance's is ended here. */
  async function stopCommand(migration: MigrationRecord, command: MigrationCommandRow) {
    const local = runs.get(command.id);
    if (local) {
      local.stopRequested = true;
      local.kill();
      await local.finished;
      return;
    }
    await failSequence(migration, command, 'CANCELLATION_REQUESTED', TEXT.cancelled, null);
  }

  // --- Finalisation and removals -----------------------------------------------------------------------

  /**
   * The last guard before the package moves: restic never changes a file of its repository, it adds and
   * removes them, so comparing the two listings (names and sizes, no reading) shows whether anything was
   * written at the source since the verified final sync (a machine that was not connected, say).
   */
  async function sameListing(migration: MigrationRecord): Promise<boolean> {
    const { source, destination } = await folders(migration);
    const machineIds = await repo.machineIds(migration.backupPackageId);
    if (machineIds.length === 0) return true;
    const remotes = rcloneRemotes(source.access, destination.access);
    const args = ['check', remotes.sourcePath, remotes.destinationPath, '--size-only'];
    const run = runRclone(
      deps.rclonePath,
      [...args, ...machineFilters(machineIds), ...RCLONE_FLAGS],
      remotes.env,
      () => undefined,
    );
    return rcloneExitCodeResult(await run.done) === 'SUCCESS';
  }

  async function finalize(migration: MigrationRecord): Promise<void> {
    const actions = await stateOf(migration);
    if (!actions.finalize || !migration.tasksHeld) {
      throw migration.status === 'FINAL_SYNC_FINISHED_SUCCESS'
        ? conflict(TEXT.notVerified)
        : notAllowed('be finalised', migration);
    }
    if ((await repo.busyRuns(migration.backupPackageId)) > 0) throw conflict(TEXT.runsInProgress);
    if (!(await sameListing(migration))) {
      await repo.update(migration.id, { verifiedAt: null });
      throw conflict(TEXT.sourceChanged);
    }
    if (!(await repo.finalize(migration, now()))) throw notAllowed('be finalised', migration);
    for (const machineId of await repo.machineIds(migration.backupPackageId)) {
      // The package has moved: a user left behind is reported, not a reason to undo the move.
      await deps
        .removeMachineStorageUsers(machineId)
        .catch((error: unknown) =>
          deps.log.warn('a moved machine storage user was left at the storage service', { machineId, err: error }),
        );
    }
    // The agents back up at the destination from their next run: new settings, then runnable tasks again.
    for (const machineId of await deps.onlineMachineIds(migration.backupPackageId)) {
      await deps.sendRepository(machineId).catch(() => undefined);
      await deps.syncTasks(machineId).catch(() => undefined);
    }
    track(removeSources());
  }

  /**
   * Removes the source copies of finalised migrations (a job; each step can run again): every machine
   * folder of the package at the source, unless the package has since moved back there. While a newer
   * migration of the package copies back into that location, its folders are the newer copy: the removal
   * waits (that migration's finalisation makes them the package's, its roll back removes them).
   */
  async function removeSources(): Promise<number> {
    let removed = 0;
    for (const migration of await repo.pendingSourceRemovals()) {
      const pkg = await repo.package(migration.backupPackageId);
      if (pkg && (await repo.openMigrationTo(pkg.id, migration.sourceStorageLocationId))) continue;
      if (pkg && pkg.storageLocationId !== migration.sourceStorageLocationId) {
        const { provider, bucket, prefix } = await deps.storageAccess.locationAccess(migration.sourceStorageLocationId);
        for (const machineId of await repo.machineIds(pkg.id)) {
          await provider.deletePrefix(bucket, machinePrefix(prefix, machineId));
        }
      }
      await repo.update(migration.id, { sourceRemovedAt: now() });
      removed += 1;
    }
    return removed;
  }

  // --- Use cases -----------------------------------------------------------------------------------------

  return {
    async destinations(path: MigrationPath): Promise<MigrationLocation[]> {
      const pkg = await packageOf(path);
      return (await repo.customerLocations(pkg.customerId)).filter(
        (l) => l.storageLocation.id !== pkg.storageLocationId,
      );
    },

    async create(path: MigrationPath, body: MigrationCreatePayload): Promise<PackageMigrationRow> {
      const pkg = await packageOf(path);
      if (pkg.storageLocationId === null) throw badRequest(TEXT.packageHasNoLocation);
      const destinations = await repo.customerLocations(pkg.customerId);
      const destination = body.destinationStorageLocationId;
      if (destination === pkg.storageLocationId || !destinations.some((l) => l.storageLocation.id === destination)) {
        throw badRequest(MESSAGES.migration.chooseDestinationLocation, 'destinationStorageLocationId');
      }
      const migration = await repo.insert({
        backupPackageId: pkg.id,
        sourceStorageLocationId: pkg.storageLocationId,
        destinationStorageLocationId: destination,
        createdAt: now(),
      });
      if (!migration) throw conflict(TEXT.openMigrationExists);
      const [row] = await rowsOf([migration]);
      if (!row) throw new Error('migration row not presented');
      return row;
    },

    async list(path: MigrationPath): Promise<PackageMigrationRow[]> {
      const pkg = await packageOf(path);
      return rowsOf(await repo.list(pkg.id));
    },

    async detail(path: OneMigrationPath): Promise<PackageMigrationDetail> {
      const { migration } = await migrationOf(path);
      return detailOf(migration.id);
    },

    async submit(path: OneMigrationPath, body: SyncCommandPayload): Promise<PackageMigrationDetail> {
      const { migration } = await migrationOf(path);
      await startSequence(migration, body.type, body.requestId);
      return detailOf(migration.id);
    },

    async stop(path: OneMigrationPath, commandId: string): Promise<void> {
      const { migration } = await migrationOf(path);
      const command = await repo.commandByCommandId(migration.id, commandId);
      if (!command) throw notFound(TEXT.commandNotFound);
      if (command.resultCode !== null) throw badRequest(MESSAGES.resticCommand.alreadyFinished, 'commandId');
      await stopCommand(migration, command);
    },

    async remove(path: OneMigrationPath, commandId: string): Promise<void> {
      const { migration } = await migrationOf(path);
      const command = await repo.commandByCommandId(migration.id, commandId);
      if (!command) throw notFound(TEXT.commandNotFound);
      if (command.resultCode === null) throw badRequest(MESSAGES.resticCommand.stillRunning, 'commandId');
      await deps.output.remove(command.id);
    },

    /** Cancel (001 §2): stops what runs and releases the package's tasks; the migration stays open. */
    async cancel(path: OneMigrationPath): Promise<PackageMigrationDetail> {
      const { migration } = await migrationOf(path);
      if (!(await stateOf(migration)).cancel) throw notAllowed('be cancelled', migration);
      for (const command of await repo.runningCommands(migration.id)) await stopCommand(migration, command);
      const current = (await repo.byId(migration.id)) ?? migration;
      await setTasksHeld(current, false);
      return detailOf(migration.id);
    },

    /**
     * Roll back (001 §2): what was copied to the destination (the package's machine folders there) is
     * removed, the tasks released, the migration ROLLED_BACK; the source was never touched.
     */
    async rollback(path: OneMigrationPath): Promise<PackageMigrationDetail> {
      const { pkg, migration } = await migrationOf(path);
      if (!(await stateOf(migration)).rollback) throw notAllowed('be rolled back', migration);
      if (pkg.storageLocationId === migration.destinationStorageLocationId)
        throw notAllowed('be rolled back', migration);
      const { provider, bucket, prefix } = await deps.storageAccess.locationAccess(
        migration.destinationStorageLocationId,
      );
      for (const machineId of await repo.machineIds(pkg.id)) {
        await provider.deletePrefix(bucket, machinePrefix(prefix, machineId));
      }
      if (!(await repo.update(migration.id, { status: 'ROLLED_BACK', verifiedAt: null }, { open: true }))) {
        throw notAllowed('be rolled back', migration);
      }
      await setTasksHeld(migration, false);
      return detailOf(migration.id);
    },

    async finalize(path: OneMigrationPath): Promise<PackageMigrationDetail> {
      const { migration } = await migrationOf(path);
      await finalize(migration);
      return detailOf(migration.id);
    },

    /**
     * Storage account migration (001 §2, §7): every package kept on the account gets a location for its
     * customer on the destination account and an automatic migration, which the job drives through sync,
     * final sync and check to its finalisation. Packages with an open migration already are left, each
     * named in a message; an account without packages is refused.
     */
    async migrateAccount(
      storageAccountId: number,
      destinationStorageAccountId: number,
    ): Promise<{ migrations: PackageMigrationRow[]; messages: ServerMessage[] }> {
      if (!(await repo.accountExists(storageAccountId))) throw notFound(TEXT.destinationAccountNotFound);
      if (!(await repo.accountExists(destinationStorageAccountId))) {
        throw badRequest(MESSAGES.storageAccount.chooseDestinationAccount, 'destinationStorageAccountId');
      }
      const packages = await repo.packagesOnAccount(storageAccountId);
      if (packages.length === 0) throw badRequest(TEXT.noPackagesToMigrate);
      const created: MigrationRecord[] = [];
      const messages: ServerMessage[] = [];
      const locationOf = new Map<number, number>();
      for (const pkg of packages) {
        let destination = locationOf.get(pkg.customerId);
        if (destination === undefined) {
          destination = await deps.createLocation(pkg.customerId, destinationStorageAccountId);
          locationOf.set(pkg.customerId, destination);
        }
        const migration = await repo.insert({
          backupPackageId: pkg.id,
          sourceStorageLocationId: pkg.storageLocationId,
          destinationStorageLocationId: destination,
          automatic: true,
          createdAt: now(),
        });
        if (migration) created.push(migration);
        else messages.push(errorMessage(`${TEXT.openMigrationExists} (backup package ${pkg.id})`));
      }
      track(this.drive());
      return { migrations: await rowsOf(created), messages };
    },

    /** Moves automatic migrations on one step each: sync, then final sync (+ check), then finalise. */
    async drive(): Promise<void> {
      for (const migration of await repo.automaticOpen()) {
        try {
          if ((await repo.runningCommands(migration.id)).length > 0) continue;
          const next: SyncType | 'finalize' | null =
            migration.status === 'INITIALIZED'
              ? 'SYNC'
              : migration.status === 'INITIAL_SYNC_FINISHED_SUCCESS'
                ? 'FINAL_SYNC'
                : migration.status === 'FINAL_SYNC_FINISHED_SUCCESS' && migration.verifiedAt
                  ? 'finalize'
                  : null; // failed steps wait for a provider admin
          if (next === 'finalize') await finalize(migration);
          else if (next) await startSequence(migration, next, `auto-${migration.id}-${next}-${randomUUID()}`);
        } catch (error) {
          deps.log.warn('automatic migration step not taken', { err: error, migrationId: migration.id });
        }
      }
    },

    /** Sequences whose instance stopped renewing the lease (it crashed): FAILED, to be started again. */
    async sweepExpiredLeases(): Promise<number> {
      let swept = 0;
      for (const migration of await repo.expiredLeases(now())) {
        const commands = await repo.runningCommands(migration.id);
        for (const command of commands) {
          await failSequence(migration, command, 'IO_OR_INTERRUPT_EXCEPTION', TEXT.interrupted, migration.leaseHolder);
        }
        if (commands.length === 0) {
          // Claimed, then stopped before its command was stored: nothing ran, the claim is undone.
          const status =
            migration.status === 'INITIAL_SYNC_IN_PROGRESS'
              ? SYNC_STATUSES.SYNC.failed
              : migration.status === 'FINAL_SYNC_IN_PROGRESS'
                ? SYNC_STATUSES.FINAL_SYNC.failed
                : migration.status;
          const releasing = migration.status === 'FINAL_SYNC_IN_PROGRESS';
          const changed = await repo.update(
            migration.id,
            {
              status,
              leaseHolder: null,
              leaseUntil: null,
              ...(releasing ? { tasksHeld: false, verifiedAt: null } : {}),
            },
            { leaseHolder: migration.leaseHolder ?? '' },
          );
          if (changed && releasing) await syncPackageTasks(migration.backupPackageId);
        }
        swept += 1;
      }
      return swept;
    },

    removeSources,

    /**
     * Renews the lease of every sequence this instance runs (jobs/migrations.ts, a few times per lease); one stopped
     * from another instance or swept has finished already: its child is ended.
     */
    async renewLeases(): Promise<number> {
      let renewed = 0;
      for (const [commandRowId, local] of runs) {
        try {
          const held = await repo.update(
            local.migrationId,
            { leaseUntil: new Date(now().getTime() + leaseMs) },
            { leaseHolder: instanceId },
          );
          if (held && !(await repo.commandFinished(commandRowId))) {
            renewed++;
            continue;
          }
          local.stopRequested = true;
          local.kill();
        } catch (error) {
          deps.log.warn('migration lease not renewed', { err: error });
        }
      }
      return renewed;
    },

    /** Resolves once every sequence and removal this instance started has ended (tests, shutdown). */
    async settled(): Promise<void> {
      while (background.size > 0) await Promise.all([...background]);
    },

    /** Shutting down: this instance's sequences are stopped (recorded as failed, to be started again). */
    async close(): Promise<void> {
      for (const local of runs.values()) local.kill();
      await this.settled();
    },

    instanceId,
  };
}

export type MigrationService = ReturnType<typeof createMigrationService>;
