import { z } from 'zod';
import {
  BACKUP_ITEM_TYPES,
  BACKUP_TYPES,
  type BackupItemType,
  type BackupType,
  SPEED_UNITS,
  type SpeedUnit,
  type TaskStatus,
  TIME_UNITS,
  type TimeUnit,
} from '../enums.js';
import { type ExclusionPlatform, exclusionsSchema } from '../exclusions.js';
import { fieldNotValid, fieldRequired, fieldTooLong, MESSAGES } from '../messages.js';
import { backupScheduleSchema } from '../schedule/form.js';
import { sameSchedule } from '../schedule/syntax.js';
import {
  checkbox,
  choice,
  displayText,
  type IssueSink,
  isBlankNumber,
  type NumberInput,
  numberInput,
  optionalId,
  toNumber,
  whenFieldsValid,
} from './fields.js';

/** Limits and defaults of the task form (002 §5.6, §9). */
export const TASK_LIMITS = {
  nameMin: 2,
  nameMax: 50,
  snapshotsToKeepMin: 1,
  snapshotsToKeepMax: 100_000,
  /** 'Turning unlimited off sets 10 kept. An empty number input resets to 10.' (002 §4.3) */
  snapshotsToKeepDefault: 10,
  uploadBandwidthMin: 1,
  uploadBandwidthMax: 100_000_000,
  /** 'Turning bandwidth-unlimited off sets 10 KB/s. An empty input resets to 10.' (002 §4.3) */
  uploadBandwidthDefault: 10,
  pruningMin: 1,
  pruningMax: 100,
  /** Pruning default of 3 months (002 §4.3, §9). */
  pruningDefault: 3,
  /** Ours. */
  pathMax: 4096,
  itemNameMax: 1024,
  requestIdMax: 100,
} as const;

/** Sentinels of the payload (002 §3): -1 unlimited (snapshots kept, bandwidth), 0 snapshots off, -1 no pruning. */
export const UNLIMITED = -1;
export const SNAPSHOTS_OFF = 0;
export const PRUNING_OFF = -1;
export const DEFAULT_PRUNING_TIME_UNIT: TimeUnit = 'MONTH';
export const DEFAULT_UPLOAD_BANDWIDTH_UNIT: SpeedUnit = 'KILO_BYTES_PER_SECOND';

/** Field labels of the task form (ours, after the rows of 002 §5.6). */
export const TASK_FORM_LABELS = {
  name: 'Task name',
  type: 'Type',
  backupScheduleDefinition: 'Backup schedule',
  backupItems: 'Backup items',
  numberOfSnapshotsToKeep: 'Snapshots to keep',
  uploadBandwidthLimit: 'Upload bandwidth limit',
  uploadBandwidthLimitUnit: 'Upload bandwidth unit',
  numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: 'Item deletion delay',
  timeUnitForBackupItemPruning: 'Item deletion delay unit',
  pathToSeedDisk: 'Seed disk path',
  backupItem: 'Backup item',
  requestId: 'Request id',
  id: 'Backup task',
} as const;

const L = TASK_FORM_LABELS;
const T = TASK_LIMITS;

/** The item kinds each task type selects from the tree (002 §3). */
export const ITEM_TYPES_BY_BACKUP_TYPE: Record<BackupType, readonly BackupItemType[]> = {
  FILES_AND_FOLDERS: ['DIRECTORY', 'FILE'],
  CPANEL: ['CPANEL_ACCOUNT'],
  DIRECT_ADMIN: ['DIRECT_ADMIN_ACCOUNT'],
};

/** A selected backup item (002 §3: path, name, type, missing). */
export const backupItemSchema = z.object(
  {
    path: z
      .string({ error: fieldNotValid(L.backupItem) })
      .min(1, fieldNotValid(L.backupItem))
      .max(T.pathMax, fieldNotValid(L.backupItem)),
    name: z.string({ error: fieldNotValid(L.backupItem) }).max(T.itemNameMax, fieldNotValid(L.backupItem)),
    type: z.enum(BACKUP_ITEM_TYPES, { error: fieldNotValid(L.backupItem) }),
    missing: checkbox.default(false),
  },
  { error: fieldNotValid(L.backupItem) },
);
export type BackupItem = z.output<typeof backupItemSchema>;

