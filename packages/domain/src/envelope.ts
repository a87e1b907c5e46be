import { z } from 'zod';

/** The answer shape of every JSON call (spec README, DESIGN §3). */
export const RESPONSE_STATUSES = ['OK', 'ERROR'] as const;
export type ResponseStatus = (typeof RESPONSE_STATUSES)[number];

/**
 * The envelope's `responseSummaryCode`: OK, or what went wrong. The spec names VALIDATION_FAILED and
 * PROCESSING_FAILED (002 §8.2) and CANCELLABLE_COMMAND_ID_ALREADY_EXISTS (001 §3); the others are ours.
 */
export const RESPONSE_SUMMARY_CODES = [
  'OK',
  'ERROR',
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'PROCESSING_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'CSRF_REJECTED',
  'NOT_FOUND',
  'CONFLICT',
  'THROTTLED',
  'RESET_LINK_INVALID',
  'MACHINE_OFFLINE',
  'MACHINE_ERROR',
  'TIMEOUT',
  'CANCELLABLE_COMMAND_ID_ALREADY_EXISTS',
  'ROUTE_WITHOUT_ACCESS',
  'INTERNAL_ERROR',
  /** The database cannot be reached (stopped, restarting, unreachable): try again shortly (503). */
  'SERVICE_UNAVAILABLE',
] as const;
export type ResponseSummaryCode = (typeof RESPONSE_SUMMARY_CODES)[number];

export const SERVER_MESSAGE_TYPES = ['ERROR', 'WARNING', 'INFO'] as const;
export type ServerMessageType = (typeof SERVER_MESSAGE_TYPES)[number];

export interface ServerMessage {
  type: ServerMessageType;
  fieldName: string;
  message: string;
  responseCode: string;
}

export interface Envelope<T> {
  status: ResponseStatus;
  messages: ServerMessage[];
  responseSummaryCode: ResponseSummaryCode;
  result: T | null;
}

export interface Paged<T> {
  elements: T[];
  totalElements: number;
  totalPages: number;
}

/** A page's size in a paged call's query: a whole number from 1 to `max`, with a message that says so. */
export const pageSizeParam = (max: number, fallback: number) => {
  const message = `Size must be a whole number from 1 to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(1, message).max(max, message).default(fallback);
};

const PAGE_MESSAGE = 'Page must be a whole number, 0 or more';

export const pagingQuerySchema = z.object({
  page: z.coerce.number({ error: PAGE_MESSAGE }).int(PAGE_MESSAGE).min(0, PAGE_MESSAGE).default(0),
  size: pageSizeParam(200, 10),
});
export type PagingQuery = z.infer<typeof pagingQuerySchema>;

export function pageOf<T>(elements: T[], totalElements: number, size: number): Paged<T> {
  return { elements, totalElements, totalPages: Math.ceil(totalElements / size) };
}

export function ok<T>(result: T, messages: ServerMessage[] = []): Envelope<T> {
  return { status: 'OK', messages, responseSummaryCode: 'OK', result };
}

export function failure(responseSummaryCode: ResponseSummaryCode, messages: ServerMessage[]): Envelope<null> {
  return { status: 'ERROR', messages, responseSummaryCode, result: null };
}

export function errorMessage(message: string, fieldName = '', responseCode = 'ERROR'): ServerMessage {
  return { type: 'ERROR', fieldName, message, responseCode };
}

/** 'x to y of n' paging text (000 §9); page is zero-based. */
export function pagingText(page: number, size: number, total: number): string {
  if (total === 0) return '0 to 0 of 0';
  const from = page * size + 1;
  const to = Math.min(total, (page + 1) * size);
  return `${from} to ${to} of ${total}`;
}
