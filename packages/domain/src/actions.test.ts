import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  actionCancelledText,
  canCancelAction,
  canDeleteSnapshotArchive,
  downloadButton,
  durationText,
  FINISHED_WITH_WARNINGS_NOTE,
  failureMessageToShow,
  formatDuration,
  IN_USE_BADGE,
  isActionBusy,
  isCommandResultCode,
  isRcloneResultCode,
  isRealtimeCommandInProgress,
  isTransferPhase,
  itemProgressText,
  MIGRATION_STATUS_VARIANTS,
  migrationStatusBadge,
  ONGOING_TEXT,
  PROGRESS_BAR_MAX,
  phaseText,
  progressBar,
  rcloneExitCodeResult,
  realtimeCommandStatus,
  resticExitCodeResult,
  resultCodeText,
  runStatusOfResult,
  runStatusOfTransferResult,
  SNAPSHOT_BADGES,
  SYNC_TYPE_VARIANTS,
  snapshotDisplay,
  syncTypeBadge,
  warningNote,
} from './actions.js';
import {
  ACTION_TYPES,
  COMMAND_RESULT_CODES,
  COMMAND_RESULT_TEXTS,
  MIGRATION_STATUSES,
  RCLONE_RESULT_CODES,
  RUN_STATUSES,
  type RunStatus,
  SNAPSHOT_STORAGE_STATUSES,
  TASK_STATUSES,
  TRANSFER_PHASE_TEXTS,
  TRANSFER_PHASES,
  TRANSFER_RESULT_CODES,
} from './enums.js';

const BUSY: RunStatus[] = ['INITIATED', 'IN_PROGRESS'];

