/**
 * Restore to the machine (issue 14): the portal's `restoreRun` command becomes one `restic restore` per snapshot it
 * names (one; of a cPanel / DirectAdmin run, each chosen account's), reported as one run of action type
 * BACKUP_RESTORE (runStarted / runProgress / messages / runFinished, like a backup).
 *
 * restic 0.14 prints no JSON progress while restoring, so progress is measured: before the restore `restic ls
 * --json {snapshot}` gives the files and bytes of the chosen items; while it runs the files under the target that
 * the restore has written (changed since it started: restic sets each file's modification time back to the
 * backed-up one, but not its change time) are counted every second.
 */
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type ExclusionPlatform, runOutcomeOfResticExit, type ServerToAgent } from '@portal/domain';
import {
  classifyStderr,
  literalIncludePattern,
  MessageBatcher,
  type ResticRunner,
  type RunEvent,
  type RunFinishedEvent,
} from './restic.js';

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

/** Files and bytes below `dir` changed since `since` (ms): what the restore has written so far. */
async function written(dir: string, since: number): Promise<{ files: number; bytes: number }> {
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
    } else if (info.isFile() && info.ctimeMs >= since) {
      total.files++;
      total.bytes += info.size;
    }
  };
  await visit(dir);
  return total;
}

/**
 * Runs a restore; never rejects. Exit codes: 0 FINISHED_SUCCESS; 1 after restic reported only items it could not
 * write ('ignoring error for …') FINISHED_WARNINGS / SOME_FILES_NOT_ACCESSIBLE; otherwise the domain's
 * runOutcomeOfResticExit (cancel: FAILED / CANCELLATION_REQUESTED).
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
  // Under 100 % until restic has finished: the bytes found under the target may run ahead of what is complete.
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
  const completed = () => progress('FINALIZED', totals.files, totals.bytes);
  const finish = (
    outcome: Pick<RunFinishedEvent, 'status' | 'exitCodeResult'>,
    failureMessage: string | null = null,
  ): RunFinishedEvent => {
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
  const names = command.snapshots.map((snapshot) => snapshot.snapshotId.slice(0, 8)).join(', ');
  const of = command.snapshots.length === 1 ? `snapshot ${names}` : `snapshots ${names}`;
  messages.add('INFO', `Restoring ${totals.files} file(s) of ${of} to ${target}`);

  const started = Date.now();
  const measured = roots.map((root) => join(target, root));
  let measuring: Promise<void> | null = null;
  const measure = () => {
    // A walk still going (a large tree) is not started twice.
    measuring ??= (async () => {
      let files = 0;
      let bytes = 0;
      for (const dir of measured) {
        const found = await written(dir, started);
        files += found.files;
        bytes += found.bytes;
      }
      progress('TRANSFERRING_FILES', files, bytes);
    })().finally(() => {
      measuring = null;
    });
  };
  progress('TRANSFERRING_FILES', 0, 0);
  const timer = setInterval(measure, options.measureMs ?? MEASURE_MS);
  let warnings = false;
  // One snapshot after the other; the first that fails (or a cancel) ends the restore.
  for (const snapshot of command.snapshots) {
    let itemErrors = 0;
    let fatal: string | null = null;
    const exit = await runner.call({
      args: restoreArgs(snapshot, target, options.platform),
      ...(options.signal ? { signal: options.signal } : {}),
      onStdoutLine: (line) => {
        if (line.trim() !== '') messages.add('INFO', runner.redact(line));
      },
      onStderrLine: (line) => {
        if (line.trim() === '') return;
        const text = runner.redact(line);
        if (ITEM_ERROR.test(line)) {
          itemErrors++;
          messages.add('WARNING', text);
          return;
        }
        const type = classifyStderr(line);
        if (type === 'ERROR') fatal = text;
        messages.add(type, text);
      },
    });
    const stop = async (outcome: Pick<RunFinishedEvent, 'status' | 'exitCodeResult'>, why: string) => {
      clearInterval(timer);
      await measuring;
      return finish(outcome, why);
    };
    if (exit.spawnError)
      return stop({ status: 'FAILED', exitCodeResult: 'FATAL' }, runner.spawnFailure(exit.spawnError));
    if (exit.cancelled) return stop(runOutcomeOfResticExit(null, true), 'The restore was cancelled.');
    if (exit.code === 1 && itemErrors > 0) {
      warnings = true;
      continue;
    }
    const outcome = runOutcomeOfResticExit(exit.code, false);
    if (outcome.status === 'FAILED') {
      return stop(
        outcome,
        fatal ?? (exit.signal ? `restic was stopped by ${exit.signal}` : `restic exited with code ${exit.code}`),
      );
    }
    if (outcome.status === 'FINISHED_WARNINGS') warnings = true;
  }
  clearInterval(timer);
  await measuring;
  completed();
  return finish(
    warnings
      ? { status: 'FINISHED_WARNINGS', exitCodeResult: 'SOME_FILES_NOT_ACCESSIBLE' }
      : { status: 'FINISHED_SUCCESS', exitCodeResult: 'SUCCESS' },
  );
}
