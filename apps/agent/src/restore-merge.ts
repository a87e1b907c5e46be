/**
 * Restore to the machine, existing files (issue 31): restic 0.14 has no `--overwrite`, so a restore writes into a
 * staging folder and this moves what it wrote into place, file by file, by the user's choice for a name that is
 * already taken: replace the machine's file, leave it (skip), or keep both (the restored one renamed,
 * keptBothName). A folder that is not there yet moves whole; one that is there is merged entry by entry.
 */
import type { Stats } from 'node:fs';
import { cp, lstat, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { keptBothName, type RestoreConflictChoice, type RestoreSummary } from '@portal/domain';

/** Renamed copies tried per file before it counts as an error. */
const MAX_KEPT_BOTH_ATTEMPTS = 1000;

type Tally = Omit<RestoreSummary, 'errors'> & { errors: number };

export interface MergeOptions {
  existingFiles: RestoreConflictChoice;
  /** The restore's start, in kept-both names. */
  startedAt: Date;
  /** An item that could not be put in place (the restore goes on with the others). */
  onError: (path: string, why: string) => void;
  signal?: AbortSignal;
}

const missing = async (path: string): Promise<Stats | null> => lstat(path).catch(() => null);

/** The files (anything but a folder) below `path`, itself included, and the bytes of the regular ones. */
async function filesIn(path: string, info: Stats): Promise<{ files: number; bytes: number }> {
  if (!info.isDirectory()) return { files: 1, bytes: info.isFile() ? info.size : 0 };
  const total = { files: 0, bytes: 0 };
  for (const name of await readdir(path)) {
    const child = join(path, name);
    const found = await filesIn(child, await lstat(child));
    total.files += found.files;
    total.bytes += found.bytes;
  }
  return total;
}

/**
 * Moves `from` to `to`: a rename, or across file systems (the original place may span mounts) a copy that keeps
 * times and links, then the staged one removed. `replace` lets it replace a file at `to`.
 */
async function move(from: string, to: string, replace: boolean): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await cp(from, to, {
      recursive: true,
      preserveTimestamps: true,
      verbatimSymlinks: true,
      force: replace,
      errorOnExist: !replace,
    });
    await rm(from, { recursive: true, force: true });
  }
}

/** The first kept-both name beside `to` that is free. */
async function freeName(to: string, startedAt: Date): Promise<string | null> {
  for (let attempt = 1; attempt <= MAX_KEPT_BOTH_ATTEMPTS; attempt++) {
    const candidate = join(dirname(to), keptBothName(basename(to), startedAt, attempt));
    if ((await missing(candidate)) === null) return candidate;
  }
  return null;
}

const why = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Moves everything below the staging folder `from` into `to` (an existing folder) by the choice for existing files,
 * and counts it. An entry that cannot be moved is an error (onError) and stays behind for the caller to remove.
 */
export async function mergeRestored(from: string, to: string, options: MergeOptions): Promise<Tally> {
  const tally: Tally = { filesRestored: 0, bytesRestored: 0, filesRenamed: 0, filesSkipped: 0, errors: 0 };
  const merge = async (source: string, destination: string): Promise<void> => {
    for (const name of await readdir(source)) {
      if (options.signal?.aborted) return;
      const staged = join(source, name);
      const placed = join(destination, name);
      try {
        const info = await lstat(staged);
        const existing = await missing(placed);
        if (existing?.isDirectory() && info.isDirectory()) {
          await merge(staged, placed);
          continue;
        }
        const found = await filesIn(staged, info);
        if (existing === null) {
          await move(staged, placed, false);
        } else if (options.existingFiles === 'SKIP') {
          tally.filesSkipped += found.files;
          continue;
        } else if (options.existingFiles === 'KEEP_BOTH') {
          const renamed = await freeName(placed, options.startedAt);
          if (renamed === null) throw new Error('no free name to keep both');
          await move(staged, renamed, false);
          tally.filesRenamed += found.files;
        } else if (existing.isDirectory() || info.isDirectory()) {
          // Replacing would delete a whole folder, or a file with one: left to the user.
          throw new Error('a file and a folder of the same name: not replaced');
        } else {
          await move(staged, placed, true);
        }
        tally.filesRestored += found.files;
        tally.bytesRestored += found.bytes;
      } catch (error) {
        tally.errors++;
        options.onError(placed, why(error));
      }
    }
  };
  await merge(from, to);
  return tally;
}
