/**
 * Each snapshot's file list, kept by the agent so that a search reads a local file instead of walking the
 * repository's trees (issue 31: first results within 2 s on 1,000,000 files; README, *Finding files*). restic has
 * no index of names: `restic find` loads and walks every tree of a snapshot for every search.
 *
 * An index is `restic ls --json --no-lock -- {snapshot}` (the same walk and order as `find`) written as gzip'd lines
 * `{depth}\t{f|d|o}\t{size}\t{mtime ms}\t{name}` between a header and a footer with the count, under
 * `{stateDir}/file-index/{repository hash}/{snapshot id}.gz`, built in a temporary file at the lowest CPU priority
 * and renamed when complete. A file that does not read to its footer is corrupt: the search falls back to restic
 * and the file is removed. Indexes of snapshots no longer listed are removed; all of a repository's indexes stay
 * under FILE_INDEX.maxTotalBytes, the oldest snapshots' removed first.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  createWriteStream,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { constants, createGunzip, createGzip, gunzipSync } from 'node:zlib';
import { FILE_INDEX, fileIndexArgv, fileIndexRefusal } from '@portal/domain';
import type { ResticRunner, ResticSnapshot } from './restic.js';

/**
 * One entry of a snapshot: its depth (1 in the root), name, type (file, dir, other); its size (a file's) and mtime
 * are read from its line only for a match (`entryDetails`).
 */
export interface IndexEntry {
  depth: number;
  name: string;
  type: 'f' | 'd' | 'o';
  line: string;
  /** Where the size and the mtime fields of `line` start. */
  sizeAt: number;
  mtimeAt: number;
}

/** The entry's size (a file's, else null) and mtime (ms; null when restic's could not be read). */
export function entryDetails(entry: IndexEntry): { size: number | null; mtimeMs: number | null } {
  const { line, sizeAt, mtimeAt } = entry;
  const size = line.slice(sizeAt, mtimeAt - 1);
  const mtime = line.slice(mtimeAt, line.indexOf('\t', mtimeAt));
  return { size: size === '' ? null : Number(size), mtimeMs: mtime === '' ? null : Number(mtime) };
}

export type IndexRead = 'COMPLETE' | 'STOPPED' | 'MISSING' | 'CORRUPT';

const HEADER = `portal-file-index\t${FILE_INDEX.version}`;
const SUFFIX = '.gz';
const SNAPSHOT_ID = /^[0-9a-f]{64}$/;

const escapeName = (name: string) =>
  name.replace(/[\\\n\t\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\t' ? '\\t' : '\\r'));
const unescapeName = (text: string) =>
  text.includes('\\')
    ? text.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c === 'r' ? '\r' : c))
    : text;

const typeCode = (type: unknown): IndexEntry['type'] => (type === 'file' ? 'f' : type === 'dir' ? 'd' : 'o');

/** The header line: format, snapshot id, and the snapshot's time and tags (a search needs no restic listing). */
const headerLine = (snapshot: ResticSnapshot) =>
  `${HEADER}\t${snapshot.id}\t${JSON.stringify({ time: snapshot.time, tags: snapshot.tags ?? [] })}`;

function readHeader(text: string, snapshotId: string): ResticSnapshot | null {
  const [format, version, id, meta] = text.split('\t');
  if (`${format}\t${version}` !== HEADER || id !== snapshotId || meta === undefined) return null;
  try {
    const { time, tags } = JSON.parse(meta) as { time?: unknown; tags?: unknown };
    if (typeof time !== 'string' || !Array.isArray(tags) || !tags.every((t) => typeof t === 'string')) return null;
    return { id, time, tags, paths: [] };
  } catch {
    return null;
  }
}

/** The indexes of one repository, in their own folder. */
export class FileIndexStore {
  constructor(
    readonly dir: string,
    private readonly maxTotalBytes: number = FILE_INDEX.maxTotalBytes,
  ) {}

  private file(snapshotId: string): string {
    return join(this.dir, `${snapshotId}${SUFFIX}`);
  }

  /** The snapshots that have an index, with the size of each. */
  list(): Map<string, number> {
    const sizes = new Map<string, number>();
    for (const name of this.names()) {
      const id = name.slice(0, -SUFFIX.length);
      if (!name.endsWith(SUFFIX) || !SNAPSHOT_ID.test(id)) continue;
      try {
        sizes.set(id, statSync(join(this.dir, name)).size);
      } catch {
        // removed meanwhile
      }
    }
    return sizes;
  }

  /**
   * The indexed snapshots (time and tags from each index's header: its first kilobytes inflated), or null when
   * one of `ids` has no readable index, so that the caller asks restic.
   */
  snapshots(ids: readonly string[]): ResticSnapshot[] | null {
    const out: ResticSnapshot[] = [];
    const buffer = Buffer.alloc(4096);
    for (const id of ids) {
      let read = 0;
      try {
        const fd = openSync(this.file(id), 'r');
        try {
          read = readSync(fd, buffer, 0, buffer.length, 0);
        } finally {
          closeSync(fd);
        }
        const text = gunzipSync(buffer.subarray(0, read), { finishFlush: constants.Z_SYNC_FLUSH }).toString('utf8');
        const snapshot = text.includes('\n') ? readHeader(text.slice(0, text.indexOf('\n')), id) : null;
        if (!snapshot) return null;
        out.push(snapshot);
      } catch {
        return null;
      }
    }
    return out;
  }

