/**
 * cPanel and DirectAdmin tasks (issue 14; README, *How a task maps onto restic*): the hosting accounts of the
 * panel installed on this machine, listed for the task dialog's tree and backed up one restic snapshot per
 * account. Each run reports the accounts on the server, from which the portal prunes the backups of removed
 * accounts once their pruning delay has passed (issue 16: the machine never deletes backup data).
 *
 * Every path is read below `root` ('/' on a real server; tests build a panel's files in a temporary folder),
 * and the panels' own files are only read, never run: no panel tool is needed.
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type AgentTask,
  addRunSummaries,
  isPanelBackupType,
  listedTreeItem,
  PANEL_ACCOUNT_NAME,
  PANEL_MESSAGES,
  PANELS,
  type PanelBackupType,
  resticAccountTag,
  type TreeItem,
} from '@portal/domain';
import { failedRun, MessageBatcher, type ResticRunner, type RunEvent, type RunFinishedEvent } from './restic.js';

/** One hosting account: what its backup saves (absolute paths that exist). */
export interface PanelAccount {
  name: string;
  paths: string[];
}

/** The panel the task is for is not installed below the root: the message says which folder was missing. */
export class PanelNotInstalledError extends Error {}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** Home directories by account name, from `{root}/etc/passwd` (none when it cannot be read). */
async function passwdHomes(root: string): Promise<Map<string, string>> {
  const homes = new Map<string, string>();
  const text = await readFile(join(root, 'etc/passwd'), 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    const fields = line.split(':');
    if (fields.length >= 7 && fields[0] && fields[5]) homes.set(fields[0], fields[5]);
  }
  return homes;
}

/** cPanel's account file may name the home directory (`HOMEDIR=/home2/ana`). */
async function cpanelHomeDir(accountFile: string): Promise<string | null> {
  const text = await readFile(accountFile, 'utf8').catch(() => '');
  const line = text.split('\n').find((l) => l.startsWith('HOMEDIR='));
  const home = line?.slice('HOMEDIR='.length).trim();
  return home ? home : null;
}

/**
 * The panel's accounts by name: cPanel's files in `var/cpanel/users`, DirectAdmin's folders in
 * `usr/local/directadmin/data/users`. Each account's paths are its home directory (from /etc/passwd, else cPanel's
 * HOMEDIR=, else /home/{name}) and the panel's own files for it, those that exist. Throws
 * PanelNotInstalledError when the panel's accounts folder is not there.
 */
