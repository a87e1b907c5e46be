import {
  accountRunPath,
  type BackupItemType,
  type DownloadRequest,
  type RestoreRequest,
  type SnapshotTreeItem,
  splitAccountRunPath,
} from '@portal/domain';

/**
 * A cPanel / DirectAdmin run's data (issue 14): one restic snapshot per hosting account, shown as one tree with
 * each account a top-level folder (the domain's accountRunPath). These map the run's paths onto the account
 * snapshots for the tree, downloads and restores; a run without account snapshots is its one snapshot as it is.
 */

/** One account's snapshot of a run (RestoreRepo.accountSnapshots). */
export interface AccountSnapshotRow {
  account: string;
  resticSnapshotId: string;
}

/** The top of a panel run's tree: a folder per account. */
export const accountFolders = (accounts: readonly AccountSnapshotRow[]): SnapshotTreeItem[] =>
  accounts.map((a) => ({ path: accountRunPath(a.account, '/'), name: a.account, type: 'DIRECTORY', size: 0 }));

/** The account, its snapshot and the path inside it of a panel run's path; null at the top or for another account. */
export function accountPathOf(
  accounts: readonly AccountSnapshotRow[],
  path: string,
): { account: string; snapshot: string; path: string } | null {
  const at = splitAccountRunPath(path);
  const account = at && accounts.find((a) => a.account === at.account);
  return at && account ? { account: at.account, snapshot: account.resticSnapshotId, path: at.path } : null;
}

/** One path of one snapshot that a download dumps, and the folder its zip entries go under ('' or `{account}/`). */
export interface DumpItem {
  snapshot: string;
  path: string;
  type: BackupItemType;
  zipFolder: string;
}

/**
 * What a download dumps: everything or the chosen items of the run's snapshot, or of a panel run each from its
 * account's snapshot, its entries under the account's folder. null when a chosen item is of no account of the run.
 */
export function dumpItems(
  snapshot: string,
  accounts: readonly AccountSnapshotRow[],
  request: DownloadRequest,
): DumpItem[] | null {
  if (accounts.length === 0) {
    const items = request.downloadAllItems
      ? [{ path: '/', type: 'DIRECTORY' as const }]
      : request.backedUpItemsToDownload;
    return items.map((item) => ({ snapshot, path: item.path, type: item.type, zipFolder: '' }));
  }
  const chosen = request.downloadAllItems
    ? accounts.map((a) => ({ path: accountRunPath(a.account, '/'), type: 'DIRECTORY' as const }))
    : request.backedUpItemsToDownload;
  const items: DumpItem[] = [];
  for (const item of chosen) {
    const at = accountPathOf(accounts, item.path);
    if (at === null) return null;
    const type = at.path === '/' ? 'DIRECTORY' : item.type;
    items.push({ snapshot: at.snapshot, path: at.path, type, zipFolder: `${at.account}/` });
  }
  return items;
}

/** One snapshot a restore to the machine restores, with its chosen paths (none: all of it). */
export interface RestorePart {
  snapshotId: string;
  includes: string[];
}

/**
 * What a restore to the machine restores: the run's snapshot with the chosen items, or of a panel run each chosen
 * account's snapshot with its chosen items (an account chosen whole: all of it). null when a chosen item is of no
 * account of the run.
 */
export function restoreParts(
  snapshot: string,
  accounts: readonly AccountSnapshotRow[],
  request: Pick<RestoreRequest, 'restoreAllItems' | 'backedUpItemsToRestore'>,
): RestorePart[] | null {
  const chosen = request.restoreAllItems ? [] : request.backedUpItemsToRestore.map((item) => item.path);
  if (accounts.length === 0) return [{ snapshotId: snapshot, includes: chosen }];
  if (chosen.length === 0) return accounts.map((a) => ({ snapshotId: a.resticSnapshotId, includes: [] }));
  const parts = new Map<string, { snapshotId: string; includes: string[]; whole: boolean }>();
  for (const path of chosen) {
    const at = accountPathOf(accounts, path);
    if (at === null) return null;
    const part = parts.get(at.account) ?? { snapshotId: at.snapshot, includes: [], whole: false };
    if (at.path === '/') part.whole = true;
    else part.includes.push(at.path);
    parts.set(at.account, part);
  }
  return [...parts.values()].map((p) => ({ snapshotId: p.snapshotId, includes: p.whole ? [] : p.includes }));
}