describe('002 §4.2: actions and runs', () => {
  it('002 §4.2: busy means not failed and not finished', () => {
    expect(RUN_STATUSES.filter(isActionBusy)).toEqual(BUSY);
  });

  it('002 §4.2: cancel only when the action is initiated or in progress', () => {
    expect(RUN_STATUSES.filter(canCancelAction)).toEqual(BUSY);
  });

  it('002 §4.2: snapshot archive deletion only when the action is not busy and the storage is neither being deleted nor deleted', () => {
    for (const actionStatus of RUN_STATUSES) {
      for (const storageStatus of SNAPSHOT_STORAGE_STATUSES) {
        expect(canDeleteSnapshotArchive({ actionStatus, storageStatus })).toBe(
          !BUSY.includes(actionStatus) && storageStatus === 'AVAILABLE',
        );
      }
    }
  });

  it('002 §4.2: download shows when snapshots are available; disabled while a task action is in progress or the task is being deleted', () => {
    for (const snapshotsAvailable of [true, false]) {
      for (const taskActionInProgress of [true, false]) {
        for (const taskStatus of TASK_STATUSES) {
          expect(downloadButton({ snapshotsAvailable, taskActionInProgress, taskStatus })).toEqual({
            shown: snapshotsAvailable,
            disabled: taskActionInProgress || taskStatus === 'BEING_DELETED',
          });
        }
      }
    }
  });

  it('002 §4.2: progress bar is danger when failed; warning under 100 % or finished with warnings; otherwise success', () => {
    expect(progressBar({ status: 'FAILED', transferProgressPercentage: 100 })).toEqual({
      value: 100,
      max: 100,
      variant: 'danger',
    });
    expect(progressBar({ status: 'FAILED', transferProgressPercentage: 20 }).variant).toBe('danger');
    expect(progressBar({ status: 'IN_PROGRESS', transferProgressPercentage: 99.9 }).variant).toBe('warning');
    expect(progressBar({ status: 'FINISHED_SUCCESS', transferProgressPercentage: 50 }).variant).toBe('warning');
    expect(progressBar({ status: 'FINISHED_WARNINGS', transferProgressPercentage: 100 }).variant).toBe('warning');
    expect(progressBar({ status: 'FINISHED_SUCCESS', transferProgressPercentage: 100 }).variant).toBe('success');
    expect(progressBar({ status: 'IN_PROGRESS', transferProgressPercentage: 100 }).variant).toBe('success');
  });

  it('002 §4.2, §9: progress bar maximum is 100; values are clamped', () => {
    expect(PROGRESS_BAR_MAX).toBe(100);
    expect(progressBar({ status: 'FINISHED_SUCCESS', transferProgressPercentage: 130 })).toMatchObject({
      value: 100,
      variant: 'success',
    });
    expect(progressBar({ status: 'INITIATED', transferProgressPercentage: -5 }).value).toBe(0);
    expect(progressBar({ status: 'INITIATED', transferProgressPercentage: Number.NaN }).value).toBe(0);
    fc.assert(
      fc.property(fc.constantFrom(...RUN_STATUSES), fc.double(), (status, p) => {
        const bar = progressBar({ status, transferProgressPercentage: p });
        expect(bar.value).toBeGreaterThanOrEqual(0);
        expect(bar.value).toBeLessThanOrEqual(100);
      }),
    );
  });

  it("002 §4.2: 'Item x of y' shows when busy and total transfers exceed 1", () => {
    expect(itemProgressText({ status: 'IN_PROGRESS', currentTransfer: 2, totalTransfers: 5 })).toBe('Item 2 of 5');
    expect(itemProgressText({ status: 'INITIATED', currentTransfer: 0, totalTransfers: 2 })).toBe('Item 0 of 2');
    expect(itemProgressText({ status: 'IN_PROGRESS', currentTransfer: 1, totalTransfers: 1 })).toBeNull();
    for (const status of ['FAILED', 'FINISHED_SUCCESS', 'FINISHED_WARNINGS'] as const) {
      expect(itemProgressText({ status, currentTransfer: 3, totalTransfers: 5 })).toBeNull();
    }
  });

  it("002 §4.2: duration is 'ongoing' without a finish time", () => {
    expect(ONGOING_TEXT).toBe('ongoing');
    expect(durationText('2026-01-01T00:00:00Z', null)).toBe('ongoing');
    expect(durationText(new Date(), undefined)).toBe('ongoing');
    expect(durationText(0, 'not a date')).toBe('ongoing');
  });

  it('002 §4.2: otherwise the elapsed duration with a minimum of 1 ms', () => {
    const start = new Date('2026-01-01T10:00:00.000Z');
    expect(durationText(start, new Date('2026-01-01T10:00:00.850Z'))).toBe('850 ms');
    expect(durationText(start, start)).toBe('1 ms');
    expect(durationText(start, new Date('2026-01-01T09:59:59Z'))).toBe('1 ms');
    expect(durationText('2026-01-01T10:00:00Z', '2026-01-01T11:02:03Z')).toBe('1 h 2 min 3 s');
    expect(durationText(1_000, 1_000 + 86_400_000 * 2 + 300_000)).toBe('2 d 5 min');
    expect(durationText('garbage', 5)).toBe('');
  });

  it.each([
    [0, '0 ms'],
    [999.9, '999 ms'],
    [1000, '1 s'],
    [1999, '1 s'],
    [60_000, '1 min'],
    [3_600_000 + 5_000, '1 h 5 s'],
    [90_061_000, '1 d 1 h 1 min 1 s'],
  ])('002 §4.2: duration format (ours): ms under a second, else d/h/min/s without zero parts, seconds truncated: %d ms is %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it('002 §4.2: transfer phases and their texts, in order', () => {
    expect(TRANSFER_PHASES.map((p) => TRANSFER_PHASE_TEXTS[p])).toEqual([
      'initiated on server',
      'being scheduled',
      'preparing files to transfer',
      'waiting to lock repository',
      'preparing for transfer',
      'transferring files',
      'processing transferred files',
      'cleaning up repository',
      'finalized',
    ]);
    expect(phaseText('TRANSFERRING_FILES')).toBe('transferring files');
    expect(phaseText('SOMETHING_NEW')).toBe('');
    expect(phaseText(null)).toBe('');
    expect(phaseText(undefined)).toBe('');
    expect(isTransferPhase('FINALIZED')).toBe(true);
  });

  it('002 §4.2: a failure message shows only when failed and non-empty', () => {
    expect(failureMessageToShow({ status: 'FAILED', failureMessage: ' Disk full ' })).toBe('Disk full');
    expect(failureMessageToShow({ status: 'FAILED', failureMessage: '  ' })).toBeNull();
    expect(failureMessageToShow({ status: 'FAILED', failureMessage: null })).toBeNull();
    expect(failureMessageToShow({ status: 'FAILED', failureMessage: undefined })).toBeNull();
    for (const status of RUN_STATUSES.filter((s) => s !== 'FAILED')) {
      expect(failureMessageToShow({ status, failureMessage: 'x' })).toBeNull();
    }
  });

  it('002 §4.2: finished with warnings shows a warning note, nothing else does', () => {
    expect(RUN_STATUSES.filter((status) => warningNote({ status }) === FINISHED_WITH_WARNINGS_NOTE)).toEqual([
      'FINISHED_WARNINGS',
    ]);
    expect(RUN_STATUSES.filter((status) => warningNote({ status }) !== null)).toEqual(['FINISHED_WARNINGS']);
  });

  it("002 §8.4: 'The {action} has been cancelled'", () => {
    expect(ACTION_TYPES.map(actionCancelledText)).toEqual([
      'The backup run has been cancelled',
      'The restore has been cancelled',
      'The snapshot archive has been cancelled',
      'The seed creation has been cancelled',
      'The seed loading has been cancelled',
    ]);
  });
});

