import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ServerMessage } from './envelope.js';
import {
  DIALOG_KEYS,
  isGlobalMessage,
  MESSAGE_ROUTING,
  rootFieldName,
  routeServerMessages,
} from './message-routing.js';

const message = (fieldName: string, type: ServerMessage['type'] = 'ERROR'): ServerMessage => ({
  type,
  fieldName,
  message: `about ${fieldName || 'everything'}`,
  responseCode: 'ERROR',
});

describe('server message routing', () => {
  it('000 §5: a message without a field name is global in every dialog', () => {
    for (const dialog of DIALOG_KEYS) expect(isGlobalMessage(dialog, '', ['name'])).toBe(true);
  });

  it("001 §5: 'delete', 'backupPackageId' and 'backupMachineId' are global in the machine dialogs", () => {
    for (const name of ['delete', 'backupPackageId', 'backupMachineId']) {
      expect(isGlobalMessage('machineDelete', name, ['name', name])).toBe(true);
      expect(isGlobalMessage('machineStatusChange', name, ['name', name])).toBe(true);
    }
    expect(isGlobalMessage('machineDelete', 'name', ['name'])).toBe(false);
  });

  it('001 §5: in account edit, machine edit and log upload only an empty name is global', () => {
    for (const dialog of ['accountEdit', 'machineEdit', 'machineLogUpload'] as const) {
      expect(isGlobalMessage(dialog, 'backupMachineId', ['backupMachineId'])).toBe(false);
      expect(isGlobalMessage(dialog, 'delete', ['delete'])).toBe(false);
    }
    expect(isGlobalMessage('machineEdit', 'name', ['name', 'description', 'userId'])).toBe(false);
  });

  it('001 §5: storage user and principal deletes show every message globally', () => {
    expect(MESSAGE_ROUTING.storageUserDelete).toEqual({ allGlobal: true });
    expect(isGlobalMessage('storageUserDelete', 'username', ['username'])).toBe(true);
    expect(isGlobalMessage('principalDelete', 'principalName', ['principalName'])).toBe(true);
  });

  it('001 §5: storage location delete and make-default: empty names and storageLocationId are global', () => {
    for (const dialog of ['storageLocationDelete', 'storageLocationMakeDefault'] as const) {
      expect(isGlobalMessage(dialog, 'storageLocationId', ['name', 'storageLocationId'])).toBe(true);
      expect(isGlobalMessage(dialog, 'name', ['name'])).toBe(false);
    }
    expect(isGlobalMessage('storageLocationCreate', 'storageAccountId', ['storageAccountId'])).toBe(false);
  });

  it('002 §5.6: for task creation, exclusions (and each entry) are global; when editing they are not', () => {
    const fields = ['name', 'exclusions', 'backupItems'];
    expect(isGlobalMessage('taskCreate', 'exclusions', fields)).toBe(true);
    expect(isGlobalMessage('taskCreate', 'exclusions.2', fields)).toBe(true);
    expect(isGlobalMessage('taskCreate', 'name', fields)).toBe(false);
    expect(isGlobalMessage('taskEdit', 'exclusions.2', fields)).toBe(false);
  });

  it('002 §5.9: reseller settings: customerId and other id field names are global', () => {
    const fields = ['brandName', 'customUrl', 'id', 'storageAccountId'];
    for (const dialog of ['resellerAccountSettings', 'resellerLookAndFeelSettings', 'resellerEmailSettings'] as const) {
      expect(isGlobalMessage(dialog, 'customerId', fields)).toBe(true);
      expect(isGlobalMessage(dialog, 'storageAccountId', fields)).toBe(true);
      expect(isGlobalMessage(dialog, 'id', fields)).toBe(true);
      expect(isGlobalMessage(dialog, 'brandName', fields)).toBe(false);
    }
  });

  it('a name the form does not have is global, so nothing is lost', () => {
    fc.assert(
      fc.property(fc.constantFrom(...DIALOG_KEYS), fc.string(), (dialog, name) => {
        expect(isGlobalMessage(dialog, name, [])).toBe(true);
      }),
    );
  });

  it('reads the root of a nested field name', () => {
    expect(rootFieldName('exclusions.2')).toBe('exclusions');
    expect(rootFieldName('exclusions[2]')).toBe('exclusions');
    expect(rootFieldName('extraTaskSettings.numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems')).toBe(
      'extraTaskSettings',
    );
    expect(isGlobalMessage('taskEdit', 'extraTaskSettings.timeUnitForBackupItemPruning', ['extraTaskSettings'])).toBe(
      false,
    );
  });

  it('000 §5: splits an answer into general and per-field messages, dropping INFO', () => {
    const { global, byField } = routeServerMessages(
      'taskCreate',
      [
        message(''),
        message('name'),
        message('name'),
        message('exclusions.0'),
        message('name', 'INFO'),
        message('other'),
      ],
      ['name', 'exclusions'],
    );
    expect(global.map((m) => m.fieldName)).toEqual(['', 'exclusions.0', 'other']);
    expect([...byField.keys()]).toEqual(['name']);
    expect(byField.get('name')).toHaveLength(2);
  });
});
