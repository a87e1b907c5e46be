import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { exclusionsSchema } from '../exclusions.js';
import { backupScheduleSchema } from '../schedule.js';
import { messagesByField } from './fields.js';
import {
  backupItemSchema,
  createTaskFormSchema,
  downloadRequestSchema,
  NEW_TASK_DEFAULTS,
  newTaskForm,
  onCreateSeedToggled,
  onPruningToggled,
  onScheduleChanged,
  onSnapshotsToggled,
  onSnapshotsToKeepInput,
  onSnapshotsUnlimitedToggled,
  onSyncDeletionsToggled,
  onTaskTypeChanged,
  onUploadBandwidthLimitInput,
  onUploadBandwidthUnlimitedToggled,
  syncDeletionsNeedsConfirmation,
  type TaskDefinition,
  type TaskForm,
  taskFieldVisibility,
  taskFormFromDefinition,
  taskFormFromPayload,
  taskFormSchemaFor,
} from './task.js';

/** Stand-ins for the validators schedule.ts and exclusions.ts own. */
const schema = createTaskFormSchema({
  backupScheduleDefinition: z.string().refine((s) => s.trim() !== '', 'Please select a schedule for this task.'),
  exclusions: z.array(z.string().min(1, 'Cannot be empty')),
});

const PRUNE = 'extraTaskSettings.numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems';
const folder = { path: '/home/ana', name: 'ana', type: 'DIRECTORY' as const, missing: false };
const account = { path: 'ana', name: 'ana', type: 'CPANEL_ACCOUNT' as const, missing: false };

/** A valid new files-and-folders task. */
const valid = (overrides: Partial<TaskForm> = {}): TaskForm => ({
  ...newTaskForm('req-1'),
  name: 'Nightly',
  backupScheduleDefinition: '0 2 * * *',
  backupItems: [folder],
  ...overrides,
});

const errors = (form: unknown) => messagesByField(schema.safeParse(form).error?.issues ?? []);

describe('task form defaults (002 §4.3, §9)', () => {
  it('002 §4.3: files and folders, snapshots on and unlimited, unlimited bandwidth, empty schedule, pruning 3 months off, sync deletions off', () => {
    expect(NEW_TASK_DEFAULTS).toMatchObject({
      type: 'FILES_AND_FOLDERS',
      snapshotsEnabled: true,
      snapshotsUnlimited: true,
      numberOfSnapshotsToKeep: -1,
      uploadBandwidthUnlimited: true,
      uploadBandwidthLimit: -1,
      backupScheduleDefinition: '',
      syncDeletions: false,
      pruningEnabled: false,
      extraTaskSettings: {
        numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: 3,
        timeUnitForBackupItemPruning: 'MONTH',
      },
    });
    const fresh = newTaskForm('r');
    fresh.backupItems.push(folder);
    expect(NEW_TASK_DEFAULTS.backupItems).toEqual([]);
  });

  it('002 §3: a valid new task becomes the payload with the sentinels', () => {
    expect(schema.parse(valid())).toEqual({
      createOrUpdateTaskRequestId: 'req-1',
      id: null,
      name: 'Nightly',
      type: 'FILES_AND_FOLDERS',
      snapshotsEnabled: true,
      numberOfSnapshotsToKeep: -1,
      autoDeleteFailedSnapshots: false,
      syncDeletions: false,
      backupScheduleDefinition: '0 2 * * *',
      backupScheduleDefinitionChanged: false,
      backupItems: [folder],
      exclusions: [],
      createSeed: false,
      pathToSeedDisk: '',
      uploadBandwidthUnlimited: true,
      uploadBandwidthLimit: -1,
      uploadBandwidthLimitUnit: 'KILO_BYTES_PER_SECOND',
      extraTaskSettings: {
        numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: -1,
        timeUnitForBackupItemPruning: 'MONTH',
        backupAnyNewAvailableItems: false,
      },
    });
  });

  it('002 §5.6: the untouched defaults show every required message at once', () => {
    expect(errors(newTaskForm('r'))).toEqual({
      name: 'Task name is required',
      backupScheduleDefinition: 'Please select a schedule for this task.',
      backupItems: 'At least one item is required.',
    });
  });
});

