/**
 * Restore tests (issue 32 item 1): a sample of the files of the task's latest snapshot is restored with `restic
 * restore` into a scratch folder the agent owns (`{stateDir}/restore-tests/{testKey}`) and each file is proved
 * byte-identical to what was backed up, then the folder is removed.
 *
 * The proof does not trust the restore, nor compare with the live file: the snapshot's trees (`restic cat blob` of
 * each folder's tree on the way to a sampled file) list every file's content blobs, whose id is the SHA-256 of the
 * chunk's plain bytes; the index (`restic cat index`) gives each blob's plain length. The restored file is read
 * chunk by chunk and each chunk's SHA-256 must be its id, the sizes must agree, and no byte may be left over.
 *
 * The sample: files new or changed in the snapshot's run (against its parent, else the task's snapshot before it:
 * another size or modification time) first, then the others, each group in random order, up to the file count and
 * the byte cap (a file that would pass the cap is left out, a smaller one may still fit).
 */
import { createHash } from 'node:crypto';
import { mkdir, open, rm } from 'node:fs/promises';
import { join, posix } from 'node:path';
import {
  type AgentToServer,
  type ExclusionPlatform,
  RESTORE_TEST,
  RESTORE_TEST_TEXTS,
  type RestoreTestMismatch,
  type RestoreTestMismatchKind,
  resticTaskTag,
  type ServerToAgent,
} from '@portal/domain';
import { literalIncludePattern, type ResticRunner } from './restic.js';

export type RestoreTestCommand = Extract<ServerToAgent, { type: 'restoreTest' }>;
export type RestoreTestFinishedEvent = Extract<AgentToServer, { type: 'restoreTestFinished' }>;

/** A regular file of a snapshot as `restic ls --json` lists it. */
export interface SnapshotFile {
  path: string;
  size: number;
  mtime: string;
}

interface TreeNode {
  name: string;
  type: string;
  subtree?: string;
  content?: string[] | null;
  size?: number;
}

/** restic calls at once while reading trees and index files: enough to hide each call's start-up. */
const PARALLEL = 4;

/** Runs `work` over `items`, at most `limit` at a time. */
async function inPool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const shuffled = <T>(items: readonly T[], random: () => number): T[] => {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
};

/**
 * The files to test: changed ones (new, or another size or time than in `previous`; all of them without a previous
 * snapshot) first, then the others, each group shuffled, within the count and the byte cap.
 */
export function sampleFiles(
  files: readonly SnapshotFile[],
  previous: ReadonlyMap<string, SnapshotFile> | null,
  limits: { maxFiles: number; maxBytes: number },
  random: () => number = Math.random,
): { files: SnapshotFile[]; changed: number } {
  const isChanged = (file: SnapshotFile) => {
    const before = previous?.get(file.path);
    return !before || before.size !== file.size || before.mtime !== file.mtime;
  };
  const changed = shuffled(
    files.filter((file) => isChanged(file)),
    random,
  );
  const unchanged = shuffled(
    files.filter((file) => !isChanged(file)),
    random,
  );
  const picked: SnapshotFile[] = [];
  let bytes = 0;
  let changedPicked = 0;
  for (const [group, isChangedGroup] of [
    [changed, true],
    [unchanged, false],
  ] as const) {
    for (const file of group) {
      if (picked.length >= limits.maxFiles) break;
      if (bytes + file.size > limits.maxBytes) continue;
      picked.push(file);
      bytes += file.size;
      if (isChangedGroup) changedPicked++;
    }
  }
  return { files: picked, changed: changedPicked };
}

class TestFailure extends Error {}

/** The JSON restic prints for `args`, or a TestFailure with its last words. */
async function resticJson(runner: ResticRunner, args: string[], signal?: AbortSignal): Promise<unknown> {
  const out: string[] = [];
  const err: string[] = [];
  const exit = await runner.call({
    args,
    ...(signal ? { signal } : {}),
    onStdoutText: (text) => out.push(text),
    onStderrLine: (line) => {
      if (line.trim() !== '') err.push(runner.redact(line.trim()));
    },
  });
  if (exit.spawnError) throw new TestFailure(runner.spawnFailure(exit.spawnError));
  if (exit.code !== 0) throw new TestFailure(err.slice(-3).join(' ') || `restic ${args[0]} exited with ${exit.code}`);
  try {
    return JSON.parse(out.join(''));
  } catch {
    throw new TestFailure(`restic ${args[0]} printed no JSON`);
  }
}

