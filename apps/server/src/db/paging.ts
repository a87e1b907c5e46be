import { encodeCursor, LIST_COUNT_LIMIT, type ListCursor, type Paging } from '@portal/domain';
import { and, asc, count, desc, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './client.js';

/** The rows before a zero-based page (000 §7). */
export const offsetOf = (paging: Paging) => paging.page * paging.size;

type CountQuery = () => PromiseLike<{ total: number }[]>;

/**
 * A page and the total it belongs to. A short page already tells the total, so the count runs only
 * when the page is full or empty past the first (most lists fit on one page).
 */
export async function pageWithTotal<R>(
  rowsQuery: R[] | PromiseLike<R[]>,
  countQuery: CountQuery,
  paging: Paging,
): Promise<{ rows: R[]; total: number }> {
  const rows = await rowsQuery;
  if (rows.length < paging.size && (rows.length > 0 || paging.page === 0)) {
    return { rows, total: offsetOf(paging) + rows.length };
  }
  const [counted] = await countQuery();
  return { rows, total: counted?.total ?? 0 };
}

/** An ordered select that still takes the page's limit and offset. */
interface OrderedQuery<R> {
  limit(size: number): { offset(rows: number): PromiseLike<R[]> };
}

/** The page of an ordered select and the total of all its rows (as pageWithTotal). */
export const selectPage = <R>(ordered: OrderedQuery<R>, countQuery: CountQuery, paging: Paging) =>
  pageWithTotal(ordered.limit(paging.size).offset(offsetOf(paging)), countQuery, paging);

/**
 * The number of a table's rows that match, as a column of the page's own select (`selectCountedPage`): an
 * uncorrelated subquery, which PostgreSQL computes once for the statement.
 */
export const totalColumn = (table: PgTable, where: SQL | undefined) =>
  sql<number>`(select count(*) from ${table}${where ? sql` where ${where}` : sql``})`.mapWith(Number);

/**
 * A page and its total in one statement, one round trip: the ordered select carries `totalColumn` of the same
 * condition on every row. Only an empty page past the first has no row to carry it; `countQuery` answers then.
 */
export async function selectCountedPage<R extends { total: number }>(
  ordered: OrderedQuery<R>,
  countQuery: CountQuery,
  paging: Paging,
): Promise<{ rows: Omit<R, 'total'>[]; total: number }> {
  const counted = await ordered.limit(paging.size).offset(offsetOf(paging));
  const first = counted[0];
  if (first) return { rows: counted.map(({ total: _, ...row }) => row), total: first.total };
  if (paging.page === 0) return { rows: [], total: 0 };
  const [again] = await countQuery();
  return { rows: [], total: again?.total ?? 0 };
}

/** The number of a table's rows that match, as the total of a page. */
export const countOf = (db: Executor, table: PgTable, where: SQL | undefined) =>
  db.select({ total: count() }).from(table).where(where);

/**
 * How many rows of `key`'s table each of a page's ids has (those `where` keeps), in one grouped query on the key's
 * index; an id with none is absent from the answer.
 */
export async function countsPer(
  db: Executor,
  key: PgColumn,
  ids: readonly number[],
  where: SQL | undefined,
): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ key, n: count() })
    .from(key.table)
    .where(and(inArray(key, [...ids]), where))
    .groupBy(key);
  return new Map(rows.flatMap((row) => (row.key === null ? [] : [[Number(row.key), Number(row.n)] as const])));
}

/**
 * How a keyset list is ordered (issue 33 item 6; the domain's cursor.ts): by `key` then `id`, both one way, or by
 * `id` alone when `key` is null. Its index must be on the same columns in that order, so a page is a range read
 * starting at the cursor. `key` is a timestamp column: the cursor keeps it as the database's text.
 */
export interface KeysetOrder {
  key: PgColumn | null;
  id: PgColumn;
  direction: 'asc' | 'desc';
  /**
   * Where the index puts nulls, when it says so (`DESC NULLS LAST`): the ORDER BY must say the same, or PostgreSQL
   * will not read the index in order (it does not reason from NOT NULL) and sorts every row of the list instead.
   */
  nulls?: 'last';
}

/** The list's ORDER BY, as its index is ordered. */
export const keysetOrderBy = (order: KeysetOrder): SQL[] => {
  const columns = order.key ? [order.key, order.id] : [order.id];
  if (order.nulls) return columns.map((column) => sql`${column} ${sql.raw(order.direction)} nulls last`);
  const by = order.direction === 'asc' ? asc : desc;
  return columns.map((column) => by(column));
};

/**
 * The rows after a cursor's in the list's order, as one row comparison (which PostgreSQL turns into the start of
 * the index range); undefined without a cursor. The caller has checked that the cursor fits the list (cursorFits).
 */
export function keysetAfter(order: KeysetOrder, cursor: ListCursor | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const beyond = order.direction === 'asc' ? sql`>` : sql`<`;
  if (!order.key || cursor.key === null) return sql`${order.id} ${beyond} ${cursor.id}`;
  return sql`(${order.key}, ${order.id}) ${beyond} (${cursor.key}::timestamptz, ${cursor.id})`;
}

/** The sort key as the cursor keeps it: the database's text of the timestamp (microseconds and all). */
export const keysetKeyText = (order: KeysetOrder) =>
  order.key ? sql<string | null>`${order.key}::text` : sql<string | null>`null::text`;

/** An ordered select of a keyset list that still takes its limit and offset; each row has its key's text. */
interface KeysetQuery<R> {
  limit(size: number): { offset(rows: number): PromiseLike<R[]> };
}

/**
 * One page of a keyset list: the rows after the cursor (or, without one, at the bounded page number's offset, which
 * the query schema keeps under LIST_COUNT_LIMIT rows), one more read than the size to know whether a page follows,
 * its `nextCursor` made from the last row's key and id; and the total counted up to LIST_COUNT_LIMIT
 * (`cappedCount`), so neither the page nor its count reads further into a deep list than the page itself.
 */
export async function selectKeysetPage<R extends { cursorKey: string | null }>(
  ordered: KeysetQuery<R>,
  countQuery: CountQuery,
  paging: Paging & { cursor?: ListCursor | undefined },
  cursorOf: (row: R) => Omit<ListCursor, 'key'>,
): Promise<{ rows: R[]; total: number; nextCursor: string | null }> {
  const skipped = paging.cursor ? 0 : offsetOf(paging);
  const [read, [counted]] = await Promise.all([
    ordered.limit(paging.size + 1).offset(skipped),
    paging.cursor || paging.page > 0 ? countQuery() : Promise.resolve([undefined]),
  ]);
  const rows = read.slice(0, paging.size);
  const last = rows.at(-1);
  const nextCursor =
    read.length > paging.size && last ? encodeCursor({ ...cursorOf(last), key: last.cursorKey }) : null;
  // The first page knows its total when it is the only one; past it the capped count tells.
  const total = counted
    ? counted.total
    : read.length > paging.size
      ? ((await countQuery())[0]?.total ?? 0)
      : rows.length;
  return { rows, total: Math.min(total, LIST_COUNT_LIMIT), nextCursor };
}

/** The number of a table's rows that match, counted up to LIST_COUNT_LIMIT (the index range read stops there). */
export const cappedCount = (db: Executor, table: PgTable, where: SQL | undefined) => {
  const capped = db.select({ one: sql`1` }).from(table).where(where).limit(LIST_COUNT_LIMIT).as('capped');
  return () => db.select({ total: count() }).from(capped);
};