describe('task form rules (002 §5.6)', () => {
  it('002 §5.6: task name 2 to 50 characters', () => {
    expect(errors(valid({ name: 'a' }))).toEqual({ name: 'Task name must be at least 2 characters' });
    expect(errors(valid({ name: 'a'.repeat(51) }))).toEqual({ name: 'Task name must be at most 50 characters' });
    expect(schema.parse(valid({ name: ' ab ' })).name).toBe('ab');
  });

  it("002 §5.6: snapshots on and limited: 1 to 100000, 'Must be between 1 and 100000.'", () => {
    for (const bad of [0, 100_001, '', 'x', 1.5, -1]) {
      expect(errors(valid({ snapshotsUnlimited: false, numberOfSnapshotsToKeep: bad }))).toEqual({
        numberOfSnapshotsToKeep: 'Must be between 1 and 100000.',
      });
    }
    expect(
      schema.parse(valid({ snapshotsUnlimited: false, numberOfSnapshotsToKeep: '100000' })).numberOfSnapshotsToKeep,
    ).toBe(100_000);
  });

  it('002 §3: -1 when unlimited, 0 when snapshots are off, whatever the number holds', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.string()), (n) => {
        expect(
          schema.parse(valid({ snapshotsUnlimited: true, numberOfSnapshotsToKeep: n })).numberOfSnapshotsToKeep,
        ).toBe(-1);
        expect(
          schema.parse(valid({ snapshotsEnabled: false, numberOfSnapshotsToKeep: n })).numberOfSnapshotsToKeep,
        ).toBe(0);
      }),
    );
  });

  it("002 §5.6: bandwidth not unlimited: 1 to 100,000,000, 'Must be between 1 and 100,000,000.'; -1 when unlimited", () => {
    expect(errors(valid({ uploadBandwidthUnlimited: false, uploadBandwidthLimit: 100_000_001 }))).toEqual({
      uploadBandwidthLimit: 'Must be between 1 and 100,000,000.',
    });
    expect(errors(valid({ uploadBandwidthUnlimited: false, uploadBandwidthLimit: '' }))).toEqual({
      uploadBandwidthLimit: 'Must be between 1 and 100,000,000.',
    });
    const limited = schema.parse(
      valid({
        uploadBandwidthUnlimited: false,
        uploadBandwidthLimit: '100000000',
        uploadBandwidthLimitUnit: 'MEGA_BITS_PER_SECOND',
      }),
    );
    expect(limited).toMatchObject({
      uploadBandwidthLimit: 100_000_000,
      uploadBandwidthLimitUnit: 'MEGA_BITS_PER_SECOND',
    });
    expect(schema.parse(valid({ uploadBandwidthLimit: 55 })).uploadBandwidthLimit).toBe(-1);
    expect(errors(valid({ uploadBandwidthLimitUnit: 'GIGA' as never }))).toEqual({
      uploadBandwidthLimitUnit: 'Upload bandwidth unit is not valid',
    });
  });

  it("002 §5.6, §4.3: pruning (cPanel only) 1 to 100, 'Must be between 1 and 100.'; -1 when off or zero", () => {
    const cpanel = (count: unknown, pruning: boolean | 'wire' = true) =>
      valid({
        type: 'CPANEL',
        backupItems: [account],
        pruningEnabled: pruning === 'wire' ? undefined : pruning,
        extraTaskSettings: {
          numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: count as number,
          timeUnitForBackupItemPruning: 'WEEK',
          backupAnyNewAvailableItems: true,
        },
      });
    expect(errors(cpanel(101))).toEqual({ [PRUNE]: 'Must be between 1 and 100.' });
    expect(errors(cpanel(''))).toEqual({ [PRUNE]: 'Must be between 1 and 100.' });
    expect(errors(cpanel(-5))).toEqual({ [PRUNE]: 'Must be between 1 and 100.' });
    expect(schema.parse(cpanel('100')).extraTaskSettings).toEqual({
      numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: 100,
      timeUnitForBackupItemPruning: 'WEEK',
      backupAnyNewAvailableItems: true,
    });
    expect(schema.parse(cpanel(0)).extraTaskSettings.numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems).toBe(-1);
    expect(
      schema.parse(cpanel(500, false)).extraTaskSettings.numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems,
    ).toBe(-1);
    // On the wire (no checkbox): -1 and 0 are off, anything else is checked.
    expect(
      schema.parse(cpanel(-1, 'wire')).extraTaskSettings.numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems,
    ).toBe(-1);
    expect(schema.parse(cpanel(7, 'wire')).extraTaskSettings.numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems).toBe(
      7,
    );
    expect(errors(cpanel(200, 'wire'))).toEqual({ [PRUNE]: 'Must be between 1 and 100.' });
  });

  it('002 §4.3: other task types never prune and never back up new items', () => {
    const out = schema.parse(
      valid({
        pruningEnabled: true,
        extraTaskSettings: {
          numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: 500,
          timeUnitForBackupItemPruning: 'DAY',
          backupAnyNewAvailableItems: true,
        },
      }),
    );
    expect(out.extraTaskSettings).toMatchObject({
      numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: -1,
      backupAnyNewAvailableItems: false,
    });
  });

  it("002 §5.6: create-seed on needs a path, 'Seed disk path must be chosen.'; off sends ''", () => {
    expect(errors(valid({ createSeed: true, pathToSeedDisk: '  ' }))).toEqual({
      pathToSeedDisk: 'Seed disk path must be chosen.',
    });
    expect(schema.parse(valid({ createSeed: true, pathToSeedDisk: 'E:\\seed' })).pathToSeedDisk).toBe('E:\\seed');
    expect(schema.parse(valid({ createSeed: false, pathToSeedDisk: 'E:\\seed' })).pathToSeedDisk).toBe('');
  });

  it('ours (002 §4.3): seeding only when adding a files-and-folders task', () => {
    expect(errors(valid({ id: 4, createSeed: true, pathToSeedDisk: '/mnt/seed' }))).toEqual({
      createSeed: 'A seed can be created only when adding a files and folders task',
    });
    expect(errors(valid({ type: 'CPANEL', backupItems: [account], createSeed: true, pathToSeedDisk: '/mnt' }))).toEqual(
      {
        createSeed: 'A seed can be created only when adding a files and folders task',
      },
    );
  });

  it("002 §5.6: 'At least one item is required.'; ours: items of the task's kind", () => {
    expect(errors(valid({ backupItems: [] }))).toEqual({ backupItems: 'At least one item is required.' });
    expect(errors(valid({ backupItems: [account] }))).toEqual({
      backupItems: 'Item does not match the type of the task',
    });
    expect(errors(valid({ backupItems: [{ ...folder, path: '' }] }))).toEqual({
      'backupItems.0.path': 'Backup item is not valid',
    });
  });

  it('002 §5.6, §5.7: the schedule and exclusion validators decide, on their fields', () => {
    expect(errors(valid({ backupScheduleDefinition: ' ' }))).toEqual({
      backupScheduleDefinition: 'Please select a schedule for this task.',
    });
    expect(errors(valid({ exclusions: ['*.tmp', ''] }))).toEqual({ 'exclusions.1': 'Cannot be empty' });
    expect(schema.parse(valid({ exclusions: null as never })).exclusions).toEqual([]);
  });

  it('wired with schedule.ts and exclusions.ts, the same messages land on the same fields', () => {
    const wired = createTaskFormSchema({
      backupScheduleDefinition: backupScheduleSchema,
      exclusions: exclusionsSchema('UNIX'),
    });
    const result = wired.safeParse(valid({ backupScheduleDefinition: '* * * * *', exclusions: ['/tmp/**'] }));
    expect(messagesByField(result.error?.issues ?? [])).toEqual({
      backupScheduleDefinition: 'Please select a schedule for this task.',
      'exclusions.0': 'Cannot end with double star',
    });
  });

  it("taskFormSchemaFor applies the schedule rules and the machine's platform exclusion rules", () => {
    const onPlatform = (platform: 'WINDOWS' | 'UNIX', form: TaskForm) =>
      messagesByField(taskFormSchemaFor(platform).safeParse(form).error?.issues ?? []);
    expect(onPlatform('UNIX', valid({ exclusions: ['/var/tmp', '*.log'] }))).toEqual({});
    expect(onPlatform('WINDOWS', valid({ exclusions: ['C:\\Temp', 'a|b'] }))).toEqual({
      'exclusions.1': 'Invalid exclusion',
    });
    expect(onPlatform('UNIX', valid({ exclusions: ['a\\b'] }))).toEqual({ 'exclusions.0': 'Invalid format' });
    expect(onPlatform('UNIX', valid({ backupScheduleDefinition: '0 2 * *' }))).toEqual({
      backupScheduleDefinition: 'Bad number of elements',
    });
  });

  it('002 §3: a selected item is a path, name, type and missing flag', () => {
    expect(backupItemSchema.parse({ path: '/home', name: 'home', type: 'DIRECTORY' })).toEqual({
      path: '/home',
      name: 'home',
      type: 'DIRECTORY',
      missing: false,
    });
    expect(backupItemSchema.safeParse({ path: '', name: 'x', type: 'DIRECTORY' }).success).toBe(false);
    expect(backupItemSchema.safeParse({ path: '/x', name: 'x', type: 'DISK' }).success).toBe(false);
  });

  it('002 §3: the request id is required', () => {
    expect(errors(valid({ createOrUpdateTaskRequestId: '' }))).toEqual({
      createOrUpdateTaskRequestId: 'Request id is required',
    });
  });
});

