/**
 * `portal-agent run` (DESIGN §5–6): wires the live channel, the scheduler, the backup engine and the outbox.
 *
 * - The schedule never depends on the connection: the last task list (and repository settings) are kept in the
 *   state dir, so after a restart while the portal is unreachable the tasks still run; every event goes through
 *   the outbox and reaches the portal, in order, once the channel is back.
 * - On CONNECT: `hello` first (what the machine is and which task versions it holds), then the outbox.
 * - The machine credential goes into the restic REST URL (`rest:https://{machineId}:{token}@host/…`); it is
 *   redacted from everything the engine reports and never logged here.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ActionType,
  AGENT_CHANNEL,
  AGENT_MESSAGES,
  type AgentTask,
  type AgentToServer,
  agentToServerSchema,
  awaitsSeedCreation,
  FILE_SEARCH_TEXTS,
  fileSearchRefusal,
  interruptedActionMessage,
  isPanelBackupType,
  RESTORE_TEST_TEXTS,
  type RepositorySettings,
  repositorySchema,
  type ServerToAgent,
} from '@portal/domain';
import { AgentChannel, type Log } from './channel.js';
import {
  type AgentConfig,
  CLIENT_VERSION,
  type ConnectionState,
  localTimeZone,
  machineName,
  operatingSystem,
  osFamily,
  readConnectionState,
  readStoredTasks,
  writeConnectionState,
  writePrivateFile,
  writeStoredTasks,
} from './config.js';
import { FileIndexer, FileIndexStore } from './file-index.js';
import { type FileSearchMessage, runFileSearch } from './file-search.js';
import { LogFile, logDirOf, uploadLogFiles } from './logs.js';
import { Outbox } from './outbox.js';
import { backupPanelTask, PanelNotInstalledError, panelTree } from './panels.js';
import { refusedRealtimeCommand, runRealtimeCommand } from './realtime.js';
import { failedRun, localExclusionPlatform, ResticRunner, type RunEvent, type RunFinishedEvent } from './restic.js';
import { refusedRestore, restoreTarget, runRestore } from './restore.js';
import { type RestoreTestCommand, runRestoreTest } from './restore-test.js';
import { type Clock, Scheduler } from './scheduler.js';
import { createSeed, SeedLog, seedRepositoryPath } from './seed.js';
import { listTree } from './tree.js';

export const NOT_SUPPORTED = 'not supported by this agent yet';
const NO_REPOSITORY = AGENT_MESSAGES.noRepository;

/** `rest:http(s)://host/…` with `{machineId}:{token}@` inserted; other repository strings are left alone. */
export function withMachineCredential(repository: string, machineId: number, token: string): string {
  const match = /^rest:(https?):\/\/(.*)$/i.exec(repository);
  if (!match) return repository;
  const rest = match[2] as string;
  const authority = rest.split('/')[0] ?? '';
  if (authority.includes('@')) return repository;
  return `rest:${match[1]}://${encodeURIComponent(String(machineId))}:${encodeURIComponent(token)}@${rest}`;
}

export interface AgentOptions {
  config: AgentConfig;
  /** The machine name for `hello` and restic's `--host`. */
  name?: string;
  log?: Log;
  clock?: Clock;
  resticBinary?: string;
  /** restic's cache dir; null for `--no-cache`. Default `{stateDir}/restic-cache`. */
  resticCacheDir?: string | null;
  heartBeatMs?: number;
  reconnectDelay?: (attempt: number) => number;
  receiptTimeoutMs?: number;
  /** Largest reply body, leaving room for the frame's headers. */
  maxReplyBytes?: number;
  /** Where the agent's log files are kept (default `{stateDir}/logs`); null for none. */
  logDir?: string | null;
  /** The cap of `agent.log` before it is rotated to `agent.1.log` (default 1 MiB). */
  logFileBytes?: number;
  /**
   * Where the snapshots' file indexes are kept (default `{stateDir}/file-index`, a folder per repository); null
   * for none (every search runs restic find). Windows agents keep none: restic's patterns read `\\` differently
   * there.
   */
  fileIndexDir?: string | null;
  /**
   * Where cPanel's and DirectAdmin's files are looked for (`var/cpanel/users`, ...): '/' on a real server
   * (env PORTAL_AGENT_PANEL_ROOT); tests point it at a panel's files they build.
   */
  panelRoot?: string;
}

