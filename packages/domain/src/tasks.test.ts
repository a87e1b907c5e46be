import { describe, expect, it } from 'vitest';
import {
  isActionCancellable,
  isArchiveDeletable,
  isDownloadDisabled,
  mayCancelActions,
  runsQueue,
  TASK_COMMAND_TIMINGS,
  uploadLimitKiB,
} from './tasks.js';
import { makeActor, makeMachine } from './testing/actors.js';

const machine = makeMachine();

describe('002 §6: who may cancel actions', () => {
  it('lets the provider admin cancel, whatever the customer allows', () => {
    expect(mayCancelActions(makeActor({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null }), machine)).toBe(true);
  });

  it('lets a reseller admin cancel only when the customer allows provider machine control', () => {
    const reseller = makeActor({
      userId: 5,
      role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER',
      customerId: 20,
      resellerEnabled: true,
    });
    expect(mayCancelActions(reseller, machine)).toBe(false);
    expect(mayCancelActions(reseller, { ...machine, allowProviderMachineControl: true })).toBe(true);
  });

  it('lets customer users cancel on machines they see, not on others, and never read-only users', () => {
    expect(mayCancelActions(makeActor({}), machine)).toBe(true);
    expect(mayCancelActions(makeActor({ userId: 2 }), machine)).toBe(false);
    expect(mayCancelActions(makeActor({ customerId: 11 }), machine)).toBe(false);
    expect(mayCancelActions(makeActor({ readOnly: true }), machine)).toBe(false);
  });
});

describe('002 §4.2 row rules with the abilities', () => {
  it('cancels only busy actions', () => {
    expect(isActionCancellable(true, 'IN_PROGRESS')).toBe(true);
    expect(isActionCancellable(true, 'INITIATED')).toBe(true);
    expect(isActionCancellable(true, 'FINISHED_SUCCESS')).toBe(false);
    expect(isActionCancellable(false, 'IN_PROGRESS')).toBe(false);
  });

  it('deletes archives of finished snapshots still stored', () => {
    expect(isArchiveDeletable(true, { status: 'FINISHED_SUCCESS', storageStatus: 'AVAILABLE' })).toBe(true);
    expect(isArchiveDeletable(true, { status: 'IN_PROGRESS', storageStatus: 'AVAILABLE' })).toBe(false);
    expect(isArchiveDeletable(true, { status: 'FINISHED_SUCCESS', storageStatus: 'BEING_DELETED' })).toBe(false);
    expect(isArchiveDeletable(false, { status: 'FINISHED_SUCCESS', storageStatus: 'AVAILABLE' })).toBe(false);
  });

  it('disables download while any action of the task is busy (a restore too) or the task is being deleted', () => {
    expect(isDownloadDisabled({ inProgressActionType: 'BACKUP_RUN', status: 'ACTIVE' })).toBe(true);
    expect(isDownloadDisabled({ inProgressActionType: 'BACKUP_RESTORE', status: 'ACTIVE' })).toBe(true);
    expect(isDownloadDisabled({ inProgressActionType: null, status: 'BEING_DELETED' })).toBe(true);
    expect(isDownloadDisabled({ inProgressActionType: null, status: 'PAUSED' })).toBe(false);
  });
});

describe('task facts', () => {
  it('has the waits of 002 §9', () => {
    expect(TASK_COMMAND_TIMINGS).toEqual({
      replyTimeoutMs: 20_000,
      runNowWaitMs: 10_000,
      pauseWaitMs: 8_000,
      deleteWaitMs: 8_000,
    });
  });

  it('converts the upload limit to KiB/s, null when unlimited', () => {
    expect(uploadLimitKiB(-1, 'KILO_BYTES_PER_SECOND')).toBeNull();
    expect(uploadLimitKiB(10, 'KILO_BYTES_PER_SECOND')).toBe(10);
    expect(uploadLimitKiB(2, 'MEGA_BYTES_PER_SECOND')).toBe(2048);
    expect(uploadLimitKiB(8, 'MEGA_BITS_PER_SECOND')).toBe(976);
  });

  it('names the runs queue of a machine on each side', () => {
    expect(runsQueue('customer', 3)).toBe('/ws/queue/backupmachines/3/runs');
    expect(runsQueue('provider', 3)).toBe('/ws/queue/boltadmin/backupmachines/3/runs');
  });
});