  has(snapshotId: string): boolean {
    return this.list().has(snapshotId);
  }

  remove(snapshotId: string): void {
    rmSync(this.file(snapshotId), { force: true });
  }

  private names(): string[] {
    try {
      return readdirSync(this.dir);
    } catch {
      return [];
    }
  }

  /**
   * Keeps the indexes of the snapshots listed now (newest first) until their total reaches the size bound, and
   * removes the others and what an interrupted build left. Answers the ids removed.
   */
  prune(newestFirst: readonly string[], building: ReadonlySet<string> = new Set()): string[] {
    const sizes = this.list();
    const removed: string[] = [];
    let total = 0;
    const keep = new Set<string>();
    for (const id of newestFirst) {
      const size = sizes.get(id);
      // The index that crosses the bound stays (as `full` lets it be built): no build only to be removed.
      if (size === undefined || total >= this.maxTotalBytes) continue;
      total += size;
      keep.add(id);
    }
    for (const id of sizes.keys()) {
      if (keep.has(id)) continue;
      this.remove(id);
      removed.push(id);
    }
    for (const name of this.names()) {
      const [id] = name.split('.');
      if (name.includes('.tmp-') && !building.has(id ?? '')) rmSync(join(this.dir, name), { force: true });
    }
    return removed;
  }

  /** Whether the indexes of these snapshots (newest first) already fill the bound, so no older one is built. */
  full(newerFirst: readonly string[]): boolean {
    const sizes = this.list();
    let total = 0;
    for (const id of newerFirst) total += sizes.get(id) ?? 0;
    return total >= this.maxTotalBytes;
  }

