import { z } from 'zod';
import { type Actor, type CommandedMachine, machineAudience, mayChange } from './permissions.js';
import { formatBytes } from './sizes.js';

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

// --- Restore to the machine: existing files and the summary (issue 31) -----------------------------------------

/**
 * What a restore does with a restored file whose name already exists where it goes: replace it (restic's own way),
 * leave the machine's file alone, or keep both, the restored one under a new name (keptBothName).
 */
export const RESTORE_CONFLICT_CHOICES = ['OVERWRITE', 'SKIP', 'KEEP_BOTH'] as const;
export type RestoreConflictChoice = (typeof RESTORE_CONFLICT_CHOICES)[number];

/** The choices as the restore dialog offers them. */
export const RESTORE_CONFLICT_TEXTS: Readonly<Record<RestoreConflictChoice, string>> = {
  OVERWRITE: 'Overwrite them with the backed-up versions',
  SKIP: 'Skip them: keep the files on the machine',
  KEEP_BOTH: 'Keep both: the restored file gets a new name, e.g. report (restored 2026-01-31 1405).pdf',
};

/**
 * The name a restored file gets when the machine's file of the same name is kept (KEEP_BOTH): '(restored DATE
 * HHMM)' before its last extension, the restore's start in the machine's time ('report.pdf' → 'report (restored
 * 2026-01-31 1405).pdf'; a name starting with its only dot, '.bashrc', has no extension). `attempt` 2, 3, … when
 * that name is taken too: 'report (restored 2026-01-31 1405 2).pdf'.
 */
export function keptBothName(name: string, startedAt: Date, attempt = 1): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const stamp = `${startedAt.getFullYear()}-${two(startedAt.getMonth() + 1)}-${two(startedAt.getDate())} ${two(
    startedAt.getHours(),
  )}${two(startedAt.getMinutes())}`;
  const mark = ` (restored ${stamp}${attempt > 1 ? ` ${attempt}` : ''})`;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}${mark}${name.slice(dot)}` : `${name}${mark}`;
}

const count = z.number().int().min(0);

/**
 * What a finished restore did, reported by the agent with its runFinished and shown in the run's row: files written
 * to the machine (new, replaced or kept under a new name) and their bytes, of them the files kept under a new name,
 * existing files skipped, and the items that could not be restored (restic's or the agent's).
 */
export const restoreSummarySchema = z.object({
  filesRestored: count,
  bytesRestored: count,
  filesRenamed: count,
  filesSkipped: count,
  errors: count,
});
export type RestoreSummary = z.infer<typeof restoreSummarySchema>;

const files = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;

/** A restore's summary in one line: '3 files restored (1.2 MB), 1 under a new name, 2 skipped, 1 error'. */
export function restoreSummaryText(summary: RestoreSummary): string {
  const parts = [`${files(summary.filesRestored)} restored (${formatBytes(summary.bytesRestored)})`];
  if (summary.filesRenamed > 0) parts.push(`${summary.filesRenamed} under a new name`);
  if (summary.filesSkipped > 0) parts.push(`${summary.filesSkipped} skipped (already on the machine)`);
  parts.push(summary.errors === 0 ? 'no errors' : `${summary.errors} ${summary.errors === 1 ? 'error' : 'errors'}`);
  return parts.join(', ');
}

/** The toast when a restore the page followed has ended. */
export const RESTORE_END_TEXTS = {
  finished: (summary: RestoreSummary | null) =>
    summary ? `Restore finished: ${restoreSummaryText(summary)}.` : 'Restore finished.',
  failed: (why: string | null) => (why ? `Restore failed: ${why}` : 'Restore failed.'),
} as const;
