import { describe, expect, it } from 'vitest';
import { isTaskRunAction } from '../actions.js';
import { agentToServerSchema, serverToAgentSchema } from '../agent-protocol.js';
import { MESSAGES } from '../messages.js';
import { keptBothName, RESTORE_CONFLICT_CHOICES, restoreSummaryText } from '../restore.js';
import { messagesByField } from './fields.js';
import { isAbsoluteMachinePath, restoreRequestSchema, restoreRequestSchemaFor } from './restore.js';

const folder = { path: '/home/ann/Documents', name: 'Documents', type: 'DIRECTORY' as const };
const base = { requestId: 'r-1', restoreAllItems: false, backedUpItemsToRestore: [folder], target: 'ORIGINAL' };

const errors = (input: unknown, schema = restoreRequestSchema) => {
  const parsed = schema.safeParse(input);
  return parsed.success ? {} : messagesByField(parsed.error.issues);
};

describe('restore request', () => {
  it('takes chosen items to the original place, the folder left empty', () => {
    expect(restoreRequestSchema.parse({ ...base, targetFolder: '/ignored' })).toEqual({
      requestId: 'r-1',
      restoreAllItems: false,
      backedUpItemsToRestore: [folder],
      target: 'ORIGINAL',
      targetFolder: '',
      existingFiles: 'OVERWRITE',
    });
  });

  it('takes each choice for existing files, OVERWRITE when left out (issue 14 callers), nothing else', () => {
    for (const existingFiles of RESTORE_CONFLICT_CHOICES) {
      expect(restoreRequestSchema.parse({ ...base, existingFiles }).existingFiles).toBe(existingFiles);
    }
    expect(errors({ ...base, existingFiles: 'RENAME' })).toEqual({
      existingFiles: 'Files that already exist is not valid',
    });
  });

  it('sends no items when everything is restored, and keeps the folder of a FOLDER target', () => {
    expect(
      restoreRequestSchema.parse({ ...base, restoreAllItems: true, target: 'FOLDER', targetFolder: ' /srv/restored ' }),
    ).toMatchObject({ restoreAllItems: true, backedUpItemsToRestore: [], targetFolder: '/srv/restored' });
  });

  it('needs at least one item unless everything is restored', () => {
    expect(errors({ ...base, backedUpItemsToRestore: [] })).toEqual({
      backedUpItemsToRestore: MESSAGES.task.downloadItemsRequired,
    });
    expect(errors({ ...base, backedUpItemsToRestore: null })).toEqual({
      backedUpItemsToRestore: 'At least one item must be selected.',
    });
  });

  it('refuses items that are not paths of the snapshot', () => {
    for (const path of ['/', 'relative/path', '/a/../etc', '/a/\u0007b']) {
      expect(errors({ ...base, backedUpItemsToRestore: [{ ...folder, path }] })).toEqual({
        backedUpItemsToRestore: 'Backed-up item is not valid',
      });
    }
  });

  it('needs an absolute folder without control characters for a FOLDER target', () => {
    expect(errors({ ...base, target: 'FOLDER', targetFolder: '  ' })).toEqual({
      targetFolder: 'Target folder is required',
    });
    expect(errors({ ...base, target: 'FOLDER' })).toEqual({ targetFolder: 'Target folder is required' });
    expect(errors({ ...base, target: 'FOLDER', targetFolder: 'restored' })).toEqual({
      targetFolder: MESSAGES.restore.targetFolderNotAbsolute,
    });
    expect(errors({ ...base, target: 'FOLDER', targetFolder: '/srv/\nx' })).toEqual({
      targetFolder: 'Target folder is not valid',
    });
    expect(errors({ ...base, target: 'FOLDER', targetFolder: `/${'a'.repeat(4096)}` })).toEqual({
      targetFolder: 'Target folder must be at most 4096 characters',
    });
  });

  it('refuses an unknown target and a missing request id', () => {
    expect(errors({ ...base, target: 'ELSEWHERE' })).toEqual({ target: 'Restore to is not valid' });
    expect(Object.keys(errors({ ...base, requestId: ' ' }))).toEqual(['requestId']);
  });

  it("checks the folder against the machine's platform", () => {
    const windows = restoreRequestSchemaFor('WINDOWS');
    const unix = restoreRequestSchemaFor('UNIX');
    const to = (targetFolder: string) => ({ ...base, target: 'FOLDER', targetFolder });
    expect(windows.safeParse(to('D:\\Restored')).success).toBe(true);
    expect(windows.safeParse(to('\\\\server\\share\\x')).success).toBe(true);
    expect(errors(to('/srv/x'), windows)).toEqual({ targetFolder: MESSAGES.restore.targetFolderNotAbsolute });
    expect(errors(to('D:\\Restored'), unix)).toEqual({ targetFolder: MESSAGES.restore.targetFolderNotAbsolute });
    expect(isAbsoluteMachinePath('C:relative', 'WINDOWS')).toBe(false);
    expect(isAbsoluteMachinePath('/srv', null) && isAbsoluteMachinePath('C:\\x', null)).toBe(true);
  });
});

