import type { ServerMessage } from './envelope.js';

/**
 * Where a server message shows in a dialog (000 §5 'Server messages', 001 §5 'Server message
 * routing', 002 §5.6, §5.9): a message whose fieldName is one of the form's fields shows on that
 * field; the rest shows in the dialog's general area. Per dialog, some field names are global even
 * when named (e.g. 'delete' in a machine dialog, 'exclusions' when creating a task), and in some
 * dialogs every message is global. A name the form does not have is global too, so nothing the
 * server says is lost. INFO messages are ignored before routing (000 §5).
 */

/** Routing of one dialog. */
export type MessageRouting =
  | { allGlobal: true }
  | {
      /** Field names shown globally; '' (no field name) is always among them. */
      globalFieldNames: readonly string[];
      /** 002 §5.9: 'customerId and other id field names' (id, or a name ending in Id) are global. */
      idFieldsGlobal?: boolean;
    };

/** Only messages without a field name are global (000 §5; 002 §5.1-5.8; 001 'elsewhere'). */
const EMPTY_ONLY = { globalFieldNames: [''] } as const satisfies MessageRouting;

/** 001 §5: an empty fieldName, or one of delete, backupPackageId or backupMachineId, is global. */
const MACHINE_GENERAL = {
  globalFieldNames: ['', 'delete', 'backupPackageId', 'backupMachineId'],
} as const satisfies MessageRouting;

/** 002 §5.9: no field name, customerId and other id field names go to the general area. */
const RESELLER_SETTINGS = {
  globalFieldNames: ['', 'customerId'],
  idFieldsGlobal: true,
} as const satisfies MessageRouting;

/** 001 §5: in storage location delete and make-default, empty names and storageLocationId are global. */
const STORAGE_LOCATION_CONFIRM = { globalFieldNames: ['', 'storageLocationId'] } as const satisfies MessageRouting;

/** 001 §5: in storage user and principal deletes all errors are global. */
const ALL_GLOBAL = { allGlobal: true } as const satisfies MessageRouting;

/** Every dialog that submits to the server, with its routing. */
export const MESSAGE_ROUTING = {
  // 000: package templates, reseller settings, packages and requests.
  packageTemplateAdd: EMPTY_ONLY,
  packageTemplateEdit: EMPTY_ONLY,
  packageTemplateDelete: EMPTY_ONLY,
  resellerAccountSettings: RESELLER_SETTINGS,
  resellerLookAndFeelSettings: RESELLER_SETTINGS,
  resellerEmailSettings: RESELLER_SETTINGS,
  packageEdit: EMPTY_ONLY,
  packagePurchase: EMPTY_ONLY,
  packageUpgrade: EMPTY_ONLY,
  packageDelete: EMPTY_ONLY,
  packageStatusChange: EMPTY_ONLY,
  packageRequestApprove: EMPTY_ONLY,
  packageRequestDecline: EMPTY_ONLY,
  // 001: machines and account. 'For account edit, machine edit and log upload only an empty name is global.'
  machineEdit: EMPTY_ONLY,
  accountEdit: EMPTY_ONLY,
  machineLogUpload: EMPTY_ONLY,
  machineDelete: MACHINE_GENERAL,
  machineStatusChange: MACHINE_GENERAL,
  machineStorageRefresh: MACHINE_GENERAL,
  // 001: restic diagnostics and customer-side users follow the general rule of 001 §5.
  resticCommandSubmit: MACHINE_GENERAL,
  resticCommandStop: MACHINE_GENERAL,
  resticCommandDelete: MACHINE_GENERAL,
  userUnlink: MACHINE_GENERAL,
  userDelete: MACHINE_GENERAL,
  // 001: storage. 'Elsewhere in these dialogs messages without a field name are global.'
  storageUserDelete: ALL_GLOBAL,
  principalDelete: ALL_GLOBAL,
  storageLocationCreate: EMPTY_ONLY,
  storageLocationDelete: STORAGE_LOCATION_CONFIRM,
  storageLocationMakeDefault: STORAGE_LOCATION_CONFIRM,
  storageAccountMigration: EMPTY_ONLY,
  migrationCreate: EMPTY_ONLY,
  migrationSync: EMPTY_ONLY,
  migrationCancel: EMPTY_ONLY,
  migrationRollback: EMPTY_ONLY,
  // 002: users, customers, tasks.
  userAdd: EMPTY_ONLY,
  userEdit: EMPTY_ONLY,
  userLink: EMPTY_ONLY,
  userImport: EMPTY_ONLY,
  customerDelete: EMPTY_ONLY,
  customerStatusChange: EMPTY_ONLY,
  customerBillingServerChange: EMPTY_ONLY,
  customerPluginSettings: EMPTY_ONLY,
  customerMakeReseller: EMPTY_ONLY,
  taskVolumeSnapshots: EMPTY_ONLY,
  /** 002 §5.6: 'For task creation, errors on exclusions are also shown as global.' */
  taskCreate: { globalFieldNames: ['', 'exclusions'] },
  taskEdit: EMPTY_ONLY,
  taskDelete: EMPTY_ONLY,
  taskRun: EMPTY_ONLY,
  taskPause: EMPTY_ONLY,
  actionCancel: EMPTY_ONLY,
  snapshotArchiveDelete: EMPTY_ONLY,
  download: EMPTY_ONLY,
} as const satisfies Record<string, MessageRouting>;

export type DialogKey = keyof typeof MESSAGE_ROUTING;
export const DIALOG_KEYS = Object.keys(MESSAGE_ROUTING) as DialogKey[];

/**
 * The first segment of a field name: 'exclusions' for 'exclusions.2' or 'exclusions[2]', so a message on
 * one entry of a list routes like the list.
 */
export const rootFieldName = (fieldName: string) => fieldName.split(/[.[]/, 1)[0] ?? '';

const isIdFieldName = (name: string) => name === 'id' || /^[a-z][A-Za-z0-9]*Id$/.test(name);

/**
 * Whether a server message shows in the dialog's general area rather than on a field. `formFieldNames`
 * are the fields the dialog shows (payload names); a message naming one of them (or an entry of it,
 * 'exclusions.2') shows there unless the dialog declares that name global.
 */
export function isGlobalMessage(dialog: DialogKey, fieldName: string, formFieldNames: readonly string[]): boolean {
  const routing: MessageRouting = MESSAGE_ROUTING[dialog];
  if ('allGlobal' in routing) return true;
  const root = rootFieldName(fieldName);
  if (fieldName === '' || routing.globalFieldNames.includes(fieldName) || routing.globalFieldNames.includes(root)) {
    return true;
  }
  if (routing.idFieldsGlobal && isIdFieldName(root)) return true;
  return !formFieldNames.includes(fieldName) && !formFieldNames.includes(root);
}

/**
 * Splits the visible messages of an answer into the general ones and those per field (keyed by the
 * message's field name), in order. INFO messages are dropped (000 §5).
 */
export function routeServerMessages(
  dialog: DialogKey,
  messages: readonly ServerMessage[],
  formFieldNames: readonly string[],
): { global: ServerMessage[]; byField: Map<string, ServerMessage[]> } {
  const global: ServerMessage[] = [];
  const byField = new Map<string, ServerMessage[]>();
  for (const message of messages) {
    if (message.type === 'INFO') continue;
    if (isGlobalMessage(dialog, message.fieldName, formFieldNames)) {
      global.push(message);
    } else {
      byField.set(message.fieldName, [...(byField.get(message.fieldName) ?? []), message]);
    }
  }
  return { global, byField };
}
