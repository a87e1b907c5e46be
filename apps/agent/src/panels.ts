/**
 * cPanel and DirectAdmin tasks (issue 14; README, *How a task maps onto restic*): the hosting accounts of the
 * panel installed on this machine, listed for the task dialog's tree and backed up one restic snapshot per
 * account, with the backups of accounts removed from the server deleted once their pruning delay has passed.
 *
 * Every path is read below `root` ('/' on a real server; tests build a panel's files in a temporary folder),
 * and the panels' own files are only read, never run: no panel tool is needed.
 */
import { type Dirent, readFileSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type AgentTask,
  isPanelBackupType,
  PANEL_ACCOUNT_NAME,
  PANEL_MESSAGES,
  PANELS,
  type PanelBackupType,
  pruneRemovedAccountAt,
  resticAccountTag,
  type TreeItem,
} from '@portal/domain';
import { writePrivateFile } from './config.js';
import {
  failedRun,
  MessageBatcher,
  type ResticRunner,
  type RunEvent,
  type RunFinishedEvent,
  taskTag,
} from './restic.js';
import { treeItem } from './tree.js';

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
    treeItems: accounts.map((account) => treeItem(account.name, account.name, PANELS[type].itemType)),
  };
}

// --- When removed accounts were first seen missing -----------------------------------------------------

type MissingSince = Record<string, Record<string, string>>;

/**
 * `{stateDir}/panel-accounts.json` (0600): per task, when each account that has backups but is no longer on
 * the server was first seen missing. The pruning delay counts from then, across agent restarts.
 */
export class PanelAccountsLog {
  private readonly file: string;

  constructor(stateDir: string) {
    this.file = join(stateDir, 'panel-accounts.json');
  }

  private read(): MissingSince {
    try {
      const parsed: unknown = JSON.parse(readFileSync(this.file, 'utf8'));
      return parsed && typeof parsed === 'object' ? (parsed as MissingSince) : {};
    } catch {
      return {};
    }
  }

  missingSince(taskId: number): Record<string, string> {
    return { ...(this.read()[String(taskId)] ?? {}) };
  }

  setMissingSince(taskId: number, accounts: Record<string, string>): void {
    const all = this.read();
    if (Object.keys(accounts).length === 0) delete all[String(taskId)];
    else all[String(taskId)] = accounts;
    writePrivateFile(this.file, `${JSON.stringify(all)}\n`);
  }
}

// --- A run ---------------------------------------------------------------------------------------------

export interface PanelRunOptions {
  /** Where the panel's files are: '/' on a real server. */
  root: string;
  log: PanelAccountsLog;
  now: () => Date;
}

const worse = (a: RunFinishedEvent, b: RunFinishedEvent) =>
  (b.status === 'FINISHED_WARNINGS' && a.status === 'FINISHED_SUCCESS') || b.status === 'FAILED' ? b : a;

