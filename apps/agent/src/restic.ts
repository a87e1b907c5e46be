/**
 * The agent's backup engine (DESIGN §6): runs restic 0.14 for a task against the machine's repository and
 * turns its `--json` output into the run events of the agent protocol (runProgress, messages, runFinished).
 *
 * - restic is spawned directly (never through a shell), with the repository and its password in the
 *   environment only (RESTIC_REPOSITORY / RESTIC_PASSWORD): the password never appears on a command line, and
 *   every text that leaves this module passes through {@link Redactor}.
 * - The repository is created (`restic init`) the first time it is found missing (`restic cat config`).
 * - Exit codes map through the domain's runOutcomeOfResticExit; restic missing or not executable is a FAILED
 *   run with a clear failure message, never an exception.
 * - Cancel: SIGINT (restic removes its locks and exits), SIGTERM after a grace period, then `restic unlock`
 *   (clearStaleLocks) to clear a lock a killed restic may have left.
 * - Nothing else is ever deleted: the machine's key may delete only lock files (issue 16); retention and
 *   pruning run on the portal.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { constants, setPriority } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { createInterface } from 'node:readline';
import { getSystemErrorName } from 'node:util';
import {
  type AgentTask,
  type AgentToServer,
  type ExclusionPlatform,
  InvalidExclusionError,
  type MessageType,
  type RepositorySettings,
  type ResticBackupSummary,
  RUN_REPORT_TEXTS,
  readResticProgress,
  readResticSummary,
  resticExcludeArgs,
  resticTaskTag,
  runOutcomeOfResticExit,
  type TransferPhase,
  uploadLimitKiB,
} from '@portal/domain';

export type RunProgressEvent = Extract<AgentToServer, { type: 'runProgress' }>;
export type MessagesEvent = Extract<AgentToServer, { type: 'messages' }>;
export type RunFinishedEvent = Extract<AgentToServer, { type: 'runFinished' }>;
/** What a run reports while it goes: progress and messages (runStarted / runFinished are the scheduler's). */
export type RunEvent = RunProgressEvent | MessagesEvent;

export interface ResticRunnerOptions {
  repository: RepositorySettings;
  /** The machine name, recorded as the snapshots' host (`--host`). */
  host: string;
  /** The restic executable: a path or a name looked up on PATH. Default 'restic'. */
  binary?: string;
  /**
   * Seeding (README, Seeding): `restic init` of this repository copies the chunker parameters of the
   * runner's repository (`--copy-chunker-params`), creating that one first when it is missing, so data
   * copied from this repository into that one later deduplicates with its backups.
   */
  initFrom?: ResticRunner;
  /** What the repository is called in failure messages. Default 'repository'. */
  label?: string;
  /** restic's cache directory (under the agent's state dir); null runs with `--no-cache`. Default: restic's own. */
  cacheDir?: string | null;
  /** The environment restic starts from (default process.env); restic's own variables are replaced. */
  env?: NodeJS.ProcessEnv;
  /** How exclusions are read; default from the platform the agent runs on. */
  platform?: ExclusionPlatform;
  /** Time between SIGINT and SIGTERM when a run is cancelled. Default 10 s. */
  cancelGraceMs?: number;
  /** At most one runProgress event per this many ms. Default 250 (4 per second). */
  progressIntervalMs?: number;
  /** At most this many messages per run; the rest are counted in one last message. Default 1000. */
  maxMessagesPerRun?: number;
  now?: () => Date;
}

/** restic's exit and what it printed; `spawnError` when it could not be started at all. */
export interface ResticExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  spawnError: NodeJS.ErrnoException | null;
  cancelled: boolean;
}

export interface ResticCallOptions {
  args: readonly string[];
  /** Added to restic's environment for this call. */
  env?: Readonly<Record<string, string>>;
  onStdoutLine?: (line: string) => void;
  /** Instead of lines: stdout's text as it arrives (output that is one long line, such as `find --json`'s). */
  onStdoutText?: (text: string) => void;
  onStderrLine?: (line: string) => void;
  signal?: AbortSignal;
  /** Background work (a snapshot's file index): restic runs at the lowest CPU priority, so backups go first. */
  lowPriority?: boolean;
}