describe('task form interplay (002 §4.3)', () => {
  const form = valid();

  it('snapshots on sets unlimited; off sets the keep count to 0', () => {
    const off = onSnapshotsToggled(form, false);
    expect(off).toMatchObject({ snapshotsEnabled: false, numberOfSnapshotsToKeep: 0 });
    expect(onSnapshotsToggled({ ...off, snapshotsUnlimited: false }, true)).toMatchObject({
      snapshotsEnabled: true,
      snapshotsUnlimited: true,
      numberOfSnapshotsToKeep: -1,
    });
  });

  it('unlimited off sets 10 kept; an empty input resets to 10', () => {
    const limited = onSnapshotsUnlimitedToggled(form, false);
    expect(limited).toMatchObject({ snapshotsUnlimited: false, numberOfSnapshotsToKeep: 10 });
    expect(onSnapshotsUnlimitedToggled(limited, true).numberOfSnapshotsToKeep).toBe(-1);
    expect(onSnapshotsToKeepInput(limited, '').numberOfSnapshotsToKeep).toBe(10);
    expect(onSnapshotsToKeepInput(limited, '25').numberOfSnapshotsToKeep).toBe('25');
    expect(schema.parse(limited).numberOfSnapshotsToKeep).toBe(10);
  });

  it('bandwidth-unlimited off sets 10 KB/s; an empty input resets to 10', () => {
    const limited = onUploadBandwidthUnlimitedToggled(
      { ...form, uploadBandwidthLimitUnit: 'MEGA_BYTES_PER_SECOND' },
      false,
    );
    expect(limited).toMatchObject({
      uploadBandwidthUnlimited: false,
      uploadBandwidthLimit: 10,
      uploadBandwidthLimitUnit: 'KILO_BYTES_PER_SECOND',
    });
    expect(onUploadBandwidthLimitInput(limited, null).uploadBandwidthLimit).toBe(10);
    expect(onUploadBandwidthLimitInput(limited, 99).uploadBandwidthLimit).toBe(99);
    expect(onUploadBandwidthUnlimitedToggled(limited, true).uploadBandwidthLimit).toBe(-1);
  });

  it('sync deletions on asks for confirmation first', () => {
    expect(syncDeletionsNeedsConfirmation(true)).toBe(true);
    expect(syncDeletionsNeedsConfirmation(false)).toBe(false);
    expect(onSyncDeletionsToggled(form, true).syncDeletions).toBe(true);
  });

  it('create-seed on clears the seed path', () => {
    const seeded = onCreateSeedToggled({ ...form, pathToSeedDisk: '/old' }, true);
    expect(seeded).toMatchObject({ createSeed: true, pathToSeedDisk: '' });
    expect(onCreateSeedToggled(seeded, false).createSeed).toBe(false);
  });

  it('when editing, backupScheduleDefinitionChanged says whether the schedule differs from the original', () => {
    expect(onScheduleChanged(form, '0 3 * * *', '0 2 * * *').backupScheduleDefinitionChanged).toBe(true);
    expect(onScheduleChanged(form, '0 2 * * *', '0 2 * * *').backupScheduleDefinitionChanged).toBe(false);
    // A respelling of the same schedule (the picker writes values lists) is not a change.
    expect(onScheduleChanged(form, '0 2 * * 0-6', '0 2 * * *').backupScheduleDefinitionChanged).toBe(false);
    expect(onScheduleChanged(form, '0 3 * * *', null)).toMatchObject({
      backupScheduleDefinition: '0 3 * * *',
      backupScheduleDefinitionChanged: false,
    });
  });

  it('enabling pruning sets the 3-month default', () => {
    const on = onPruningToggled(
      {
        ...form,
        extraTaskSettings: {
          ...form.extraTaskSettings,
          numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: 9,
          timeUnitForBackupItemPruning: 'DAY',
        },
      },
      true,
    );
    expect(on.pruningEnabled).toBe(true);
    expect(on.extraTaskSettings).toMatchObject({
      numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: 3,
      timeUnitForBackupItemPruning: 'MONTH',
    });
    expect(onPruningToggled(on, false).pruningEnabled).toBe(false);
  });

  it('ours: a new type clears the items and the options it does not show', () => {
    const cpanel = onTaskTypeChanged({ ...form, createSeed: true }, 'CPANEL');
    expect(cpanel).toMatchObject({ type: 'CPANEL', backupItems: [], createSeed: false });
    const pruning = onPruningToggled(
      { ...cpanel, extraTaskSettings: { ...cpanel.extraTaskSettings, backupAnyNewAvailableItems: true } },
      true,
    );
    expect(onTaskTypeChanged(pruning, 'CPANEL')).toMatchObject({ pruningEnabled: true });
    expect(onTaskTypeChanged(pruning, 'DIRECT_ADMIN')).toMatchObject({
      pruningEnabled: false,
      extraTaskSettings: { backupAnyNewAvailableItems: false },
    });
    expect(onTaskTypeChanged({ ...form, createSeed: true }, 'FILES_AND_FOLDERS').createSeed).toBe(true);
  });

  it('002 §4.3: which parts show', () => {
    expect(taskFieldVisibility('FILES_AND_FOLDERS', 'add')).toEqual({
      seeding: true,
      snapshots: true,
      showFilesAndHidden: true,
      pruning: false,
      backupAnyNewAvailableItems: false,
    });
    expect(taskFieldVisibility('FILES_AND_FOLDERS', 'edit').seeding).toBe(false);
    expect(taskFieldVisibility('CPANEL', 'add')).toEqual({
      seeding: false,
      snapshots: false,
      showFilesAndHidden: false,
      pruning: true,
      backupAnyNewAvailableItems: true,
    });
  });

  it('the edit form of a stored task reads the checkboxes from the sentinels and round-trips', () => {
    const stored = schema.parse(
      valid({
        id: 8,
        type: 'CPANEL',
        backupItems: [account],
        snapshotsUnlimited: false,
        numberOfSnapshotsToKeep: 12,
        pruningEnabled: true,
        extraTaskSettings: {
          numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: 2,
          timeUnitForBackupItemPruning: 'WEEK',
          backupAnyNewAvailableItems: false,
        },
      }),
    );
    const edit = taskFormFromPayload(stored, 'req-2');
    expect(edit).toMatchObject({
      snapshotsUnlimited: false,
      pruningEnabled: true,
      createOrUpdateTaskRequestId: 'req-2',
    });
    expect(schema.parse(edit)).toEqual({ ...stored, createOrUpdateTaskRequestId: 'req-2' });
    const plain = taskFormFromPayload(schema.parse(valid({ id: 9 })), 'req-3');
    expect(plain).toMatchObject({ snapshotsUnlimited: true, pruningEnabled: false });
    expect(plain.extraTaskSettings.numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems).toBe(3);
  });

  it('any sequence of toggles keeps a valid task valid', () => {
    const toggle = fc.oneof(
      fc.boolean().map((on) => (f: TaskForm) => onSnapshotsToggled(f, on)),
      fc.boolean().map((on) => (f: TaskForm) => onSnapshotsUnlimitedToggled(f, on)),
      fc.boolean().map((on) => (f: TaskForm) => onUploadBandwidthUnlimitedToggled(f, on)),
      fc.boolean().map((on) => (f: TaskForm) => onSyncDeletionsToggled(f, on)),
      fc.boolean().map((on) => (f: TaskForm) => onPruningToggled(f, on)),
      fc.constant((f: TaskForm) => onSnapshotsToKeepInput(f, '')),
      fc.constant((f: TaskForm) => onUploadBandwidthLimitInput(f, '')),
    );
    fc.assert(
      fc.property(fc.array(toggle, { maxLength: 12 }), (steps) => {
        const form = steps.reduce((f, step) => step(f), valid());
        expect(schema.safeParse(form).success).toBe(true);
      }),
    );
  });
});

