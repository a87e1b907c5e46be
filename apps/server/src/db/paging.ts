import type { Paging } from '@portal/domain';
import { and, count, inArray, type SQL, sql } from 'drizzle-orm';
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