export class Agent {
  readonly outbox: Outbox;
  readonly scheduler: Scheduler;
  readonly channel: AgentChannel;
  /** The seeds this agent made (issue #5, seeding), kept in the state dir. */
  readonly seeds: SeedLog;
  private readonly config: AgentConfig;
  private readonly name: string;
  private readonly log: Log;
  /** The agent's own log file (issue #5), uploaded on the portal's request. */
  readonly logFile: LogFile | null;
  private tasks: AgentTask[] = [];
  private timeZone: string = localTimeZone();
  private runner: ResticRunner | null = null;
  /** The repository's file indexes (README, Finding files): built after each backup, read by searches. */
  private fileIndexer: FileIndexer | null = null;
  /** runKey → taskId of every run started by this process (for cancel and for the server's run ids). */
  readonly runs = new Map<string, number>();
  private state: ConnectionState;
  /** commandId → the stop of every realtime command running now. */
  readonly realtimeCommands = new Map<number, AbortController>();
  /** searchKey → the stop of every file search running now. */
  readonly fileSearches = new Map<string, AbortController>();
  /** taskId → the stop of the restore test running for it (one per task at a time). */
  readonly restoreTests = new Map<number, AbortController>();

  constructor(private readonly options: AgentOptions) {
    this.config = options.config;
    this.name = options.name ?? machineName();
    const sink = options.log ?? ((text: string) => process.stderr.write(`${new Date().toISOString()} ${text}\n`));
    this.logFile =
      options.logDir === null
        ? null
        : new LogFile(options.logDir ?? logDirOf(this.config.stateDir), options.logFileBytes);
    // Every line is redacted once more (credential, repository password) before it reaches stderr or the file.
    this.log = (text) => {
      const safe = this.redact(text);
      sink(safe);
      this.logFile?.write(`${new Date().toISOString()} ${safe}`);
    };
    this.outbox = new Outbox({ stateDir: this.config.stateDir });
    this.seeds = new SeedLog(this.config.stateDir);
    this.scheduler = new Scheduler({
      backup: (task, runKey, emit, signal) => this.backup(task, runKey, emit, signal),
      createSeed: (task, runKey, emit, signal) => this.seed(task, runKey, emit, signal),
      emit: (event) => this.emit(event),
      newRunKey: (taskId) => {
        const runKey = randomUUID();
        this.runs.set(runKey, taskId);
        return runKey;
      },
      ...(options.clock ? { clock: options.clock } : {}),
    });
    this.channel = new AgentChannel({
      server: this.config.server,
      machineId: this.config.machineId,
      token: this.config.token,
      log: (text) => this.log(`channel: ${text}`),
      onConnected: () => this.connected(),
      onDisconnected: (reason) => this.disconnected(reason),
      onMessage: (message) => this.handle(message),
      heartBeatMs: options.heartBeatMs ?? AGENT_CHANNEL.heartBeatMs,
      ...(options.reconnectDelay ? { reconnectDelay: options.reconnectDelay } : {}),
      ...(options.receiptTimeoutMs ? { receiptTimeoutMs: options.receiptTimeoutMs } : {}),
    });
    this.state = readConnectionState(this.config.stateDir) ?? {
      connected: false,
      lastConnectedAt: null,
      lastAttemptAt: null,
      lastError: null,
    };
  }

  /** Loads what the last run left (task list, repository) and starts the schedule and the channel. */
  start(): void {
    this.reportInterruptedRuns();
    const stored = readStoredTasks(this.config.stateDir);
    if (stored) {
      this.tasks = stored.tasks;
      this.timeZone = stored.timeZone;
      this.scheduler.setTasks(stored.tasks, stored.timeZone);
      this.log(`loaded ${stored.tasks.length} task(s) from the last run`);
    }
    const repository = this.readRepository();
    if (repository) this.useRepository(repository);
    this.startSeeds();
    this.saveState({ connected: false });
    this.channel.start();
  }