/**
 * A run of a cPanel / DirectAdmin task: every chosen account that is on the server (with
 * backupAnyNewAvailableItems every account there now) is backed up as a snapshot of its own, tagged
 * `task-{id}` and `account-{name}`; then the backups of accounts removed from the server whose pruning delay
 * has passed are forgotten and pruned, and the task's retention is applied once. The run is FAILED when the
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

  const cleaning = () => progress.phase('CLEANING_UP_REPOSITORY');
  await pruneRemovedAccounts(runner, task, new Set(present.keys()), options, messages, cleaning);
  if (finished.some((f) => f.result.snapshotId !== null) && task.numberOfSnapshotsToKeep > 0) {
    cleaning();
    await runner.applyRetention(task, messages);
  }

  if (chosen.length === 0) return fail(PANEL_MESSAGES.nothingToBackUp(type));
  const failedAccounts = finished.filter((f) => f.result.status === 'FAILED').map((f) => f.account);
  const made = finished.filter((f) => f.result.snapshotId !== null).map((f) => f.result);
  const accountSnapshots = finished.flatMap((f) =>
    f.result.snapshotId === null ? [] : [{ account: f.account, snapshotId: f.result.snapshotId }],
  );
  const sum = (pick: (r: RunFinishedEvent) => number | null) => made.reduce((total, r) => total + (pick(r) ?? 0), 0);
  const outcome = finished.map((f) => f.result).reduce(worse);
  if (outcome.status !== 'FAILED') progress.phase('FINALIZED');
  messages.flush();
  return {
    ...outcome,
    finishedAt: options.now().toISOString(),
    failureMessage: failedAccounts.length > 0 ? PANEL_MESSAGES.accountsFailed(failedAccounts) : null,
    snapshotId: made[0]?.snapshotId ?? null,
    accountSnapshots,
    bytesAdded: made.length > 0 ? sum((r) => r.bytesAdded) : null,
    bytesTotal: made.length > 0 ? sum((r) => r.bytesTotal) : null,
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
   * left out (the run goes on: the next account, then the clean-up).
   */
  part(index: number, count: number): (event: RunEvent) => void {
    return (event) => {
      if (event.type !== 'runProgress') return this.emit(event);
      if (event.phase === 'FINALIZED') return;
      this.send({ ...event, percentage: Math.min(100, Math.floor((index * 100 + event.percentage) / count)) });
    };
  }

  /** The run's own phases after the accounts' backups: clean-up and the end, at 100 %. */
  phase(phase: ProgressEvent['phase']): void {
    this.send({ ...this.last, phase, percentage: 100 });
  }

  private send(event: ProgressEvent): void {
    this.last = event;
    this.emit(event);
  }
}

/**
 * Removed accounts (with backups of this task, no longer on the server): each is recorded when first seen
 * missing; once the task's pruning delay has passed since then, its snapshots are forgotten and pruned
 * (`restic forget --prune ID…`, the ids read with `restic snapshots --tag task-{id}`). An account that is back
 * is forgotten from the record. A failure is a WARNING and is tried again after the next run.
 */
async function pruneRemovedAccounts(
  runner: ResticRunner,
  task: AgentTask,
  present: ReadonlySet<string>,
  options: PanelRunOptions,
  messages: MessageBatcher,
  cleaning: () => void,
): Promise<void> {
  const snapshots = await runner.snapshots(['--no-lock', '--tag', taskTag(task.id)]);
  if (snapshots === null) return; // unreadable now: the record stays as it is until the next run
  const now = options.now();
  const recorded = options.log.missingSince(task.id);
  const missingSince: Record<string, string> = {};
  const due = new Map<string, string[]>();
  for (const snapshot of snapshots) {
    const account = snapshot.tags?.find((tag) => tag.startsWith('account-'))?.slice('account-'.length);
    if (account === undefined || present.has(account)) continue;
    const since = recorded[account] ?? missingSince[account] ?? now.toISOString();
    missingSince[account] = since;
    const pruneAt = pruneRemovedAccountAt(task.type, task.extraTaskSettings, new Date(since));
    if (pruneAt !== null && pruneAt <= now) due.set(account, [...(due.get(account) ?? []), snapshot.id]);
  }
  if (due.size > 0) {
    cleaning();
    const stderr: string[] = [];
    const exit = await runner.call({
      args: ['forget', '--prune', ...[...due.values()].flat()],
      onStderrLine: (line) => stderr.push(line),
    });
    if (exit.code === 0) {
      for (const account of due.keys()) delete missingSince[account];
      messages.add('INFO', PANEL_MESSAGES.pruned([...due.keys()]));
    } else {
      const why = runner.redact(stderr.slice(-3).join(' / ') || `exit code ${exit.code}`);
      messages.add('WARNING', PANEL_MESSAGES.pruneFailed(why));
    }
  }
  options.log.setMissingSince(task.id, missingSince);
}
