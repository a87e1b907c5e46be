import {
  type Envelope,
  MESSAGES,
  MFA_ENROLMENT_REQUIRED_CODE,
  PAGES,
  type Paged,
  type ResponseOf,
  type RouteEntry,
  type ServerMessage,
  withQuery,
} from '@portal/domain';
import type { z } from 'zod';
import { takePageRead } from './early-reads';
import { callHeaders } from './initial-data';
import { isSigningOut } from './signing-out';

/** A call that did not produce an envelope (network failure, non-JSON answer). */
export class CommunicationError extends Error {
  constructor() {
    super(MESSAGES.communicationError);
  }
}

export interface ApiResult<T> {
  ok: boolean;
  httpStatus: number;
  envelope: Envelope<T>;
}

/**
 * Sends a request and returns its envelope. Throws CommunicationError when no envelope came back, so
 * callers show 'Error in communicating with server.' (000 §8). Only `call` and `getResult` use it: every
 * request goes through a route-table entry.
 */
async function send<T>(method: string, path: string, body?: unknown): Promise<ApiResult<T>> {
  // Every call carries the CSRF token: the server asks for it on each call that changes state, a GET among them
  // (setting the default storage account).
  const headers = callHeaders();
  let init: RequestInit = { method, headers, credentials: 'same-origin' };
  if (body instanceof FormData) {
    init = { ...init, body };
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init = { ...init, body: JSON.stringify(body) };
  }
  let response: Response;
  try {
    // The page's first reads may have been started by the build's early-reads script (early-reads.ts).
    response = await ((method === 'GET' && body === undefined && takePageRead(path)) || fetch(path, init));
  } catch {
    throw new CommunicationError();
  }
  if (response.status === 401 && !path.startsWith('/login') && !isSigningOut()) {
    window.location.assign('/login?expired');
  }
  let envelope: Envelope<T>;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    throw new CommunicationError();
  }
  if (!envelope || typeof envelope !== 'object' || !('status' in envelope)) throw new CommunicationError();
  // Two-factor sign-in became required during the session (the account's super admin turned it on): set it up.
  if (response.status === 403 && envelope.messages?.some((m) => m.responseCode === MFA_ENROLMENT_REQUIRED_CODE)) {
    window.location.assign(PAGES.mfaEnrol);
  }
  return { ok: envelope.status === 'OK', httpStatus: response.status, envelope };
}

/** The path parameters of a route-table entry; `{}` for a path without any. */
export type ParamsOf<R extends RouteEntry> = Parameters<R['build']> extends [infer P] ? P : Record<string, never>;

/** The body of an entry with a body schema is that schema's input. */
export type BodyOf<R extends RouteEntry> = R['body'] extends z.ZodType ? z.input<R['body']> : unknown;

/** The rows of an entry that answers a page. */
export type RowOf<R extends RouteEntry> = ResponseOf<R> extends Paged<infer T> ? T : never;

/** Query parameters: a ready query string (a table's paging and filters) or values to encode. */
export type Query = string | Record<string, string | number | boolean | undefined>;

/** One call of a route-table entry with its path parameters: what a query fetches, and its cache key part. */
export interface RouteCall<R extends RouteEntry> {
  readonly route: R;
  readonly path: string;
}

export function routeCall<R extends RouteEntry>(route: R, params: ParamsOf<R>): RouteCall<R> {
  // The entry's builder takes exactly ParamsOf<R>; RouteEntry only knows it as a function of something.
  const build = route.build as (params: ParamsOf<R>) => string;
  return { route, path: build(params) };
}

/** Appends a ready query string to a path that may already have a query. */
export function appendQuery(path: string, query: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}${query}`;
}

const withQueryOf = (path: string, query: Query | undefined) => {
  if (query === undefined) return path;
  return typeof query === 'string' ? appendQuery(path, query) : withQuery(path, query);
};

/**
 * Sends the call of a route-table entry: its method and path come from the table and the answer has the
 * entry's type, so a caller cannot pick its own.
 */
export function call<R extends RouteEntry>(
  route: R,
  params: ParamsOf<R>,
  body?: BodyOf<R>,
  query?: Query,
): Promise<ApiResult<ResponseOf<R>>> {
  return send<ResponseOf<R>>(route.method, withQueryOf(routeCall(route, params).path, query), body);
}

/** A read that returns the result or throws; for queries, where a failure shows an empty list. */
export async function getResult<R extends RouteEntry>(target: RouteCall<R>, query?: Query): Promise<ResponseOf<R>> {
  const { ok, envelope } = await send<ResponseOf<R>>(target.route.method, withQueryOf(target.path, query));
  if (!ok || envelope.result === null) throw new CommunicationError();
  return envelope.result;
}

/** Messages a form shows: info messages are ignored (000 §5). */
export function visibleMessages(messages: ServerMessage[]): ServerMessage[] {
  return messages.filter((m) => m.type !== 'INFO');
}
