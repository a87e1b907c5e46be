/**
 * Finding files in the machine's snapshots (issue 31 item 2): the portal's pattern over the snapshots of the tasks
 * it names (their tags), newest first. A snapshot with a file index (file-index.ts) is searched there, with restic
 * find's own rules (find-match.ts); any other with `restic find --json`, one restic call per snapshot so that each
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
import { entryDetails, type FileIndexer, type IndexEntry } from './file-index.js';
import { FindMatcher, FindPatternError } from './find-match.js';
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

type SearchedSnapshot = ReturnType<typeof searchedSnapshots>[number];

const INDEX_TYPES = { f: 'file', d: 'dir', o: 'other' } as const;

/**
 * One snapshot's matches from its index, as restic find would print them (path, type, size, mtime), in restic's
 * order. Throws FindPatternError where restic would stop on the pattern.
 */
async function searchIndex(
  index: FileIndexer,
  snapshot: SearchedSnapshot,
  search: FileSearchMessage,
  onMatch: (node: { path: string; type: string; size?: number; mtime?: string }) => void,
  stopped: () => boolean,
) {
  const matcher = new FindMatcher(search.pattern, search.ignoreCase);
  const names: string[] = [];
  return index.store.read(
    snapshot.id,
    (entry: IndexEntry) => {
      names.length = entry.depth - 1;
      names.push(entry.name);
      if (!matcher.visit(entry.depth, entry.name, entry.type === 'd')) return matcher.skipBelow;
      const { size, mtimeMs } = entryDetails(entry);
      onMatch({
        path: `/${names.join('/')}`,
        type: INDEX_TYPES[entry.type],
        ...(size === null ? {} : { size }),
        ...(mtimeMs === null ? {} : { mtime: new Date(mtimeMs).toISOString() }),
      });
      return matcher.skipBelow;
    },
    stopped,
  );
}

/**
 * Every snapshot of the repository. When each has an index, from the repository's list of snapshot files and the
 * indexes' headers, without a restic process (its start derives the key: 0.3 s on a quiet machine, seconds on a busy
 * one); else restic's listing.
 */
async function listSnapshots(runner: ResticRunner, index: FileIndexer | null): Promise<ResticSnapshot[] | null> {
  const ids = index ? await runner.snapshotNames() : null;
  const indexed = ids ? index?.store.snapshots(ids) : null;
  return indexed ?? (await runner.snapshots(['--no-lock']));
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
  options: {
    signal?: AbortSignal;
    timeLimitMs?: number;
    flushMs?: number;
    /** The snapshots' file indexes: searched where there is one; kicked to build the others afterwards. */
    index?: FileIndexer | null;
  } = {},
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
    const index = options.index ?? null;
    // All snapshots, not only the tasks': the listing also tells which indexes belong to forgotten snapshots.
    const listed = await listSnapshots(runner, index);
    if (ended) return finish(ended);
    if (listed === null) return finish('FAILED', 'The snapshots could not be listed.');
    index?.prune(listed);
    let found = 0;
    let unindexed = false;
    const add = (node: Record<string, unknown>, snapshot: SearchedSnapshot) => {
      if (ended) return;
      const match = fileMatchOf(node, snapshot);
      if (!match) return;
      batcher.add(match);
      found += 1;
      if (found >= search.limit) end('LIMIT_REACHED');
    };
    try {
      for (const snapshot of searchedSnapshots(listed, search.taskIds)) {
        // The paths an index gave before it turned out corrupt: restic's walk gives them first again.
        const given = new Set<string>();
        const read = index
          ? await searchIndex(
              index,
              snapshot,
              search,
              (node) => {
                given.add(node.path);
                add(node, snapshot);
              },
              () => ended !== null,
            )
          : 'MISSING';
        if (ended) return finish(ended);
        if (read === 'COMPLETE') continue;
        if (read === 'CORRUPT') index?.store.remove(snapshot.id);
        unindexed = true;
        const stderr: string[] = [];
        const reader = new FindOutputReader((node) => {
          if (typeof node.path === 'string' && given.has(node.path)) return;
          add(node, snapshot);
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
    } catch (error) {
      if (error instanceof FindPatternError) return finish('FAILED', error.message);
      throw error;
    } finally {
      if (unindexed) index?.kick();
    }
    return finish('COMPLETE');
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCancel);
  }
}