  /**
   * Lists the snapshot with restic (lowest priority) into its index; true when it was written. A failed or
   * stopped listing leaves nothing behind.
   */
  async build(runner: ResticRunner, snapshotId: string, signal?: AbortSignal): Promise<boolean> {
    if (fileIndexRefusal(snapshotId) !== null) return false;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const temporary = join(this.dir, `${snapshotId}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
    const gzip = createGzip();
    const out = createWriteStream(temporary, { mode: 0o600 });
    gzip.pipe(out);
    let header = false;
    const path: string[] = [];
    let count = 0;
    let consistent = true;
    const exit = await runner.call({
      args: fileIndexArgv(snapshotId),
      lowPriority: true,
      ...(signal ? { signal } : {}),
      onStdoutLine: (line) => {
        if (!consistent || !line.startsWith('{')) return;
        let node: Record<string, unknown>;
        try {
          node = JSON.parse(line) as Record<string, unknown>;
        } catch {
          consistent = false;
          return;
        }
        if (node.struct_type === 'snapshot' && !header) {
          header = node.id === snapshotId && typeof node.time === 'string';
          const tags = Array.isArray(node.tags) ? node.tags.filter((t): t is string => typeof t === 'string') : [];
          gzip.write(`${headerLine({ id: snapshotId, time: String(node.time), tags, paths: [] })}\n`);
          return;
        }
        if (node.struct_type !== 'node' || !header) {
          consistent = false;
          return;
        }
        const parts = typeof node.path === 'string' ? node.path.split('/') : [];
        const depth = parts.length - 1;
        // restic walks a folder before its contents: each entry's folders are the ones just listed.
        if (parts[0] !== '' || depth < 1 || depth > path.length + 1) consistent = false;
        for (let i = 1; consistent && i < depth; i += 1) if (parts[i] !== path[i - 1]) consistent = false;
        if (!consistent) return;
        const name = parts[depth] as string;
        path.length = depth - 1;
        path.push(name);
        const type = typeCode(node.type);
        const size = type === 'f' && typeof node.size === 'number' ? node.size : '';
        const mtime = typeof node.mtime === 'string' ? Date.parse(node.mtime) : Number.NaN;
        gzip.write(`${depth}\t${type}\t${size}\t${Number.isNaN(mtime) ? '' : mtime}\t${escapeName(name)}\n`);
        count += 1;
      },
    });
    gzip.end(`end\t${count}\n`);
    try {
      await finished(out);
    } catch {
      consistent = false;
    }
    if (exit.code !== 0 || exit.cancelled || !consistent || !header) {
      rmSync(temporary, { force: true });
      return false;
    }
    renameSync(temporary, this.file(snapshotId));
    return true;
  }

  /**
   * Reads a snapshot's index in order, entry by entry, until its end or until `stopped()` says so (checked between
   * chunks). `onEntry` may answer a depth: the entries below it (a folder's contents) are passed over. MISSING
   * without one, CORRUPT when it does not read whole (the caller removes it). Errors of `onEntry` are passed on.
   */
  async read(
    snapshotId: string,
    onEntry: (entry: IndexEntry) => number | undefined,
    stopped: () => boolean,
  ): Promise<IndexRead> {
    // Large chunks: a search's time is mostly per chunk hops while the machine is busy.
    const input = createReadStream(this.file(snapshotId), { highWaterMark: 1024 * 1024 });
    const gunzip = createGunzip({ chunkSize: 1024 * 1024 });
    input.on('error', (error) => gunzip.destroy(error));
    input.pipe(gunzip);
    const decoder = new StringDecoder('utf8');
    let rest = '';
    let header = false;
    let footer = false;
    let count = 0;
    let depth = 0;
    let skipBelow = Number.POSITIVE_INFINITY;
    // One object handed on for every entry (read before the next one comes).
    const entry: IndexEntry = { depth: 0, name: '', type: 'o', line: '', sizeAt: 0, mtimeAt: 0 };
    const line = (text: string): boolean => {
      if (footer) return false;
      if (!header) {
        header = readHeader(text, snapshotId) !== null;
        return header;
      }
      const t1 = text.indexOf('\t');
      const t2 = t1 + 2;
      if (text.slice(0, t1) === 'end' && text.indexOf('\t', t1 + 1) < 0) {
        footer = Number(text.slice(t1 + 1)) === count;
        return footer;
      }
      const entryDepth = Number(text.slice(0, t1));
      const type = text[t1 + 1];
      if (t1 < 1 || text[t2] !== '\t' || !Number.isInteger(entryDepth) || entryDepth < 1 || entryDepth > depth + 1) {
        return false;
      }
      if (type !== 'f' && type !== 'd' && type !== 'o') return false;
      depth = entryDepth;
      count += 1;
      // Below a folder the reader passes over, only the depth is read.
      if (entryDepth > skipBelow) return true;
      skipBelow = Number.POSITIVE_INFINITY;
      const t3 = text.indexOf('\t', t2 + 1);
      const t4 = t3 < 0 ? -1 : text.indexOf('\t', t3 + 1);
      if (t4 < 0 || text.indexOf('\t', t4 + 1) >= 0) return false;
      entry.depth = entryDepth;
      entry.type = type;
      entry.line = text;
      entry.sizeAt = t2 + 1;
      entry.mtimeAt = t3 + 1;
      entry.name = unescapeName(text.slice(t4 + 1));
      skipBelow = onEntry(entry) ?? Number.POSITIVE_INFINITY;
      return true;
    };
    try {
      for await (const chunk of gunzip) {
        const lines = (rest + decoder.write(chunk as Buffer)).split('\n');
        rest = lines.pop() ?? '';
        for (const text of lines) if (!line(text)) return 'CORRUPT';
        if (stopped()) return 'STOPPED';
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'MISSING';
      if (error instanceof Error && 'errno' in error) return 'CORRUPT';
      throw error;
    } finally {
      input.destroy();
      gunzip.destroy();
    }
    return footer && rest === '' ? 'COMPLETE' : 'CORRUPT';
  }
}

/**
 * Builds the missing indexes in the background, one at a time, newest snapshot first, after each backup and after
 * a search fell back to restic for a snapshot without one; a kick while it works makes one more round after it.
 */
export class FileIndexer {
  private running: Promise<void> | null = null;
  private again = false;
  private readonly stopping = new AbortController();
  private readonly building = new Set<string>();

  constructor(
    readonly store: FileIndexStore,
    private readonly runner: ResticRunner,
    private readonly log: (text: string) => void = () => {},
  ) {}

  kick(): void {
    if (this.stopping.signal.aborted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.rounds().finally(() => {
      this.running = null;
    });
  }

  /** Resolves when no round is under way (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops the listing under way (its temporary file is removed) and starts no other. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.running;
  }

  /** Removes the indexes of snapshots no longer listed (newest first) and keeps the size bound. */
  prune(listed: readonly ResticSnapshot[]): void {
    const removed = this.store.prune(newestFirst(listed), this.building);
    if (removed.length > 0) this.log(`removed the file index of ${removed.length} snapshot(s) no longer kept`);
  }

  private async rounds(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.round();
      } catch (error) {
        this.log(`file index: ${this.runner.redact(String(error))}`);
      }
    } while (this.again && !this.stopping.signal.aborted);
  }

  private async round(): Promise<void> {
    const listed = await this.runner.snapshots(['--no-lock']);
    if (listed === null || this.stopping.signal.aborted) return;
    this.prune(listed);
    const ids = newestFirst(listed);
    for (const [i, id] of ids.entries()) {
      if (this.stopping.signal.aborted) return;
      if (this.store.has(id)) continue;
      if (this.store.full(ids.slice(0, i))) break;
      const started = Date.now();
      this.building.add(id);
      try {
        const built = await this.store.build(this.runner, id, this.stopping.signal);
        if (built) this.log(`indexed the files of snapshot ${id.slice(0, 8)} in ${Date.now() - started} ms`);
        else if (!this.stopping.signal.aborted) this.log(`could not index the files of snapshot ${id.slice(0, 8)}`);
      } finally {
        this.building.delete(id);
      }
    }
    this.store.prune(ids, this.building);
  }
}

const newestFirst = (snapshots: readonly ResticSnapshot[]) =>
  [...snapshots].sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0)).map((s) => s.id);