describe('download request (002 §5.8)', () => {
  it("needs an item unless download-all is on: 'At least one item must be selected.'", () => {
    expect(
      downloadRequestSchema.safeParse({ downloadAllItems: false, backedUpItemsToDownload: [] }).error?.issues[0],
    ).toMatchObject({
      path: ['backedUpItemsToDownload'],
      message: 'At least one item must be selected.',
    });
    expect(downloadRequestSchema.parse({ downloadAllItems: true, backedUpItemsToDownload: [folder] })).toEqual({
      downloadAllItems: true,
      backedUpItemsToDownload: [],
    });
    expect(downloadRequestSchema.parse({ backedUpItemsToDownload: [folder] })).toEqual({
      downloadAllItems: false,
      backedUpItemsToDownload: [{ path: '/home/ana', name: 'ana', type: 'DIRECTORY' }],
    });
    expect(downloadRequestSchema.safeParse({}).success).toBe(false);
  });
});

describe('taskFormFromDefinition (the edit dialog)', () => {
  const definition: TaskDefinition = {
    id: 9,
    status: 'ACTIVE',
    name: 'Accounts',
    type: 'CPANEL',
    snapshotsEnabled: true,
    numberOfSnapshotsToKeep: -1,
    autoDeleteFailedSnapshots: false,
    syncDeletions: false,
    backupScheduleDefinition: '0 2 * * *',
    backupItems: [account],
    exclusions: [],
    createSeed: false,
    pathToSeedDisk: '',
    uploadBandwidthUnlimited: false,
    uploadBandwidthLimit: 5,
    uploadBandwidthLimitUnit: 'MEGA_BITS_PER_SECOND',
    extraTaskSettings: {
      numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: 2,
      timeUnitForBackupItemPruning: 'WEEK',
      backupAnyNewAvailableItems: true,
    },
  };

  it('starts from the stored task with a fresh request id, and saves it back unchanged', () => {
    const form = taskFormFromDefinition(definition, 'edit-1');
    expect(form).toMatchObject({ id: 9, createOrUpdateTaskRequestId: 'edit-1', pruningEnabled: true });
    const { status: _status, ...fields } = definition;
    expect(taskFormSchemaFor('UNIX').parse(form)).toEqual({
      ...fields,
      createOrUpdateTaskRequestId: 'edit-1',
      backupScheduleDefinitionChanged: false,
    });
  });
});
