/**
 * Restore to the machine (issue 14): the portal's `restoreRun` command becomes one `restic restore` per snapshot it
 * names (one; of a cPanel / DirectAdmin run, each chosen account's), reported as one run of action type
 * BACKUP_RESTORE (runStarted / runProgress / messages / runFinished, like a backup).
 *
 * Existing files (issue 31): restic 0.14 has no `--overwrite`, so each snapshot is restored into a staging folder
 * (stagingFolder) and then moved into place by the user's choice (restore-merge.ts); the run ends with a summary.
 *
 * restic 0.14 prints no JSON progress while restoring (`--json` changes nothing), so progress is measured: before the
 * restore `restic ls --json {snapshot}` gives the files and bytes of the chosen items; while it runs the files in the
 * staging folder are counted every second.
 */
import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, rm } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import {
  type ExclusionPlatform,
  type RestoreSummary,
  restoreSummaryText,
  runOutcomeOfResticExit,
  type ServerToAgent,
} from '@portal/domain';
import {
  classifyStderr,
  literalIncludePattern,
  MessageBatcher,
  type ResticRunner,
  type RunEvent,
  type RunFinishedEvent,
} from './restic.js';
import { mergeRestored } from './restore-merge.js';

export type RestoreCommand = Extract<ServerToAgent, { type: 'restoreRun' }>;
/** One snapshot of a restore and its chosen paths. */
type RestoreSnapshot = RestoreCommand['snapshots'][number];

/** The original place: restic recreates each item's full path below `/`. */
const ORIGINAL_PLACE = '/';
/** How often the restored bytes are measured. */
const MEASURE_MS = 1000;
/** restic 0.14 restore's lines for a file it could not write; the restore goes on with the others. */
const ITEM_ERROR = /^ignoring error for /;

/** Why the agent refuses a restore before starting it; null when it can run. */
export function refusedRestore(command: RestoreCommand, platform: ExclusionPlatform): string | null {
  if (command.target === null && platform === 'WINDOWS') {
    return 'Restoring to the original place is not supported on Windows by this agent yet: choose a folder.';
  }
  return null;
}

/** The folder restic writes below: the chosen one, or `/` for the original place. */
export const restoreTarget = (command: RestoreCommand) => command.target ?? ORIGINAL_PLACE;

/** `restic restore SNAPSHOT --target DIR [--include PATH]…` of one snapshot; no includes restores all of it. */
export function restoreArgs(snapshot: RestoreSnapshot, target: string, platform: ExclusionPlatform): string[] {
  const args = ['restore', snapshot.snapshotId, '--target', target];
  for (const path of snapshot.includes) args.push('--include', literalIncludePattern(path, platform));
  return args;
}

/** Whether `path` is one of the chosen items or inside one (all paths when nothing was chosen). */
const chosen = (path: string, includes: readonly string[]) =>
  includes.length === 0 || includes.some((item) => path === item || path.startsWith(`${item}/`));

/** The files and bytes the restore will write, and the snapshot's own paths, from `restic ls --json`. */
async function plan(
  runner: ResticRunner,
  snapshot: RestoreSnapshot,
  signal: AbortSignal | undefined,
): Promise<{ files: number; bytes: number; roots: string[] } | { failure: string }> {
  let files = 0;
  let bytes = 0;
  let roots: string[] | null = null;
  let problem = '';
  const exit = await runner.call({
    args: ['ls', '--json', snapshot.snapshotId],
    ...(signal ? { signal } : {}),
    onStdoutLine: (line) => {
      let node: { struct_type?: string; type?: string; path?: string; size?: number; paths?: string[] };
      try {
        node = JSON.parse(line) as typeof node;
      } catch {
        return;
      }
      if (node.struct_type === 'snapshot') roots = node.paths ?? [];
      if (node.struct_type !== 'node' || node.type !== 'file' || typeof node.path !== 'string') return;
      if (!chosen(node.path, snapshot.includes)) return;
      files++;
      bytes += node.size ?? 0;
    },
    onStderrLine: (line) => {
      if (line.trim() !== '') problem = runner.redact(line.trim());
    },
  });
  // restic 0.14 `ls` of a snapshot it does not find exits 0 having printed nothing but 'Ignoring "…"'.
  if (exit.code !== 0 || roots === null) {
    return { failure: `The snapshot could not be read${problem ? `: ${problem}` : '.'}` };
  }
  return { files, bytes, roots: snapshot.includes.length > 0 ? [...snapshot.includes] : roots };
}