/**
 * The validators other modules own: the schedule rules of 002 §5.6 and 000 §5 (schedule.ts: empty or
 * the every-second default → 'Please select a schedule for this task.', then the cron syntax) and the
 * exclusion-list rules of 002 §5.7 (exclusions.ts, per platform). Their issues land on
 * backupScheduleDefinition and on exclusions (exclusions.{index} for one entry).
 */
export interface TaskFieldValidators {
  backupScheduleDefinition: z.ZodType<string, string>;
  exclusions: z.ZodType<string[], string[]>;
}

type TaskFields = {
  type: BackupType;
  id: number | null;
  snapshotsEnabled: boolean;
  snapshotsUnlimited?: boolean | undefined;
  numberOfSnapshotsToKeep?: NumberInput;
  uploadBandwidthUnlimited: boolean;
  uploadBandwidthLimit?: NumberInput;
  createSeed: boolean;
  pathToSeedDisk: string;
  pruningEnabled?: boolean | undefined;
  extraTaskSettings: { numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems?: NumberInput };
};

const inRange = (value: NumberInput, min: number, max: number) => {
  const n = toNumber(value);
  return Number.isInteger(n) && n >= min && n <= max;
};

/** Unlimited snapshots: the form's checkbox, or on the wire -1 (002 §3). */
const snapshotsUnlimited = (form: TaskFields) =>
  form.snapshotsUnlimited ?? toNumber(form.numberOfSnapshotsToKeep) === UNLIMITED;

/** Pruning applies to cPanel tasks only (002 §4.3). */
export const pruningApplies = (type: BackupType) => type === 'CPANEL';

const PRUNE_COUNT_PATH = ['extraTaskSettings', 'numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems'];

/** Pruning on: the form's checkbox, or on the wire any count but -1 and 0 (002 §4.3). */
const pruningOn = (form: TaskFields) => {
  const count = form.extraTaskSettings.numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems;
  return form.pruningEnabled ?? !(toNumber(count) === PRUNING_OFF || toNumber(count) === 0);
};

/** 'When disabled or zero the submitted count is -1' (002 §4.3); only cPanel tasks prune. */
const pruneCount = (form: TaskFields) => {
  const count = toNumber(form.extraTaskSettings.numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems);
  return pruningApplies(form.type) && pruningOn(form) && count !== 0 ? count : PRUNING_OFF;
};

/** The seeding option shows only when adding a files-and-folders task (002 §4.3). */
export const seedingAvailable = (type: BackupType, mode: TaskFormMode) =>
  mode === 'add' && type === 'FILES_AND_FOLDERS';

export type TaskFormMode = 'add' | 'edit';

/**
 * The add/edit task form (002 §3 create/update payload, §4.3 field interplay, §5.6 rules), as a factory
 * over the schedule and exclusion validators other modules own (see TaskFieldValidators). The form
 * values carry two checkboxes the payload does not have, `snapshotsUnlimited` and `pruningEnabled`;
 * the output is the payload. The server parses the payload without them and reads the sentinels
 * instead (-1 unlimited; -1 or 0 no pruning).
 *
 * Rules (each message on its payload field):
 * - name: required, 2 to 50 characters;
 * - backupScheduleDefinition: the schedule validator's rules ('Please select a schedule for this task.', ...);
 * - exclusions: the exclusion validator's rules ('Cannot be empty', 'Duplicate exclusion', ...);
 * - backupItems: at least one → 'At least one item is required.'; ours: each of the task type's kind;
 * - numberOfSnapshotsToKeep, when snapshots are on and not unlimited: 1 to 100000 →
 *   'Must be between 1 and 100000.'; sent as -1 when unlimited and 0 when snapshots are off;
 * - uploadBandwidthLimit, when not unlimited: 1 to 100,000,000 → 'Must be between 1 and 100,000,000.';
 *   sent as -1 when unlimited;
 * - extraTaskSettings.numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems, when pruning is on (cPanel
 *   only): 1 to 100 → 'Must be between 1 and 100.'; sent as -1 when pruning is off or the count is 0,
 *   and for other task types; backupAnyNewAvailableItems is sent false for other task types;
 * - pathToSeedDisk, when createSeed is on: required → 'Seed disk path must be chosen.'; sent '' when
 *   off; ours: createSeed only when adding (no id) a files-and-folders task.
 */
