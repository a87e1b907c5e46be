import { CURSOR_MESSAGES, type CursorPagingQuery, cursorFits, type ListCursor } from '@portal/domain';
import type { KeysetOrder } from '../db/paging.js';
import { badRequest } from './errors.js';

/**
 * The paging of a keyset list's request (the domain's cursor.ts): its cursor when it walks this list and scope,
 * else 400 on `cursor`, so a cursor taken from another tenant's (or another list's) page reads nothing here.
 */
export function keysetPaging(
  query: CursorPagingQuery,
  list: string,
  scope: string,
  order: Pick<KeysetOrder, 'key'>,
): { page: number; size: number; cursor: ListCursor | undefined } {
  const { cursor } = query;
  if (cursor && !cursorFits(cursor, list, scope, order.key !== null))
    throw badRequest(CURSOR_MESSAGES.otherList, 'cursor');
  return { page: query.page, size: query.size, cursor };
}
