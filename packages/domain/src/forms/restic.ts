import { z } from 'zod';
import { fieldNotValid, fieldRequired, fieldSingleSpaces, fieldTooLong } from '../messages.js';
import { isRealtimeCommandName, realtimeCommandRefusal } from '../realtime-commands.js';

/** Limits of the restic command form (ours: the specification gives none). */
export const RESTIC_COMMAND_LIMITS = {
  baseCommandMax: 50,
  partsTextMax: 2000,
  requestIdMax: 100,
} as const;

/** Labels of the restic command form: 'base command' is the specification's (001 §5). */
export const RESTIC_COMMAND_LABELS = {
  baseCommand: 'base command',
  commandArguments: 'Arguments',
  commandFlags: 'Flags',
} as const;

const L = RESTIC_COMMAND_LABELS;

/**
 * Splits free-text arguments or flags on single spaces into a list; empty text is an empty list
 * (001 §5). Joining the list with single spaces gives the text back.
 */
export function splitCommandParts(text: string): string[] {
  return text === '' ? [] : text.split(' ');
}

/** The inverse of splitCommandParts: the list as the form's free text. */
export const joinCommandParts = (parts: readonly string[]) => parts.join(' ');

/**
 * A restic sub-command such as 'snapshots' or 'check': one word of lower-case letters and dashes
 * (ours: the agent runs `restic {base command} ...` without a shell, and a space would smuggle an
 * argument past the split).
 */
const BASE_COMMAND = /^[a-z][a-z-]*$/;

/**
 * Arguments or flags: the form's free text (split on single spaces) or, from the wire, the list.
 * Ours: no part may be empty (two spaces in a row, or a leading or trailing space, would pass an empty
 * argument to restic).
 */
const commandParts = (label: string) =>
  z
    .union(
      [
        z.string().max(RESTIC_COMMAND_LIMITS.partsTextMax, fieldTooLong(label, RESTIC_COMMAND_LIMITS.partsTextMax)),
        z.array(z.string()),
      ],
      {
        error: fieldNotValid(label),
      },
    )
    .nullish()
    .transform((v) => (typeof v === 'string' ? splitCommandParts(v) : (v ?? [])))
    .refine((parts) => parts.every((p) => p !== ''), { error: fieldSingleSpaces(label) });

const resticCommandFields = z.object({
  baseCommand: z
    .string({ error: fieldRequired(L.baseCommand) })
    .trim()
    .min(1, fieldRequired(L.baseCommand))
    .max(RESTIC_COMMAND_LIMITS.baseCommandMax, fieldTooLong(L.baseCommand, RESTIC_COMMAND_LIMITS.baseCommandMax))
    .regex(BASE_COMMAND, fieldNotValid(L.baseCommand)),
  commandArguments: commandParts(L.commandArguments),
  commandFlags: commandParts(L.commandFlags),
});

/**
 * The realtime command rule (issue 29) on the field it names: only allow-listed flags with valid values, no
 * argument that starts with '-', only the `cat` objects a diagnosis needs. A base command this portal does
 * not know is left to the server, whose REALTIME_COMMAND_ALLOW_LIST answers it with the allowed ones.
 */
function checkRealtimeCommand(
  command: { baseCommand: string; commandArguments: string[]; commandFlags: string[] },
  ctx: z.RefinementCtx,
) {
  if (!isRealtimeCommandName(command.baseCommand)) return;
  const refusal = realtimeCommandRefusal(command);
  if (refusal) ctx.addIssue({ code: 'custom', path: [refusal.field], message: refusal.message });
}

/** The submit form's fields (the web's dialog): the submission without its generated request id. */
export const resticCommandFormSchema = resticCommandFields.superRefine(checkRealtimeCommand);

/**
 * Submit a realtime restic command (001 §3, §5, §7: body requestId, baseCommand, commandArguments,
 * commandFlags). The base command is required (label 'base command'); arguments and flags are optional
 * free text split on single spaces into lists, empty meaning an empty list. requestId is the generated
 * unique id of the submission.
 */
export const resticCommandSchema = z
  .object({
    requestId: z
      .string({ error: fieldRequired('Request id') })
      .trim()
      .min(1, fieldRequired('Request id'))
      .max(RESTIC_COMMAND_LIMITS.requestIdMax, fieldTooLong('Request id', RESTIC_COMMAND_LIMITS.requestIdMax)),
    ...resticCommandFields.shape,
  })
  .superRefine(checkRealtimeCommand);
export type ResticCommandForm = z.input<typeof resticCommandSchema>;
export type ResticCommandPayload = z.output<typeof resticCommandSchema>;

/** The full command line a tab shows: 'restic' plus base command, arguments and flags (001 §2). */
export const resticCommandLine = (command: {
  baseCommand: string;
  commandArguments: readonly string[];
  commandFlags: readonly string[];
}) => ['restic', command.baseCommand, ...command.commandArguments, ...command.commandFlags].join(' ');