  /** Graceful stop: cancels running backups cleanly (restic removes its lock), delivers what it can, closes. */
  async stop(flushMs = 5_000): Promise<void> {
    for (const test of this.restoreTests.values()) test.abort();
    await this.scheduler.stop(true);
    await this.fileIndexer?.stop();
    if (this.channel.connected && this.outbox.pending().length > 0) {
      await Promise.race([this.outbox.pump(), new Promise((resolve) => setTimeout(resolve, flushMs).unref())]);
    }
    await this.channel.stop();
    await this.outbox.setTransport(null);
    this.outbox.close();
    this.saveState({ connected: false });
  }

  /** Queues an event for the portal (validated; an invalid one is logged and dropped). */
  emit(event: AgentToServer): void {
    const checked = agentToServerSchema.safeParse(event);
    if (!checked.success) {
      this.log(`not sending an invalid ${String(event.type)} event: ${checked.error.issues[0]?.message ?? ''}`);
      return;
    }
    this.outbox.push(checked.data);
  }

  nextRuns(): Array<{ task: AgentTask; next: Date | null }> {
    return this.tasks.map((task) => ({ task, next: this.scheduler.nextRun(task.id) }));
  }

  // --- Connection ------------------------------------------------------------------------------------

  private async connected(): Promise<void> {
    this.log(`connected to ${this.config.server} as machine ${this.config.machineId}`);
    this.saveState({ connected: true, lastConnectedAt: new Date().toISOString(), lastError: null });
    await this.channel.send({
      type: 'hello',
      name: this.name,
      osFamily: osFamily(),
      operatingSystem: operatingSystem(),
      clientVersion: CLIENT_VERSION,
      timeZone: localTimeZone(),
      taskVersions: Object.fromEntries(this.tasks.map((t) => [String(t.id), t.version])),
      runningRunKeys: this.accountedRunKeys(),
    });
    const queued = this.outbox.pending().length;
    if (queued > 0) this.log(`delivering ${queued} queued event(s)`);
    await this.outbox.setTransport((event) => this.channel.send(event));
  }

  /**
   * The runs this agent still accounts for, for `hello`: the ones it is running and the ones whose events
   * are still in the outbox (their outcome is on its way). The portal fails any other busy run of the
   * machine as interrupted.
   */
  accountedRunKeys(): string[] {
    const keys = new Set(this.runs.keys());
    for (const event of this.outbox.pending()) {
      if ('runKey' in event && typeof event.runKey === 'string') keys.add(event.runKey);
    }
    return [...keys];
  }

  /**
   * A run whose start is still queued but whose end is not was cut off when the last agent process died
   * (killed, crash, power loss): its outcome is reported now, before anything else runs, so the portal
   * never keeps it busy. (Runs whose start was already delivered are failed by the portal on `hello`.)
   */
  private reportInterruptedRuns(): void {
    const started = new Map<string, ActionType>();
    for (const event of this.outbox.pending()) {
      if (event.type === 'runStarted') started.set(event.runKey, event.actionType ?? 'BACKUP_RUN');
      if (event.type === 'runFinished') started.delete(event.runKey);
    }
    for (const [runKey, actionType] of started) {
      if (this.runs.has(runKey)) continue;
      this.log(`run ${runKey} was interrupted by the agent's last stop: reporting it failed`);
      this.emit({
        type: 'runFinished',
        runKey,
        status: 'FAILED',
        exitCodeResult: 'IO_OR_INTERRUPT_EXCEPTION',
        finishedAt: new Date().toISOString(),
        failureMessage: interruptedActionMessage(actionType),
        snapshotId: null,
        bytesAdded: null,
        bytesTotal: null,
      });
    }
  }

  private disconnected(reason: string): void {
    void this.outbox.setTransport(null);
    if (this.state.connected) this.log(`disconnected: ${reason}`);
    else this.log(`cannot connect: ${reason}`);
    this.saveState({ connected: false, lastError: reason });
  }

  private saveState(change: Partial<ConnectionState>): void {
    this.state = { ...this.state, ...change, lastAttemptAt: new Date().toISOString() };
    try {
      writeConnectionState(this.config.stateDir, this.state);
    } catch (error) {
      this.log(`cannot write the connection state: ${String(error)}`);
    }
  }

  // --- Commands --------------------------------------------------------------------------------------

