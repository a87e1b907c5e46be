import { z } from 'zod';
import { type Paged, pageSizeParam, pagingQuerySchema } from './envelope.js';

/**
 * Keyset ("seek") paging of the lists that can be deep (issue 33 item 6). A page past the first is asked for with
 * the `nextCursor` of the page before it: the server reads the rows after that row's sort key and id from the
 * list's index, so the hundred-thousandth row costs what the first does, where an offset reads every row before it.
 *
 * A cursor is opaque to its reader: base64url of `[list, scope, key, id]`, where `key` is the row's sort value as
 * the database writes it (a timestamp keeps its microseconds, which a JavaScript date would drop) or null when the
 * list is ordered by id alone. `list` and `scope` name whose rows it walks (e.g. `audit` and `account:5`): the
 * server answers 400 to a cursor of another list or scope, so a cursor taken from tenant A's list gives tenant B
 * nothing. It is not signed: every query is scoped by the caller's own tenant whatever the cursor says, so a
 * forged one can only seek within the caller's own rows.
 */
export interface ListCursor {
  list: string;
  scope: string;
  key: string | null;
  id: number;
}

/** A page of a keyset list: the paged answer (002 §7) with the cursor of the page after it, null on the last. */
export interface CursorPaged<T> extends Paged<T> {
  nextCursor: string | null;
}

/**
 * A keyset list counts its rows up to this many (an index range read, however deep the list), so its total says
 * "more than" past it, as the audit trail's does; and a page number (the API still takes one) may reach this deep
 * and no further, since an offset costs every row it skips.
 */
export const LIST_COUNT_LIMIT = 10_000;

export const CURSOR_MESSAGES = {
  invalid: 'Cursor is not valid: take the nextCursor of the page before',
  otherList: 'Cursor belongs to another list',
  tooDeep: `Page is too deep: past the first ${LIST_COUNT_LIMIT.toLocaleString('en')} rows, follow nextCursor`,
  both: 'Give either a page or a cursor, not both',
} as const;

const CURSOR_MAX_LENGTH = 300;

const toBase64Url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const fromBase64Url = (text: string) => atob(text.replace(/-/g, '+').replace(/_/g, '/'));

export function encodeCursor(cursor: ListCursor): string {
  return toBase64Url(JSON.stringify([cursor.list, cursor.scope, cursor.key, cursor.id]));
}

/** The cursor a text stands for, or null when it is not one this portal made (any shape, any length). */
export function decodeCursor(text: string): ListCursor | null {
  if (text.length === 0 || text.length > CURSOR_MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(fromBase64Url(text));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) return null;
  const [list, scope, key, id] = parsed as unknown[];
  if (typeof list !== 'string' || typeof scope !== 'string') return null;
  if (key !== null && typeof key !== 'string') return null;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return null;
  return { list, scope, key, id };
}

/** The `cursor` query parameter: a cursor this portal made, or 400 on the field with CURSOR_MESSAGES.invalid. */
export const cursorParam = z
  .string()
  .transform((text, context) => {
    const cursor = decodeCursor(text);
    if (!cursor) {
      context.addIssue({ code: 'custom', message: CURSOR_MESSAGES.invalid });
      return z.NEVER;
    }
    return cursor;
  })
  .optional();

/**
 * The query of a keyset list: `size`, and either `cursor` (the pages after the first) or a zero-based `page`
 * bounded by LIST_COUNT_LIMIT rows (the paged calls' parameters of 000 §7, kept for callers that count pages).
 */
export const cursorPagingQuerySchema = (maxSize = 200, defaultSize = 10) =>
  pagingQuerySchema
    .extend({ size: pageSizeParam(maxSize, defaultSize), cursor: cursorParam })
    .superRefine((query, context) => {
      if (query.page * query.size >= LIST_COUNT_LIMIT) {
        context.addIssue({ code: 'custom', path: ['page'], message: CURSOR_MESSAGES.tooDeep });
      }
      if (query.cursor && query.page > 0) {
        context.addIssue({ code: 'custom', path: ['cursor'], message: CURSOR_MESSAGES.both });
      }
    });
export type CursorPagingQuery = z.infer<ReturnType<typeof cursorPagingQuerySchema>>;

/** The answer of a keyset page: total capped at LIST_COUNT_LIMIT, so totalPages counts what a page number reaches. */
export function cursorPageOf<T>(
  elements: T[],
  totalElements: number,
  size: number,
  nextCursor: string | null,
): CursorPaged<T> {
  const total = Math.min(totalElements, LIST_COUNT_LIMIT);
  return { elements, totalElements: total, totalPages: Math.ceil(total / size), nextCursor };
}

/** A timestamp as PostgreSQL writes one (DateStyle ISO): the only sort key the keyset lists have. */
const DATABASE_TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}$/;

/**
 * Whether a decoded cursor walks the given list and scope, and carries a sort key (a database timestamp) exactly
 * when the list has one (a list ordered by id alone has none). The server answers 400 on `cursor`
 * (CURSOR_MESSAGES.otherList) otherwise, before the key reaches a query.
 */
export function cursorFits(cursor: ListCursor, list: string, scope: string, keyed: boolean): boolean {
  if (cursor.list !== list || cursor.scope !== scope) return false;
  return keyed ? cursor.key !== null && DATABASE_TIMESTAMP.test(cursor.key) : cursor.key === null;
}

/** The texts of a list the browser reads by cursor ('Load more' appends the next page; ours, the spec has none). */
export const CURSOR_TEXTS = {
  loadMore: 'Load more',
  /** 'Showing 20 of 104' or, past the count's cap, 'Showing 20 of 10,000+'. */
  showing: (shown: number, total: number) =>
    `Showing ${shown.toLocaleString('en')} of ${total.toLocaleString('en')}${total >= LIST_COUNT_LIMIT ? '+' : ''}`,
} as const;
