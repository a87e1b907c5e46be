import { describe, expect, it } from 'vitest';
import {
  chosenItemsValid,
  MAX_CHOSEN_ITEMS,
  mayHandleBackupData,
  snapshotPathSchema,
  zipEntryName,
} from './restore.js';
import { makeActor, makeMachine } from './testing/actors.js';

const machine = (allowProviderMachineControl: boolean) => makeMachine({ allowProviderMachineControl });

describe('paths of a snapshot', () => {
  it('takes absolute paths only, never a dot segment, an option-like or a control character', () => {
    for (const good of ['/', '/home', '/home/ana/a b.txt', '/C/Users/ana', '/home/dir/']) {
      expect(snapshotPathSchema.safeParse(good).success, good).toBe(true);
    }
    for (const bad of ['', 'home', '-h', '--password-file=/x', '/home/../etc', '/./x', '//x', '/a\nb']) {
      expect(snapshotPathSchema.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('accepts chosen items below the top only, at most MAX_CHOSEN_ITEMS', () => {
    expect(chosenItemsValid([{ path: '/home/a' }])).toBe(true);
    expect(chosenItemsValid([{ path: '/' }])).toBe(false);
    expect(chosenItemsValid([{ path: 'x' }])).toBe(false);
    expect(chosenItemsValid(Array.from({ length: MAX_CHOSEN_ITEMS + 1 }, () => ({ path: '/a' })))).toBe(false);
  });

  it('names zip entries as restic dump does: the path without its leading slash', () => {
    expect(zipEntryName('/home/ana/a.txt')).toBe('home/ana/a.txt');
  });
});

describe('who handles a machine’s backed-up data (002 §6)', () => {
  it('lets the customer’s own users; a reseller or the provider only with the customer’s machine control', () => {
    expect(mayHandleBackupData(makeActor({}), machine(false), 'read')).toBe(true);
    expect(mayHandleBackupData(makeActor({}), machine(false), 'change')).toBe(true);
    const reseller = makeActor({ role: 'ROLE_CUSTOMER_SUPER_ADMIN_USER', customerId: 20, resellerEnabled: true });
    const provider = makeActor({ role: 'ROLE_BOLT_ADMIN_USER', customerId: null });
    for (const admin of [reseller, provider]) {
      expect(mayHandleBackupData(admin, machine(false), 'read')).toBe(false);
      expect(mayHandleBackupData(admin, machine(true), 'read')).toBe(true);
    }
    // Another customer's user, and another user of the customer than the machine's.
    expect(mayHandleBackupData(makeActor({ customerId: 11 }), machine(true), 'read')).toBe(false);
    expect(mayHandleBackupData(makeActor({ userId: 2 }), machine(true), 'read')).toBe(false);
  });

  it('lets a read-only user download but not delete an archive', () => {
    expect(mayHandleBackupData(makeActor({ readOnly: true }), machine(false), 'read')).toBe(true);
    expect(mayHandleBackupData(makeActor({ readOnly: true }), machine(false), 'change')).toBe(false);
  });
});
