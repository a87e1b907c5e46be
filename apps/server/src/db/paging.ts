import type { Paging } from '@portal/domain';

/** The rows before a zero-based page (000 §7). */
export const offsetOf = (paging: Paging) => paging.page * paging.size;

/**
 * A page and the total it belongs to. A short page already tells the total, so the count runs only
 * when the page is full or empty past the first (most lists fit on one page).
 */
export async function pageWithTotal<R>(
  rowsQuery: R[] | PromiseLike<R[]>,
  countQuery: () => PromiseLike<{ total: number }[]>,
  paging: Paging,
): Promise<{ rows: R[]; total: number }> {
  const rows = await rowsQuery;
  if (rows.length < paging.size && (rows.length > 0 || paging.page === 0)) {
    return { rows, total: offsetOf(paging) + rows.length };
  }
  const [counted] = await countQuery();
  return { rows, total: counted?.total ?? 0 };
}