/** Files and bytes below `dir`: what restic has written into the staging folder so far. */
async function written(dir: string): Promise<{ files: number; bytes: number }> {
  const total = { files: 0, bytes: 0 };
  const visit = async (path: string): Promise<void> => {
    let info: Awaited<ReturnType<typeof lstat>>;
    try {
      info = await lstat(path);
    } catch {
      return;
    }
    if (info.isDirectory()) {
      const names = await readdir(path).catch(() => [] as string[]);
      for (const name of names) await visit(join(path, name));
    } else if (info.isFile()) {
      total.files++;
      total.bytes += info.size;
    }
  };
  await visit(dir);
  return total;
}

/** The deepest folder holding every one of the snapshot paths ('/'-separated). */
function commonFolder(paths: readonly string[]): string {
  const split = paths.map((path) => posix.dirname(path).split('/').filter(Boolean));
  const first = split[0] ?? [];
  let depth = 0;
  while (depth < first.length && split.every((parts) => parts[depth] === first[depth])) depth++;
  return `/${first.slice(0, depth).join('/')}`;
}

/**
 * Where restic writes before the files are moved into place: a hidden folder inside the chosen folder, or for the
 * original place beside the restored items (in the nearest existing folder holding them all), so that moving is a
 * rename on the same file system and needs no more rights than restoring in place.
 */
export function stagingFolder(command: RestoreCommand, roots: readonly string[], runKey: string): string {
  let base = command.target ?? commonFolder(roots);
  if (command.target === null) while (base !== '/' && !existsSync(base)) base = dirname(base);
  return join(base, `.portal-restore-${runKey.replace(/[^A-Za-z0-9-]/g, '_')}`);
}

/**
 * Runs a restore; never rejects. Exit codes: 0 FINISHED_SUCCESS; 1 after restic reported only items it could not
 * write ('ignoring error for …') FINISHED_WARNINGS / SOME_FILES_NOT_ACCESSIBLE, as are items that could not be moved
 * into place; otherwise the domain's runOutcomeOfResticExit (cancel: FAILED / CANCELLATION_REQUESTED).
 */