  /** Handles one command from the portal; never throws. */
  handle(message: ServerToAgent): void {
    void this.dispatch(message).catch((error: unknown) => {
      this.log(`handling ${message.type} failed: ${this.redact(String(error))}`);
      if ('requestId' in message && message.type !== 'reply') {
        this.reply(message.requestId, false, [`The agent failed: ${this.redact(String(error)).slice(0, 3900)}`]);
      }
    });
  }

  private async dispatch(message: ServerToAgent): Promise<void> {
    switch (message.type) {
      case 'tasks': {
        this.tasks = message.tasks;
        this.timeZone = message.timeZone;
        this.scheduler.setTasks(message.tasks, message.timeZone);
        writeStoredTasks(this.config.stateDir, { tasks: message.tasks, timeZone: message.timeZone });
        this.log(`received ${message.tasks.length} task(s) (time zone ${message.timeZone})`);
        this.startSeeds();
        return;
      }
      case 'repository': {
        this.useRepository(message.settings);
        this.saveRepository(message.settings);
        this.log('received the repository settings');
        this.startSeeds();
        return;
      }
      case 'startTask': {
        const result = this.scheduler.startTask(message.taskId, message.requestId);
        if (result.ok) this.reply(message.requestId, true, [], { runKey: result.runKey });
        else this.reply(message.requestId, false, [result.reason]);
        return;
      }
      case 'cancelRun': {
        const cancelled = this.scheduler.cancelRun(message.taskId);
        this.reply(message.requestId, cancelled, cancelled ? [] : [`Task ${message.taskId} is not running.`]);
        return;
      }
      case 'restoreRun': {
        const refused = this.runner ? refusedRestore(message, localExclusionPlatform()) : NO_REPOSITORY;
        const result = refused
          ? { ok: false as const, reason: refused }
          : this.scheduler.startRestore(
              message.taskId,
              (_task, runKey, emit, signal) =>
                this.withRunner(runKey, (runner) =>
                  runRestore(runner, message, runKey, emit, { signal, platform: localExclusionPlatform() }),
                ),
              message.requestId,
            );
        if (result.ok) {
          this.log(`restoring run ${message.runId} of task ${message.taskId} to ${restoreTarget(message)}`);
          this.reply(message.requestId, true, [], { runKey: result.runKey });
        } else this.reply(message.requestId, false, [result.reason]);
        return;
      }
      case 'treeItems': {
        const listing = await this.treeListing(message);
        if (listing === null) return;
        const limit = this.options.maxReplyBytes ?? AGENT_CHANNEL.maxFrameBytes - 4096;
        let items = listing.treeItems;
        const messages: string[] = [];
        const size = (list: unknown[]) => Buffer.byteLength(JSON.stringify(list));
        if (size(items) > limit) {
          const total = items.length;
          let keep = Math.floor((items.length * limit) / size(items));
          while (keep > 0 && size(items.slice(0, keep)) > limit - 200) keep = Math.floor(keep * 0.9);
          items = items.slice(0, keep);
          messages.push(`Only the first ${keep} of ${total} items are listed.`);
        }
        this.reply(message.requestId, true, messages, { treeItems: items });
        return;
      }
      case 'refreshStorage': {
        await this.refreshStorage(message.requestId);
        return;
      }
      case 'realtimeCommand': {
        this.startRealtimeCommand(message);
        return;
      }
      case 'stopRealtimeCommand': {
        const running = this.realtimeCommands.get(message.commandId);
        running?.abort();
        this.reply(
          message.requestId,
          Boolean(running),
          running ? [] : [`Command ${message.commandId} is not running on this machine.`],
        );
        return;
      }
      case 'fileSearch': {
        this.startFileSearch(message);
        return;
      }
      case 'stopFileSearch': {
        const running = this.fileSearches.get(message.searchKey);
        running?.abort();
        this.reply(message.requestId, Boolean(running), running ? [] : [FILE_SEARCH_TEXTS.notRunning]);
        return;
      }
      case 'restoreTest': {
        this.startRestoreTest(message);
        return;
      }
      case 'uploadLogFiles': {
        await this.uploadLogs(message.requestId, message.includeUpdaterLogs);
        return;
      }
      case 'reply': {
        // The server's answer to a runStarted (its run id) or another event: nothing to do yet.
        return;
      }
      default: {
        // A command a newer portal knows and this agent does not.
        const other = message as { type: string; requestId: string };
        this.reply(other.requestId, false, [`${other.type} is ${NOT_SUPPORTED}.`]);
      }
    }
  }

