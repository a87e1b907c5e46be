import { describe, expect, it } from 'vitest';
import { agentTaskSchema, agentToServerSchema, serverToAgentSchema } from './agent-protocol.js';
import {
  accountRunPath,
  PANEL_ACCOUNT_NAME,
  PANEL_MESSAGES,
  PANELS,
  pruneRemovedAccountAt,
  resticAccountTag,
  splitAccountRunPath,
} from './panels.js';
import { makeTask } from './testing/agent-task.js';
import { treeItemsRequestSchema } from './tree.js';

const { extraTaskSettings: _sentByNewerPortals, ...task } = makeTask({
  id: 7,
  type: 'CPANEL',
  backupItems: [{ path: 'ana', name: 'ana', type: 'CPANEL_ACCOUNT', missing: false }],
});

describe('cPanel and DirectAdmin tasks on the agent (issue 14)', () => {
  it('a task of an older portal, without extraTaskSettings, neither prunes nor picks up new accounts', () => {
    expect(agentTaskSchema.parse(task).extraTaskSettings).toEqual({
      numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: -1,
      timeUnitForBackupItemPruning: 'MONTH',
      backupAnyNewAvailableItems: false,
    });
    const sent = {
      ...task,
      extraTaskSettings: {
        numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: 2,
        timeUnitForBackupItemPruning: 'WEEK',
        backupAnyNewAvailableItems: true,
      },
    };
    expect(agentTaskSchema.parse(sent).extraTaskSettings).toEqual(sent.extraTaskSettings);
    const badUnit = {
      ...sent,
      extraTaskSettings: { ...sent.extraTaskSettings, timeUnitForBackupItemPruning: 'FORTNIGHT' },
    };
    expect(agentTaskSchema.safeParse(badUnit).success).toBe(false);
  });

  it('a tree request names the task type, files and folders when an older browser or portal leaves it out', () => {
    expect(treeItemsRequestSchema.parse({ treeItemsRequestId: 1, path: '' }).type).toBe('FILES_AND_FOLDERS');
    expect(treeItemsRequestSchema.parse({ treeItemsRequestId: 1, type: 'CPANEL' }).type).toBe('CPANEL');
    // The specification names the field without its values: the type of the item opened says the same.
    expect(treeItemsRequestSchema.parse({ treeItemsRequestId: 1, type: 'DIRECT_ADMIN_ACCOUNT' }).type).toBe(
      'DIRECT_ADMIN',
    );
    expect(treeItemsRequestSchema.parse({ treeItemsRequestId: 1, type: 'DIRECTORY' }).type).toBe('FILES_AND_FOLDERS');
    expect(treeItemsRequestSchema.safeParse({ treeItemsRequestId: 1, type: 'PLESK' }).success).toBe(false);
    const command = serverToAgentSchema.parse({ type: 'treeItems', requestId: 'r', path: '' });
    expect(command).toMatchObject({ backupType: 'FILES_AND_FOLDERS', includeHidden: true });
  });

  it('deletes a removed account’s backups after the pruning delay, cPanel only, never when off', () => {
    const missing = new Date('2026-01-31T10:00:00Z');
    const at = (count: number, unit: 'MINUTE' | 'HOUR' | 'DAY' | 'WEEK' | 'MONTH' | 'YEAR', type = 'CPANEL' as const) =>
      pruneRemovedAccountAt(
        type,
        { numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: count, timeUnitForBackupItemPruning: unit },
        missing,
      )?.toISOString() ?? null;
    expect(at(30, 'MINUTE')).toBe('2026-01-31T10:30:00.000Z');
    expect(at(5, 'HOUR')).toBe('2026-01-31T15:00:00.000Z');
    expect(at(2, 'DAY')).toBe('2026-02-02T10:00:00.000Z');
    expect(at(1, 'WEEK')).toBe('2026-02-07T10:00:00.000Z');
    // Calendar months: one month after 31 January is the last day of February, three are 30 April.
    expect(at(1, 'MONTH')).toBe('2026-02-28T10:00:00.000Z');
    expect(at(3, 'MONTH')).toBe('2026-04-30T10:00:00.000Z');
    expect(at(12, 'MONTH')).toBe('2027-01-31T10:00:00.000Z');
    expect(at(1, 'YEAR')).toBe('2027-01-31T10:00:00.000Z');
    expect(at(-1, 'MONTH')).toBeNull();
    expect(at(0, 'MONTH')).toBeNull();
    expect(
      pruneRemovedAccountAt(
        'DIRECT_ADMIN',
        { numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: 3, timeUnitForBackupItemPruning: 'MONTH' },
        missing,
      ),
    ).toBeNull();
  });

  it('reads account names the panels allow and tags them for restic', () => {
    for (const name of ['ana', 'shop2', 'web.site', 'a_b-c']) expect(PANEL_ACCOUNT_NAME.test(name)).toBe(true);
    for (const name of ['.ana', '', 'a,b', 'a/b', '-x', 'a b']) expect(PANEL_ACCOUNT_NAME.test(name)).toBe(false);
    expect(resticAccountTag('ana')).toBe('account-ana');
    expect(PANELS.CPANEL.itemType).toBe('CPANEL_ACCOUNT');
    expect(PANEL_MESSAGES.notInstalled('CPANEL', '/')).toBe(
      'cPanel is not installed on this machine (/var/cpanel/users was not found).',
    );
    expect(PANEL_MESSAGES.notInstalled('DIRECT_ADMIN', '/srv/root/')).toBe(
      'DirectAdmin is not installed on this machine (/srv/root/usr/local/directadmin/data/users was not found).',
    );
  });
});

describe("a panel run's snapshots", () => {
  const finished = {
    type: 'runFinished',
    runKey: 'run-1',
    status: 'FINISHED_SUCCESS',
    finishedAt: '2026-11-27T03:00:00.000Z',
    exitCodeResult: 'SUCCESS',
    failureMessage: null,
    snapshotId: 'a'.repeat(64),
    bytesAdded: 1,
    bytesTotal: 2,
  };

  it("takes every account's snapshot, and an older agent's one snapshot without them", () => {
    const accountSnapshots = [
      { account: 'ana', snapshotId: 'a'.repeat(64) },
      { account: 'bob', snapshotId: 'b'.repeat(64) },
    ];
    expect(agentToServerSchema.parse({ ...finished, accountSnapshots })).toMatchObject({ accountSnapshots });
    expect(agentToServerSchema.parse(finished)).not.toHaveProperty('accountSnapshots');
    for (const bad of [
      { account: '../x', snapshotId: 'a'.repeat(64) },
      { account: 'ana', snapshotId: 'short' },
    ]) {
      expect(agentToServerSchema.safeParse({ ...finished, accountSnapshots: [bad] }).success).toBe(false);
    }
  });

  it('shows each account as a top-level folder of its own snapshot', () => {
    expect(accountRunPath('ana', '/')).toBe('/ana');
    expect(accountRunPath('ana', '/home/ana/mail')).toBe('/ana/home/ana/mail');
    expect(splitAccountRunPath('/ana/home/ana/mail')).toEqual({ account: 'ana', path: '/home/ana/mail' });
    expect(splitAccountRunPath('/ana')).toEqual({ account: 'ana', path: '/' });
    expect(splitAccountRunPath('/ana/')).toEqual({ account: 'ana', path: '/' });
    expect(splitAccountRunPath('/')).toBeNull();
  });
});
