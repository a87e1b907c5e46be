import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages.js';
import {
  archiveDeletionConfirmSchema,
  confirmByNameSchema,
  customerDeletionConfirmSchema,
  customerStatusChangeConfirmSchema,
  customerWhmcsServerChangeConfirmSchema,
  machineDeletionConfirmSchema,
  machineStatusChangeConfirmSchema,
  packageDeletionConfirmSchema,
  packageStatusChangeConfirmSchema,
  storageLocationDeletionConfirmSchema,
  storageLocationMakeDefaultConfirmSchema,
  storageLocationName,
  taskDeletionConfirmSchema,
} from './confirm.js';

const issue = (schema: ReturnType<typeof confirmByNameSchema>, name: unknown) =>
  schema.safeParse({ name }).error?.issues[0];

describe('confirm by name (000 §5, 001 §5, 002 §5.4, §5.8)', () => {
  it('accepts exactly the expected string and nothing else', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (expected, typed) => {
        const schema = confirmByNameSchema(expected, 'nope');
        expect(schema.safeParse({ name: typed }).success).toBe(typed === expected);
        expect(schema.safeParse({ name: expected }).success).toBe(true);
      }),
    );
  });

  it('does not trim or fold case, and puts the message on the name field', () => {
    const schema = confirmByNameSchema('Gold', 'nope');
    expect(issue(schema, ' Gold')).toMatchObject({ path: ['name'], message: 'nope' });
    expect(issue(schema, 'gold')?.message).toBe('nope');
    expect(issue(schema, undefined)?.message).toBe('nope');
  });

  it.each([
    ['000 §5', 'x', 'Must complete backup package name to confirm deletion', packageDeletionConfirmSchema('Gold')],
    [
      '000 §5',
      'x',
      'Must complete backup package name to confirm status change',
      packageStatusChangeConfirmSchema('Gold'),
    ],
    ['001 §5', 'web', 'Must complete backup machine name to confirm deletion', machineDeletionConfirmSchema('web-1')],
    [
      '001 §5',
      'web',
      'Must complete backup machine name to confirm status change',
      machineStatusChangeConfirmSchema('web-1'),
    ],
    // 002 §5.8: archive deletion and task deletion need the exact task name.
    [
      '002 §5.8',
      'nightly',
      'Must complete correct backup task name to confirm deletion of archive',
      archiveDeletionConfirmSchema('Nightly'),
    ],
    [
      '002 §5.8',
      'Nightly ',
      'Must complete correct backup task name to confirm deletion',
      taskDeletionConfirmSchema('Nightly'),
    ],
  ])("%s: typing '%s' gets '%s'", (_, typed, message, schema) => {
    expect(issue(schema, typed)?.message).toBe(message);
  });

  it("002 §5.4: the customer admin's full name; no admin name needs an empty entry", () => {
    expect(issue(customerDeletionConfirmSchema('Ana Silva'), 'Ana')?.message).toBe(
      "Must complete customer admin's name to confirm deletion",
    );
    expect(customerDeletionConfirmSchema(null).safeParse({ name: '' }).success).toBe(true);
    expect(customerDeletionConfirmSchema(undefined).safeParse({ name: 'x' }).success).toBe(false);
    expect(issue(customerStatusChangeConfirmSchema('Ana Silva'), '')?.message).toBe(
      "Must complete customer admin's full name to confirm status change",
    );
    expect(issue(customerWhmcsServerChangeConfirmSchema('Ana Silva'), '')?.message).toBe(
      "Must complete customer admin's full name to confirm WHMCS server change",
    );
  });

  it("001 §5: a storage location's name is the bucket plus '/subfolder'", () => {
    expect(storageLocationName({ bucketName: 'b1' })).toBe('b1');
    expect(storageLocationName({ bucketName: 'b1', subfolder: '' })).toBe('b1');
    expect(storageLocationName({ bucketName: 'b1', subfolder: 'acme' })).toBe('b1/acme');
    const location = { bucketName: 'b1', subfolder: 'acme' };
    expect(storageLocationDeletionConfirmSchema(location).safeParse({ name: 'b1/acme' }).success).toBe(true);
    expect(issue(storageLocationDeletionConfirmSchema(location), 'b1')?.message).toBe(
      MESSAGES.confirmByName.storageLocationDeletion,
    );
    expect(issue(storageLocationMakeDefaultConfirmSchema(location), 'b1')?.message).toBe(
      "Must complete storage location's name to confirm",
    );
  });
});