  /**
   * The items a task dialog's tree asks for: the hosting accounts for a cPanel / DirectAdmin task, else the
   * folder's files. A machine without the panel is answered with a message saying so (null: replied).
   */
  private async treeListing(message: Extract<ServerToAgent, { type: 'treeItems' }>) {
    if (!isPanelBackupType(message.backupType)) return listTree(message.path, message.includeHidden);
    try {
      return await panelTree(message.backupType, this.panelRoot());
    } catch (error) {
      if (!(error instanceof PanelNotInstalledError)) throw error;
      this.reply(message.requestId, false, [error.message]);
      return null;
    }
  }

  private panelRoot(): string {
    return this.options.panelRoot ?? '/';
  }

  /** Uploads the agent's log files to the portal (issue #5) and replies with what was uploaded or failed. */
  private async uploadLogs(requestId: string, includeUpdaterLogs: boolean): Promise<void> {
    if (!this.logFile) {
      this.reply(requestId, false, ['This agent keeps no log files.']);
      return;
    }
    this.log(`uploading the log files${includeUpdaterLogs ? ' (with updater logs)' : ''}`);
    const { uploaded, failures } = await uploadLogFiles({
      server: this.config.server,
      machineId: this.config.machineId,
      token: this.config.token,
      dir: this.logFile.dir,
      includeUpdaterLogs,
    });
    const problems = failures.map((failure) => this.redact(`Could not upload ${failure}`));
    for (const problem of problems) this.log(problem);
    if (problems.length > 0) {
      this.reply(requestId, false, problems.slice(0, 50));
      return;
    }
    this.log(`uploaded ${uploaded.length > 0 ? uploaded.join(', ') : 'no log files (there are none yet)'}`);
    this.reply(requestId, true, uploaded.length > 0 ? [] : ['There are no log files to upload.'], { uploaded });
  }

  private reply(requestId: string, success: boolean, messages: string[], payload?: unknown): void {
    this.emit({
      type: 'reply',
      requestId,
      success,
      messages: messages.map((m) => m.slice(0, 4000)),
      ...(payload === undefined ? {} : { payload }),
    });
  }

  /** Starts a realtime restic command (issue #5): replies at once, then streams its output and finish. */
  private startRealtimeCommand(message: Extract<ServerToAgent, { type: 'realtimeCommand' }>): void {
    const runner = this.runner;
    if (!runner) {
      this.reply(message.requestId, false, [NO_REPOSITORY]);
      return;
    }
    if (this.realtimeCommands.has(message.commandId)) {
      this.reply(message.requestId, false, ['Command with given ID already exists']);
      return;
    }
    const refused = refusedRealtimeCommand(message);
    if (refused) {
      this.reply(message.requestId, false, [refused]);
      return;
    }
    const stop = new AbortController();
    this.realtimeCommands.set(message.commandId, stop);
    this.reply(message.requestId, true, []);
    this.log(`running realtime command ${message.commandId}: restic ${message.baseCommand}`);
    void runRealtimeCommand(runner, message, (event) => this.emit(event), { signal: stop.signal }).finally(() =>
      this.realtimeCommands.delete(message.commandId),
    );
  }

  /** Starts a file search (issue 31): replies at once, then streams its matches and finish. */
  private startFileSearch(message: FileSearchMessage): void {
    const runner = this.runner;
    const refused = runner
      ? this.fileSearches.has(message.searchKey)
        ? FILE_SEARCH_TEXTS.alreadyRunning
        : fileSearchRefusal(message)
      : NO_REPOSITORY;
    if (refused || !runner) {
      this.reply(message.requestId, false, [refused ?? NO_REPOSITORY]);
      return;
    }
    const stop = new AbortController();
    this.fileSearches.set(message.searchKey, stop);
    this.reply(message.requestId, true, []);
    this.log(`searching the snapshots of task(s) ${message.taskIds.join(', ')} for ${message.pattern}`);
    void runFileSearch(runner, message, (event) => this.emit(event), {
      signal: stop.signal,
      index: this.fileIndexer,
    }).finally(() => this.fileSearches.delete(message.searchKey));
  }