export function createTaskFormSchema(validators: TaskFieldValidators) {
  return z
    .object({
      createOrUpdateTaskRequestId: z
        .string({ error: fieldRequired(L.requestId) })
        .trim()
        .min(1, fieldRequired(L.requestId))
        .max(T.requestIdMax, fieldTooLong(L.requestId, T.requestIdMax)),
      id: optionalId(L.id),
      name: displayText(L.name, T.nameMax, T.nameMin),
      type: choice(L.type, BACKUP_TYPES),
      snapshotsEnabled: checkbox,
      snapshotsUnlimited: checkbox.optional(),
      numberOfSnapshotsToKeep: numberInput,
      autoDeleteFailedSnapshots: checkbox.default(false),
      syncDeletions: checkbox.default(false),
      backupScheduleDefinition: z
        .string({ error: MESSAGES.task.scheduleRequired })
        .pipe(validators.backupScheduleDefinition),
      backupScheduleDefinitionChanged: checkbox.default(false),
      backupItems: z
        .array(backupItemSchema, { error: MESSAGES.task.itemsRequired })
        .min(1, MESSAGES.task.itemsRequired),
      exclusions: z
        .array(z.string(), { error: fieldNotValid('Exclusions') })
        .nullish()
        .transform((v) => v ?? [])
        .pipe(validators.exclusions),
      createSeed: checkbox.default(false),
      pathToSeedDisk: z
        .string({ error: MESSAGES.task.seedPathRequired })
        .max(T.pathMax, fieldTooLong(L.pathToSeedDisk, T.pathMax))
        .nullish()
        .transform((v) => v ?? ''),
      uploadBandwidthUnlimited: checkbox,
      uploadBandwidthLimit: numberInput,
      uploadBandwidthLimitUnit: choice(L.uploadBandwidthLimitUnit, SPEED_UNITS).default(DEFAULT_UPLOAD_BANDWIDTH_UNIT),
      pruningEnabled: checkbox.optional(),
      extraTaskSettings: z.object({
        numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: numberInput,
        timeUnitForBackupItemPruning: choice(L.timeUnitForBackupItemPruning, TIME_UNITS).default(
          DEFAULT_PRUNING_TIME_UNIT,
        ),
        backupAnyNewAvailableItems: checkbox.default(false),
      }),
    })
    .superRefine(
      (form, ctx) => {
        if (!form.snapshotsEnabled || snapshotsUnlimited(form)) return;
        if (!inRange(form.numberOfSnapshotsToKeep, T.snapshotsToKeepMin, T.snapshotsToKeepMax)) {
          ctx.addIssue({
            code: 'custom',
            message: MESSAGES.task.snapshotsToKeepRange,
            path: ['numberOfSnapshotsToKeep'],
          });
        }
      },
      whenFieldsValid('snapshotsEnabled', 'snapshotsUnlimited', 'numberOfSnapshotsToKeep'),
    )
    .superRefine(
      (form, ctx) => {
        if (form.uploadBandwidthUnlimited) return;
        if (!inRange(form.uploadBandwidthLimit, T.uploadBandwidthMin, T.uploadBandwidthMax)) {
          ctx.addIssue({ code: 'custom', message: MESSAGES.task.uploadBandwidthRange, path: ['uploadBandwidthLimit'] });
        }
      },
      whenFieldsValid('uploadBandwidthUnlimited', 'uploadBandwidthLimit'),
    )
    .superRefine(
      (form, ctx) => {
        if (!pruningApplies(form.type) || !pruningOn(form)) return;
        const count = form.extraTaskSettings.numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems;
        if (toNumber(count) === 0) return;
        if (!inRange(count, T.pruningMin, T.pruningMax)) {
          ctx.addIssue({ code: 'custom', message: MESSAGES.task.pruningRange, path: PRUNE_COUNT_PATH });
        }
      },
      whenFieldsValid('type', 'pruningEnabled', 'extraTaskSettings'),
    )
    .superRefine(
      (form, ctx) => {
        if (!form.createSeed) return;
        if (!seedingAvailable(form.type, form.id === null ? 'add' : 'edit')) {
          ctx.addIssue({ code: 'custom', message: MESSAGES.task.seedingNotAvailable, path: ['createSeed'] });
        }
        if (form.pathToSeedDisk.trim() === '') {
          ctx.addIssue({ code: 'custom', message: MESSAGES.task.seedPathRequired, path: ['pathToSeedDisk'] });
        }
      },
      whenFieldsValid('id', 'type', 'createSeed', 'pathToSeedDisk'),
    )
    .superRefine(
      (form, ctx) => {
        const allowed = ITEM_TYPES_BY_BACKUP_TYPE[form.type];
        if (form.backupItems.some((item) => !allowed.includes(item.type))) {
          ctx.addIssue({ code: 'custom', message: MESSAGES.task.itemTypeMismatch, path: ['backupItems'] });
        }
      },
      whenFieldsValid('type', 'backupItems'),
    )
    .transform((form) => ({
      createOrUpdateTaskRequestId: form.createOrUpdateTaskRequestId,
      id: form.id,
      name: form.name,
      type: form.type,
      snapshotsEnabled: form.snapshotsEnabled,
      numberOfSnapshotsToKeep: !form.snapshotsEnabled
        ? SNAPSHOTS_OFF
        : snapshotsUnlimited(form)
          ? UNLIMITED
          : toNumber(form.numberOfSnapshotsToKeep),
      autoDeleteFailedSnapshots: form.autoDeleteFailedSnapshots,
      syncDeletions: form.syncDeletions,
      backupScheduleDefinition: form.backupScheduleDefinition,
      backupScheduleDefinitionChanged: form.backupScheduleDefinitionChanged,
      backupItems: form.backupItems,
      exclusions: form.exclusions,
      createSeed: form.createSeed,
      pathToSeedDisk: form.createSeed ? form.pathToSeedDisk : '',
      uploadBandwidthUnlimited: form.uploadBandwidthUnlimited,
      uploadBandwidthLimit: form.uploadBandwidthUnlimited ? UNLIMITED : toNumber(form.uploadBandwidthLimit),
      uploadBandwidthLimitUnit: form.uploadBandwidthLimitUnit,
      extraTaskSettings: {
        numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: pruneCount(form),
        timeUnitForBackupItemPruning: form.extraTaskSettings.timeUnitForBackupItemPruning,
        backupAnyNewAvailableItems: pruningApplies(form.type) && form.extraTaskSettings.backupAnyNewAvailableItems,
      },
    }));
}

