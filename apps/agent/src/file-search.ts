/**
 * Finding files in the machine's snapshots (issue 31 item 2): `restic find --json` of the portal's pattern over
 * the snapshots of the tasks it names (their tags), newest first, one restic call per snapshot so that each
 * match is known to be that snapshot's as soon as restic prints it (restic names the snapshot of a group of
 * matches only after them). Matches go out in batches; the search ends at the limit, when stopped, or at the
 * time limit, restic stopped each time.
 */
import {
  type AgentToServer,
  FILE_SEARCH,
  type FileMatch,
  type FileMatchType,
  type FileSearchOutcome,
  fileSearchArgv,
  fileSearchRefusal,
  resticTaskTag,
  type ServerToAgent,
} from '@portal/domain';
import { Batcher } from './batcher.js';
import type { ResticRunner, ResticSnapshot } from './restic.js';

export type FileSearchMessage = Extract<ServerToAgent, { type: 'fileSearch' }>;
export type FileSearchMatchesEvent = Extract<AgentToServer, { type: 'fileSearchMatches' }>;
export type FileSearchFinishedEvent = Extract<AgentToServer, { type: 'fileSearchFinished' }>;
export type FileSearchEvent = FileSearchMatchesEvent | FileSearchFinishedEvent;

/**
 * Reads `find --json`'s output as it arrives (`[{"matches":[{…},…],"hits":n,"snapshot":"…"},…]`, one line) and
 * hands each match object on once it is complete, keeping only the match being read.
 */
export class FindOutputReader {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private current: string[] = [];
  private capturing = false;

  constructor(private readonly onMatch: (match: Record<string, unknown>) => void) {}

  push(text: string): void {
    let start = this.capturing ? 0 : -1;
    for (let i = 0; i < text.length; i += 1) {
      const c = text[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === '\\') this.escaped = true;
        else if (c === '"') this.inString = false;
        continue;
      }
      if (c === '"') this.inString = true;
      else if (c === '{' || c === '[') {
        // A match: an object inside the matches array of a snapshot's object inside the outer array.
        if (c === '{' && this.depth === 3) {
          this.capturing = true;
          start = i;
        }
        this.depth += 1;
      } else if (c === '}' || c === ']') {
        this.depth -= 1;
        if (this.capturing && this.depth === 3) {
          this.current.push(text.slice(start, i + 1));
          this.capturing = false;
          start = -1;
          this.emit(this.current.join(''));
          this.current = [];
        }
      }
    }
    if (this.capturing && start >= 0) this.current.push(text.slice(start));
  }

  private emit(json: string): void {
    try {
      const value: unknown = JSON.parse(json);
      if (value && typeof value === 'object') this.onMatch(value as Record<string, unknown>);
    } catch {
      // Not restic's JSON after all: nothing to report for it.
    }
  }
}

const TYPES: Record<string, FileMatchType> = { file: 'FILE', dir: 'DIRECTORY' };

const isoOrNull = (value: unknown): string | null => {
  if (typeof value !== 'string') return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
};

/** One of restic's match objects as the portal's match; null for one it cannot carry (a path past its limit). */
export function fileMatchOf(
  node: Record<string, unknown>,
  snapshot: { id: string; time: string; taskId: number },
): FileMatch | null {
  const path = node.path;
  if (typeof path !== 'string' || path.length === 0 || path.length > 4096) return null;
  const type = TYPES[String(node.type)] ?? 'OTHER';
  return {
    snapshotId: snapshot.id,
    snapshotTime: isoOrNull(snapshot.time) ?? new Date(0).toISOString(),
    taskId: snapshot.taskId,
    path,
    type,
    size: type === 'FILE' && typeof node.size === 'number' ? node.size : type === 'FILE' ? 0 : null,
    modifiedAt: isoOrNull(node.mtime),
  };
}

/** The snapshots of the tasks, newest first, each with its task (by its tag). */
export function searchedSnapshots(snapshots: readonly ResticSnapshot[], taskIds: readonly number[]) {
  const byTag = new Map(taskIds.map((id) => [resticTaskTag(id), id]));
  return snapshots
    .flatMap((s) => {
      const taskId = (s.tags ?? []).map((tag) => byTag.get(tag)).find((id) => id !== undefined);
      return taskId === undefined ? [] : [{ id: s.id, time: s.time, taskId }];
    })
    .sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0));
}

/** The last lines restic wrote to stderr, the reason of a failure. */
const lastWords = (lines: readonly string[]) => lines.slice(-3).join(' ').slice(0, 1000);

/**
 * Runs one search to its end; never rejects. `emit` receives the match batches and, last, the finish. Aborting
 * `signal` stops it as CANCELLED.
 */
export async function runFileSearch(
  runner: ResticRunner,
  search: FileSearchMessage,
  emit: (event: FileSearchEvent) => void,
  options: { signal?: AbortSignal; timeLimitMs?: number; flushMs?: number } = {},
): Promise<FileSearchFinishedEvent> {
  const { searchKey } = search;
  const batcher = new Batcher<FileMatch>((matches) => emit({ type: 'fileSearchMatches', searchKey, matches }), {
    maxItems: FILE_SEARCH.batchMatches,
    maxBytes: FILE_SEARCH.batchBytes,
    intervalMs: options.flushMs ?? FILE_SEARCH.flushMs,
    sizeOf: (match) => Buffer.byteLength(JSON.stringify(match)),
  });
  const finish = (outcome: FileSearchOutcome, message: string | null = null): FileSearchFinishedEvent => {
    batcher.flush();
    const finished: FileSearchFinishedEvent = { type: 'fileSearchFinished', searchKey, outcome, message };
    emit(finished);
    return finished;
  };
  // Whoever sent it, a search the allow-list refuses never reaches restic.
  const refused = fileSearchRefusal(search);
  if (refused) return finish('FAILED', refused);

  const stop = new AbortController();
  let ended: FileSearchOutcome | null = null;
  const end = (outcome: FileSearchOutcome) => {
    ended ??= outcome;
    stop.abort();
  };
  const onCancel = () => end('CANCELLED');
  if (options.signal?.aborted) return finish('CANCELLED');
  options.signal?.addEventListener('abort', onCancel, { once: true });
  const timer = setTimeout(() => end('TIMED_OUT'), options.timeLimitMs ?? FILE_SEARCH.timeLimitMs);
  timer.unref?.();
  try {
    const listed = await runner.snapshots([
      '--no-lock',
      ...search.taskIds.flatMap((id) => ['--tag', resticTaskTag(id)]),
    ]);
    if (ended) return finish(ended);
    if (listed === null) return finish('FAILED', 'The snapshots could not be listed.');
    let found = 0;
    for (const snapshot of searchedSnapshots(listed, search.taskIds)) {
      const stderr: string[] = [];
      const reader = new FindOutputReader((node) => {
        if (ended) return;
        const match = fileMatchOf(node, snapshot);
        if (!match) return;
        batcher.add(match);
        found += 1;
        if (found >= search.limit) end('LIMIT_REACHED');
      });
      const exit = await runner.call({
        args: fileSearchArgv(search, snapshot.id),
        onStdoutText: (text) => reader.push(text),
        onStderrLine: (line) => stderr.push(runner.redact(line)),
        signal: stop.signal,
      });
      if (ended) return finish(ended);
      if (exit.spawnError) return finish('FAILED', runner.spawnFailure(exit.spawnError));
      if (exit.code !== 0) return finish('FAILED', lastWords(stderr) || `restic find ended with ${exit.code}`);
    }
    return finish('COMPLETE');
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCancel);
  }
}
