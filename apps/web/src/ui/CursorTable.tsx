import { CURSOR_TEXTS, type CursorPaged, type RouteEntry } from '@portal/domain';
import { useInfiniteQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import { getResult, type RouteCall, type RowOf } from '../app/api';
import { DataTable, type DataTableProps } from './DataTable';

export interface CursorQueryResult<T> {
  /** Every page loaded so far, in order. */
  rows: T[];
  /** The list's total, capped by the server (LIST_COUNT_LIMIT). */
  totalElements: number;
  hasMore: boolean;
  /** Pages read so far (the first included). */
  loadedPages: number;
  loadMore: () => void;
  loading: boolean;
  failed: boolean;
}

/**
 * A keyset list of the route table (issue 33 item 6; the domain's cursor.ts): its first page, then each next one
 * read with the cursor the page before answered, however deep the list, so the hundredth page costs the server what
 * the first does. A refresh reads the pages loaded again, each by its cursor. Any failure shows an empty list
 * (000 §8), as the paged tables do.
 */
export function useCursorQuery<R extends RouteEntry>(
  key: readonly unknown[],
  target: RouteCall<R>,
  size: number,
  options: { refetchInterval?: number | false } = {},
): CursorQueryResult<RowOf<R>> {
  type T = RowOf<R>;
  const result = useInfiniteQuery({
    queryKey: [...key, target.path, 'cursor', size],
    queryFn: async ({ pageParam }): Promise<CursorPaged<T>> =>
      (await getResult(target, { size, ...(pageParam ? { cursor: pageParam } : {}) })) as CursorPaged<T>,
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: options.refetchInterval ?? false,
  });
  const pages = result.isError ? [] : (result.data?.pages ?? []);
  return {
    rows: pages.flatMap((page) => page.elements),
    totalElements: pages[0]?.totalElements ?? 0,
    hasMore: !result.isError && result.hasNextPage,
    loadedPages: pages.length,
    loadMore: () => void result.fetchNextPage(),
    loading: result.isFetching,
    failed: result.isError,
  };
}

export type CursorTableProps<T> = Omit<
  DataTableProps<T>,
  'rows' | 'totalElements' | 'page' | 'size' | 'sort' | 'onPageChange' | 'onSortChange' | 'loading'
> & {
  /** The rows the owner's useCursorQuery answered. */
  list: CursorQueryResult<T>;
};

/** A DataTable of a keyset list: every row loaded so far, how many of the total, and 'Load more' while more follow. */
export function CursorTable<T>({ list, 'data-testid': testId = 'data-table', ...props }: CursorTableProps<T>) {
  return (
    <div data-testid={testId}>
      {/* One page of all rows loaded: the table shows no pager of its own. */}
      <DataTable<T>
        {...props}
        data-testid={`${testId}-rows`}
        rows={list.rows}
        totalElements={list.rows.length}
        page={0}
        size={Math.max(list.rows.length, 1)}
        onPageChange={noPages}
        loading={list.loading}
      />
      {/* As a paged table's text (000 §2), only when the list has more than one page. */}
      {list.rows.length > 0 && (list.hasMore || list.loadedPages > 1) && (
        <div className="d-flex flex-wrap align-items-center justify-content-between gap-2">
          <span className="text-muted small" data-testid="paging-text">
            {CURSOR_TEXTS.showing(list.rows.length, list.totalElements)}
          </span>
          {list.hasMore && (
            <Button variant="outline-secondary" size="sm" onClick={list.loadMore} disabled={list.loading}>
              {CURSOR_TEXTS.loadMore}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

const noPages = () => {};
