import { z } from 'zod';
import type { BackupItemType, BackupType, TimeUnit } from './enums.js';
import { TIME_UNITS } from './enums.js';
import { resticSnapshotIdSchema } from './restore.js';
import { DAY_MS, HOUR_MS, MINUTE_MS } from './time.js';

/**
 * Hosting control panels (issue 14; 002 §3 backup types CPANEL and DIRECT_ADMIN): a task of such a type backs
 * up hosting accounts instead of chosen paths. The agent finds the accounts in the panel's own files below
 * the machine's root and backs each one up as a restic snapshot of its own (tags `task-{id}` and
 * `account-{name}`); how that maps onto restic is in apps/agent/README.md.
 */

export type PanelBackupType = Exclude<BackupType, 'FILES_AND_FOLDERS'>;

export interface Panel {
  /** The panel's name in texts. */
  name: string;
  /** The tree and backup item type of its accounts. */
  itemType: BackupItemType;
  /**
   * Relative to the machine's root: the folder with one entry per account (cPanel a file, DirectAdmin a
   * folder). Its absence means the panel is not installed.
   */
  accountsDir: string;
  /** Relative to the root: further folders of the panel with one entry per account, backed up when present. */
  accountDataDirs: readonly string[];
}

export const PANELS: Record<PanelBackupType, Panel> = {
  CPANEL: {
    name: 'cPanel',
    itemType: 'CPANEL_ACCOUNT',
    accountsDir: 'var/cpanel/users',
    accountDataDirs: ['var/cpanel/userdata'],
  },
  DIRECT_ADMIN: {
    name: 'DirectAdmin',
    itemType: 'DIRECT_ADMIN_ACCOUNT',
    accountsDir: 'usr/local/directadmin/data/users',
    accountDataDirs: [],
  },
};

export const isPanelBackupType = (type: BackupType): type is PanelBackupType => type !== 'FILES_AND_FOLDERS';

/**
 * A hosting account's name as the panels allow it (letters, digits, and `.`, `_`, `-` after the first). Entries
 * of the panel's folders with other names (dot-files, editor left-overs) are not accounts; the rule also keeps
 * the name usable in a restic tag (no comma) and as one path segment.
 */
export const PANEL_ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The restic tag of one account's snapshots; with the task's tag it selects exactly that account's backups. */
export const resticAccountTag = (account: string) => `account-${account}`;

/**
 * The most account snapshots a run reports: its finished message (about 100 bytes an account) stays well within
 * the channel's frame limit (AGENT_CHANNEL.maxFrameBytes).
 */
export const MAX_RUN_ACCOUNT_SNAPSHOTS = 2000;

/** One account's snapshot of a panel run, as the agent reports it and the server keeps it. */
export const accountSnapshotSchema = z.object({
  account: z.string().regex(PANEL_ACCOUNT_NAME),
  snapshotId: resticSnapshotIdSchema,
});
export type AccountSnapshot = z.infer<typeof accountSnapshotSchema>;

/**
 * A panel run's tree, downloads and restores: each account is a top-level folder (`/{account}`) holding its own
 * snapshot's paths, so `/ana/home/ana/mail` is `/home/ana/mail` of ana's snapshot.
 */
export const accountRunPath = (account: string, path: string) => (path === '/' ? `/${account}` : `/${account}${path}`);

/** The account and the path inside its snapshot of a panel run's path; null for the top ('/'). */
export function splitAccountRunPath(path: string): { account: string; path: string } | null {
  const [, account, ...rest] = path.replace(/\/+$/, '').split('/');
  if (!account) return null;
  return { account, path: `/${rest.join('/')}` };
}

/**
 * The texts of panel tasks (ours: the specification quotes none). Builders, so they live here rather than in the
 * catalogue of plain strings (messages.ts), as the other builders do.
 */
export const PANEL_MESSAGES = {
  notInstalled: (type: PanelBackupType, root: string) =>
    `${PANELS[type].name} is not installed on this machine (${root.replace(/\/+$/, '')}/${PANELS[type].accountsDir} was not found).`,
  nothingToBackUp: (type: PanelBackupType) =>
    `None of this task's ${PANELS[type].name} accounts is on this machine: nothing was backed up.`,
  accountGone: (account: string) => `The account ${account} is no longer on this server: it was not backed up.`,
  accountFailed: (account: string, why: string) => `The backup of the account ${account} failed: ${why}`,
  accountsFailed: (accounts: readonly string[]) => `The backup of ${accounts.join(', ')} failed.`,
  pruned: (accounts: readonly string[]) =>
    `The backups of the removed account(s) ${accounts.join(', ')} were deleted (their pruning delay had passed).`,
  pruneFailed: (why: string) =>
    `The backups of removed accounts could not be deleted (tried again after the next run): ${why}`,
} as const;

/** The settings of 002 §3 `extraTaskSettings` the agent needs; defaulted so an older portal's tasks still parse. */
export const agentExtraTaskSettingsSchema = z
  .object({
    /** cPanel only: -1 (or 0) means removed accounts keep their backups. */
    numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: z.number().int().min(-1).default(-1),
    timeUnitForBackupItemPruning: z.enum(TIME_UNITS).default('MONTH'),
    /** The selection is every account on the server at run time. */
    backupAnyNewAvailableItems: z.boolean().default(false),
  })
  .default({
    numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: -1,
    timeUnitForBackupItemPruning: 'MONTH',
    backupAnyNewAvailableItems: false,
  });
export type AgentExtraTaskSettings = z.infer<typeof agentExtraTaskSettingsSchema>;

/**
 * When the backups of an account first seen missing at `firstMissingAt` are deleted (002 §3 pruning of removed
 * backup items, cPanel only), or null when they are kept for good (pruning off: -1 or 0, or another task type).
 * Months and years are calendar ones (in UTC): 1 month after 31 January is the last day of February.
 */
export function pruneRemovedAccountAt(
  type: BackupType,
  settings: Pick<
    AgentExtraTaskSettings,
    'numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems' | 'timeUnitForBackupItemPruning'
  >,
  firstMissingAt: Date,
): Date | null {
  const count = settings.numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems;
  if (type !== 'CPANEL' || count <= 0) return null;
  return addTimeUnits(firstMissingAt, count, settings.timeUnitForBackupItemPruning);
}

const FIXED_UNIT_MS: Partial<Record<TimeUnit, number>> = {
  MINUTE: MINUTE_MS,
  HOUR: HOUR_MS,
  DAY: DAY_MS,
  WEEK: 7 * DAY_MS,
};

function addTimeUnits(from: Date, count: number, unit: TimeUnit): Date {
  const fixed = FIXED_UNIT_MS[unit];
  if (fixed !== undefined) return new Date(from.getTime() + count * fixed);
  const months = unit === 'YEAR' ? 12 * count : count;
  const target = new Date(from.getTime());
  const day = from.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target;
}
