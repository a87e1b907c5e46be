import { createHash, randomBytes } from 'node:crypto';
import type { ReadStream } from 'node:fs';
import { access, mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { type ByteRange, OBJECT_TYPES, type ObjectType, objectPath, typeDir } from './paths.js';

/**
 * The files of one restic repository, laid out exactly as restic's own `local` backend lays them out
 * (config, keys/, locks/, snapshots/, index/, data/00..ff/): the folder can be opened by a restic on
 * the server as a plain local repository, and copied by rclone as it is.
 */

const TEMP_DIR = '.tmp';

/** `exists`: the config is there already; `overwrite`: an existing object was offered with other content. */
export type SaveResult = 'saved' | 'unchanged' | 'exists' | 'overwrite' | 'hashMismatch' | 'noRepository';

export interface ObjectEntry {
  name: string;
  size: number;
}

const notFound = (error: unknown) => (error as NodeJS.ErrnoException)?.code === 'ENOENT';

export async function repositoryExists(repoDir: string): Promise<boolean> {
  try {
    await access(join(repoDir, 'config'));
    return true;
  } catch {
    return false;
  }
}

/** Creates the folders (idempotent: an existing repository is left as it is). */
export async function createRepository(repoDir: string): Promise<void> {
  await mkdir(join(repoDir, TEMP_DIR), { recursive: true });
  for (const type of OBJECT_TYPES) await mkdir(join(repoDir, type), { recursive: true });
  const data = join(repoDir, 'data');
  for (let i = 0; i < 256; i++) await mkdir(join(data, i.toString(16).padStart(2, '0')), { recursive: true });
}

/** The size of a file, or null when it does not exist. */
export async function fileSize(path: string): Promise<number | null> {
  try {
    const info = await stat(path);
    return info.isFile() ? info.size : null;
  } catch (error) {
    if (notFound(error)) return null;
    throw error;
  }
}

/**
 * Opens a file for reading (the whole of it or one range): the stream and its size, or null when it
 * does not exist. Opening first and reading through the same descriptor means a file deleted in
 * between is still read whole.
 */
export async function openForReading(
  path: string,
  range: (size: number) => ByteRange | null | 'unsatisfiable',
): Promise<
  | { kind: 'missing' }
  | { kind: 'unsatisfiable'; size: number }
  | { kind: 'ok'; size: number; range: ByteRange | null; stream: ReadStream }
> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if (notFound(error) || (error as NodeJS.ErrnoException).code === 'EISDIR') return { kind: 'missing' };
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      await handle.close();
      return { kind: 'missing' };
    }
    const wanted = range(info.size);
    if (wanted === 'unsatisfiable') {
      await handle.close();
      return { kind: 'unsatisfiable', size: info.size };
    }
    const stream = handle.createReadStream({
      autoClose: true,
      ...(wanted ? { start: wanted.start, end: wanted.end } : {}),
    });
    // The stream owns the descriptor from here on; the handle must not close it a second time.
    return { kind: 'ok', size: info.size, range: wanted, stream };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Streams a body into a file, atomically: into a temporary file of the repository, flushed to disk,
 * then renamed into place. Objects are named by the SHA-256 of their content, which is checked, so
 * an object that already exists can only ever be offered again with the same content: it is left
 * untouched and the upload answered as done (a retried upload succeeds). `config` is written once
 * and never replaced.
 */
export async function saveFile(
  repoDir: string,
  target: { type: ObjectType; name: string } | 'config',
  body: Readable,
): Promise<SaveResult> {
  if (!(await isDirectory(repoDir))) return 'noRepository';
  const path = target === 'config' ? join(repoDir, 'config') : objectPath(repoDir, target.type, target.name);
  const existing = await fileSize(path);
  if (existing !== null && target === 'config') return 'exists';

  await mkdir(join(repoDir, TEMP_DIR), { recursive: true });
  const temp = join(repoDir, TEMP_DIR, `${randomBytes(12).toString('hex')}.part`);
  const hash = createHash('sha256');
  const hashing = async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      hash.update(chunk);
      yield chunk;
    }
  };
  try {
    if (existing !== null) {
      // Only the hash matters: read the body to its end without keeping it.
      for await (const chunk of hashing(body)) void chunk;
    } else {
      const handle = await open(temp, 'wx', 0o600);
      try {
        // Written chunk by chunk: each write is awaited, so a fast sender waits for the disk.
        for await (const chunk of hashing(body)) {
          for (let offset = 0; offset < chunk.length; ) offset += (await handle.write(chunk, offset)).bytesWritten;
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
    if (target !== 'config' && hash.digest('hex') !== target.name) {
      await unlink(temp).catch(() => undefined);
      // restic never offers other content under an existing name: only an attempt to destroy the object does.
      return existing !== null ? 'overwrite' : 'hashMismatch';
    }
    if (existing !== null) return 'unchanged';
    if (target !== 'config' && target.type === 'data') await mkdir(join(path, '..'), { recursive: true });
    if (target === 'config' && (await fileSize(path)) !== null) {
      await unlink(temp);
      return 'exists';
    }
    await rename(temp, path);
    return 'saved';
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

export async function deleteFile(path: string): Promise<boolean> {
  try {
    await unlink(path);
    return true;
  } catch (error) {
    if (notFound(error)) return false;
    throw error;
  }
}

/** The objects of one type with their sizes (data is read from its 256 sub-folders). */
export async function listObjects(repoDir: string, type: ObjectType): Promise<ObjectEntry[]> {
  const dir = typeDir(repoDir, type);
  const folders =
    type === 'data' ? (await entries(dir)).filter((e) => e.isDirectory()).map((e) => join(dir, e.name)) : [dir];
  const out: ObjectEntry[] = [];
  for (const folder of folders) {
    for (const entry of await entries(folder)) {
      if (!entry.isFile() || !/^[0-9a-f]{64}$/.test(entry.name)) continue;
      const size = await fileSize(join(folder, entry.name));
      if (size !== null) out.push({ name: entry.name, size });
    }
  }
  return out;
}

/** Removes a repository's whole folder (for the machine's deletion; not reachable over REST). */
export async function removeRepository(repoDir: string): Promise<void> {
  await rm(repoDir, { recursive: true, force: true });
}

async function entries(dir: string) {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (notFound(error)) return [];
    throw error;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