describe('restore over the agent channel', () => {
  const command = {
    type: 'restoreRun',
    requestId: 'q',
    taskId: 4,
    runId: 9,
    snapshots: [{ snapshotId: 'a'.repeat(64), includes: ['/home/ann/Documents'] }],
    target: null,
    existingFiles: 'KEEP_BOTH',
  };
  const withSnapshot = (snapshot: object) => ({ ...command, snapshots: [{ ...command.snapshots[0], ...snapshot }] });

  it('carries the snapshot(s), the includes of each and the target (null: the original place)', () => {
    expect(serverToAgentSchema.parse(command)).toEqual(command);
    const accounts = [command.snapshots[0], { snapshotId: 'b'.repeat(64), includes: [] }];
    expect(serverToAgentSchema.parse({ ...command, snapshots: accounts })).toEqual({ ...command, snapshots: accounts });
    expect(serverToAgentSchema.safeParse({ ...command, snapshots: [] }).success).toBe(false);
    expect(serverToAgentSchema.safeParse(withSnapshot({ snapshotId: 'abc' })).success).toBe(false);
    expect(serverToAgentSchema.safeParse(withSnapshot({ includes: ['relative'] })).success).toBe(false);
  });

  it('carries the choice for existing files (OVERWRITE from an older portal) and refuses another', () => {
    const { existingFiles: _, ...fromOlderPortal } = command;
    expect(serverToAgentSchema.parse(fromOlderPortal)).toMatchObject({ existingFiles: 'OVERWRITE' });
    expect(serverToAgentSchema.parse({ ...command, existingFiles: 'SKIP' })).toMatchObject({ existingFiles: 'SKIP' });
    expect(serverToAgentSchema.safeParse({ ...command, existingFiles: 'MERGE' }).success).toBe(false);
  });

  it('finishes with the restore summary, which backups and older agents leave out', () => {
    const finished = {
      type: 'runFinished',
      runKey: 'k',
      status: 'FINISHED_SUCCESS',
      finishedAt: new Date().toISOString(),
      exitCodeResult: 'SUCCESS',
      failureMessage: null,
      snapshotId: null,
      bytesAdded: null,
      bytesTotal: 10,
    };
    const summary = { filesRestored: 2, bytesRestored: 10, filesRenamed: 1, filesSkipped: 0, errors: 0 };
    expect(agentToServerSchema.parse({ ...finished, restoreSummary: summary })).toMatchObject({
      restoreSummary: summary,
    });
    expect(agentToServerSchema.parse(finished)).not.toHaveProperty('restoreSummary');
    const negative = { ...finished, restoreSummary: { ...summary, errors: -1 } };
    expect(agentToServerSchema.safeParse(negative).success).toBe(false);
  });

  it('is reported as a run of action type BACKUP_RESTORE, which is not one of the task’s runs', () => {
    const started = {
      type: 'runStarted',
      runKey: 'k',
      taskId: 4,
      startedAt: new Date().toISOString(),
      manual: true,
      actionType: 'BACKUP_RESTORE',
    };
    expect(agentToServerSchema.parse(started)).toMatchObject({ actionType: 'BACKUP_RESTORE' });
    expect(isTaskRunAction('BACKUP_RESTORE')).toBe(false);
    expect(isTaskRunAction('BACKUP_RUN') && isTaskRunAction('BACKUP_SEED_CREATION')).toBe(true);
  });
});

describe('existing files kept beside a restored one', () => {
  const at = new Date(2026, 0, 31, 14, 5);

  it('names the restored file with the restore time before its last extension, numbered when taken', () => {
    expect(keptBothName('report.pdf', at)).toBe('report (restored 2026-01-31 1405).pdf');
    expect(keptBothName('archive.tar.gz', at)).toBe('archive.tar (restored 2026-01-31 1405).gz');
    expect(keptBothName('.bashrc', at)).toBe('.bashrc (restored 2026-01-31 1405)');
    expect(keptBothName('Makefile', at, 3)).toBe('Makefile (restored 2026-01-31 1405 3)');
  });

  it('sums a restore up in one line', () => {
    const summary = { filesRestored: 3, bytesRestored: 1536, filesRenamed: 1, filesSkipped: 2, errors: 1 };
    expect(restoreSummaryText(summary)).toBe(
      '3 files restored (1.5 KB), 1 under a new name, 2 skipped (already on the machine), 1 error',
    );
    expect(restoreSummaryText({ ...summary, filesRestored: 1, filesRenamed: 0, filesSkipped: 0, errors: 0 })).toBe(
      '1 file restored (1.5 KB), no errors',
    );
  });
});
