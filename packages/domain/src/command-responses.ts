import { z } from 'zod';

/**
 * The live messages of a running command on a queue the browser watches (001 §3 'Websocket message', §7):
 * `responseType` and `responsePayloadJson`, the payload carrying `commandId` plus either
 * `commandOutputLine` (and ours, `lineNumber`), or `timeFinished` and `exitCode`. Realtime restic commands
 * use them on the provider's machine queue.
 *
 * 001 §7: 'A message body containing "Web UI web socket command response" is parsed as JSON; other bodies
 * pass through raw.' A machine queue also carries other traffic (a task command's reply to its sender, a
 * tree answer), so these messages carry that text as their `kind`: a body with it is one of ours and is
 * read; any other body is left to whoever else listens, unread.
 */
export const WEB_UI_COMMAND_RESPONSE = 'Web UI web socket command response';

/** Ours: the specification names the two messages but not their `responseType`. */
export const COMMAND_RESPONSE_TYPES = {
  outputLine: 'COMMAND_OUTPUT_LINE',
  finished: 'COMMAND_FINISHED',
} as const;

export interface CommandResponseMessage {
  kind: typeof WEB_UI_COMMAND_RESPONSE;
  responseType: string;
  responsePayloadJson: string;
}

export interface CommandOutputLinePayload {
  commandId: string;
  commandOutputLine: string;
  /**
   * Ours: the line's place in the command's output, from 1, as stored with it. A browser that loaded n
   * lines shows line n + 1 next, skips lines up to n (already loaded) and loads again when one is missing.
   */
  lineNumber: number;
}

export interface CommandFinishedPayload {
  commandId: string;
  /** ISO 8601. */
  timeFinished: string;
  /** The result name (SUCCESS, SOME_FILES_NOT_ACCESSIBLE, FATAL, ...), as a command's exitCode. */
  exitCode: string;
}

const message = (responseType: string, payload: object): CommandResponseMessage => ({
  kind: WEB_UI_COMMAND_RESPONSE,
  responseType,
  responsePayloadJson: JSON.stringify(payload),
});

/** One output line of the command (one message per line: the payload has one `commandOutputLine`). */
export const commandOutputLineMessage = (
  commandId: string,
  commandOutputLine: string,
  lineNumber: number,
): CommandResponseMessage =>
  message(COMMAND_RESPONSE_TYPES.outputLine, {
    commandId,
    commandOutputLine,
    lineNumber,
  } satisfies CommandOutputLinePayload);

/** The command finished: when, and with which result. */
export const commandFinishedMessage = (
  commandId: string,
  timeFinished: Date,
  exitCode: string,
): CommandResponseMessage =>
  message(COMMAND_RESPONSE_TYPES.finished, {
    commandId,
    timeFinished: timeFinished.toISOString(),
    exitCode,
  } satisfies CommandFinishedPayload);

/** What a queue body is, read. */
export type ReadCommandResponse =
  | ({ kind: 'outputLine' } & CommandOutputLinePayload)
  | ({ kind: 'finished' } & CommandFinishedPayload)
  /** Marked as a command response, but not one we know (another type, or a broken payload). */
  | { kind: 'invalid'; body: string }
  /** Not a command response: passed through as it came. */
  | { kind: 'raw'; body: string };

const envelopeSchema = z.object({
  kind: z.literal(WEB_UI_COMMAND_RESPONSE),
  responseType: z.string(),
  responsePayloadJson: z.string(),
});
const commandId = z.string().min(1);
const outputLineSchema = z.object({
  commandId,
  commandOutputLine: z.string(),
  lineNumber: z.number().int().positive(),
});
const finishedSchema = z.object({
  commandId,
  timeFinished: z.iso.datetime({ offset: true }),
  exitCode: z.string().min(1),
});

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Reads a queue body (001 §7): ours are parsed and checked, any other body passes through raw. */
export function readCommandResponse(body: string): ReadCommandResponse {
  if (!body.includes(WEB_UI_COMMAND_RESPONSE)) return { kind: 'raw', body };
  const invalid = { kind: 'invalid', body } as const;
  const envelope = envelopeSchema.safeParse(parseJson(body));
  if (!envelope.success) return invalid;
  const payload = parseJson(envelope.data.responsePayloadJson);
  switch (envelope.data.responseType) {
    case COMMAND_RESPONSE_TYPES.outputLine: {
      const line = outputLineSchema.safeParse(payload);
      return line.success ? { kind: 'outputLine', ...line.data } : invalid;
    }
    case COMMAND_RESPONSE_TYPES.finished: {
      const finished = finishedSchema.safeParse(payload);
      return finished.success ? { kind: 'finished', ...finished.data } : invalid;
    }
    default:
      return invalid;
  }
}