/**
 * Removes the repository password (and the password inside a repository URL, and the secrets of the
 * repository's environment) from any text.
 */
export class Redactor {
  private readonly secrets: string[];
  constructor(...repositories: RepositorySettings[]) {
    const secrets: string[] = [];
    for (const settings of repositories) {
      secrets.push(settings.password);
      const userinfo = /^[a-z0-9]+:[a-z+]+:\/\/[^/:@]*:([^@/]+)@/i.exec(settings.repository);
      if (userinfo?.[1]) secrets.push(userinfo[1], safeDecode(userinfo[1]));
      // The storage key's secret of an S3 repository (issue 16), and anything else named like a secret.
      for (const [name, value] of Object.entries(settings.env ?? {})) {
        if (/SECRET|PASSWORD|TOKEN/.test(name)) secrets.push(value);
      }
    }
    this.secrets = [...new Set(secrets.filter((s) => s.length >= 3))].sort((a, b) => b.length - a.length);
  }
  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join('***');
    return out;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The task's upload limit for `--limit-upload`: the domain's rule (the task page shows the same figure). */
export { uploadLimitKiB };

export const taskTag = resticTaskTag;

/** The exclusion platform of the process the agent runs in. */
export const localExclusionPlatform = (): ExclusionPlatform => (process.platform === 'win32' ? 'WINDOWS' : 'UNIX');

/**
 * The `restic backup` arguments of a task, paths last after `--`. Throws InvalidExclusionError (from the
 * domain mapping) for an exclusion the forms should have rejected: excluding nothing silently is worse.
 */
export function backupArgs(
  task: AgentTask,
  host: string,
  platform: ExclusionPlatform,
  part: BackupPart = { paths: backupPaths(task), tags: [] },
): string[] {
  const args = ['backup', '--json', '--host', host, '--tag', taskTag(task.id)];
  for (const tag of part.tags) args.push('--tag', tag);
  const limit = uploadLimitKiB(task.uploadBandwidthLimit, task.uploadBandwidthLimitUnit);
  if (limit !== null) args.push('--limit-upload', String(limit));
  if (task.volumeSnapshotsEnabled && platform === 'WINDOWS') args.push('--use-fs-snapshot');
  args.push(...resticExcludeArgs(task.exclusions, platform));
  args.push('--', ...part.paths);
  return args;
}

/**
 * One snapshot of a run that makes several (a cPanel / DirectAdmin task: one per account): its paths and the
 * tags it has besides the task's.
 */
export interface BackupPart {
  paths: string[];
  tags: string[];
}

export function backupPaths(task: AgentTask): string[] {
  return task.backupItems.filter((i) => i.type === 'DIRECTORY' || i.type === 'FILE').map((i) => i.path);
}

/** A glob-escaped literal path for `restic restore --include` (Unix: `\` escapes `* ? [ \`). */
export function literalIncludePattern(path: string, platform: ExclusionPlatform): string {
  return platform === 'WINDOWS' ? path : path.replace(/[\\*?[]/g, '\\$&');
}

/** The runFinished event of a run that failed before restic could do anything. */
export function failedRun(
  runKey: string,
  failureMessage: string,
  exitCodeResult: RunFinishedEvent['exitCodeResult'] = 'FATAL',
  finishedAt = new Date(),
): RunFinishedEvent {
  return {
    type: 'runFinished',
    runKey,
    status: 'FAILED',
    exitCodeResult,
    finishedAt: finishedAt.toISOString(),
    failureMessage: truncate(failureMessage, 4000),
    snapshotId: null,
    bytesAdded: null,
    bytesTotal: null,
  };
}

/** restic 0.14 `--json` backup messages (only the fields read here; the run report's in the domain's run-report.ts). */
interface ResticStatus {
  message_type: 'status';
  percent_done?: number;
  total_files?: number;
  files_done?: number;
  total_bytes?: number;
  bytes_done?: number;
  seconds_elapsed?: number;
  seconds_remaining?: number;
}
interface ResticError {
  message_type: 'error';
  error?: unknown;
  during?: string;
  item?: string;
}

const int = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.max(0, Math.round(value)) : 0;

/** A readable text for restic's JSON error object (`{"Op":"open","Path":"/x","Err":13}`). */
export function describeResticError(message: ResticError): string {
  const error = message.error;
  let text: string;
  if (error && typeof error === 'object') {
    const e = error as { Op?: unknown; Path?: unknown; Err?: unknown; message?: unknown };
    const cause =
      typeof e.Err === 'number' ? errnoText(e.Err) : typeof e.Err === 'string' ? e.Err : JSON.stringify(e.Err ?? error);
    text = typeof e.Op === 'string' ? `${e.Op} ${String(e.Path ?? message.item ?? '')}: ${cause}` : cause;
    if (typeof e.message === 'string') text = e.message;
  } else {
    text = typeof error === 'string' ? error : 'unknown error';
  }
  if (message.item && !text.includes(message.item)) text = RUN_REPORT_TEXTS.fileWarning(message.item, text);
  return message.during ? `${text} (during ${message.during})` : text;
}

function errnoText(errno: number): string {
  try {
    return `${getSystemErrorName(-errno)} (errno ${errno})`;
  } catch {
    return `errno ${errno}`;
  }
}

/** Classifies a plain (non-JSON) stderr line of restic. */
export function classifyStderr(line: string): MessageType {
  if (/^(Fatal|panic|error)\b/i.test(line)) return 'ERROR';
  return 'WARNING';
}

/** How long clearing stale locks after a cancel may take (SIGINT, then SIGTERM after the grace period). */
const UNLOCK_TIMEOUT_MS = 30_000;

const REPOSITORY_MISSING = /unable to open config file|Is there a repository at the following location/i;

/** Runs restic for the machine's repository; one instance per repository. */
export class ResticRunner {
  private readonly binary: string;
  private readonly redactor: Redactor;
  private readonly platform: ExclusionPlatform;
  private readonly now: () => Date;
  private repositoryReady: Promise<void> | null = null;

  constructor(private readonly options: ResticRunnerOptions) {
    this.binary = options.binary ?? 'restic';
    this.redactor = new Redactor(
      options.repository,
      ...(options.initFrom ? [options.initFrom.options.repository] : []),
    );
    this.platform = options.platform ?? localExclusionPlatform();
    this.now = options.now ?? (() => new Date());
  }

  redact(text: string): string {
    return this.redactor.redact(text);
  }

  /**
   * A runner for a seed repository at `repository` (a path on the seed disk): same password, host, restic
   * and cache as this one; its `restic init` copies this repository's chunker parameters.
   */
  seedRunner(repository: string): ResticRunner {
    return new ResticRunner({
      ...this.options,
      repository: { repository, password: this.options.repository.password },
      initFrom: this,
      label: `seed repository ${repository}`,
    });
  }

  private env(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...(this.options.env ?? process.env) };
    for (const key of Object.keys(env)) if (key.startsWith('RESTIC_')) delete env[key];
    // The repository's own environment (an S3 location's key: AWS_*) replaces any inherited value.
    Object.assign(env, this.options.repository.env ?? {});
    env.RESTIC_REPOSITORY = this.options.repository.repository;
    env.RESTIC_PASSWORD = this.options.repository.password;
    // restic prints JSON status 60 times a second; 4 is all the portal shows.
    env.RESTIC_PROGRESS_FPS = '4';
    return env;
  }

  private globalArgs(): string[] {
    const { cacheDir } = this.options;
    if (cacheDir === null) return ['--no-cache'];
    if (cacheDir !== undefined) return ['--cache-dir', cacheDir];
    return [];
  }

  /**
   * After a cancelled command: a stopped restic should remove its own lock, but one killed after the grace
   * period (or whose removal did not reach the repository) leaves it behind, and some locks are exclusive (a
   * `check`'s): every later command would fail. `unlock` removes stale locks only: this host's whose process is
   * gone, and any not refreshed for 30 minutes (restic refreshes a live one every 5), so a running backup keeps
   * its. Bounded, since a repository that hangs is often why the command was stopped.
   */
  async clearStaleLocks(): Promise<void> {
    await this.call({ args: ['unlock'], signal: AbortSignal.timeout(UNLOCK_TIMEOUT_MS) });
  }

  /** Runs one restic command; never rejects. Lines are passed on as they arrive. */
  call({
    args,
    env,
    onStdoutLine,
    onStdoutText,
    onStderrLine,
    signal,
    lowPriority,
  }: ResticCallOptions): Promise<ResticExit> {
    return new Promise((resolve) => {
      let cancelled = false;
      let child: ChildProcess;
      try {
        child = spawn(this.binary, [...this.globalArgs(), ...args], {
          env: { ...this.env(), ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
          windowsHide: true,
        });
      } catch (error) {
        resolve({ code: null, signal: null, spawnError: error as NodeJS.ErrnoException, cancelled: false });
        return;
      }
      if (lowPriority && child.pid !== undefined) lowerPriority(child.pid);
      let spawnError: NodeJS.ErrnoException | null = null;
      let graceTimer: NodeJS.Timeout | null = null;
      const onAbort = () => {
        if (cancelled) return;
        cancelled = true;
        child.kill('SIGINT');
        graceTimer = setTimeout(() => child.kill('SIGTERM'), this.options.cancelGraceMs ?? 10_000);
        graceTimer.unref?.();
      };
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
      const streams: Promise<void>[] = [];
      if (onStdoutText && child.stdout) {
        const stdout = child.stdout.setEncoding('utf8');
        stdout.on('data', (text: string) => onStdoutText(text));
        streams.push(new Promise((done) => stdout.once('close', () => done())));
      }
      for (const [stream, handler] of [
        [onStdoutText ? null : child.stdout, onStdoutLine],
        [child.stderr, onStderrLine],
      ] as const) {
        if (!stream) continue;
        const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
        lines.on('line', (line) => handler?.(line));
        streams.push(new Promise((done) => lines.once('close', () => done())));
      }
      child.once('error', (error: NodeJS.ErrnoException) => {
        spawnError = error;
      });
      child.once('close', (code, exitSignal) => {
        if (graceTimer) clearTimeout(graceTimer);
        signal?.removeEventListener('abort', onAbort);
        void Promise.all(streams).then(() => resolve({ code, signal: exitSignal, spawnError, cancelled }));
      });
    });
  }

  /** A failure text for a restic that could not be started. */
  spawnFailure(error: NodeJS.ErrnoException): string {
    if (error.code === 'ENOENT') return `restic was not found (${this.binary}): install restic 0.14 or later`;
    if (error.code === 'EACCES') return `restic could not be started (${this.binary}): permission denied`;
    return `restic could not be started (${this.binary}): ${this.redact(error.message)}`;
  }

  /**
   * Makes sure the repository exists: `restic cat config`, and `restic init` when restic says there is no
   * repository there. Any other failure (wrong password, unreachable storage) is returned, never initialised
   * over. Done once per runner; concurrent callers share one attempt.
   */
  ensureRepository(): Promise<void> {
    if (!this.repositoryReady) {
      this.repositoryReady = this.checkOrInit().catch((error: unknown) => {
        this.repositoryReady = null;
        throw error;
      });
    }
    return this.repositoryReady;
  }

  private async checkOrInit(): Promise<void> {
    const stderr: string[] = [];
    const check = await this.call({ args: ['cat', 'config'], onStderrLine: (l) => stderr.push(l) });
    if (check.spawnError) throw new ResticFailure(this.spawnFailure(check.spawnError));
    if (check.code === 0) return;
    const checkText = stderr.join('\n');
    const label = this.options.label ?? 'repository';
    if (!REPOSITORY_MISSING.test(checkText)) {
      throw new ResticFailure(`The ${label} could not be opened: ${this.redact(lastLines(checkText))}`);
    }
    const from = this.options.initFrom;
    // A seed's chunker parameters come from the machine's repository, which must exist for that.
    if (from) await from.ensureRepository();
    const initErr: string[] = [];
    const init = await this.call({
      args: from ? ['init', '--copy-chunker-params'] : ['init'],
      ...(from
        ? {
            env: {
              RESTIC_FROM_REPOSITORY: from.options.repository.repository,
              RESTIC_FROM_PASSWORD: from.options.repository.password,
            },
          }
        : {}),
      onStderrLine: (l) => initErr.push(l),
    });
    if (init.spawnError) throw new ResticFailure(this.spawnFailure(init.spawnError));
    if (init.code !== 0) {
      throw new ResticFailure(`The ${label} could not be created: ${this.redact(lastLines(initErr.join('\n')))}`);
    }
  }

  /**
   * Backs a task up: ensures the repository, runs `restic backup --json` and resolves the snapshot's full id.
   * Reports progress and messages through `emit` and resolves with the runFinished event; never rejects.
   * Aborting `signal` cancels the run. With `part`, backs up that part of a larger run instead of the task's
   * files and folders. Retention is the portal's (issue 16): the machine's key may not delete backup data.
   */
  async backup(
    task: AgentTask,
    runKey: string,
    emit: (event: RunEvent) => void,
    signal?: AbortSignal,
    part?: BackupPart,
  ): Promise<RunFinishedEvent> {
    const messages = new MessageBatcher(runKey, task.id, emit, this.now, this.options.maxMessagesPerRun ?? 1000);
    const finish = (
      outcome: Pick<RunFinishedEvent, 'status' | 'exitCodeResult'>,
      rest: Partial<
        Pick<RunFinishedEvent, 'failureMessage' | 'snapshotId' | 'bytesAdded' | 'bytesTotal' | 'summary'>
      > = {},
    ): RunFinishedEvent => {
      messages.flush();
      return {
        type: 'runFinished',
        runKey,
        status: outcome.status,
        exitCodeResult: outcome.exitCodeResult,
        finishedAt: this.now().toISOString(),
        failureMessage: rest.failureMessage == null ? null : truncate(rest.failureMessage, 4000),
        snapshotId: rest.snapshotId ?? null,
        bytesAdded: rest.bytesAdded ?? null,
        bytesTotal: rest.bytesTotal ?? null,
        ...(rest.summary ? { summary: rest.summary } : {}),
      };
    };
    const failed = (text: string) => {
      messages.add('ERROR', text);
      return finish({ status: 'FAILED', exitCodeResult: 'FATAL' }, { failureMessage: text });
    };
    const cancelledRun = () => finish(runOutcomeOfResticExit(null, true), { failureMessage: 'The run was cancelled.' });

    const source = part ?? { paths: backupPaths(task), tags: [] };
    let args: string[];
    try {
      args = backupArgs(task, this.options.host, this.platform, source);
    } catch (error) {
      if (error instanceof InvalidExclusionError) return failed(`The task has an invalid exclusion: ${error.message}`);
      throw error;
    }
    if (source.paths.length === 0) return failed('The task has no files or folders to back up.');

    const progress = new ProgressThrottle(runKey, emit, this.options.progressIntervalMs ?? 250);
    progress.phase('PREPARING_FOR_TRANSFER');
    try {
      await this.ensureRepository();
    } catch (error) {
      progress.stop();
      if (error instanceof ResticFailure) return failed(error.message);
      throw error;
    }
    if (signal?.aborted) {
      progress.stop();
      return cancelledRun();
    }

    let summary: ResticBackupSummary | null = null;
    let fatal: string | null = null;
    // The run log says what every run did (issue 31), a clean one too: its start here, its summary at the end.
    messages.add('INFO', this.redact(RUN_REPORT_TEXTS.started(source.paths)));
    progress.phase('TRANSFERRING_FILES');
    const exit = await this.call({
      args,
      signal,
      onStdoutLine: (line) => {
        const message = parseJson(line);
        if (message?.message_type === 'status') progress.status(message as unknown as ResticStatus);
        else if (message?.message_type === 'summary') summary = readResticSummary(message);
        else if (message?.message_type === 'error')
          messages.add('WARNING', this.redact(describeResticError(message as unknown as ResticError)));
        else if (line.trim() !== '') messages.add('INFO', this.redact(line));
      },
      onStderrLine: (line) => {
        if (line.trim() === '') return;
        const message = parseJson(line);
        if (message?.message_type === 'error') {
          messages.add('WARNING', this.redact(describeResticError(message as unknown as ResticError)));
          return;
        }
        const type = classifyStderr(line);
        if (type === 'ERROR') fatal = this.redact(line);
        messages.add(type, this.redact(line));
      },
    });
    if (exit.spawnError) {
      progress.stop();
      return failed(this.spawnFailure(exit.spawnError));
    }
    if (exit.cancelled) {
      progress.stop();
      await this.clearStaleLocks();
      return cancelledRun();
    }
    const outcome = runOutcomeOfResticExit(exit.code, false);
    const done = summary as ResticBackupSummary | null;
    if (outcome.status === 'FAILED' || !done) {
      progress.stop();
      const why =
        fatal ?? (exit.signal ? `restic was stopped by ${exit.signal}` : `restic exited with code ${exit.code}`);
      messages.add('ERROR', why);
      return finish(outcome.status === 'FAILED' ? outcome : { status: 'FAILED', exitCodeResult: 'FATAL' }, {
        failureMessage: why,
      });
    }
    progress.final();
    progress.phase('PROCESSING_TRANSFERRED_FILES');
    const snapshotId = await this.fullSnapshotId(done.snapshotId ?? undefined, messages);
    messages.add('INFO', RUN_REPORT_TEXTS.summary(done));
    progress.phase('FINALIZED');
    progress.stop();
    return finish(outcome, {
      snapshotId,
      bytesAdded: done.bytesAdded,
      bytesTotal: done.bytesProcessed,
      summary: done.summary,
    });
  }

  /** restic 0.14 prints the short id in the summary; the portal records the full 64-hex id. */
  private async fullSnapshotId(shortId: string | undefined, messages: MessageBatcher): Promise<string | null> {
    if (!shortId || !/^[0-9a-f]{8,64}$/.test(shortId)) return null;
    if (shortId.length === 64) return shortId;
    const listed = (await this.snapshotNames())?.filter((name) => name.startsWith(shortId)) ?? [];
    if (listed.length === 1 && /^[0-9a-f]{64}$/.test(listed[0] ?? '')) return listed[0] as string;
    // A read-only lookup of one snapshot: no lock files to write and remove on the repository.
    const snapshots = await this.snapshots(['--no-lock', shortId]);
    const full = snapshots?.find((s) => s.id.startsWith(shortId))?.id ?? null;
    if (!full) messages.add('WARNING', `The id of snapshot ${shortId} could not be read.`);
    return full;
  }

  /**
   * The snapshot file names (the full ids) straight from the repository's documented layout: the
   * `snapshots/` folder of a local repository, or the REST backend's listing. One directory read or one
   * HTTP request instead of a restic process (which would derive the key again, ~0.3 s); null when the
   * repository is of another kind or the listing fails.
   */
  async snapshotNames(): Promise<string[] | null> {
    const repository = this.options.repository.repository;
    try {
      if (repository.startsWith('rest:')) {
        const url = new URL(repository.slice('rest:'.length));
        const headers: Record<string, string> = { Accept: 'application/vnd.x.restic.rest.v1' };
        if (url.username) {
          const user = decodeURIComponent(url.username);
          const pass = decodeURIComponent(url.password);
          headers.Authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
          url.username = '';
          url.password = '';
        }
        if (!url.pathname.endsWith('/')) url.pathname += '/';
        const response = await fetch(new URL('snapshots/', url), { headers, signal: AbortSignal.timeout(10_000) });
        if (!response.ok) return null;
        const names: unknown = await response.json();
        return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : null;
      }
      if (isAbsolute(repository)) return await readdir(join(repository, 'snapshots'));
    } catch {
      return null;
    }
    return null;
  }

  /** `restic snapshots --json`, or null when it failed. */
  async snapshots(filter: readonly string[] = []): Promise<ResticSnapshot[] | null> {
    const out: string[] = [];
    const exit = await this.call({ args: ['snapshots', '--json', ...filter], onStdoutLine: (l) => out.push(l) });
    if (exit.code !== 0) return null;
    try {
      return JSON.parse(out.join('\n')) as ResticSnapshot[];
    } catch {
      return null;
    }
  }
}

export interface ResticSnapshot {
  id: string;
  short_id?: string;
  time: string;
  paths: string[];
  hostname?: string;
  tags?: string[];
}

class ResticFailure extends Error {}

/** The lowest CPU priority (nice 19; Windows: idle) for a background process; where it is refused, as it was. */
function lowerPriority(pid: number): void {
  try {
    setPriority(pid, constants.priority.PRIORITY_LOW);
  } catch {
    // Not allowed here (a container without the right): the work still runs, at normal priority.
  }
}

function parseJson(line: string): (Record<string, unknown> & { message_type?: unknown }) | null {
  if (!line.startsWith('{')) return null;
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const truncate = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const lastLines = (text: string) => truncate(text.trim().split('\n').slice(-5).join(' / ') || 'no output', 3000);

/** Progress events, at most one per interval (leading and trailing), with the phase the run is in. */
class ProgressThrottle {
  private current: Omit<RunProgressEvent, 'type' | 'runKey' | 'phase'> = {
    percentage: 0,
    currentItem: 0,
    totalItems: 0,
    bytesDone: 0,
    bytesTotal: 0,
  };
  private currentPhase: TransferPhase = 'PREPARING_FOR_TRANSFER';
  private lastSent = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly runKey: string,
    private readonly emit: (event: RunEvent) => void,
    private readonly intervalMs: number,
  ) {}

  phase(phase: TransferPhase): void {
    if (phase === this.currentPhase && this.lastSent !== Number.NEGATIVE_INFINITY) return;
    this.currentPhase = phase;
    this.send();
  }

  status(status: ResticStatus): void {
    this.current = {
      percentage: Math.min(100, int((status.percent_done ?? 0) * 100)),
      currentItem: int(status.files_done),
      totalItems: int(status.total_files),
      bytesDone: int(status.bytes_done),
      bytesTotal: int(status.total_bytes),
      ...readResticProgress(status as unknown as Record<string, unknown>),
    };
    const wait = this.lastSent + this.intervalMs - Date.now();
    if (wait <= 0) this.send();
    else if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.send();
      }, wait);
    }
  }

  /** The transfer is complete: 100 %, all files. */
  final(): void {
    const c = this.current;
    this.current = { ...c, percentage: 100, currentItem: Math.max(c.currentItem, c.totalItems) };
    this.send();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private send(): void {
    this.stop();
    this.lastSent = Date.now();
    this.emit({ type: 'runProgress', runKey: this.runKey, phase: this.currentPhase, ...this.current });
  }
}

/** Collects a run's messages into `messages` events (at most 200 per event), bounded per run. */
export class MessageBatcher {
  private pending: MessagesEvent['messages'] = [];
  private count = 0;
  private suppressed = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly runKey: string | null,
    private readonly taskId: number | null,
    private readonly emit: (event: MessagesEvent) => void,
    private readonly now: () => Date,
    private readonly max: number,
  ) {}

  add(type: MessageType, text: string): void {
    if (this.count >= this.max) {
      this.suppressed++;
      return;
    }
    this.count++;
    this.pending.push({ type, text: truncate(text.trim() || '(empty)', 4000), time: this.now().toISOString() });
    if (this.pending.length >= 200) this.flush();
    else if (!this.timer) {
      // Messages of a long run reach the portal while it runs, not only at its end.
      this.timer = setTimeout(() => this.flush(), 1000);
      this.timer.unref?.();
    }
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.suppressed > 0) {
      this.pending.push({
        type: 'WARNING',
        text: `${this.suppressed} more messages were not recorded.`,
        time: this.now().toISOString(),
      });
      this.suppressed = 0;
    }
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, 200);
      this.emit({ type: 'messages', runKey: this.runKey, taskId: this.taskId, messages: batch });
    }
  }
}
