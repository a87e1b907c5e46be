import type { Paged, RouteEntry } from '@portal/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { getResult, type RouteCall, type RowOf } from '../app/api';
import type { SortState } from './DataTable';

export type FilterValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>;
export type Filters = Record<string, FilterValue>;

export interface PagedQueryParams<F extends Filters = Filters> {
  /** Zero-based. */
  page: number;
  size: number;
  sort?: SortState;
  filters?: F;
}

/**
 * `page=0&size=12&sort=name,asc&status=ACTIVE`: empty filters are left out so "no filter" and "filter
 * cleared" are the same request (and the same cache entry); arrays repeat the parameter.
 */
export function pagedQueryString({ page, size, sort, filters }: PagedQueryParams): string {
  const query = new URLSearchParams();
  query.set('page', String(page));
  query.set('size', String(size));
  if (sort) query.set('sort', `${sort.key},${sort.direction}`);
  for (const [name, value] of Object.entries(filters ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      for (const item of value) query.append(name, String(item));
    } else {
      query.append(name, String(value));
    }
  }
  return query.toString();
}

export { appendQuery as withQuery } from '../app/api';

export interface PagedQueryResult<T> {
  rows: T[];
  totalElements: number;
  totalPages: number;
  /** Any fetch under way, including page changes and refreshes (drives the table's indicator). */
  loading: boolean;
  failed: boolean;
  refetch: () => void;
}

export interface PagedQueryOptions {
  enabled?: boolean;
  refetchInterval?: number | false;
}

const EMPTY: Paged<never> = { elements: [], totalElements: 0, totalPages: 0 };

/**
 * A paged call of the route table as table rows. The previous page stays on screen while the next one loads;
 * any failure shows an empty list (000 §8: 'Tables show an empty list on any failure').
 */
export function usePagedQuery<R extends RouteEntry>(
  key: readonly unknown[],
  target: RouteCall<R>,
  params: PagedQueryParams,
  options: PagedQueryOptions = {},
): PagedQueryResult<RowOf<R>> {
  type T = RowOf<R>;
  const query = pagedQueryString(params);
  const result = useQuery({
    queryKey: [...key, target.path, query],
    queryFn: async (): Promise<Paged<T>> => (await getResult(target, query)) as Paged<T>,
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
    refetchInterval: options.refetchInterval ?? false,
  });
  // A failed refresh keeps TanStack's last good data; the spec wants the list emptied instead.
  const paged: Paged<T> = result.isError ? EMPTY : (result.data ?? EMPTY);
  const { refetch } = result;
  const refresh = useCallback(() => void refetch(), [refetch]);
  return {
    rows: paged.elements,
    totalElements: paged.totalElements,
    totalPages: paged.totalPages,
    loading: result.isFetching,
    failed: result.isError,
    refetch: refresh,
  };
}

export interface TableStateInit<F extends Filters> {
  page?: number;
  size: number;
  sort?: SortState;
  filters?: F;
}

export interface TableState<F extends Filters> {
  page: number;
  size: number;
  sort: SortState | undefined;
  filters: F;
  /** The state as usePagedQuery parameters. */
  params: PagedQueryParams<F>;
  setPage: (page: number) => void;
  /** Changing the sort goes back to the first page. */
  setSort: (sort: SortState | undefined) => void;
  /** Changing a filter goes back to the first page (000 §2: 'Filtering resets the table to page 1'). */
  setFilters: (filters: F | ((previous: F) => F)) => void;
  /** Back to the initial filters (and page 0), e.g. when a tab is closed. */
  resetFilters: () => void;
}

interface State<F> {
  page: number;
  sort: SortState | undefined;
  filters: F;
}

/**
 * Page, sort and filter state of one table. Name the filter type (`useTableState<{ status?: Status }>`)
 * for typed filters; it is not inferred from the initial values, which would narrow `false` to `false`.
 */
export function useTableState<F extends Filters = Filters>(initial: TableStateInit<NoInfer<F>>): TableState<F> {
  const { size } = initial;
  // Kept from the first render: the initial filters are what resetFilters returns to.
  const [initialFilters] = useState<F>(() => initial.filters ?? ({} as F));
  const [state, setState] = useState<State<F>>(() => ({
    page: initial.page ?? 0,
    sort: initial.sort,
    filters: initialFilters,
  }));

  const setPage = useCallback((page: number) => setState((s) => ({ ...s, page })), []);
  const setSort = useCallback((sort: SortState | undefined) => setState((s) => ({ ...s, sort, page: 0 })), []);
  const setFilters = useCallback(
    (filters: F | ((previous: F) => F)) =>
      setState((s) => ({ ...s, page: 0, filters: typeof filters === 'function' ? filters(s.filters) : filters })),
    [],
  );
  const resetFilters = useCallback(
    () => setState((s) => ({ ...s, page: 0, filters: initialFilters })),
    [initialFilters],
  );

  const params = useMemo<PagedQueryParams<F>>(
    () => ({ page: state.page, size, sort: state.sort, filters: state.filters }),
    [state, size],
  );

  return { ...state, size, params, setPage, setSort, setFilters, resetFilters };
}
