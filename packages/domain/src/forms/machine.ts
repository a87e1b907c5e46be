import { z } from 'zod';
import { ACTION_TYPES, MESSAGE_TYPES, type MessageType } from '../enums.js';
import { fieldNotValid, fieldRequired } from '../messages.js';
import { checkbox, chosenId, displayText, optionalId } from './fields.js';

/** Limits of the machine form (001 §5, §9). */
export const MACHINE_LIMITS = {
  nameMax: 50,
  descriptionMax: 100,
} as const;

/** Field labels of the machine forms; the placeholders are 'Name is required' and 'Description is required' (001 §5). */
export const MACHINE_FORM_LABELS = {
  name: 'Name',
  description: 'Description',
  userId: 'Assigned user',
  uploadupdaterfiles: 'Also upload updater logs',
  messageTypesToRequest: 'Message types',
} as const;

const L = MACHINE_FORM_LABELS;

/**
 * Edit backup machine (001 §5; payload of 001 §3, §7: name, description, userId): name required, max
 * 50; description required, max 100; the assigned user required (the select is disabled in the
 * dialog, so the current user is sent).
 */
export const machineEditSchema = z.object({
  name: displayText(L.name, MACHINE_LIMITS.nameMax),
  description: displayText(L.description, MACHINE_LIMITS.descriptionMax),
  userId: chosenId(fieldRequired(L.userId)),
});
export type MachineEditForm = z.input<typeof machineEditSchema>;
export type MachineEditPayload = z.output<typeof machineEditSchema>;

/**
 * Request upload of log files (001 §5, §7: ?uploadupdaterfiles={bool}): an optional checkbox to also
 * upload updater logs, default false.
 */
export const logUploadSchema = z.object({ uploadupdaterfiles: checkbox.default(false) });
export type LogUploadPayload = z.output<typeof logUploadSchema>;

/** The message type the message log falls back to (001 §4, §5). */
export const DEFAULT_MESSAGE_TYPES: readonly MessageType[] = ['ERROR'];

/**
 * Message type filter: an empty selection falls back to ERROR (001 §4, §5); duplicates are dropped
 * and the order is that of the enumeration.
 */
export function messageTypesOrDefault(selected: readonly MessageType[]): MessageType[] {
  const chosen = MESSAGE_TYPES.filter((t) => selected.includes(t));
  return chosen.length > 0 ? chosen : [...DEFAULT_MESSAGE_TYPES];
}

/**
 * Message log request (001 §7: PUT /backupmachines/{id}/messages, body backupTaskId, backupActionId,
 * messageTypesToRequest, backupTaskActionType). The ids and the action type narrow the log and are
 * optional; no message type means ERROR.
 */
export const messageLogRequestSchema = z.object({
  backupTaskId: optionalId('Backup task'),
  backupActionId: optionalId('Backup action'),
  messageTypesToRequest: z
    .array(z.enum(MESSAGE_TYPES, { error: fieldNotValid(L.messageTypesToRequest) }), {
      error: fieldNotValid(L.messageTypesToRequest),
    })
    .nullish()
    .transform((types) => messageTypesOrDefault(types ?? [])),
  backupTaskActionType: z
    .enum(ACTION_TYPES, { error: fieldNotValid('Action type') })
    .nullish()
    .transform((v) => v ?? null),
});
export type MessageLogRequestForm = z.input<typeof messageLogRequestSchema>;
export type MessageLogRequest = z.output<typeof messageLogRequestSchema>;