/** The task form schema of a machine: the exclusion rules depend on its platform (Windows or Unix). */
export function taskFormSchemaFor(platform: ExclusionPlatform) {
  return createTaskFormSchema({
    backupScheduleDefinition: backupScheduleSchema,
    exclusions: exclusionsSchema(platform),
  });
}

export type TaskFormSchema = ReturnType<typeof createTaskFormSchema>;
/** The form values (react-hook-form), with the two form-only checkboxes. */
export type TaskForm = z.input<TaskFormSchema>;
/** The create/update payload sent over the live channel (002 §3, §7.8). */
export type TaskPayload = z.output<TaskFormSchema>;

/**
 * Defaults of a new task (002 §4.3, §9): files and folders; snapshots enabled with unlimited kept;
 * unlimited bandwidth (10 KB/s once limited); empty schedule; pruning off with its 3-month default
 * ready; sync deletions off. Ours: failed snapshots are not deleted automatically and cPanel tasks do
 * not pick up new accounts unless asked. The request id is filled in per submission (newTaskForm).
 */
export const NEW_TASK_DEFAULTS: Readonly<TaskForm> = Object.freeze({
  createOrUpdateTaskRequestId: '',
  id: null,
  name: '',
  type: 'FILES_AND_FOLDERS',
  snapshotsEnabled: true,
  snapshotsUnlimited: true,
  numberOfSnapshotsToKeep: UNLIMITED,
  autoDeleteFailedSnapshots: false,
  syncDeletions: false,
  backupScheduleDefinition: '',
  backupScheduleDefinitionChanged: false,
  backupItems: [],
  exclusions: [],
  createSeed: false,
  pathToSeedDisk: '',
  uploadBandwidthUnlimited: true,
  uploadBandwidthLimit: UNLIMITED,
  uploadBandwidthLimitUnit: DEFAULT_UPLOAD_BANDWIDTH_UNIT,
  pruningEnabled: false,
  extraTaskSettings: {
    numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: T.pruningDefault,
    timeUnitForBackupItemPruning: DEFAULT_PRUNING_TIME_UNIT,
    backupAnyNewAvailableItems: false,
  },
});