export async function panelAccounts(type: PanelBackupType, root: string): Promise<PanelAccount[]> {
  const panel = PANELS[type];
  const accountsDir = join(root, panel.accountsDir);
  let entries: Dirent[];
  try {
    entries = await readdir(accountsDir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      throw new PanelNotInstalledError(PANEL_MESSAGES.notInstalled(type, root));
    throw error;
  }
  const homes = await passwdHomes(root);
  const accounts: PanelAccount[] = [];
  // cPanel keeps a file per account, DirectAdmin a folder: other entries (and odd names) are not accounts.
  const isAccountEntry = (entry: Dirent) => (type === 'CPANEL' ? entry.isFile() : entry.isDirectory());
  for (const entry of entries) {
    if (!isAccountEntry(entry) || !PANEL_ACCOUNT_NAME.test(entry.name)) continue;
    const own = join(accountsDir, entry.name);
    const home =
      homes.get(entry.name) ?? (type === 'CPANEL' ? await cpanelHomeDir(own) : null) ?? `/home/${entry.name}`;
    const candidates = [join(root, home), own, ...panel.accountDataDirs.map((dir) => join(root, dir, entry.name))];
    const paths: string[] = [];
    for (const path of candidates) if (await exists(path)) paths.push(path);
    accounts.push({ name: entry.name, paths });
  }
  return accounts.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The panel's accounts as the task dialog's tree items (leaves; `value` is the account name). */
export async function panelTree(type: PanelBackupType, root: string): Promise<{ treeItems: TreeItem[] }> {
  const accounts = await panelAccounts(type, root);
  return {
    treeItems: accounts.map((account) => listedTreeItem(account.name, account.name, PANELS[type].itemType)),
  };
}

// --- A run ---------------------------------------------------------------------------------------------

export interface PanelRunOptions {
  /** Where the panel's files are: '/' on a real server. */
  root: string;
  now: () => Date;
}

const worse = (a: RunFinishedEvent, b: RunFinishedEvent) =>
  (b.status === 'FINISHED_WARNINGS' && a.status === 'FINISHED_SUCCESS') || b.status === 'FAILED' ? b : a;

/**
 * A run of a cPanel / DirectAdmin task: every chosen account that is on the server (with
 * backupAnyNewAvailableItems every account there now) is backed up as a snapshot of its own, tagged
 * `task-{id}` and `account-{name}`. The run reports the accounts on the server (`panelAccounts`): the portal
 * prunes the backups of removed ones and applies the task's retention (issue 16). The run is FAILED when the
 * panel is missing, no chosen account is left, or an account's backup failed (the others are still made);
 * otherwise it has the worst outcome of its accounts. It reports every account's snapshot (`accountSnapshots`,
 * the first also as the run's `snapshotId`, all an older portal reads) and the sums of their sizes. Never rejects.
 */
export async function backupPanelTask(
  runner: ResticRunner,
  task: AgentTask,
  runKey: string,
  emit: (event: RunEvent) => void,
  signal: AbortSignal | undefined,
  options: PanelRunOptions,
): Promise<RunFinishedEvent> {
  if (!isPanelBackupType(task.type)) throw new Error(`Task ${task.id} is not a panel task.`);
  const type = task.type;
  const messages = new MessageBatcher(runKey, task.id, emit, options.now, 1000);
  const fail = (text: string) => {
    messages.add('ERROR', text);
    messages.flush();
    return failedRun(runKey, text, 'FATAL', options.now());
  };

  let accounts: PanelAccount[];
  try {
    accounts = await panelAccounts(type, options.root);
  } catch (error) {
    if (error instanceof PanelNotInstalledError) return fail(error.message);
    throw error;
  }
  const present = new Map(accounts.map((account) => [account.name, account]));
  const chosen: PanelAccount[] = [];
  if (task.extraTaskSettings.backupAnyNewAvailableItems) {
    chosen.push(...accounts);
  } else {
    const itemType = PANELS[type].itemType;
    for (const item of task.backupItems.filter((i) => i.type === itemType)) {
      const account = present.get(item.path);
      if (account) chosen.push(account);
      else messages.add('WARNING', PANEL_MESSAGES.accountGone(item.path));
    }
  }

  const progress = new RunProgress(runKey, emit);
  const finished: Array<{ account: string; result: RunFinishedEvent }> = [];
  for (const [index, account] of chosen.entries()) {
    if (signal?.aborted) break;
    const result = await runner.backup(task, runKey, progress.part(index, chosen.length), signal, {
      paths: account.paths,
      tags: [resticAccountTag(account.name)],
    });
    finished.push({ account: account.name, result });
    if (result.status === 'FAILED' && result.exitCodeResult !== 'CANCELLATION_REQUESTED') {
      messages.add('ERROR', PANEL_MESSAGES.accountFailed(account.name, result.failureMessage ?? result.exitCodeResult));
    }
  }
  const cancelled = finished.find((f) => f.result.exitCodeResult === 'CANCELLATION_REQUESTED');
  if (cancelled || signal?.aborted) {
    messages.flush();
    return cancelled?.result ?? failedRun(runKey, 'The run was cancelled.', 'CANCELLATION_REQUESTED', options.now());
  }

  // What the portal's pruning of removed accounts goes by (issue 16).
  const onServer = [...present.keys()];
  if (chosen.length === 0) return { ...fail(PANEL_MESSAGES.nothingToBackUp(type)), panelAccounts: onServer };
  const failedAccounts = finished.filter((f) => f.result.status === 'FAILED').map((f) => f.account);
  const made = finished.filter((f) => f.result.snapshotId !== null).map((f) => f.result);
  const accountSnapshots = finished.flatMap((f) =>
    f.result.snapshotId === null ? [] : [{ account: f.account, snapshotId: f.result.snapshotId }],
  );
  const sum = (pick: (r: RunFinishedEvent) => number | null) => made.reduce((total, r) => total + (pick(r) ?? 0), 0);
  const outcome = finished.map((f) => f.result).reduce(worse);
  const summaries = made.flatMap((r) => (r.summary ? [r.summary] : []));
  if (outcome.status !== 'FAILED') progress.phase('FINALIZED');
  messages.flush();
  return {
    ...outcome,
    finishedAt: options.now().toISOString(),
    failureMessage: failedAccounts.length > 0 ? PANEL_MESSAGES.accountsFailed(failedAccounts) : null,
    snapshotId: made[0]?.snapshotId ?? null,
    accountSnapshots,
    panelAccounts: onServer,
    bytesAdded: made.length > 0 ? sum((r) => r.bytesAdded) : null,
    bytesTotal: made.length > 0 ? sum((r) => r.bytesTotal) : null,
    ...(summaries.length > 0 ? { summary: summaries.reduce(addRunSummaries) } : {}),
  };
}

type ProgressEvent = Extract<RunEvent, { type: 'runProgress' }>;

/** The progress of a run made of one backup per account. */
class RunProgress {
  private last: ProgressEvent;

  constructor(
    runKey: string,
    private readonly emit: (event: RunEvent) => void,
  ) {
    this.last = {
      type: 'runProgress',
      runKey,
      phase: 'PREPARING_FOR_TRANSFER',
      percentage: 0,
      currentItem: 0,
      totalItems: 0,
      bytesDone: 0,
      bytesTotal: 0,
    };
  }

  /**
   * The events of account `index` of `count`: percentages scaled into the account's share, and its FINALIZED
   * left out (the run goes on with the next account).
   */
  part(index: number, count: number): (event: RunEvent) => void {
    return (event) => {
      if (event.type !== 'runProgress') return this.emit(event);
      if (event.phase === 'FINALIZED') return;
      this.send({ ...event, percentage: Math.min(100, Math.floor((index * 100 + event.percentage) / count)) });
    };
  }

  /** The run's own phase after the accounts' backups: the end, at 100 %. */
  phase(phase: ProgressEvent['phase']): void {
    this.send({ ...this.last, phase, percentage: 100 });
  }

  private send(event: ProgressEvent): void {
    this.last = event;
    this.emit(event);
  }
}
