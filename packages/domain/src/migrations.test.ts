import { describe, expect, it } from 'vitest';
import { MIGRATION_STATUSES, type MigrationStatus } from './enums.js';
import {
  MIGRATION_ACTIONS,
  type MigrationState,
  migrationActions,
  migrationLocationText,
  omittedLinesText,
  syncCommandSchema,
} from './migrations.js';

const state = (status: MigrationStatus, extra: Partial<MigrationState> = {}): MigrationState => ({
  status,
  finalized: false,
  running: false,
  verified: false,
  ...extra,
});
const allowed = (s: MigrationState) => MIGRATION_ACTIONS.filter((a) => migrationActions(s)[a]);

describe('migrationActions (ours: which status allows which action)', () => {
  it('offers the initial sync first, the final sync only after a successful sync', () => {
    expect(allowed(state('INITIALIZED'))).toEqual(['sync', 'cancel', 'rollback']);
    expect(allowed(state('INITIAL_SYNC_FAILED'))).toEqual(['sync', 'miscellaneous', 'cancel', 'rollback']);
    expect(allowed(state('INITIAL_SYNC_FINISHED_SUCCESS'))).toEqual([
      'sync',
      'finalSync',
      'miscellaneous',
      'cancel',
      'rollback',
    ]);
    expect(allowed(state('FINAL_SYNC_FAILED'))).toEqual(['finalSync', 'miscellaneous', 'cancel', 'rollback']);
  });

  it('finalises only after a verified final sync', () => {
    expect(migrationActions(state('FINAL_SYNC_FINISHED_SUCCESS')).finalize).toBe(false);
    expect(migrationActions(state('FINAL_SYNC_FINISHED_SUCCESS', { verified: true })).finalize).toBe(true);
    for (const status of MIGRATION_STATUSES.filter((s) => s !== 'FINAL_SYNC_FINISHED_SUCCESS')) {
      expect(migrationActions(state(status, { verified: true })).finalize, status).toBe(false);
    }
  });

  it('allows only cancel while a sequence runs', () => {
    for (const status of MIGRATION_STATUSES.filter((s) => s !== 'ROLLED_BACK')) {
      expect(allowed(state(status, { running: true })), status).toEqual(['cancel']);
    }
    expect(allowed(state('INITIAL_SYNC_IN_PROGRESS'))).toEqual(['cancel']);
    expect(allowed(state('FINAL_SYNC_IN_PROGRESS'))).toEqual(['cancel']);
  });

  it('allows nothing on a finalised or rolled back migration', () => {
    expect(allowed(state('ROLLED_BACK'))).toEqual([]);
    expect(allowed(state('FINAL_SYNC_FINISHED_SUCCESS', { finalized: true, verified: true }))).toEqual([]);
  });
});

describe('syncCommandSchema (001 §3: requestId, type)', () => {
  it('takes the three sync kinds and a request id', () => {
    expect(syncCommandSchema.parse({ requestId: ' r1 ', type: 'FINAL_SYNC' })).toEqual({
      requestId: 'r1',
      type: 'FINAL_SYNC',
    });
    expect(syncCommandSchema.safeParse({ requestId: 'r1', type: 'rm -rf' }).success).toBe(false);
    expect(syncCommandSchema.safeParse({ requestId: '', type: 'SYNC' }).success).toBe(false);
  });
});

describe('texts', () => {
  it('names a location by account, bucket and subfolder, and the omitted lines', () => {
    const location = {
      storageLocation: { id: 1, customerId: 2, bucketName: 'b', subfolder: 'x/y', defaultForCustomer: false },
      storageAccount: { id: 3, name: 'Main', type: 'LOCAL' as const },
    };
    expect(migrationLocationText(location)).toBe('Main / b/x/y');
    expect(omittedLinesText(1)).toContain('1 output line not kept');
  });
});
