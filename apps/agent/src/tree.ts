/**
 * The machine's item tree for the task and download dialogs (DESIGN §6, 002 §7.8 treeItems): one level at a
 * time (lazy: `children` is null until the browser opens the folder), dot-files flagged `hidden`, and a path
 * that does not exist answered as one `missing` item so a selected item can be unselected.
 */
import { lstat, readdir, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { listedTreeItem, type TreeItem } from '@portal/domain';

export interface TreeListing {
  treeItems: TreeItem[];
}

/**
 * The children of `path` (the root `/` for an empty path), directories first, then by name. A file is listed
 * as itself; a path that does not exist is one item with `missing: true`; one that cannot be read throws.
 * Symbolic links are listed by what they point to (a dangling one as a file).
 */
export async function listTree(path: string, includeHidden = true): Promise<TreeListing> {
  const dir = path === '' ? '/' : resolve(path);
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') {
      return { treeItems: [listedTreeItem(dir, basename(dir) || dir, 'FILE', { missing: true })] };
    }
    throw error;
  }
  if (!info.isDirectory()) return { treeItems: [listedTreeItem(dir, basename(dir) || dir, 'FILE')] };

  const entries = await readdir(dir, { withFileTypes: true });
  const items: TreeItem[] = [];
  for (const entry of entries) {
    if (!includeHidden && entry.name.startsWith('.')) continue;
    const full = join(dir, entry.name);
    let directory = entry.isDirectory();
    if (entry.isSymbolicLink()) {
      try {
        directory = (await stat(full)).isDirectory();
      } catch {
        directory = false; // dangling
      }
    } else if (!entry.isFile() && !directory) {
      // sockets, FIFOs, devices: restic stores them, but they are not useful choices; list them as files.
      try {
        await lstat(full);
      } catch {
        continue; // vanished meanwhile
      }
    }
    items.push(listedTreeItem(full, entry.name, directory ? 'DIRECTORY' : 'FILE'));
  }
  items.sort((a, b) =>
    a.type === b.type ? (a.text < b.text ? -1 : a.text > b.text ? 1 : 0) : a.type === 'DIRECTORY' ? -1 : 1,
  );
  return { treeItems: items };
}
