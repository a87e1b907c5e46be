import { z } from 'zod';
import { type Actor, type CommandedMachine, machineAudience, mayChange } from './permissions.js';

/**
 * A run's backed-up data: the snapshot's tree, downloads (002 §3 'Download', §5.8, §7.6; the request schema is
 * forms/task.ts downloadRequestSchema) and snapshot archive deletion (002 §4.2, §7.5).
 */

/** restic's full snapshot id: 64 lower-case hex digits. */
export const resticSnapshotIdSchema = z.string().regex(/^[0-9a-f]{64}$/);

/** The kinds of entries a snapshot holds that the portal offers (symlinks and devices are left out). */
export const SNAPSHOT_ITEM_TYPES = ['DIRECTORY', 'FILE'] as const;
export type SnapshotItemType = (typeof SNAPSHOT_ITEM_TYPES)[number];

/** One entry of a snapshot's tree, as GET ROUTES.restore.snapshotTree answers it (children loaded lazily). */
export interface SnapshotTreeItem {
  /** Absolute path inside the snapshot, '/' separated (restic's own form). */
  path: string;
  name: string;
  type: SnapshotItemType;
  /** Bytes of a file; 0 for a folder. */
  size: number;
}

/** The path of a snapshot entry: absolute, '/' separated, no '.' or '..' segment, no control characters. */
export const snapshotPathSchema = z
  .string()
  .max(4096)
  .refine(
    (path) =>
      path.startsWith('/') &&
      // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
      !/[\u0000-\u001f]/.test(path) &&
      path
        .split('/')
        .slice(1)
        .every(
          (segment, index, all) => (segment !== '' || index === all.length - 1) && segment !== '.' && segment !== '..',
        ),
    'Path is not valid',
  );

/** ?path= of the tree call: the folder whose children are wanted; '/' for the top. */
export const snapshotTreeQuerySchema = z.object({ path: snapshotPathSchema.default('/') });

/** Chosen items at most per download: each becomes one restic call. */
export const MAX_CHOSEN_ITEMS = 1000;

/**
 * The chosen items of a download (forms/task.ts downloadRequestSchema), as the server takes them:
 * each path one of the snapshot's ('/'-separated, absolute), so none is ever read by restic as an option.
 */
export const chosenItemsValid = (items: ReadonlyArray<{ path: string }>) =>
  items.length <= MAX_CHOSEN_ITEMS &&
  items.every((item) => item.path !== '/' && snapshotPathSchema.safeParse(item.path).success);

/** POST .../downloads/initiate answers the id the form POST then names (002 §7.6). */
export interface DownloadInitiated {
  downloadId: string;
}

/** 002 §7.6: the hidden form is sent this long after the initiate call answered. */
export const DOWNLOAD_START_DELAY_MS = 8000;
/** Ours: a download id is good for one form POST within this long of being issued. */
export const DOWNLOAD_ID_LIFETIME_MS = 5 * 60_000;

/** A download id as the path carries it: 32 url-safe characters. */
export const downloadIdSchema = z.string().regex(/^[A-Za-z0-9_-]{32}$/, 'Download id is not valid');

/** ?archivedelete=true of the snapshot PUT (002 §7.5); nothing else is done on that path. */
export const archiveDeleteQuerySchema = z.object({
  archivedelete: z.literal('true', { error: 'archivedelete=true is required' }),
});

/**
 * Who may read (download) a machine's backed-up data and delete its archives (002 §6: customer users on
 * their own machines; a reseller admin only with the customer's allowProviderMachineControl, which also
 * governs the provider, as for every command to a machine). A change (archive deletion) also needs
 * a caller who is not read-only; a download only reads.
 */
export function mayHandleBackupData(actor: Actor, machine: CommandedMachine, what: 'read' | 'change'): boolean {
  const audience = machineAudience(actor, machine);
  if (audience === null) return false;
  if (what === 'change' && !mayChange(actor)) return false;
  return audience === 'customer' || machine.allowProviderMachineControl;
}

/** Where a chosen item is written in a zip: its path without the leading '/', as restic dump names it. */
export const zipEntryName = (path: string) => path.replace(/^\/+/, '');