  /**
   * Starts a restore test (issue 32): replies at once, then restores a sample of the task's latest snapshot into
   * its own scratch folder under the state dir, checks it and sends the result.
   */
  private startRestoreTest(message: RestoreTestCommand): void {
    const runner = this.runner;
    const refused = !runner
      ? NO_REPOSITORY
      : this.restoreTests.has(message.taskId)
        ? RESTORE_TEST_TEXTS.alreadyRunningOnMachine
        : null;
    if (refused || !runner) {
      this.reply(message.requestId, false, [refused ?? NO_REPOSITORY]);
      return;
    }
    const stop = new AbortController();
    this.restoreTests.set(message.taskId, stop);
    this.reply(message.requestId, true, []);
    this.log(`testing a restore of task ${message.taskId} (${message.maxFiles} file(s) at most)`);
    void runRestoreTest(runner, message, {
      scratchRoot: join(this.config.stateDir, 'restore-tests'),
      platform: localExclusionPlatform(),
      signal: stop.signal,
    })
      .then((finished) => {
        this.log(
          `restore test of task ${message.taskId}: ${finished.outcome}, ${finished.filesTested} file(s), ` +
            `${finished.mismatchCount} mismatch(es)${finished.message ? `: ${finished.message}` : ''}`,
        );
        this.emit(finished);
      })
      .finally(() => this.restoreTests.delete(message.taskId));
  }

  private async refreshStorage(requestId: string): Promise<void> {
    const runner = this.runner;
    if (!runner) {
      this.reply(requestId, false, [NO_REPOSITORY]);
      return;
    }
    const out: string[] = [];
    const err: string[] = [];
    // A measurement only reads the index: without a lock it neither waits for nor fails on a running backup's
    // or check's lock (a check's is exclusive), and writes nothing to the repository.
    const exit = await runner.call({
      args: ['stats', '--no-lock', '--json', '--mode', 'raw-data'],
      onStdoutLine: (line) => out.push(line),
      onStderrLine: (line) => err.push(line),
    });
    let used: number | null = null;
    if (exit.code === 0) {
      try {
        const stats = JSON.parse(out.join('\n')) as { total_size?: unknown };
        if (typeof stats.total_size === 'number' && stats.total_size >= 0) used = Math.round(stats.total_size);
      } catch {
        // reported below
      }
    }
    if (used === null) {
      const why = runner.redact(
        err
          .filter((l) => l.trim() !== '')
          .slice(-3)
          .join(' ') || `exit code ${exit.code}`,
      );
      const text = AGENT_MESSAGES.storageUnreadable(why).slice(0, 4000);
      this.reply(requestId, false, [text]);
      // The portal answered the refresh at once, so the machine's message log is where its admin reads why.
      this.emit({
        type: 'messages',
        runKey: null,
        taskId: null,
        messages: [{ type: 'ERROR', text, time: new Date().toISOString() }],
      });
      return;
    }
    this.reply(requestId, true, [], { usedSpaceBytes: used });
    this.emit({ type: 'usage', usedSpaceBytes: used });
  }

  // --- Backups ---------------------------------------------------------------------------------------

  private backup(
    task: AgentTask,
    runKey: string,
    emit: (event: RunEvent) => void,
    signal: AbortSignal,
  ): Promise<RunFinishedEvent> {
    if (!isPanelBackupType(task.type)) {
      return this.withRunner(runKey, (runner) => runner.backup(task, runKey, emit, signal));
    }
    const clock = this.options.clock;
    return this.withRunner(runKey, (runner) =>
      backupPanelTask(runner, task, runKey, emit, signal, {
        root: this.panelRoot(),
        now: () => new Date(clock ? clock.now() : Date.now()),
      }),
    );
  }

  /**
   * Runs `work` with the repository's runner (a FAILED run until the settings arrive) and forgets the run. A run
   * that made a snapshot has its files indexed in the background, after the run has been reported.
   */
  private async withRunner(
    runKey: string,
    work: (runner: ResticRunner) => Promise<RunFinishedEvent>,
  ): Promise<RunFinishedEvent> {
    try {
      const finished = this.runner ? await work(this.runner) : failedRun(runKey, NO_REPOSITORY);
      if (finished.snapshotId) setImmediate(() => this.fileIndexer?.kick());
      return finished;
    } finally {
      this.runs.delete(runKey);
    }
  }