/** The regular files of a snapshot (`restic ls --json`), by path. */
async function listFiles(runner: ResticRunner, snapshotId: string, signal?: AbortSignal) {
  const files = new Map<string, SnapshotFile>();
  const err: string[] = [];
  const exit = await runner.call({
    args: ['ls', '--no-lock', '--json', snapshotId],
    ...(signal ? { signal } : {}),
    onStdoutLine: (line) => {
      let node: { struct_type?: string; type?: string; path?: unknown; size?: unknown; mtime?: unknown };
      try {
        node = JSON.parse(line) as typeof node;
      } catch {
        return;
      }
      if (node.struct_type !== 'node' || node.type !== 'file' || typeof node.path !== 'string') return;
      files.set(node.path, {
        path: node.path,
        size: typeof node.size === 'number' ? node.size : 0,
        mtime: typeof node.mtime === 'string' ? node.mtime : '',
      });
    },
    onStderrLine: (line) => {
      if (line.trim() !== '') err.push(runner.redact(line.trim()));
    },
  });
  if (exit.code !== 0) throw new TestFailure(err.slice(-3).join(' ') || `restic ls exited with ${exit.code}`);
  return files;
}

/** Reads a snapshot's trees (memoised per folder) for the content ids of its files. */
class SnapshotTrees {
  private readonly folders = new Map<string, Promise<TreeNode[]>>();

  constructor(
    private readonly runner: ResticRunner,
    private readonly rootTree: string,
    private readonly signal?: AbortSignal,
  ) {}

  private tree(id: string): Promise<TreeNode[]> {
    return resticJson(this.runner, ['cat', '--no-lock', 'blob', id], this.signal).then(
      (tree) => (tree as { nodes?: TreeNode[] }).nodes ?? [],
    );
  }

  private nodes(folder: string): Promise<TreeNode[]> {
    let found = this.folders.get(folder);
    if (!found) {
      found =
        folder === '/'
          ? this.tree(this.rootTree)
          : this.nodes(posix.dirname(folder)).then((parent) => {
              const node = parent.find((n) => n.name === posix.basename(folder) && n.type === 'dir');
              if (!node?.subtree) throw new TestFailure(`The snapshot has no folder ${folder}.`);
              return this.tree(node.subtree);
            });
      this.folders.set(folder, found);
    }
    return found;
  }

  /** The file's content blob ids as the snapshot recorded them. */
  async content(path: string): Promise<string[]> {
    const node = (await this.nodes(posix.dirname(path))).find((n) => n.name === posix.basename(path));
    if (node?.type !== 'file') throw new TestFailure(`The snapshot has no file ${path}.`);
    return node.content ?? [];
  }
}

/**
 * The plain length of each wanted blob, from every index file: a blob's `uncompressed_length` (repository format
 * 2), else its stored length less restic's nonce and MAC (32 bytes).
 */
async function blobLengths(runner: ResticRunner, wanted: ReadonlySet<string>, signal?: AbortSignal) {
  const ids: string[] = [];
  const exit = await runner.call({
    args: ['list', '--no-lock', 'index'],
    ...(signal ? { signal } : {}),
    onStdoutLine: (line) => {
      if (/^[0-9a-f]{64}$/.test(line.trim())) ids.push(line.trim());
    },
  });
  if (exit.code !== 0) throw new TestFailure(`restic list index exited with ${exit.code}`);
  const lengths = new Map<string, number>();
  await inPool(ids, PARALLEL, async (id) => {
    const index = (await resticJson(runner, ['cat', '--no-lock', 'index', id], signal)) as {
      packs?: Array<{ blobs?: Array<{ id: string; length: number; uncompressed_length?: number }> }>;
    };
    for (const pack of index.packs ?? []) {
      for (const blob of pack.blobs ?? []) {
        if (wanted.has(blob.id)) lengths.set(blob.id, blob.uncompressed_length ?? blob.length - 32);
      }
    }
  });
  return lengths;
}

/** How the restored file differs from the snapshot's record; null when it is identical. */
export async function differenceOf(
  restored: string,
  expectedSize: number,
  content: readonly string[],
  lengths: ReadonlyMap<string, number>,
): Promise<RestoreTestMismatchKind | null> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(restored, 'r');
  } catch {
    return 'MISSING';
  }
  try {
    const { size } = await handle.stat();
    if (size !== expectedSize) return 'SIZE';
    let position = 0;
    for (const id of content) {
      const length = lengths.get(id);
      if (length === undefined || position + length > size) return 'CONTENT';
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      if (bytesRead !== length || createHash('sha256').update(buffer).digest('hex') !== id) return 'CONTENT';
      position += length;
    }
    return position === size ? null : 'CONTENT';
  } finally {
    await handle.close();
  }
}

/** Where a snapshot path lands below the restore's target. */
const restoredPath = (scratch: string, path: string) => join(scratch, ...path.split('/').filter(Boolean));

export interface RestoreTestOptions {
  /** The folder that holds each test's scratch folder (the agent's `{stateDir}/restore-tests`). */
  scratchRoot: string;
  platform: ExclusionPlatform;
  signal?: AbortSignal;
  now?: () => number;
  random?: () => number;
  /** Tests only: runs between the restore and the check (to change a restored file). */
  beforeCheck?: (scratch: string) => Promise<void>;
}