export async function runRestore(
  runner: ResticRunner,
  command: RestoreCommand,
  runKey: string,
  emit: (event: RunEvent) => void,
  options: { signal?: AbortSignal; platform: ExclusionPlatform; now?: () => Date; measureMs?: number },
): Promise<RunFinishedEvent> {
  const now = options.now ?? (() => new Date());
  const messages = new MessageBatcher(runKey, command.taskId, emit, now, 1000);
  // Under 100 % until every file is in place: the bytes found in the staging folder may run ahead of restic.
  const progress = (phase: Extract<RunEvent, { type: 'runProgress' }>['phase'], done: number, doneBytes: number) =>
    emit({
      type: 'runProgress',
      runKey,
      phase,
      percentage:
        phase === 'FINALIZED' ? 100 : totals.bytes > 0 ? Math.min(99, Math.floor((doneBytes * 100) / totals.bytes)) : 0,
      currentItem: Math.min(done, totals.files),
      totalItems: totals.files,
      bytesDone: Math.min(doneBytes, totals.bytes),
      bytesTotal: totals.bytes,
    });
  let summary: RestoreSummary | null = null;
  const finish = (
    outcome: Pick<RunFinishedEvent, 'status' | 'exitCodeResult'>,
    failureMessage: string | null = null,
  ): RunFinishedEvent => {
    if (summary) messages.add(summary.errors > 0 ? 'WARNING' : 'INFO', `Restored: ${restoreSummaryText(summary)}`);
    if (failureMessage) messages.add('ERROR', failureMessage);
    messages.flush();
    return {
      type: 'runFinished',
      runKey,
      ...outcome,
      finishedAt: now().toISOString(),
      failureMessage: failureMessage?.slice(0, 4000) ?? null,
      snapshotId: null,
      bytesAdded: null,
      bytesTotal: outcome.status === 'FAILED' ? null : totals.bytes,
      ...(summary ? { restoreSummary: summary } : {}),
    };
  };

  let totals = { files: 0, bytes: 0 };
  progress('PREPARING_FOR_TRANSFER', 0, 0);
  const roots: string[] = [];
  for (const snapshot of command.snapshots) {
    const planned = await plan(runner, snapshot, options.signal);
    if (options.signal?.aborted) return finish(runOutcomeOfResticExit(null, true), 'The restore was cancelled.');
    if ('failure' in planned) return finish({ status: 'FAILED', exitCodeResult: 'FATAL' }, planned.failure);
    totals = { files: totals.files + planned.files, bytes: totals.bytes + planned.bytes };
    roots.push(...planned.roots);
  }
  const target = restoreTarget(command);
  const staging = stagingFolder(command, roots, runKey);
  const names = command.snapshots.map((snapshot) => snapshot.snapshotId.slice(0, 8)).join(', ');
  const of = command.snapshots.length === 1 ? `snapshot ${names}` : `snapshots ${names}`;
  messages.add(
    'INFO',
    `Restoring ${totals.files} file(s) of ${of} to ${target} (files that already exist: ${command.existingFiles.toLowerCase().replace('_', ' ')})`,
  );

  const startedAt = now();
  const done = { files: 0, bytes: 0 };
  const tally: RestoreSummary = { filesRestored: 0, bytesRestored: 0, filesRenamed: 0, filesSkipped: 0, errors: 0 };
  summary = tally;
  let measuring: Promise<void> | null = null;
  const measure = () => {
    // A walk still going (a large tree) is not started twice.
    measuring ??= (async () => {
      const found = await written(staging);
      progress('TRANSFERRING_FILES', done.files + found.files, done.bytes + found.bytes);
    })().finally(() => {
      measuring = null;
    });
  };
  progress('TRANSFERRING_FILES', 0, 0);
  const timer = setInterval(measure, options.measureMs ?? MEASURE_MS);
  const stop = async (outcome: Pick<RunFinishedEvent, 'status' | 'exitCodeResult'>, why: string | null) => {
    clearInterval(timer);
    await measuring;
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    return finish(outcome, why);
  };
  let warnings = false;
  // One snapshot after the other, each moved into place before the next; the first that fails (or a cancel) ends it.
  for (const snapshot of command.snapshots) {
    let fatal: string | null = null;
    let itemErrors = 0;
    const exit = await runner.call({
      args: restoreArgs(snapshot, staging, options.platform),
      ...(options.signal ? { signal: options.signal } : {}),
      onStdoutLine: (line) => {
        if (line.trim() !== '') messages.add('INFO', runner.redact(line));
      },
      onStderrLine: (line) => {
        if (line.trim() === '') return;
        const text = runner.redact(line);
        if (ITEM_ERROR.test(line)) {
          itemErrors++;
          tally.errors++;
          messages.add('WARNING', text);
          return;
        }
        const type = classifyStderr(line);
        if (type === 'ERROR') fatal = text;
        messages.add(type, text);
      },
    });
    if (exit.spawnError)
      return stop({ status: 'FAILED', exitCodeResult: 'FATAL' }, runner.spawnFailure(exit.spawnError));
    if (exit.cancelled) return stop(runOutcomeOfResticExit(null, true), 'The restore was cancelled.');
    const outcome =
      exit.code === 1 && itemErrors > 0
        ? ({ status: 'FINISHED_WARNINGS', exitCodeResult: 'SOME_FILES_NOT_ACCESSIBLE' } as const)
        : runOutcomeOfResticExit(exit.code, false);
    if (outcome.status === 'FAILED') {
      return stop(
        outcome,
        fatal ?? (exit.signal ? `restic was stopped by ${exit.signal}` : `restic exited with code ${exit.code}`),
      );
    }
    if (outcome.status === 'FINISHED_WARNINGS') warnings = true;
    clearInterval(timer);
    await measuring;
    const staged = await written(staging);
    progress('PROCESSING_TRANSFERRED_FILES', done.files + staged.files, done.bytes + staged.bytes);
    await mkdir(target, { recursive: true }).catch(() => undefined);
    const merged = await mergeRestored(staging, target, {
      existingFiles: command.existingFiles,
      startedAt,
      ...(options.signal ? { signal: options.signal } : {}),
      onError: (path, why) => messages.add('WARNING', `${path} could not be restored: ${why}`),
    }).catch((error: unknown) => {
      messages.add('ERROR', `The restored files could not be moved into place: ${String(error)}`);
      return null;
    });
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    if (merged === null)
      return stop({ status: 'FAILED', exitCodeResult: 'FATAL' }, 'The restored files could not be moved into place.');
    tally.filesRestored += merged.filesRestored;
    tally.bytesRestored += merged.bytesRestored;
    tally.filesRenamed += merged.filesRenamed;
    tally.filesSkipped += merged.filesSkipped;
    tally.errors += merged.errors;
    if (merged.errors > 0) warnings = true;
    done.files += staged.files;
    done.bytes += staged.bytes;
    if (options.signal?.aborted) return stop(runOutcomeOfResticExit(null, true), 'The restore was cancelled.');
  }
  progress('FINALIZED', totals.files, totals.bytes);
  return finish(
    warnings
      ? { status: 'FINISHED_WARNINGS', exitCodeResult: 'SOME_FILES_NOT_ACCESSIBLE' }
      : { status: 'FINISHED_SUCCESS', exitCodeResult: 'SUCCESS' },
  );
}
