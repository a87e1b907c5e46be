import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { PassThrough, pipeline, type Readable } from 'node:stream';
import {
  type Actor,
  accountRunPath,
  canDeleteSnapshotArchive,
  chosenItemsValid,
  DOWNLOAD_ID_LIFETIME_MS,
  type DownloadInitiated,
  type DownloadRequest,
  downloadIdSchema,
  fieldNotValid,
  MESSAGES,
  machineAudience,
  mayHandleBackupData,
  type SnapshotTreeItem,
  zipEntryName,
} from '@portal/domain';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import { resticFailure, runRestic, streamRestic } from '../../platform/restic.js';
import { type RepositoryJobDeps, repositoryJobTools, repositoryPresent, resticEnvOf } from '../../storage/access.js';
import { sha256 } from '../auth/tokens.js';
import { accountFolders, accountPathOf, type DumpItem, dumpItems } from './accounts.js';
import type { RestoreRepo } from './repo.js';
import { writerOf, ZipWriter } from './zip.js';

const TEXT = MESSAGES.restore;

/** A run of a task on the customer's paths. */
export interface RunPath {
  machineId: number;
  taskId: number;
  runId: number;
}

/** Children listed at most per folder of the tree; a larger folder shows its first ones. */
const MAX_TREE_CHILDREN = 5000;
/**
 * How far restic may run ahead of the zip writer, and the zip writer ahead of the client: a few of restic's
 * 64 KiB chunks, so each side waits only when the other is slower (with the default 16 KiB, after every chunk).
 */
const ZIP_BUFFER_BYTES = 1024 * 1024;

/** A download ready to stream: the zip's bytes and the file name to offer. */
export interface DownloadStream {
  fileName: string;
  body: Readable;
}

/** A failure of restic on the portal, answered as the machine's error (502). */
export const machineError = (detail: string) =>
  new AppError(502, 'MACHINE_ERROR', [
    { type: 'ERROR', fieldName: '', message: detail, responseCode: 'MACHINE_ERROR' },
  ]);

/** The machine, task and run of a path, for a caller who may `what` the machine's data; 404 for anyone else. */
export async function loadRun(repo: RestoreRepo, actor: Actor, path: RunPath, what: 'read' | 'change') {
  const machine = await repo.machine(path.machineId);
  if (!machine || machine.beingDeleted || machineAudience(actor, machine) === null) {
    throw notFound(MESSAGES.backupMachine.notFound);
  }
  if (!mayHandleBackupData(actor, machine, what)) throw forbidden();
  const task = await repo.task(path.machineId, path.taskId);
  if (!task) throw notFound(TEXT.runNotFound);
  const run = await repo.run(task.id, path.runId);
  if (!run) throw notFound(TEXT.runNotFound);
  return { machine, task, run };
}

/** The file name of a download: the task's name and the run's start, kept to safe characters. */
function downloadFileName(taskName: string, started: Date): string {
  const name = taskName.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '') || 'backup';
  return `${name}-${started.toISOString().slice(0, 19).replace(/:/g, '-')}.zip`;
}

/**
 * Downloads, the snapshot tree and archive deletion (002 §4.2, §5.8, §7.5, §7.6). The server runs restic itself
 * on the machine's repository with its location's own key (DESIGN §6, storage/access.ts): `ls` for the tree, `dump` for a download
 * (streamed to the browser as restic writes it), `forget` then `prune` for an archive deletion.
 *
 * A download is two calls (002 §7.6): the initiate call checks everything and answers a downloadId, which the
 * browser's form POST 8 s later redeems once, as the same user, within DOWNLOAD_ID_LIFETIME_MS. The ids are kept
 * (hashed) in the database, so the POST may reach any server instance, and a restart keeps them.
 */
