import { type Envelope, errorMessage, MESSAGES, type ResponseSummaryCode, type ServerMessage } from '@portal/domain';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { type ApiResult, CommunicationError, visibleMessages } from '../app/api';
import { toast } from './toast';

/** Which server messages land on which form field (001 §5 'Server message routing'). */
export interface FieldRouting<F extends FieldValues> {
  setError: UseFormSetError<F>;
  /** The form's fields; a message naming one of them is shown on it. */
  fieldNames: ReadonlyArray<Path<F>>;
  /** Field names that are global in this dialog although they are set (e.g. 'delete', 'backupMachineId'). */
  globalFieldNames?: readonly string[];
}

/**
 * Puts each visible message on the field it names (react-hook-form error of type 'server') and returns
 * the rest: no field name, a name declared global, or a name the form does not have (so nothing the
 * server says is lost). INFO messages are ignored (000 §5).
 */
export function applyServerMessages<F extends FieldValues>(
  envelope: Pick<Envelope<unknown>, 'messages'>,
  { setError, fieldNames, globalFieldNames = [] }: FieldRouting<F>,
): ServerMessage[] {
  const global: ServerMessage[] = [];
  const perField = new Map<Path<F>, string[]>();
  for (const message of visibleMessages(envelope.messages ?? [])) {
    const field = globalFieldNames.includes(message.fieldName)
      ? undefined
      : fieldNames.find((name) => name === message.fieldName);
    if (field === undefined) {
      global.push(message);
    } else {
      perField.set(field, [...(perField.get(field) ?? []), message.message]);
    }
  }
  let first = true;
  for (const [field, texts] of perField) {
    // A field shows one error; several messages for it are joined rather than dropped.
    setError(field, { type: 'server', message: texts.join(' ') }, { shouldFocus: first });
    first = false;
  }
  return global;
}

/**
 * What came of a submission. `close` says whether the dialog should close; `applied` whether the server
 * made the change (so lists should refresh) even if it also reported problems. A rejection carries its
 * summary code, and `fromServer` says whether its errors are the server's messages (false: the
 * unknown-error text stands in for an answer without any).
 */
export type SubmitOutcome<T> =
  | { kind: 'success'; close: true; applied: true; result: T | null; globalErrors: [] }
  | { kind: 'partial'; close: false; applied: true; result: T | null; globalErrors: ServerMessage[] }
  | {
      kind: 'rejected';
      close: false;
      applied: false;
      globalErrors: ServerMessage[];
      responseSummaryCode: ResponseSummaryCode;
      fromServer: boolean;
    }
  | { kind: 'communicationError'; close: false; applied: false; globalErrors: [] };

/** The texts of one submission, from the domain's message catalogue (000 §8, 001 §8, 002 §8). */
export interface SubmitTexts<T = unknown> {
  /**
   * Toast on a clean success, or built from the answer ('N users imported'); leave out when the caller
   * does something else (e.g. redirects).
   */
  successText?: string | ((result: T | null) => string);
  /** Some successes are announced as warnings ('Backup machine is being deleted', 001 §8). */
  successToast?: 'success' | 'warning';
  /** The warning toast of an OK answer that still carries messages: '{action} but some errors occurred.' */
  partialText: string;
  /** The global error for a failure without messages, e.g. unknownErrorWhile('editing backup machine'). */
  unknownErrorText: string;
  /**
   * Shown instead of the 'Error in communicating with server.' toast when no answer came back (e.g. the
   * import's file message on its field, 002 §8.2).
   */
  onCommunicationError?: (error: CommunicationError) => void;
}

export interface SubmitResultOptions<F extends FieldValues, T = unknown> extends SubmitTexts<T> {
  /** Without a form every message is global (e.g. confirm dialogs). */
  form?: FieldRouting<F>;
}

/**
 * The envelope handling of 000 §8 / 001 §8 for one submission:
 * - OK, no visible messages: success toast, close;
 * - OK with messages: messages on fields / global, the warning `partialText` ('… but some errors occurred.');
 * - not OK with messages: messages on fields / global, no toast;
 * - not OK without messages: the global error `unknownErrorText`;
 * - no envelope at all: error toast 'Error in communicating with server.' (or `onCommunicationError`).
 * Other exceptions are programming errors and are rethrown.
 */
export async function handleSubmitResult<T, F extends FieldValues = FieldValues>(
  submission: ApiResult<T> | Promise<ApiResult<T>>,
  options: SubmitResultOptions<F, T>,
): Promise<SubmitOutcome<T>> {
  let answer: ApiResult<T>;
  try {
    answer = await submission;
  } catch (error) {
    if (!(error instanceof CommunicationError)) throw error;
    if (options.onCommunicationError) options.onCommunicationError(error);
    else toast.error(MESSAGES.communicationError);
    return { kind: 'communicationError', close: false, applied: false, globalErrors: [] };
  }

  const { envelope } = answer;
  const visible = visibleMessages(envelope.messages ?? []);
  const route = (): ServerMessage[] =>
    options.form ? applyServerMessages({ messages: visible }, options.form) : visible;

  if (answer.ok) {
    if (visible.length === 0) {
      const { successText } = options;
      if (successText !== undefined) {
        const text = typeof successText === 'function' ? successText(envelope.result) : successText;
        if (options.successToast === 'warning') toast.warning(text);
        else toast.success(text);
      }
      return { kind: 'success', close: true, applied: true, result: envelope.result, globalErrors: [] };
    }
    const globalErrors = route();
    toast.warning(options.partialText);
    return { kind: 'partial', close: false, applied: true, result: envelope.result, globalErrors };
  }

  const rejected = {
    kind: 'rejected',
    close: false,
    applied: false,
    responseSummaryCode: envelope.responseSummaryCode,
  } as const;
  if (visible.length === 0) {
    const unknown = errorMessage(options.unknownErrorText, '', envelope.responseSummaryCode);
    return { ...rejected, globalErrors: [unknown], fromServer: false };
  }
  return { ...rejected, globalErrors: route(), fromServer: true };
}