describe('002 §4.2: snapshot rows', () => {
  it('002 §4.2: IN PROGRESS, DELETED or BEING DELETED badge, otherwise the storage bar', () => {
    expect(SNAPSHOT_BADGES.inProgress.text).toBe('IN PROGRESS');
    expect(SNAPSHOT_BADGES.deleted.text).toBe('DELETED');
    expect(SNAPSHOT_BADGES.beingDeleted.text).toBe('BEING DELETED');
    for (const status of RUN_STATUSES) {
      for (const storageStatus of SNAPSHOT_STORAGE_STATUSES) {
        const shown = snapshotDisplay({ status, storageStatus });
        const expected = BUSY.includes(status)
          ? { kind: 'badge', badge: SNAPSHOT_BADGES.inProgress }
          : storageStatus === 'DELETED'
            ? { kind: 'badge', badge: SNAPSHOT_BADGES.deleted }
            : storageStatus === 'BEING_DELETED'
              ? { kind: 'badge', badge: SNAPSHOT_BADGES.beingDeleted }
              : { kind: 'storageBar' };
        expect(shown).toEqual(expected);
      }
    }
  });
});

describe('001 §4: migrations', () => {
  it('001 §4: badge texts and colours (blue primary, yellow warning, green success, red danger)', () => {
    expect(MIGRATION_STATUSES.map((s) => [s, migrationStatusBadge(s).text, migrationStatusBadge(s).variant])).toEqual([
      ['INITIALIZED', 'INITIALIZED', 'primary'],
      ['INITIAL_SYNC_IN_PROGRESS', 'SYNCING', 'warning'],
      ['INITIAL_SYNC_FINISHED_SUCCESS', 'SYNC SUCCESS', 'success'],
      ['INITIAL_SYNC_FAILED', 'SYNC FAILED', 'danger'],
      ['FINAL_SYNC_IN_PROGRESS', 'FINAL SYNCING', 'warning'],
      ['FINAL_SYNC_FINISHED_SUCCESS', 'FINAL SYNC SUCCESS', 'success'],
      ['FINAL_SYNC_FAILED', 'FINAL SYNC FAILED', 'danger'],
      ['ROLLED_BACK', 'ROLLED BACK', 'danger'],
    ]);
    expect(Object.keys(MIGRATION_STATUS_VARIANTS)).toHaveLength(MIGRATION_STATUSES.length);
    expect(IN_USE_BADGE.text).toBe('IN USE');
  });

  it('001 §3: sync types: SYNC info, FINAL_SYNC warning, MISCELLANEOUS primary', () => {
    expect(SYNC_TYPE_VARIANTS).toEqual({ SYNC: 'info', FINAL_SYNC: 'warning', MISCELLANEOUS: 'primary' });
    expect(syncTypeBadge('FINAL_SYNC')).toEqual({ text: 'Final sync', variant: 'warning' });
  });
});