export function createRestoreService(
  deps: RepositoryJobDeps & {
    repo: RestoreRepo;
    onError?: (error: unknown, what: string) => void;
  },
) {
  const { repo } = deps;
  const { binary, now } = repositoryJobTools(deps);
  const deleting = new Map<number, Promise<void>>();

  /**
   * restic's environment for the machine's repository (its place, the location's key, the password); null when
   * nothing was ever stored for it (a machine that has not backed up, or the demo's recorded history).
   */
  async function storedRepositoryOf(machineId: number): Promise<Record<string, string> | null> {
    const at = await deps.storage.machineRepositoryAccess(machineId);
    if (!at) throw notFound(MESSAGES.backupMachine.notFound);
    const password = await deps.repositoryPassword(machineId);
    if (password === null) throw notFound(MESSAGES.backupMachine.notFound);
    if (!(await repositoryPresent(at.access, password, binary))) return null;
    return resticEnvOf(at.access, password);
  }

  /** The repository of the machine, or 409 when it holds nothing to read. */
  async function repositoryOf(machineId: number): Promise<Record<string, string>> {
    const env = await storedRepositoryOf(machineId);
    if (env === null) throw conflict(TEXT.noSnapshot);
    return env;
  }

  const load = (actor: Actor, path: RunPath, what: 'read' | 'change') => loadRun(repo, actor, path, what);

  /** The run's restic snapshot, when it has one the portal can read. */
  function snapshotOf(run: { snapshotsAvailable: boolean; resticSnapshotId: string | null }): string {
    if (!run.snapshotsAvailable || run.resticSnapshotId === null) throw conflict(TEXT.noSnapshot);
    return run.resticSnapshotId;
  }

  /** The direct children of a folder of a snapshot (`restic ls --json {snapshot} {folder}`), folders first. */
  async function listFolder(
    env: Record<string, string>,
    snapshot: string,
    folder: string,
  ): Promise<SnapshotTreeItem[]> {
    const listing = streamRestic({ binary, args: ['--no-cache', 'ls', '--json', snapshot, folder], env });
    const parent = folder === '/' ? '/' : folder.replace(/\/+$/, '');
    const items: SnapshotTreeItem[] = [];
    for await (const line of createInterface({ input: listing.stdout, crlfDelay: Number.POSITIVE_INFINITY })) {
      if (items.length >= MAX_TREE_CHILDREN) continue;
      let node: { struct_type?: string; type?: string; path?: string; name?: string; size?: number };
      try {
        node = JSON.parse(line) as typeof node;
      } catch {
        continue;
      }
      if (node.struct_type !== 'node' || typeof node.path !== 'string' || typeof node.name !== 'string') continue;
      const at = node.path.lastIndexOf('/');
      const nodeParent = at <= 0 ? '/' : node.path.slice(0, at);
      if (nodeParent !== parent || node.path === parent) continue;
      if (node.type !== 'dir' && node.type !== 'file') continue;
      items.push({
        path: node.path,
        name: node.name,
        type: node.type === 'dir' ? 'DIRECTORY' : 'FILE',
        size: node.type === 'file' ? (node.size ?? 0) : 0,
      });
    }
    const outcome = await listing.done;
    if (outcome.code !== 0) throw machineError(TEXT.treeError);
    return items.sort((a, b) => (a.type === b.type ? a.name.localeCompare(b.name) : a.type === 'DIRECTORY' ? -1 : 1));
  }

  /**
   * Streams the zip of the chosen items: a folder's `restic dump -a zip` passed through entry by entry, a file's
   * bytes (restic dumps a file as its bytes) as an entry; a panel run's under its account's folder; one central
   * directory at the end.
   */
  function zipOfItems(
    env: Record<string, string>,
    items: readonly DumpItem[],
    modified: Date,
    signal: AbortSignal,
    out: PassThrough,
  ): Promise<void> {
    const zip = new ZipWriter(writerOf(out));
    return (async () => {
      for (const item of items) {
        const file = item.type === 'FILE';
        const args = ['--no-cache', 'dump', ...(file ? [] : ['-a', 'zip']), item.snapshot, item.path];
        const dump = streamRestic({ binary, args, env, signal });
        // restic keeps writing while the zip is made: without this it waits on a 64 KiB pipe after every chunk.
        const source = new PassThrough({ highWaterMark: ZIP_BUFFER_BYTES });
        pipeline(dump.stdout, source, () => {});
        const name = item.zipFolder + zipEntryName(item.path);
        // A folder chosen along with something inside it, or twice: its entries are written once.
        if (!file) await zip.copy(source, item.zipFolder);
        else if (zip.has(name)) source.resume();
        else await zip.add(name, modified, source);
        const outcome = await dump.done;
        if (outcome.code !== 0) throw new Error(resticFailure(outcome));
      }
      await zip.finish();
      out.end();
    })();
  }

  /**
   * The first bytes of restic's output, or its failure as an error answer: once bytes flow the answer is
   * a 200 and a later failure can only cut the download short.
   */
  async function firstBytes(stdout: Readable, done: ReturnType<typeof streamRestic>['done']): Promise<void> {
    const readable = new Promise<'data'>((resolve) => stdout.once('readable', () => resolve('data')));
    const first = await Promise.race([readable, done.then(() => 'ended' as const)]);
    if (first === 'ended') {
      const outcome = await done;
      if (outcome.code !== 0) throw machineError(resticFailure(outcome));
    }
  }

  /**
   * Deletes one archive's restic snapshot (a panel run's: each account's) and what only it used (`forget`, then
   * `prune`).
   */
  async function deleteFromRepository(snapshot: {
    id: number;
    taskId: number;
    machineId: number;
    resticSnapshotId: string | null;
  }): Promise<void> {
    // Without a repository there is no data of the archive left to remove.
    const env = snapshot.resticSnapshotId === null ? null : await storedRepositoryOf(snapshot.machineId);
    if (env !== null && snapshot.resticSnapshotId !== null) {
      const accounts = await repo.accountSnapshots(snapshot.taskId, snapshot.resticSnapshotId);
      const ids = [...new Set([snapshot.resticSnapshotId, ...accounts.map((a) => a.resticSnapshotId)])];
      const listed = await runRestic({ binary, args: ['--no-cache', 'snapshots', '--json', ...ids], env });
      // Gone already (an earlier attempt forgot them): only the prune is left, which is safe to repeat.
      const output = listed.code === 0 ? listed.stdout.join('') : '';
      const present = ids.filter((id) => output.includes(id));
      if (present.length > 0) {
        const forgot = await runRestic({ binary, args: ['--no-cache', 'forget', ...present], env });
        if (forgot.code !== 0) throw new Error(resticFailure(forgot));
      }
      const pruned = await runRestic({ binary, args: ['--no-cache', 'prune'], env });
      if (pruned.code !== 0) throw new Error(resticFailure(pruned));
    }
    await repo.markDeleted(snapshot);
  }

  /** Starts the deletion of an archive in the background, once per process. */
  function startDeletion(snapshot: Parameters<typeof deleteFromRepository>[0]): Promise<void> {
    const busy = deleting.get(snapshot.id);
    if (busy) return busy;
    const done = deleteFromRepository(snapshot)
      .catch((error: unknown) => deps.onError?.(error, `deleting snapshot archive ${snapshot.id}`))
      .finally(() => deleting.delete(snapshot.id));
    deleting.set(snapshot.id, done);
    return done;
  }

  async function resumeDeletions(): Promise<void> {
    for (const snapshot of await repo.beingDeleted()) void startDeletion(snapshot);
  }

  return {
    /**
     * The direct children of a folder of the run's snapshot; of a panel run, its accounts at the top and below each
     * the folders of that account's snapshot.
     */
    async tree(actor: Actor, path: RunPath, folder: string): Promise<SnapshotTreeItem[]> {
      const { run } = await load(actor, path, 'read');
      const snapshot = snapshotOf(run);
      const env = await repositoryOf(path.machineId);
      const accounts = await repo.accountSnapshots(path.taskId, snapshot);
      if (accounts.length === 0) return listFolder(env, snapshot, folder);
      if (folder === '/') return accountFolders(accounts);
      const at = accountPathOf(accounts, folder);
      if (at === null) return [];
      const items = await listFolder(env, at.snapshot, at.path);
      return items.map((item) => ({ ...item, path: accountRunPath(at.account, item.path) }));
    },

    /** 002 §7.6: checks the download and answers the id its form POST will redeem. */
    async initiateDownload(actor: Actor, path: RunPath, request: DownloadRequest): Promise<DownloadInitiated> {
      if (!request.downloadAllItems && !chosenItemsValid(request.backedUpItemsToDownload)) {
        throw badRequest(fieldNotValid('Backed-up item'), 'backedUpItemsToDownload');
      }
      const { task, run } = await load(actor, path, 'read');
      if (task.actionInProgress || task.status === 'BEING_DELETED') throw conflict(TEXT.busy);
      const snapshot = snapshotOf(run);
      if (dumpItems(snapshot, await repo.accountSnapshots(path.taskId, snapshot), request) === null) {
        throw badRequest(fieldNotValid('Backed-up item'), 'backedUpItemsToDownload');
      }
      await repositoryOf(path.machineId);
      const downloadId = randomBytes(24).toString('base64url');
      await repo.insertDownload({
        idHash: sha256(downloadId),
        userId: actor.userId,
        run: path,
        request,
        expiresAt: new Date(now().getTime() + DOWNLOAD_ID_LIFETIME_MS),
      });
      return { downloadId };
    },

    /**
     * Redeems a download id (once, by the user it was issued to, for the same run, before it expires) and
     * streams the zip: `restic dump -a zip {snapshot} /` for everything (or the one chosen folder), several chosen items
     * (or a panel run's) as one zip merged from their own dumps.
     */
    async openDownload(actor: Actor, path: RunPath, downloadId: string, signal: AbortSignal): Promise<DownloadStream> {
      const request = downloadIdSchema.safeParse(downloadId).success
        ? await repo.redeemDownload(sha256(downloadId), actor.userId, path, now())
        : null;
      if (request === null) throw notFound(TEXT.downloadNotValid);
      const { task, run } = await load(actor, path, 'read');
      const snapshot = snapshotOf(run);
      const env = await repositoryOf(path.machineId);
      const fileName = downloadFileName(task.name, run.timeStarted);
      const accounts = await repo.accountSnapshots(path.taskId, snapshot);
      // Everything, or one chosen folder: restic's own zip, streamed as it comes, names the entries as the merged
      // one would. A panel run's entries go under their account's folders, which only the merged zip puts them in.
      const [only] = request.backedUpItemsToDownload;
      const wholeFolder =
        accounts.length > 0
          ? null
          : request.downloadAllItems
            ? '/'
            : request.backedUpItemsToDownload.length === 1 && only?.type === 'DIRECTORY'
              ? only.path
              : null;
      if (wholeFolder !== null) {
        const args = ['--no-cache', 'dump', '-a', 'zip', snapshot, wholeFolder];
        const dump = streamRestic({ binary, args, env, signal });
        await firstBytes(dump.stdout, dump.done);
        return { fileName, body: dump.stdout };
      }
      const out = new PassThrough({ highWaterMark: ZIP_BUFFER_BYTES });
      const stop = new AbortController();
      signal.addEventListener('abort', () => stop.abort(), { once: true });
      out.once('close', () => stop.abort());
      const items = dumpItems(snapshot, accounts, request);
      if (items === null) throw badRequest(fieldNotValid('Backed-up item'), 'backedUpItemsToDownload');
      zipOfItems(env, items, run.timeStarted, stop.signal, out).catch((error: unknown) => {
        if (!stop.signal.aborted) deps.onError?.(error, `streaming download ${fileName}`);
        stop.abort();
        // The zip stops short (no central directory): the browser's download fails rather than looking whole.
        out.destroy(error instanceof Error ? error : new Error(String(error)));
      });
      return { fileName, body: out };
    },

    /**
     * 002 §4.2, §7.5: marks the archive BEING_DELETED and deletes it in the background (→ DELETED). Asking
     * again while it is being deleted, or after, changes nothing and answers the same.
     */
    async deleteArchive(actor: Actor, at: { machineId: number; taskId: number; snapshotId: number }): Promise<void> {
      const machine = await repo.machine(at.machineId);
      if (!machine || machineAudience(actor, machine) === null) throw notFound(MESSAGES.backupMachine.notFound);
      if (!mayHandleBackupData(actor, machine, 'change')) throw forbidden();
      const task = await repo.task(at.machineId, at.taskId);
      if (!task) throw notFound(TEXT.snapshotNotFound);
      const snapshot = await repo.snapshot(task.id, at.snapshotId);
      if (!snapshot) throw notFound(TEXT.snapshotNotFound);
      if (snapshot.storageStatus === 'BEING_DELETED' || snapshot.storageStatus === 'DELETED') return;
      if (!canDeleteSnapshotArchive({ actionStatus: snapshot.status, storageStatus: snapshot.storageStatus })) {
        throw conflict(TEXT.archiveNotDeletable);
      }
      if (!(await repo.markBeingDeleted(snapshot.id))) return;
      void startDeletion({ ...snapshot, taskId: task.id, machineId: at.machineId });
    },

    /** Resolves when the deletions this process runs have finished (tests, shutdown). */
    async idle(): Promise<void> {
      while (deleting.size > 0) await Promise.all([...deleting.values()]);
    },

    /** Takes up the deletions left pending (a restart, a locked repository): jobs/passes.ts, 'restore-deletions'. */
    resumeDeletions,
  };
}

export type RestoreService = ReturnType<typeof createRestoreService>;