/** Runs one restore test to its end; never rejects. */
export async function runRestoreTest(
  runner: ResticRunner,
  command: RestoreTestCommand,
  options: RestoreTestOptions,
): Promise<RestoreTestFinishedEvent> {
  const now = options.now ?? Date.now;
  const started = now();
  const { signal } = options;
  const scratch = join(options.scratchRoot, command.testKey);
  let snapshotId: string | null = null;
  const result = (
    outcome: RestoreTestFinishedEvent['outcome'],
    figures: Partial<Pick<RestoreTestFinishedEvent, 'filesTested' | 'bytesTested' | 'changedFilesTested'>> = {},
    mismatches: RestoreTestMismatch[] = [],
    message: string | null = null,
  ): RestoreTestFinishedEvent => ({
    type: 'restoreTestFinished',
    testKey: command.testKey,
    outcome,
    snapshotId,
    filesTested: figures.filesTested ?? 0,
    bytesTested: figures.bytesTested ?? 0,
    changedFilesTested: figures.changedFilesTested ?? 0,
    durationMs: Math.max(0, Math.round(now() - started)),
    mismatchCount: mismatches.length,
    mismatches: mismatches.slice(0, RESTORE_TEST.maxReportedMismatches),
    message: message?.slice(0, 4000) ?? null,
  });
  try {
    const listed = await runner.snapshots(['--no-lock', '--tag', resticTaskTag(command.taskId)]);
    if (listed === null) throw new TestFailure('The snapshots could not be listed.');
    const newestFirst = [...listed].sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0));
    const latest = newestFirst[0] as (typeof listed)[number] & { parent?: string; tree?: string };
    if (!latest) throw new TestFailure(RESTORE_TEST_TEXTS.noSnapshotOnMachine);
    snapshotId = latest.id;
    const previous = newestFirst.find((s) => s.id === latest.parent) ?? newestFirst[1] ?? null;
    const files = await listFiles(runner, latest.id, signal);
    const before = previous ? await listFiles(runner, previous.id, signal) : null;
    const sample = sampleFiles([...files.values()], before, command, options.random);
    const tested = {
      filesTested: sample.files.length,
      bytesTested: sample.files.reduce((sum, file) => sum + file.size, 0),
      changedFilesTested: sample.changed,
    };
    if (sample.files.length === 0) return result('PASSED', tested);

    // The record first: the content ids the snapshot's trees hold and each blob's length in the index.
    const snapshot = (await resticJson(runner, ['cat', '--no-lock', 'snapshot', latest.id], signal)) as {
      tree?: string;
    };
    if (!snapshot.tree) throw new TestFailure('The snapshot names no tree.');
    const trees = new SnapshotTrees(runner, snapshot.tree, signal);
    const contents = new Map<string, string[]>();
    await inPool(sample.files, PARALLEL, async (file) => {
      contents.set(file.path, await trees.content(file.path));
    });
    const lengths = await blobLengths(runner, new Set([...contents.values()].flat()), signal);

    await mkdir(scratch, { recursive: true, mode: 0o700 });
    const stderr: string[] = [];
    const exit = await runner.call({
      args: [
        'restore',
        latest.id,
        '--target',
        scratch,
        ...sample.files.flatMap((file) => ['--include', literalIncludePattern(file.path, options.platform)]),
      ],
      ...(signal ? { signal } : {}),
      onStderrLine: (line) => {
        if (line.trim() !== '') stderr.push(runner.redact(line.trim()));
      },
    });
    if (exit.spawnError) throw new TestFailure(runner.spawnFailure(exit.spawnError));
    if (exit.cancelled) throw new TestFailure('The restore test was stopped.');
    // restic ends 1 ('Fatal: There were n errors') after files it could not restore ('ignoring error for …'):
    // those files are found by the check below.
    const fatal = stderr.find((line) => /^Fatal\b/.test(line) && !/^Fatal: There were \d+ errors/.test(line));
    if (exit.code !== 0 && (fatal || !stderr.some((line) => line.startsWith('ignoring error for ')))) {
      throw new TestFailure(fatal ?? (stderr.slice(-3).join(' ') || `restic restore exited with ${exit.code}`));
    }
    await options.beforeCheck?.(scratch);

    const mismatches: RestoreTestMismatch[] = [];
    await inPool(sample.files, PARALLEL, async (file) => {
      const kind = await differenceOf(
        restoredPath(scratch, file.path),
        file.size,
        contents.get(file.path) ?? [],
        lengths,
      );
      if (kind) mismatches.push({ path: file.path, kind });
    });
    mismatches.sort((a, b) => a.path.localeCompare(b.path));
    return result(mismatches.length === 0 ? 'PASSED' : 'MISMATCH', tested, mismatches);
  } catch (error) {
    const message = error instanceof TestFailure ? error.message : runner.redact(String(error));
    return result('FAILED', {}, [], message);
  } finally {
    await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
}