  /** Resolves once no file index is being built (tests). */
  fileIndexIdle(): Promise<void> {
    return this.fileIndexer?.idle() ?? Promise.resolve();
  }

  // --- Seeding (issue #5; README, Seeding) -----------------------------------------------------------

  /**
   * Makes the seed of every task awaiting one whose seed (of this task version) this agent has not made
   * yet: when a task list or the repository settings arrive, and at start. A failed attempt is tried again
   * the next time; a made one never (seeds.json).
   */
  private startSeeds(): void {
    if (!this.runner) return;
    for (const task of this.tasks) {
      if (!awaitsSeedCreation(task) || this.seeds.has(task) || this.scheduler.isRunning(task.id)) continue;
      this.scheduler.startSeed(task.id);
    }
  }

  private seed(
    task: AgentTask,
    runKey: string,
    emit: (event: RunEvent) => void,
    signal: AbortSignal,
  ): Promise<RunFinishedEvent> {
    return this.withRunner(runKey, async (runner) => {
      const repository = seedRepositoryPath(task, this.config.machineId);
      this.log(`creating the seed of task ${task.id} in ${repository}`);
      const finished = await createSeed(runner, task, this.config.machineId, runKey, emit, signal);
      if (finished.status === 'FAILED') {
        this.log(`the seed of task ${task.id} failed: ${finished.failureMessage ?? finished.exitCodeResult}`);
        return finished;
      }
      this.seeds.record({
        taskId: task.id,
        version: task.version,
        repository,
        snapshotId: finished.snapshotId,
        createdAt: finished.finishedAt,
      });
      this.log(`the seed of task ${task.id} is ready in ${repository}: ship the disk to the portal`);
      return finished;
    });
  }

  private useRepository(settings: RepositorySettings): void {
    void this.fileIndexer?.stop();
    this.runner = new ResticRunner({
      repository: {
        repository: withMachineCredential(settings.repository, this.config.machineId, this.config.token),
        password: settings.password,
        ...(settings.env ? { env: settings.env } : {}),
      },
      host: this.name,
      ...(this.options.resticBinary ? { binary: this.options.resticBinary } : {}),
      cacheDir:
        this.options.resticCacheDir === undefined
          ? join(this.config.stateDir, 'restic-cache')
          : this.options.resticCacheDir,
    });
    const indexes =
      this.options.fileIndexDir === undefined
        ? process.platform === 'win32'
          ? null
          : join(this.config.stateDir, 'file-index')
        : this.options.fileIndexDir;
    // One folder per repository (its address without the machine credential, hashed): a new one starts empty.
    const folder = createHash('sha256').update(settings.repository).digest('hex').slice(0, 16);
    this.fileIndexer = indexes
      ? new FileIndexer(new FileIndexStore(join(indexes, folder)), this.runner, (text) => this.log(text))
      : null;
  }

  private redact(text: string): string {
    const redacted = this.runner ? this.runner.redact(text) : text;
    return redacted.split(this.config.token).join('***');
  }

  /** The repository as the portal sent it (without the machine credential), 0600, for offline restarts. */
  private saveRepository(settings: RepositorySettings): void {
    writePrivateFile(join(this.config.stateDir, 'repository.json'), `${JSON.stringify(settings)}\n`);
  }

  private readRepository(): RepositorySettings | null {
    try {
      const parsed = repositorySchema.safeParse(
        JSON.parse(readFileSync(join(this.config.stateDir, 'repository.json'), 'utf8')),
      );
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
}

// --- One agent per state dir -----------------------------------------------------------------------------

/** Takes `{stateDir}/run.pid`; false when another live agent holds it. */
export function takeRunLock(stateDir: string): boolean {
  const file = join(stateDir, 'run.pid');
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid) {
      try {
        process.kill(pid, 0);
        return false;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EPERM') return false;
      }
    }
  } catch {
    // no lock yet
  }
  writeFileSync(file, `${process.pid}\n`, { mode: 0o600 });
  return true;
}

export function releaseRunLock(stateDir: string): void {
  rmSync(join(stateDir, 'run.pid'), { force: true });
}
