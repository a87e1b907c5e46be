import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MESSAGE_TYPES } from '../enums.js';
import { messagesByField } from './fields.js';
import { logUploadSchema, machineEditSchema, messageLogRequestSchema, messageTypesOrDefault } from './machine.js';

describe('edit backup machine (001 §5)', () => {
  it('name required max 50, description required max 100, user required, on their fields', () => {
    expect(
      messagesByField(machineEditSchema.safeParse({ name: '', description: ' ', userId: -1 }).error?.issues ?? []),
    ).toEqual({
      name: 'Name is required',
      description: 'Description is required',
      userId: 'Assigned user is required',
    });
    expect(
      messagesByField(
        machineEditSchema.safeParse({ name: 'n'.repeat(51), description: 'd'.repeat(101), userId: 3 }).error?.issues ??
          [],
      ),
    ).toEqual({
      name: 'Name must be at most 50 characters',
      description: 'Description must be at most 100 characters',
    });
    expect(machineEditSchema.parse({ name: ' web-1 ', description: 'Web server', userId: '3' })).toEqual({
      name: 'web-1',
      description: 'Web server',
      userId: 3,
    });
  });
});

describe('log upload (001 §5)', () => {
  it('also uploads updater logs only when asked (default false)', () => {
    expect(logUploadSchema.parse({})).toEqual({ uploadupdaterfiles: false });
    expect(logUploadSchema.parse({ uploadupdaterfiles: 'true' })).toEqual({ uploadupdaterfiles: true });
  });
});

describe('message log request (001 §4, §5, §7)', () => {
  it('falls back to ERROR when no message type is chosen', () => {
    expect(messageLogRequestSchema.parse({})).toEqual({
      backupTaskId: null,
      backupActionId: null,
      messageTypesToRequest: ['ERROR'],
      backupTaskActionType: null,
    });
    expect(
      messageLogRequestSchema.parse({
        backupTaskId: 4,
        backupActionId: '9',
        messageTypesToRequest: ['WARNING', 'DEBUG', 'WARNING'],
        backupTaskActionType: 'BACKUP_RUN',
      }),
    ).toEqual({
      backupTaskId: 4,
      backupActionId: 9,
      messageTypesToRequest: ['DEBUG', 'WARNING'],
      backupTaskActionType: 'BACKUP_RUN',
    });
    expect(
      messagesByField(messageLogRequestSchema.safeParse({ messageTypesToRequest: ['FATAL'] }).error?.issues ?? []),
    ).toEqual({
      'messageTypesToRequest.0': 'Message types is not valid',
    });
  });

  it('never sends an empty selection and keeps only chosen types', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...MESSAGE_TYPES)), (selected) => {
        const types = messageTypesOrDefault(selected);
        expect(types.length).toBeGreaterThan(0);
        if (selected.length > 0) expect(new Set(types)).toEqual(new Set(selected));
        else expect(types).toEqual(['ERROR']);
      }),
    );
  });
});