describe('001 §4, §8: command results', () => {
  it('001 §8: exit code texts exactly as the spec writes them', () => {
    expect(COMMAND_RESULT_TEXTS).toEqual({
      SUCCESS: 'Success',
      FATAL: 'Fatal error',
      SOME_FILES_NOT_ACCESSIBLE: 'Some source files could not be read',
      WINDOWS_VSS_INVOCATION_ERROR: 'Windows VSS invocation failed',
      COMMAND_FROZEN: 'Transfer ceased',
      EXIT_CODE_NA: 'Unknown error',
      SYSTEM_PREP_FAILURE: 'Could not prepare system for transfer',
      CANCELLATION_REQUESTED: 'Transfer cancelled',
      BACKUP_ACTION_UPDATE_NOT_FOUND: 'Local database update error',
      IO_OR_INTERRUPT_EXCEPTION: 'I/O failure or interrupt exception occurred',
      REPO_LOCKED_EXCLUSIVELY: 'Repo is locked exclusively',
      REPO_EXCLUSIVE_LOCK_COULD_NOT_BE_UNLOCKED: 'Could not remove exclusive repo lock',
      CANCELLABLE_COMMAND_ID_ALREADY_EXISTS: 'Command with given ID already exists',
    });
    for (const code of COMMAND_RESULT_CODES) expect(resultCodeText(code)).toBe(COMMAND_RESULT_TEXTS[code]);
  });

  it.each([
    [0, 'SUCCESS'],
    [1, 'FATAL'],
    [3, 'SOME_FILES_NOT_ACCESSIBLE'],
    [2, 'FATAL'],
    [10, 'FATAL'],
    [11, 'REPO_LOCKED_EXCLUSIVELY'],
    [12, 'FATAL'],
    [130, 'CANCELLATION_REQUESTED'],
    [null, 'EXIT_CODE_NA'],
    [42, 'EXIT_CODE_NA'],
  ] as const)('DESIGN §6: restic exit codes: 0 SUCCESS, 1 FATAL, 3 SOME_FILES_NOT_ACCESSIBLE, and the later documented codes: %s is %s', (code, result) => {
    expect(resticExitCodeResult(code)).toBe(result);
  });

  it('DESIGN §6: some source files not readable finishes with warnings', () => {
    expect(runStatusOfResult(resticExitCodeResult(3))).toBe('FINISHED_WARNINGS');
  });

  it('DESIGN §6: any restic exit code other than 0 and 3 ends in FAILED', () => {
    fc.assert(
      fc.property(fc.option(fc.integer({ min: -1, max: 300 }), { nil: null }), (code) => {
        const status = runStatusOfResult(resticExitCodeResult(code));
        expect(status).toBe(code === 0 ? 'FINISHED_SUCCESS' : code === 3 ? 'FINISHED_WARNINGS' : 'FAILED');
      }),
    );
  });

  it('001 §4: realtime command status: none → IN_PROGRESS grey; SUCCESS green; SOME_FILES_NOT_ACCESSIBLE warning; other FAILED red', () => {
    expect(realtimeCommandStatus(null)).toEqual({ status: 'IN_PROGRESS', variant: 'secondary' });
    expect(realtimeCommandStatus(undefined)).toEqual({ status: 'IN_PROGRESS', variant: 'secondary' });
    expect(realtimeCommandStatus('')).toEqual({ status: 'IN_PROGRESS', variant: 'secondary' });
    expect(realtimeCommandStatus('SUCCESS')).toEqual({ status: 'FINISHED_SUCCESS', variant: 'success' });
    expect(realtimeCommandStatus('SUCCESS_NOTHING_TRANSFERRED')).toEqual({
      status: 'FINISHED_SUCCESS',
      variant: 'success',
    });
    expect(realtimeCommandStatus('SOME_FILES_NOT_ACCESSIBLE')).toEqual({
      status: 'FINISHED_WARNINGS',
      variant: 'warning',
    });
    for (const code of COMMAND_RESULT_CODES.filter((c) => c !== 'SUCCESS' && c !== 'SOME_FILES_NOT_ACCESSIBLE')) {
      expect(realtimeCommandStatus(code)).toEqual({ status: 'FAILED', variant: 'danger' });
    }
    expect(realtimeCommandStatus('WHATEVER')).toEqual({ status: 'FAILED', variant: 'danger' });
    expect(isRealtimeCommandInProgress({ exitCode: null })).toBe(true);
    expect(isRealtimeCommandInProgress({ exitCode: 'FATAL' })).toBe(false);
  });

  it('001 §8: rclone result codes in rclone 1.60 exit-code order, then the post-transfer check, plus the command codes', () => {
    expect([...RCLONE_RESULT_CODES]).toEqual([
      'SUCCESS',
      'SYNTAX_OR_USAGE_ERROR',
      'UNCATEGORIZED_ERROR',
      'DIR_NOT_FOUND_ERROR',
      'FILE_NOT_FOUND_ERROR',
      'TEMPORARY_ERROR',
      'NON_FATAL_ERROR',
      'FATAL_ERROR',
      'TRANSFERS_LIMIT_EXCEEDED_ERROR',
      'SUCCESS_NOTHING_TRANSFERRED',
      'TIME_LIMIT_EXCEEDED',
      'POST_RCLONE_INVOCATION_CHECKS_FAILED',
    ]);
    expect(new Set(TRANSFER_RESULT_CODES).size).toBe(TRANSFER_RESULT_CODES.length);
    for (const code of COMMAND_RESULT_CODES) expect(TRANSFER_RESULT_CODES).toContain(code);
    for (const code of TRANSFER_RESULT_CODES) expect(resultCodeText(code)).not.toBe('');
    expect(resultCodeText('DIR_NOT_FOUND_ERROR')).toBe('Directory not found');
    expect(isRcloneResultCode('FATAL_ERROR')).toBe(true);
    expect(isCommandResultCode('FATAL_ERROR')).toBe(false);
  });

  it('001 §8: rclone exit codes 0..10 map in order; none or unknown is EXIT_CODE_NA', () => {
    for (let code = 0; code <= 10; code++) expect(rcloneExitCodeResult(code)).toBe(RCLONE_RESULT_CODES[code]);
    expect(rcloneExitCodeResult(9)).toBe('SUCCESS_NOTHING_TRANSFERRED');
    for (const code of [null, -1, 11, 1.5, 255]) expect(rcloneExitCodeResult(code)).toBe('EXIT_CODE_NA');
  });

  it('001 §4: an rclone sequence succeeds on SUCCESS or SUCCESS_NOTHING_TRANSFERRED only', () => {
    expect(TRANSFER_RESULT_CODES.filter((c) => runStatusOfTransferResult(c) === 'FINISHED_SUCCESS')).toEqual([
      'SUCCESS',
      'SUCCESS_NOTHING_TRANSFERRED',
    ]);
  });
});
