import { errorMessage, MESSAGES, type ResponseSummaryCode, type ServerMessage, SIGN_IN_TEXTS } from '@portal/domain';
import type { FastifyRequest } from 'fastify';
import type { ZodError, ZodType, z } from 'zod';

/** An expected failure with its HTTP status and envelope messages; the error handler presents it. */
export class AppError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly summaryCode: ResponseSummaryCode,
    readonly messages: ServerMessage[],
  ) {
    super(messages[0]?.message ?? summaryCode);
  }
}

export const notFound = (message = 'Not found') =>
  new AppError(404, 'NOT_FOUND', [errorMessage(message, '', 'NOT_FOUND')]);
/** 403; the message says why when the rule has a reason the page shows too (remote-management.ts). */
export const forbidden = (message: string = MESSAGES.forbidden) =>
  new AppError(403, 'FORBIDDEN', [errorMessage(message, '', 'FORBIDDEN')]);
export const unauthenticated = () =>
  new AppError(401, 'UNAUTHENTICATED', [errorMessage(MESSAGES.unauthenticated, '', 'UNAUTHENTICATED')]);
export const conflict = (message: string, fieldName = '') =>
  new AppError(409, 'CONFLICT', [errorMessage(message, fieldName, 'CONFLICT')]);
export const badRequest = (message: string, fieldName = '') =>
  new AppError(400, 'VALIDATION_FAILED', [errorMessage(message, fieldName, 'VALIDATION_FAILED')]);

/** A password or code not checked while the sign-in throttle waits, on its field. */
export const throttledOn = (waitSeconds: number, fieldName: string) =>
  new AppError(429, 'THROTTLED', [errorMessage(SIGN_IN_TEXTS.throttled(waitSeconds), fieldName)]);

/** Codes of a read or a write that broke off with the connection. */
const BROKEN_CONNECTION_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * Whether an error is the client going away mid-request (a cancelled download, a closed tab): its connection is
 * closed and the error is the read, write or wait that broke off with it. Any other error stays the server's own,
 * even when the client has left meanwhile.
 */
export function isClientAbort(error: unknown, request: FastifyRequest): boolean {
  const socket = request.raw.socket;
  if (socket !== null && !socket.destroyed) return false;
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  return name === 'AbortError' || (typeof code === 'string' && BROKEN_CONNECTION_CODES.has(code));
}

/** Zod issues become one message per field, named as the form field (DESIGN §3). */
export function zodMessages(error: ZodError): ServerMessage[] {
  const seen = new Set<string>();
  const out: ServerMessage[] = [];
  for (const issue of error.issues) {
    const fieldName = issue.path.map(String).join('.');
    if (seen.has(fieldName)) continue;
    seen.add(fieldName);
    out.push(errorMessage(issue.message, fieldName, 'VALIDATION_FAILED'));
  }
  return out;
}

/** Parses input with a domain schema or throws a 400 carrying the field messages. */
export function parseWith<S extends ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw new AppError(400, 'VALIDATION_FAILED', zodMessages(result.error));
  return result.data;
}