/** A fresh new-task form (the dialog resets to it on close, 002 §4.3) with the submission's request id. */
export function newTaskForm(requestId: string): TaskForm {
  return {
    ...NEW_TASK_DEFAULTS,
    createOrUpdateTaskRequestId: requestId,
    backupItems: [],
    exclusions: [],
    extraTaskSettings: { ...NEW_TASK_DEFAULTS.extraTaskSettings },
  };
}

/** The edit form of a stored task: the two checkboxes are read from the sentinels. */
export function taskFormFromPayload(task: TaskPayload, requestId: string): TaskForm {
  const count = task.extraTaskSettings.numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems;
  const pruning = count > 0;
  return {
    ...task,
    createOrUpdateTaskRequestId: requestId,
    backupItems: task.backupItems.map((item) => ({ ...item })),
    exclusions: [...task.exclusions],
    snapshotsUnlimited: !task.snapshotsEnabled || task.numberOfSnapshotsToKeep === UNLIMITED,
    backupScheduleDefinitionChanged: false,
    pruningEnabled: pruning,
    extraTaskSettings: {
      ...task.extraTaskSettings,
      numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: pruning ? count : T.pruningDefault,
    },
  };
}

/**
 * A stored task's definition, as the edit dialog starts from it (ours: GET
 * /backupmachines/{m}/backuptasks/{t}/definition): the payload's fields without the per-submission ones,
 * with the task's id and status.
 */
export type TaskDefinition = Omit<
  TaskPayload,
  'createOrUpdateTaskRequestId' | 'backupScheduleDefinitionChanged' | 'id'
> & {
  id: number;
  status: TaskStatus;
};

/** The edit form of a stored definition, with the submission's request id. */
export function taskFormFromDefinition(definition: TaskDefinition, requestId: string): TaskForm {
  const { status: _status, ...fields } = definition;
  return taskFormFromPayload(
    { ...fields, createOrUpdateTaskRequestId: requestId, backupScheduleDefinitionChanged: false },
    requestId,
  );
}

/** Which parts of the task dialog show (002 §4.3). */
export function taskFieldVisibility(type: BackupType, mode: TaskFormMode) {
  const filesAndFolders = type === 'FILES_AND_FOLDERS';
  return {
    seeding: seedingAvailable(type, mode),
    snapshots: filesAndFolders,
    showFilesAndHidden: filesAndFolders,
    pruning: pruningApplies(type),
    backupAnyNewAvailableItems: pruningApplies(type),
  };
}

/*
 * Field interplay of 002 §4.3 as pure functions: each returns the new form values.
 */

/**
 * Turning snapshots on sets unlimited (the dialog shows the frequency warning,
 * MESSAGES.task.snapshotFrequencyWarning); turning them off sets the keep count to 0.
 */
export function onSnapshotsToggled<F extends TaskForm>(form: F, on: boolean): F {
  return on
    ? { ...form, snapshotsEnabled: true, snapshotsUnlimited: true, numberOfSnapshotsToKeep: UNLIMITED }
    : { ...form, snapshotsEnabled: false, numberOfSnapshotsToKeep: SNAPSHOTS_OFF };
}

/** Turning unlimited off sets 10 kept; turning it on sends -1. */
export function onSnapshotsUnlimitedToggled<F extends TaskForm>(form: F, unlimited: boolean): F {
  return {
    ...form,
    snapshotsUnlimited: unlimited,
    numberOfSnapshotsToKeep: unlimited ? UNLIMITED : T.snapshotsToKeepDefault,
  };
}

/** Typing in the keep count: an empty input resets to 10. */
export function onSnapshotsToKeepInput<F extends TaskForm>(form: F, value: NumberInput): F {
  return { ...form, numberOfSnapshotsToKeep: isBlankNumber(value) ? T.snapshotsToKeepDefault : value };
}

/** Turning bandwidth-unlimited off sets 10 KB/s; turning it on sends -1. */
export function onUploadBandwidthUnlimitedToggled<F extends TaskForm>(form: F, unlimited: boolean): F {
  return unlimited
    ? { ...form, uploadBandwidthUnlimited: true, uploadBandwidthLimit: UNLIMITED }
    : {
        ...form,
        uploadBandwidthUnlimited: false,
        uploadBandwidthLimit: T.uploadBandwidthDefault,
        uploadBandwidthLimitUnit: DEFAULT_UPLOAD_BANDWIDTH_UNIT,
      };
}

/** Typing in the bandwidth limit: an empty input resets to 10. */
export function onUploadBandwidthLimitInput<F extends TaskForm>(form: F, value: NumberInput): F {
  return { ...form, uploadBandwidthLimit: isBlankNumber(value) ? T.uploadBandwidthDefault : value };
}

/** Turning sync deletions on asks for confirmation first (002 §4.3); turning them off does not. */
export const syncDeletionsNeedsConfirmation = (on: boolean) => on;

/** Sets sync deletions (call it for "on" once the user confirmed). */
export function onSyncDeletionsToggled<F extends TaskForm>(form: F, on: boolean): F {
  return { ...form, syncDeletions: on };
}

/** Turning create-seed on clears the seed path. */
export function onCreateSeedToggled<F extends TaskForm>(form: F, on: boolean): F {
  return on ? { ...form, createSeed: true, pathToSeedDisk: '' } : { ...form, createSeed: false };
}

/**
 * A new schedule from the picker. When editing (an original schedule is given),
 * backupScheduleDefinitionChanged says whether it runs at other times than the original (a respelling is no change).
 */
export function onScheduleChanged<F extends TaskForm>(form: F, schedule: string, originalSchedule: string | null): F {
  return {
    ...form,
    backupScheduleDefinition: schedule,
    backupScheduleDefinitionChanged: originalSchedule !== null && !sameSchedule(schedule, originalSchedule),
  };
}

/** Enabling pruning sets the 3-month default; disabling it sends -1. */
export function onPruningToggled<F extends TaskForm>(form: F, on: boolean): F {
  return on
    ? {
        ...form,
        pruningEnabled: true,
        extraTaskSettings: {
          ...form.extraTaskSettings,
          numberOfTimeUnitsAfterWhichToPruneRemovedBackupItems: T.pruningDefault,
          timeUnitForBackupItemPruning: DEFAULT_PRUNING_TIME_UNIT,
        },
      }
    : { ...form, pruningEnabled: false };
}

/**
 * A new task type (ours): the selected items belong to the old type's tree and are cleared; options
 * the new type does not show are turned off.
 */
export function onTaskTypeChanged<F extends TaskForm>(form: F, type: BackupType): F {
  return {
    ...form,
    type,
    backupItems: [],
    createSeed: type === 'FILES_AND_FOLDERS' ? form.createSeed : false,
    pruningEnabled: pruningApplies(type) ? form.pruningEnabled : false,
    extraTaskSettings: {
      ...form.extraTaskSettings,
      backupAnyNewAvailableItems: pruningApplies(type) ? form.extraTaskSettings.backupAnyNewAvailableItems : false,
    },
  };
}

/** An item to download (002 §3: path, name, type). */
export const downloadItemSchema = backupItemSchema.pick({ path: true, name: true, type: true });

/** The items chosen from a run's snapshot, for a download or a restore (002 §3): absent or null is none. */
export const chosenItemsField = z
  .array(downloadItemSchema, { error: MESSAGES.task.downloadItemsRequired })
  .nullish()
  .transform((v) => v ?? []);

/**
 * 'At least one item must be selected.' on `field` unless every item is asked for (002 §5.8: the download; the
 * restore takes the same rule). Says whether the choice passed.
 */
export function checkItemsChosen(ctx: IssueSink, field: string, all: boolean, items: readonly unknown[]): boolean {
  if (all || items.length > 0) return true;
  ctx.addIssue({ code: 'custom', message: MESSAGES.task.downloadItemsRequired, path: [field] });
  return false;
}

/**
 * Download request (002 §3, §5.8, §7.6: downloadAllItems, backedUpItemsToDownload): at least one item
 * unless download-all is on ('At least one item must be selected.'). With download-all the list is
 * sent empty.
 */
export const downloadRequestSchema = z
  .object({
    downloadAllItems: checkbox.default(false),
    backedUpItemsToDownload: chosenItemsField,
  })
  .superRefine(
    (form, ctx) => {
      checkItemsChosen(ctx, 'backedUpItemsToDownload', form.downloadAllItems, form.backedUpItemsToDownload);
    },
    whenFieldsValid('downloadAllItems', 'backedUpItemsToDownload'),
  )
  .transform((form) => (form.downloadAllItems ? { downloadAllItems: true, backedUpItemsToDownload: [] } : form));
export type DownloadRequestForm = z.input<typeof downloadRequestSchema>;
export type DownloadRequest = z.output<typeof downloadRequestSchema>;

/** The bandwidth units the dialog offers (002 §5.6: KB/s, MB/s or Mbps). */
export const SPEED_UNIT_TEXTS: Record<SpeedUnit, string> = {
  KILO_BYTES_PER_SECOND: 'KB/s',
  MEGA_BYTES_PER_SECOND: 'MB/s',
  MEGA_BITS_PER_SECOND: 'Mbps',
};

/** The pruning delay units (002 §5.6: minute, hour, day, week, month, year). */
export const TIME_UNIT_TEXTS: Record<TimeUnit, string> = {
  MINUTE: 'minutes',
  HOUR: 'hours',
  DAY: 'days',
  WEEK: 'weeks',
  MONTH: 'months',
  YEAR: 'years',
};

/** Texts of the add/edit task dialog and its info modals (002 §2.6, §4.3; ours where the spec is silent). */
export const TASK_FORM_TEXTS = {
  addButton: 'Add backup task',
  editButton: 'Edit',
  addTitle: 'Add backup task',
  editTitle: 'Edit backup task',
  save: 'Save',
  snapshotsEnabled: 'Keep snapshots',
  snapshotsUnlimited: 'Unlimited snapshots',
  autoDeleteFailedSnapshots: 'Delete failed snapshots automatically',
  syncDeletions: 'Sync deletions',
  uploadBandwidthUnlimited: 'Maximum available',
  pruningEnabled: 'Delete removed items from the backup after a delay',
  backupAnyNewAvailableItems: 'Back up any new accounts automatically',
  createSeed: 'Create a seed (first backup to a local disk)',
  showFiles: 'Show files',
  showHidden: 'Show hidden items',
  exclusions: 'Exclusions',
  noExclusions: 'No exclusions',
  addExclusion: 'Add exclusion',
  exclusionTitle: 'Add exclusion',
  exclusionLabel: 'Exclusion (glob pattern)',
  exclusionHint:
    '* matches any characters but a path separator, ** any characters including separators, ? one character. ' +
    'A full absolute path is anchored; any other pattern matches at any level.',
  removeExclusion: 'Remove',
  chooseSeedPath: 'Choose...',
  seedPathTitle: 'Select seed disk path',
  seedPathSelect: 'Select',
  syncDeletionsTitle: 'Sync deletions',
  syncDeletionsInfo:
    'Items deleted from this machine will also be deleted from the current backup. Older snapshots keep them ' +
    'until they are removed. Turn sync deletions on?',
  syncDeletionsConfirm: 'Turn on',
  snapshotFrequencyTitle: 'Snapshot frequency',
  ok: 'OK',
} as const;
